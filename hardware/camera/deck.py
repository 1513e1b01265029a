"""The deck on the table, learned from the cards the dealer names.

A home game plays one or two decks all night. What the camera knows of card shapes in general
finds the cards and their index corners (:class:`Corner`); what it learns from *this* deck names
them. Every face-up card the dealer confirms, corrects or picks where the camera sees an index
corner becomes an :class:`Example`: the corner's rank and suit glyphs cut out upright at a size
of their own, kept with the card they belong to. A rank is learned from any card of that rank and
a suit from any card of that suit, so a deck reads well long before all 52 cards have been seen.

A :class:`Deck` is a named list of examples; a :class:`DeckStore` keeps decks as files in a
folder (the kiosk's instance folder), one ``.npz`` each: the examples' pixels as arrays, their
cards, sources and ids as JSON beside them. Nothing here reads a picture: cutting an example out
of a frame is :func:`example_at`, which needs only the frame and the corner.

    >>> deck = Deck("Modiano rosso")
    >>> deck.counts()
    {'examples': 0, 'ranks': {}, 'suits': {}}
"""

from __future__ import annotations

import io
import json
import math
import re
import threading
import time
import unicodedata
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

#: a deck file's format: bumped when the pixels an example keeps change meaning
FORMAT = 1
#: an example keeps each glyph as an upright colour window this many pixels square, spanning
#: ``GLYPH_SPAN`` of the glyph's size about its centre: room around it for the reader to cut the
#: glyph out again its own way (a window, not a feature, so that a better reader can reread
#: every deck already learned)
GLYPH_PX = 48
GLYPH_SPAN = 2.5
#: and the corner as the dealer sees it on the camera page: a colour thumbnail this many pixels
#: square, upright, spanning ``THUMB_SPAN`` rank sizes about the middle of rank and suit
THUMB_PX = 64
THUMB_SPAN = 4.0
RANKS = "23456789TJQKA"
SUITS = "cdhs"

Image = npt.NDArray[Any]


class DeckError(ValueError):
    """A deck or example that cannot be used: a bad name, an unknown card, a damaged file."""


@dataclass(frozen=True, slots=True)
class Glyph:
    """Where one glyph of an index lies in a frame: its centre and size (pixels)."""

    cx: float
    cy: float
    size: float


@dataclass(frozen=True, slots=True)
class Corner:
    """An index corner found in a frame, named or not: its rank glyph, its suit glyph (None
    where the deck prints the suit elsewhere, or it was not found), which way its card's down
    points (a unit vector in the frame), whether the print is dark on a light face, and the
    card's quad as the index gives it (top-left, top-right, bottom-right, bottom-left of the
    card as printed)."""

    rank: Glyph
    suit: Glyph | None
    down: tuple[float, float]
    dark: bool
    quad: tuple[tuple[float, float], ...]

    @property
    def center(self) -> tuple[float, float]:
        return self.rank.cx, self.rank.cy

    def to_json(self) -> dict[str, Any]:
        return {"quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
                "center": [round(self.rank.cx, 1), round(self.rank.cy, 1)]}


@dataclass(frozen=True, slots=True)
class Example:
    """One card of the deck as the camera saw it: its rank and suit windows (BGR, upright,
    ``GLYPH_PX`` square; None where that glyph was not seen), a colour thumbnail of the corner,
    the card, where it came from ("registration", "hand 12", "labels 0003.jpg") and when."""

    id: str
    card: str
    rank: npt.NDArray[np.uint8] | None
    suit: npt.NDArray[np.uint8] | None
    thumb: npt.NDArray[np.uint8]
    dark: bool
    source: str
    added: float = field(default_factory=time.time)
    #: where its suit glyph lay from its rank glyph, the card upright: to the right and down, in
    #: the rank's sizes, and the suit's size over the rank's (None: not seen). A deck that prints
    #: its suit away from its rank is read where its examples put it (``Deck.layout``)
    suit_at: tuple[float, float, float] | None = None

    def __post_init__(self) -> None:
        check_card(self.card)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "card": self.card, "source": self.source,
                "added": round(self.added, 3), "rank": self.rank is not None,
                "suit": self.suit is not None,
                "suit_at": None if self.suit_at is None
                else [round(v, 3) for v in self.suit_at]}


