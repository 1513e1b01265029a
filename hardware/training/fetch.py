"""Fetch the deck art permitted for training from the package registries and render it to PNG.

Only these sources are used (everything else, notably the validation set's designs, is kept out):

- npm ``@heruka_urgyen/react-playing-cards@0.5.0`` (CC0), ``cardsJS@1.1.1`` and
  ``@younestouati/playing-cards-standard-deck@3.0.0`` (LGPL-3.0);
- Debian ``gnome-cards-data``: anglo, anglo_poker, anglo_modern, gnomangelo, simplistic,
  neoclassical, plastic, ancient_french, anglo_bitmap, anglo_modern_4_color, berlin,
  gnomangelo_bitmap, guyenne-classic, lattmann, neoclassical_4_color, orell, rheinland,
  slavic_costumes (those with French suits: swiss-xvii's are Swiss);
- Debian ``kdegames-card-data-kf5``: konqi.

Downloads and renders live in ``.cache/cards`` (git-ignored). Needs ``npm``, ``apt-get``,
``dpkg-deb`` and ``rsvg-convert`` (Debian ``librsvg2-bin``).

    python -m hardware.training.fetch [--cache .cache/cards] [--width 300]
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NPM_PACKAGES = {
    "heruka": "@heruka_urgyen/react-playing-cards@0.5.0",
    "cardsjs": "cardsJS@1.1.1",
    "younes": "@younestouati/playing-cards-standard-deck@3.0.0",
}
DEBIAN_PACKAGES = ["gnome-cards-data", "kdegames-card-data-kf5"]
GNOME_DECKS = ["anglo", "anglo_poker", "anglo_modern", "gnomangelo", "simplistic",
               "neoclassical", "plastic", "ancient_french", "anglo_bitmap",
               "anglo_modern_4_color", "berlin", "gnomangelo_bitmap", "guyenne-classic",
               "lattmann", "neoclassical_4_color", "orell", "rheinland", "slavic_costumes"]
KDE_DECKS = {"konqi": "svg-konqi-modern/konqi.svgz"}
_GNOME_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
_GNOME_RANK = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "1"}


def _run(cmd: list[str], cwd: Path) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def fetch(cache: Path) -> None:
    """Download and unpack the packages into ``cache`` (skipped when already there)."""
    # the tools below run in directories of their own: a relative path would point elsewhere
    cache = cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    npm_dir = cache / "npm"
    for name, spec in NPM_PACKAGES.items():
        target = npm_dir / name
        if (target / "package").exists():
            continue
        # a run cut short may have left the folder without the unpacked package
        target.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(["npm", "pack", spec, "--pack-destination", str(target)],
                             cwd=target, check=True, capture_output=True, text=True)
        tarball = target / out.stdout.strip().splitlines()[-1]
        _run(["tar", "xzf", str(tarball)], cwd=target)
    deb_dir = cache / "debs"
    if not (deb_dir / "usr/share/aisleriot").exists():
        dl = cache / "deb-download"
        dl.mkdir(exist_ok=True)
        _run(["apt-get", "download", *DEBIAN_PACKAGES], cwd=dl)
        for deb in sorted(dl.glob("*.deb")):
            _run(["dpkg-deb", "-x", str(deb), str(deb_dir)], cwd=cache)


def _svg_jobs(cache: Path, out: Path, width: int) -> list[list[str]]:
    """rsvg-convert command lines, one per card image to render."""
    jobs: list[list[str]] = []
    base = ["rsvg-convert", "-w", str(width), "--background-color", "white"]
    for rank in RANKS:
        for suit in SUITS:
            card = rank + suit
            npm_heruka = cache / "npm/heruka/package/src/images"
            for variant in ("2color", "4color"):
                src = npm_heruka / variant / f"{rank}{suit.upper()}.svg"
                jobs.append([*base, "-o", str(out / f"heruka-{variant}" / f"{card}.png"), str(src)])
            cj_rank = "10" if rank == "T" else rank
            src = cache / "npm/cardsjs/package/cards" / f"{cj_rank}{suit.upper()}.svg"
            if not src.exists():
                src = src.with_name(f"{rank}{suit.upper()}.svg")
            jobs.append([*base, "-o", str(out / "cardsjs" / f"{card}.png"), str(src)])
    younes = cache / "npm/younes/package/cards"
    for rank in RANKS:
        for suit in SUITS:
            number = {"A": "1", "T": "10", "J": "11", "Q": "12", "K": "13"}.get(rank, rank)
            jobs.append([*base, "-o", str(out / "younes" / f"{rank}{suit}.png"),
                         str(younes / f"{number}{suit}.svg")])
    for colour in ("Blue", "Red"):
        src = cache / "npm/cardsjs/package/cards" / f"{colour}_Back.svg"
        jobs.append([*base, "-o", str(out / "cardsjs" / f"back-{colour.lower()}.png"), str(src)])
    return jobs


def _render_sheet(cache: Path, out: Path, deck: str, rel: str) -> None:
    """KDE decks are one sheet of bitmap cards (``<image id="king_club" x y width height>``):
    render the sheet at 4x and cut each card out."""
    import xml.etree.ElementTree as ET

    import cv2

    target = out / deck
    if (target / "back.png").exists():
        return
    target.mkdir(parents=True, exist_ok=True)
    svg = gzip.decompress((cache / "debs/usr/share/carddecks" / rel).read_bytes())
    sheet_png = target / "sheet.png"
    subprocess.run(["rsvg-convert", "-z", "4", "--background-color", "white", "-o",
                    str(sheet_png)], input=svg, check=True)
    sheet = cv2.imread(str(sheet_png))
    if sheet is None:
        raise RuntimeError(f"{rel}: could not be rendered")
    names = {f"{_GNOME_RANK.get(r, r)}_{_GNOME_SUIT[s]}": r + s for r in RANKS for s in SUITS}
    names["back"] = "back"
    for el in ET.fromstring(svg).iter():
        name = names.get(el.get("id") or "")
        if name is None or el.get("transform"):
            continue
        x, y, w, h = (round(4 * float(el.get(k) or 0)) for k in ("x", "y", "width", "height"))
        cv2.imwrite(str(target / f"{name}.png"), sheet[y:y + h, x:x + w])
    sheet_png.unlink()


def _render_grid(cache: Path, out: Path, deck: str, width: int) -> None:
    """Aisleriot decks are one sheet, 13 columns (A, 2..10, J, Q, K) by 5 rows (clubs, diamonds,
    hearts, spades, then jokers and the back): render the sheet and cut the grid."""
    import cv2

    target = out / deck
    if (target / "back.png").exists():
        return
    target.mkdir(parents=True, exist_ok=True)
    sheet_png = target / "sheet.png"
    src = cache / "debs/usr/share/aisleriot/cards" / f"{deck}.svgz"
    subprocess.run(["rsvg-convert", "-w", str(13 * width), "--background-color", "white",
                    "-o", str(sheet_png), str(src)], check=True)
    sheet = cv2.imread(str(sheet_png))
    if sheet is None:
        raise RuntimeError(f"{src}: could not be rendered")
    cell_w, cell_h = sheet.shape[1] / 13, sheet.shape[0] / 5

    def cell(col: int, row: int) -> Any:
        x0, y0 = round(col * cell_w), round(row * cell_h)
        return sheet[y0:round(y0 + cell_h), x0:round(x0 + cell_w)]

    order = "A23456789TJQK"
    for row, suit in enumerate("cdhs"):
        for col, rank in enumerate(order):
            cv2.imwrite(str(target / f"{rank}{suit}.png"), cell(col, row))
    cv2.imwrite(str(target / "back.png"), cell(2, 4))
    sheet_png.unlink()


def render(cache: Path, width: int) -> Path:
    """Render every card of every permitted deck to ``cache/png/<deck>/<card>.png``."""
    out = cache / "png"
    jobs = [j for j in _svg_jobs(cache, out, width) if not Path(j[j.index("-o") + 1]).exists()]
    for job in jobs:
        Path(job[job.index("-o") + 1]).parent.mkdir(parents=True, exist_ok=True)

    def one(job: list[str]) -> str | None:
        res = subprocess.run(job, capture_output=True, text=True)
        return None if res.returncode == 0 else f"{job[-1]}: {res.stderr.strip()[:200]}"

    with ThreadPoolExecutor(2) as pool:
        errors = [e for e in pool.map(one, jobs) if e]
    for deck in GNOME_DECKS:
        _render_grid(cache, out, deck, width)
    for deck, rel in KDE_DECKS.items():
        _render_sheet(cache, out, deck, rel)
    for err in errors:
        print("render failed:", err, file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path(".cache/cards"))
    parser.add_argument("--width", type=int, default=300)
    args = parser.parse_args(argv)
    fetch(args.cache)
    out = render(args.cache, args.width)
    print(f"rendered decks in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
