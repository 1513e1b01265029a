"""RFID tags to cards: the stored mapping and the one-time deck registration that builds it.

A reader that only knows tags sends ``TAG <seat> <uid>``. The dealer registers a deck once: the
display asks for the 52 cards one by one (:data:`REGISTRATION_ORDER`) and the dealer puts each card
on any reader; the mapping is saved as JSON and used for every hand after.

>>> registration = DeckRegistration()
>>> str(registration.expected)
'As'
>>> registration.scan("04A1B2C3")
Card.parse('As')
>>> str(registration.expected), registration.progress
('2s', (1, 52))
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from engine.cards import Card
from hardware.serial.protocol import PROTOCOL_VERSION, ProtocolError

REGISTRATION_ORDER: tuple[Card, ...] = tuple(
    Card.parse(rank + suit) for suit in "shdc" for rank in "A23456789TJQK"
)
"""Spades, hearts, diamonds, clubs; in each suit ace, 2 ... king: a deck sorted by hand."""
TAG_MAP_FILE = "serial-tags.json"
"""The mapping's file name in the instance folder."""


class TagMap:
    """Tag uid (upper-case hex) to card, as registered; loaded from and saved to a JSON file."""

    def __init__(self, tags: dict[str, Card] | None = None, path: Path | None = None) -> None:
        self.tags: dict[str, Card] = dict(tags or {})
        self.path = path

    def __len__(self) -> int:
        return len(self.tags)

    def card(self, uid: str) -> Card:
        """The card registered for ``uid``; :class:`ProtocolError` ``tag`` when there is none."""
        card = self.tags.get(uid.upper())
        if card is None:
            what = "no deck is registered" if not self.tags else "it is not in the registered deck"
            raise ProtocolError("tag", f"tag {uid} unknown: {what}; register the deck")
        return card

    @staticmethod
    def load(path: Path) -> TagMap:
        """The mapping stored at ``path``; empty when the file does not exist yet."""
        if not path.exists():
            return TagMap(path=path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            tags = {str(uid).upper(): Card.parse(str(text)) for uid, text in data["tags"].items()}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ProtocolError(
                "tag", f"{path}: not a tag mapping ({exc}); register the deck again"
            ) from exc
        return TagMap(tags, path)

    def save(self, path: Path | None = None) -> Path:
        """Write the mapping as JSON (atomically: a power cut leaves the old or the new file)."""
        target = path or self.path
        if target is None:
            raise ValueError("TagMap.save: no path given and none loaded from")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "protocol": PROTOCOL_VERSION,
            "tags": {uid: str(card) for uid, card in sorted(self.tags.items(), key=lambda i: i[1])},
        }
        fd, tmp = tempfile.mkstemp(prefix=".tags-", suffix=".json", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        self.path = target
        return target


class DeckRegistration:
    """The dealer scans the cards of :data:`REGISTRATION_ORDER` one by one; each tag is recorded."""

    def __init__(self, order: tuple[Card, ...] = REGISTRATION_ORDER) -> None:
        if len(set(order)) != len(order) or not order:
            raise ValueError("a registration order lists each card once")
        self.order = order
        self.uids: list[str] = []

    @property
    def expected(self) -> Card | None:
        """The card to scan next; None when every card is registered."""
        return self.order[len(self.uids)] if len(self.uids) < len(self.order) else None

    @property
    def done(self) -> bool:
        return len(self.uids) == len(self.order)

    @property
    def progress(self) -> tuple[int, int]:
        """(cards registered, cards in all)."""
        return len(self.uids), len(self.order)

    def scan(self, uid: str) -> Card | None:
        """Record ``uid`` for the expected card and return that card.

        A repeat of the tag just scanned returns None (a reader repeats reads while a card lies on
        it); a tag already registered for another card is refused.
        """
        uid = uid.upper()
        if self.uids and self.uids[-1] == uid:
            return None
        if self.done:
            raise ProtocolError("register", "all cards are registered already")
        if uid in self.uids:
            other = self.order[self.uids.index(uid)]
            expected = self.expected
            raise ProtocolError("register", f"tag {uid} is {other} already; scan {expected} now")
        card = self.expected
        assert card is not None
        self.uids.append(uid)
        return card

    def back(self) -> Card | None:
        """Forget the last scan (the dealer scanned the wrong card); the card to scan again."""
        if self.uids:
            self.uids.pop()
        return self.expected

    def tag_map(self, path: Path | None = None) -> TagMap:
        """The finished mapping."""
        if not self.done:
            done, total = self.progress
            raise ValueError(f"deck registration unfinished: {done} of {total} cards scanned")
        return TagMap(dict(zip(self.uids, self.order, strict=True)), path)
