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
of a frame is ``examples.example_at``, which needs only the frame and the corner.

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hardware.camera.params import DEFAULT

#: a deck file's format: bumped when the pixels an example keeps change meaning (2: colour
#: windows cut at the glyph's upright height)
FORMAT = 2
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

    def layout(self, agree: float = DEFAULT.learned.agree) -> tuple[float, float, float] | None:
        """Where the deck prints a suit from its rank (``Example.suit_at``, the median of its
        examples'), None before an example has shown it, or when fewer than half of them lie
        within ``agree`` rank sizes of it (a deck printing its suit only in the far corner: its
        examples' suits are the face's pips, here and there)."""
        seen = [e.suit_at for e in self if e.suit_at is not None]
        if not seen:
            return None
        right, down, size = (float(np.median([v[i] for v in seen])) for i in range(3))
        near = sum(math.hypot(v[0] - right, v[1] - down) <= agree for v in seen)
        if 2 * near < len(seen):
            return None
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
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(self.to_bytes())
        tmp.replace(path)

    def to_bytes(self) -> bytes:
        """The deck as its file holds it (what :meth:`load` reads)."""
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
        return buffer.getvalue()

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
            raise DeckError(f"{path.name}: a deck file of format {meta.get('format')!r}, "
                            f"kept by an older kiosk; this one reads format {FORMAT}: "
                            "learn the deck again")
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
