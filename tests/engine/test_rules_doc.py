"""docs/rules.md is the project's rule book: it describes every house rule the engine accepts with
its default, every game with its players, the sections the code cites exist, and nothing in the
project points to a rule book outside it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from engine.settings import ODD_CHIP_RULES, HouseRules
from engine.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _section(number: int) -> str:
    match = re.search(rf"^## {number}\. .*?(?=^## |\Z)", RULES, re.S | re.M)
    assert match, f"docs/rules.md has no section {number}"
    return match.group(0)


def _rows(text: str) -> dict[str, list[str]]:
    """Table rows by their first cell (without backticks)."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].split()[0].strip("`")] = cells[1:]
    return rows


def _written(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_house_rule_is_described_with_its_default() -> None:
    rows = _rows(_section(8))
    defaults = HouseRules()
    for field in dataclasses.fields(HouseRules):
        assert field.name in rows, f"house rule {field.name!r} is not in docs/rules.md §8"
        assert rows[field.name][0] == _written(getattr(defaults, field.name)), field.name
    assert set(rows) == {f.name for f in dataclasses.fields(HouseRules)}
    for rule in ODD_CHIP_RULES:
        assert f"`{rule}`" in _section(6) and f"`{rule}`" in _section(8)


def test_every_game_is_described_with_its_players() -> None:
    rows = _rows(_section(2))
    assert list(rows) == list(VARIANTS)
    for variant in VARIANTS.values():
        assert rows[variant.id][0] == f"{variant.min_players}–{variant.max_players}", variant.id


def test_every_section_the_project_cites_is_in_the_rule_book() -> None:
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", RULES, re.M)}
    cited = set()
    for path in [*(ROOT / "engine").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
                 *(ROOT / "docs").glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"rules\.md((?:,? §\d+)+)", text):
            cited |= {int(n) for n in re.findall(r"§(\d+)", match.group(1))}
    assert cited, "nothing cites docs/rules.md"
    assert cited <= sections, cited - sections


def test_nothing_points_to_a_rule_book_outside_the_project() -> None:
    needles = ("RULES" + ".md", "shared/" + "RULES")
    places = [ROOT / name for name in ("engine", "kiosk", "hardware", "tests", "docs",
                                       "templates", "deploy", ".ci")]
    files = [p for place in places if place.exists() for p in place.rglob("*") if p.is_file()]
    files += [p for p in ROOT.iterdir() if p.is_file()]
    found = []
    for path in files:
        if path.suffix in (".bin", ".onnx", ".png", ".jpg", ".npz", ".pyc", ".db"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if any(needle in text for needle in needles):
            found.append(str(path.relative_to(ROOT)))
    assert found == []
