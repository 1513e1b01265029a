"""Playing cards: parsing, formatting and the 52-card deck.

A card is a frozen value with a rank (2..14, ace = 14) and a suit (``c``, ``d``, ``h``, ``s``).
Every card also has an ``index`` from 0 to 51, ``(rank - 2) * 4 + suit order``, which the fast
evaluators use. Cards are interned: parsing always returns one of the 52 objects in :data:`DECK`.

>>> Card.parse("Ah")
Card.parse('Ah')
>>> str(Card.parse("10d")), str(Card.parse("a♥"))
('Td', 'Ah')
>>> parse_cards("AhKd 7c")
(Card.parse('Ah'), Card.parse('Kd'), Card.parse('7c'))
>>> Card.parse("2c") < Card.parse("2d") < Card.parse("3c")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_SYMBOL_TO_SUIT = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
RANK_NAMES = {
    2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
    10: "T", 11: "J", 12: "Q", 13: "K", 14: "A",
}
ALLOWED = "ranks are 2-9, T or 10, J, Q, K, A; suits c, d, h, s"
_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)


@dataclass(frozen=True, order=False, slots=True)
class Card:
    """One playing card. Compare cards by rank, then suit (clubs < diamonds < hearts < spades)."""

    rank: int
    suit: str

    _by_text: ClassVar[dict[str, Card]] = {}

    def __post_init__(self) -> None:
        if self.rank not in RANK_NAMES or self.suit not in SUIT_CHARS:
            raise CardError(f"Card({self.rank!r}, {self.suit!r}) is not a card: {ALLOWED}")

    @property
    def index(self) -> int:
        """0..51: ``(rank - 2) * 4 + suit order``; 2c is 0, As is 51."""
        return (self.rank - 2) * 4 + SUIT_CHARS.index(self.suit)

    @property
    def low_index(self) -> int:
        """0..51 with the ace low, as low hands read cards: ``(rank - 1) * 4 + suit order``, where
        an ace's rank is 1; A♣ is 0, K♠ is 51 (docs/rules.md §3, §6).

        >>> Card.parse("Ac").low_index, Card.parse("2c").low_index, Card.parse("Ks").low_index
        (0, 4, 51)
        """
        rank = 1 if self.rank == 14 else self.rank
        return (rank - 1) * 4 + SUIT_CHARS.index(self.suit)

    @property
    def suit_order(self) -> int:
        """0 for clubs up to 3 for spades."""
        return SUIT_CHARS.index(self.suit)

    @property
    def rank_char(self) -> str:
        return RANK_NAMES[self.rank]

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, as shown on screens: ``A♥``, ``10♦``."""
        rank = "10" if self.rank == 10 else RANK_NAMES[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card: ``Ah``, ``td``, ``10d``, ``A♥``; surrounding spaces are ignored."""
        if not isinstance(text, str):
            raise CardError(f"{text!r} is not a card: expected text such as 'Ah'; {ALLOWED}")
        card = Card._by_text.get(text)
        if card is not None:
            return card
        match = _TOKEN.fullmatch(text.strip())
        if match is None:
            raise CardError(f"{text!r} is not a card: {ALLOWED}")
        rank_text, suit_text = match.groups()
        rank = 10 if rank_text == "10" else RANK_CHARS.index(rank_text.upper()) + 2
        suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text.lower())
        return DECK[(rank - 2) * 4 + SUIT_CHARS.index(suit)]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with the given 0..51 index."""
        if not isinstance(index, int) or not 0 <= index < 52:
            raise CardError(f"{index!r} is not a card index: indices are 0 to 51")
        return DECK[index]

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUIT_CHARS)
"""The 52 cards in index order: 2c 2d 2h 2s 3c ... As."""

for _card in DECK:
    Card._by_text[str(_card)] = _card


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards, together or apart: ``"AhKd 7c"``, ``"Ah,Kd,7c"``, ``["Ah", "Kd"]``.

    Duplicates are refused: one deck holds each card once.

    >>> parse_cards("10h Jh")
    (Card.parse('Th'), Card.parse('Jh'))
    """
    if isinstance(text, str):
        stripped = re.sub(r"[\s,;]+", "", text)
        cards: list[Card] = []
        pos = 0
        while pos < len(stripped):
            match = _TOKEN.match(stripped, pos)
            if match is None:
                bad = stripped[pos : pos + 3] if len(stripped) - pos >= 3 else stripped[pos:]
                raise CardError(f"{text!r} is not a list of cards: cannot read {bad!r}; {ALLOWED}")
            cards.append(Card.parse(match.group(0)))
            pos = match.end()
    else:
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in text]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(
                f"{card} appears twice in {format_cards(cards)!r}: a deck holds each card once"
            )
        seen.add(card)
    return tuple(cards)


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Write cards as text: ``format_cards(parse_cards("AhKd"))`` is ``'Ah Kd'``."""
    return sep.join(str(c) for c in cards)