def check_card(card: str) -> str:
    """``card`` if it is a card code (``"Kh"``), else a :class:`DeckError` saying what is."""
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANKS \
            or card[1] not in SUITS:
        raise DeckError(f"not a card: {card!r}; a card is a rank of {RANKS} and a suit of "
                        f"{SUITS}, such as 'Kh'")
    return card


def new_id() -> str:
    return uuid.uuid4().hex[:12]


class Deck:
    """A named deck and the examples learned of it. Thread-safe; ``version`` grows with every
    change (a reader in another process reloads a deck whose version it has not seen)."""

    def __init__(self, name: str, examples: Iterable[Example] = ()) -> None:
        self.name = check_name(name)
        self._examples: dict[str, Example] = {e.id: e for e in examples}
        self._lock = threading.Lock()
        self.version = 0

    def __len__(self) -> int:
        return len(self._examples)

    def __iter__(self) -> Iterator[Example]:
        with self._lock:
            return iter(list(self._examples.values()))

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self)} examples)"

    def add(self, example: Example) -> Example:
        with self._lock:
            self._examples[example.id] = example
            self.version += 1
        return example

    def remove(self, example_id: str) -> Example:
        """Take an example out (an undone entry, a wrong one); a :class:`DeckError` if the deck
        has no such example."""
        with self._lock:
            try:
                gone = self._examples.pop(example_id)
            except KeyError:
                raise DeckError(f"deck {self.name!r} has no example {example_id!r}") from None
            self.version += 1
        return gone

    def get(self, example_id: str) -> Example | None:
        return self._examples.get(example_id)

    def of_card(self, card: str) -> list[Example]:
        return [e for e in self if e.card == card]

    def layout(self) -> tuple[float, float, float] | None:
        """Where the deck prints a suit from its rank (``Example.suit_at``, the median of its
        examples'), None before an example has shown it."""
        seen = [e.suit_at for e in self if e.suit_at is not None]
        if not seen:
            return None
        right, down, size = (float(np.median([v[i] for v in seen])) for i in range(3))
        return right, down, size

    def counts(self) -> dict[str, Any]:
        """How many examples the deck has, and of each rank and each suit."""
        examples = list(self)
        ranks = Counter(e.card[0] for e in examples if e.rank is not None)
        suits = Counter(e.card[1] for e in examples if e.suit is not None)
        return {"examples": len(examples),
                "ranks": {r: ranks[r] for r in RANKS if ranks[r]},
                "suits": {s: suits[s] for s in SUITS if suits[s]}}

    # -- files ----
    def save(self, path: Path | str) -> None:
        """Write the deck to ``path`` (``.npz``), whole or not at all (a temporary file renamed
        over it)."""
        path = Path(path)
        examples = list(self)
        meta = {"format": FORMAT, "name": self.name,
                "examples": [{**e.to_json(), "dark": e.dark} for e in examples]}
        blank = np.zeros((GLYPH_PX, GLYPH_PX, 3), np.uint8)
        arrays: dict[str, Any] = {
            "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8),
            "rank": np.stack([e.rank if e.rank is not None else blank for e in examples])
            if examples else np.zeros((0, GLYPH_PX, GLYPH_PX, 3), np.uint8),
            "suit": np.stack([e.suit if e.suit is not None else blank for e in examples])
            if examples else np.zeros((0, GLYPH_PX, GLYPH_PX, 3), np.uint8),
            "thumb": np.stack([e.thumb for e in examples])
            if examples else np.zeros((0, THUMB_PX, THUMB_PX, 3), np.uint8),
        }
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(buffer.getvalue())
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path | str) -> Deck:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                ranks, suits, thumbs = data["rank"], data["suit"], data["thumb"]
        except FileNotFoundError:
            raise
        except (OSError, ValueError, KeyError) as exc:
            raise DeckError(f"{path.name}: not a deck file ({exc})") from exc
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise DeckError(f"{path.name}: a deck file of format {meta.get('format')!r}; "
                            f"this kiosk reads format {FORMAT}")
        examples = []
        for i, m in enumerate(meta["examples"]):
            at = m.get("suit_at")
            examples.append(Example(
                m["id"], m["card"], ranks[i] if m["rank"] else None,
                suits[i] if m["suit"] else None, thumbs[i], bool(m.get("dark", True)),
                m["source"], float(m["added"]),
                None if at is None else (float(at[0]), float(at[1]), float(at[2]))))
        return cls(meta["name"], examples)


def check_name(name: str) -> str:
    """A deck's name as given, trimmed: 1 to 40 printable characters."""
    if not isinstance(name, str):
        raise DeckError("a deck's name is text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 40 or any(unicodedata.category(c)[0] == "C" for c in name):
        raise DeckError("a deck's name has 1 to 40 printable characters")
    return name


def slug(name: str) -> str:
    """A file name for a deck's name: letters and digits, the rest as ``-``."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-") or "deck"


class DeckStore:
    """The learned decks of a kiosk: one ``.npz`` file each in ``folder``."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def path(self, name: str) -> Path:
        return self.folder / f"{slug(check_name(name))}.npz"

    def names(self) -> list[str]:
        """The decks kept, by name (a damaged file is left out)."""
        out = []
        for path in sorted(self.folder.glob("*.npz")):
            try:
                out.append(Deck.load(path).name)
            except (DeckError, OSError):
                continue
        return out

    def load(self, name: str) -> Deck:
        path = self.path(name)
        if not path.is_file():
            raise DeckError(f"no deck called {name!r}")
        return Deck.load(path)

    def save(self, deck: Deck) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path(deck.name)
        deck.save(path)
        return path

    def create(self, name: str) -> Deck:
        if self.path(name).exists():
            raise DeckError(f"a deck called {check_name(name)!r} exists already")
        deck = Deck(name)
        self.save(deck)
        return deck

    def delete(self, name: str) -> None:
        path = self.path(name)
        if not path.is_file():
            raise DeckError(f"no deck called {name!r}")
        path.unlink()


# -- cutting an example out of a frame ----
def _upright(image: Image, cx: float, cy: float, down: tuple[float, float], side: float,
             px: int) -> Image:
    """The ``px`` square window of ``image`` centred at (``cx``, ``cy``), ``side`` pixels of the
    frame across, turned so that ``down`` points down."""
    import cv2

    dx, dy = down
    ax, ay = dy, -dx  # the card's right when its down is (dx, dy)
    s = side / px
    # output (col, row) -> frame: centre + (col - px/2) * s * right + (row - px/2) * s * down
    m = np.array([[ax * s, dx * s, cx - (ax + dx) * s * px / 2.0],
                  [ay * s, dy * s, cy - (ay + dy) * s * px / 2.0]], np.float32)
    return cv2.warpAffine(image, m, (px, px), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def glyph_window(image: Image, glyph: Glyph, down: tuple[float, float], dark: bool = True
                 ) -> npt.NDArray[np.uint8]:
    """A glyph's upright colour window of the BGR ``image``, as an example keeps it and a
    reader compares it: centred on the glyph as it stands upright, ``GLYPH_SPAN`` times its
    upright height across (``upright_extent``; a glyph's box in the frame grows as its card
    turns, its upright height does not)."""
    found = upright_extent(image, glyph, down, dark)
    cx, cy, height = found if found is not None else (glyph.cx, glyph.cy, glyph.size)
    return _upright(image, cx, cy, down, GLYPH_SPAN * height, GLYPH_PX).astype(np.uint8)


#: the glyph is looked for in an upright window this many of its box sizes across, as the print
#: of its ink nearest the middle (an Otsu threshold); of at least this share of the window
#: it is looked for in
EXTENT_LOOK = 2.0
EXTENT_AREA = 0.01


def upright_extent(image: Image, glyph: Glyph, down: tuple[float, float], dark: bool = True
                   ) -> tuple[float, float, float] | None:
    """The centre (frame pixels) and upright height of the print at ``glyph``, turned so that
    ``down`` points down: the component of an Otsu threshold nearest the window's middle. None
    where no print stands out."""
    import cv2

    px = GLYPH_PX
    side = EXTENT_LOOK * glyph.size
    win = _upright(image, glyph.cx, glyph.cy, down, side, px)
    grey = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY) if win.ndim == 3 else win
    if not dark:
        grey = 255 - grey
    _t, ink = cv2.threshold(grey.astype(np.uint8), 0, 255,
                            cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    count, _labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    best, best_d = None, 0.0
    for i in range(1, count):
        if stats[i, 4] < EXTENT_AREA * px * px:
            continue
        d = float(np.hypot(cents[i, 0] - px / 2, cents[i, 1] - px / 2))
        if best is None or d < best_d:
            best, best_d = i, d
    if best is None or best_d > px / 4:
        return None
    x, y, w, h = (float(v) for v in stats[best, :4])
    scale = side / px
    # the component's box centre, from window to frame pixels (right and down as in _upright)
    u, v = (x + w / 2 - px / 2) * scale, (y + h / 2 - px / 2) * scale
    dx, dy = down
    height = max(h, w * 0.6) * scale
    if not 0.5 * glyph.size <= height <= 1.5 * glyph.size:
        return None
    return glyph.cx + dy * u + dx * v, glyph.cy - dx * u + dy * v, height


def corner_thumb(image: Image, corner: Corner) -> npt.NDArray[np.uint8]:
    """The corner as the dealer sees it: upright, in colour, ``THUMB_PX`` square."""
    r, s = corner.rank, corner.suit
    cx, cy = (r.cx, r.cy) if s is None else ((r.cx + s.cx) / 2.0, (r.cy + s.cy) / 2.0)
    colour = image if image.ndim == 3 else np.dstack([image] * 3)
    return _upright(colour, cx, cy, corner.down, THUMB_SPAN * r.size, THUMB_PX).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class Labelled:
    """A card whose place in a picture is known (a labels file, as the validation pictures'):
    its card (None face down) and its quad, as ``Corner.quad``."""

    card: str | None
    quad: tuple[tuple[float, float], ...]


#: a corner is a labelled card's index corner when its rank lies within these shares of the
#: card's width and height from one of its corners (a rank is printed nearest the corner, its
#: suit below it), and its down within ``INDEX_TURN`` degrees of the card's (the top corners) or
#: the card's turned half round (the bottom ones)
INDEX_REACH = (0.3, 0.18)
INDEX_TURN = 45.0


@dataclass(frozen=True, slots=True)
class Place:
    """Where a corner lies on a labelled card: the card, which of its corners (0 top left, 1 top
    right, 2 bottom right, 3 bottom left, as printed), the card's down there (a unit vector in
    the frame) and how well the corner's down agrees with it (the cosine)."""

    card: Labelled
    corner: int
    down: tuple[float, float]
    along: float


def index_of(corner: Corner, cards: list[Labelled]) -> Place | None:
    """Where on the face-up card of ``cards`` (listed bottom card first) ``corner`` is that
    card's index: the top card where its rank lies, when the rank lies in one of that card's
    corners and the corner's down is the card's there. None for anything else (a pip paired
    with a glyph, a corner read off a covered part)."""
    import cv2

    point = np.array([[corner.center]], np.float32)
    owner = None
    for card in cards:
        if cv2.pointPolygonTest(np.array(card.quad, np.float32), corner.center, False) >= 0:
            owner = card
    if owner is None or owner.card is None:
        return None
    quad = np.array(owner.quad, np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    u, v = cv2.perspectiveTransform(point, cv2.getPerspectiveTransform(quad, unit))[0, 0]
    if min(u, 1.0 - u) > INDEX_REACH[0] or min(v, 1.0 - v) > INDEX_REACH[1]:
        return None
    down = (quad[3] + quad[2] - quad[0] - quad[1]) / 2.0
    down /= max(float(np.hypot(*down)), 1e-6)
    if v > 0.5:
        down = -down
    along = float(down[0] * corner.down[0] + down[1] * corner.down[1])
    if along < np.cos(np.radians(INDEX_TURN)):
        return None
    which = (0 if u < 0.5 else 1) if v < 0.5 else (2 if u >= 0.5 else 3)
    return Place(owner, which, (float(down[0]), float(down[1])), along)


def examples_in(image: Image, corners: list[Corner], cards: list[Labelled], source: str,
                suits: Sequence[Glyph] = ()) -> list[Example]:
    """The examples that the labelled ``cards`` give: for each corner of a face-up card where
    one of ``corners`` is its index (``index_of``), the one whose down agrees best with the
    card's, its glyphs cut upright as the card lies. A corner with no suit glyph beside its rank
    takes the nearest of ``suits`` (suit-like glyphs of the picture) that lies in a corner of
    the same card (a deck printing its suit away from its rank)."""
    best: dict[tuple[int, int], tuple[float, Corner, Place]] = {}
    for corner in corners:
        place = index_of(corner, cards)
        if place is None:
            continue
        key = (id(place.card), place.corner)
        if key not in best or best[key][0] < place.along:
            best[key] = (place.along, corner, place)
    out = []
    for _along, corner, place in best.values():
        assert place.card.card is not None
        suit = corner.suit if corner.suit is not None \
            else _suit_apart(corner, place, cards, suits)
        upright = Corner(corner.rank, suit, place.down, corner.dark, corner.quad)
        out.append(example_at(image, upright, place.card.card, source))
    return out


def _suit_apart(corner: Corner, place: Place, cards: list[Labelled], suits: Sequence[Glyph]
                ) -> Glyph | None:
    """The suit glyph of a corner whose card prints it away from the rank: the nearest of
    ``suits`` of a fitting size lying in a corner of the same card (within ``SUIT_REACH`` of
    its width and height from it), on the card's top."""
    r = corner.rank
    near = []
    for s in suits:
        d = math.hypot(s.cx - r.cx, s.cy - r.cy)
        if not 0.5 <= s.size / r.size <= 1.8 or d < r.size:
            continue
        uv = _on_card(s, place.card, cards)
        if uv is not None and min(uv[0], 1 - uv[0]) <= SUIT_REACH \
                and min(uv[1], 1 - uv[1]) <= SUIT_REACH:
            near.append((d, s))
    return min(near, key=lambda n: n[0])[1] if near else None


#: how far from a card's corner a suit printed away from its rank is looked for
SUIT_REACH = 0.3


def _on_card(g: Glyph, card: Labelled, cards: list[Labelled]) -> tuple[float, float] | None:
    """Where ``g`` lies on ``card`` (0..1 across and down it, as printed), when ``card`` is the
    top card there."""
    import cv2

    owner = None
    for c in cards:
        if cv2.pointPolygonTest(np.array(c.quad, np.float32), (g.cx, g.cy), False) >= 0:
            owner = c
    if owner is not card:
        return None
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.array(card.quad, np.float32), unit)
    u, v = cv2.perspectiveTransform(np.array([[[g.cx, g.cy]]], np.float32), m)[0, 0]
    return float(u), float(v)


def example_at(image: Image, corner: Corner, card: str, source: str) -> Example:
    """The example of ``card`` that ``corner`` of the BGR ``image`` gives."""
    check_card(card)
    if image.ndim == 2:
        image = np.dstack([image] * 3)
    r, s = corner.rank, corner.suit
    suit_at = None
    if s is not None:
        dx, dy = corner.down
        ox, oy = s.cx - r.cx, s.cy - r.cy
        suit_at = ((ox * dy - oy * dx) / r.size, (ox * dx + oy * dy) / r.size, s.size / r.size)
    return Example(new_id(), card, glyph_window(image, r, corner.down, corner.dark),
                   None if s is None else glyph_window(image, s, corner.down, corner.dark),
                   corner_thumb(image, corner), corner.dark, source, suit_at=suit_at)


def suit_from_layout(corner: Corner, layout: tuple[float, float, float]) -> Glyph:
    """Where a corner's suit glyph lies by its deck's ``layout`` (``Deck.layout``)."""
    right, down, size = layout
    r = corner.rank
    dx, dy = corner.down
    return Glyph(r.cx + (right * dy + down * dx) * r.size,
                 r.cy + (-right * dx + down * dy) * r.size, size * r.size)
