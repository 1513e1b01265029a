"""Learning the deck on the table from the cards the dealer names (docs/camera.md, "Learning the
deck").

- *On the camera page* the dealer names the corners the camera outlines: a card it read
  (confirmed in one tap, or corrected) or one it could not read (named with the picker).
  :meth:`Learning.name` cuts the corner out of the frame it was last seen in and adds it to the
  table's deck.
- *During a hand* every up card entered for a seat, whatever entered it (a camera proposal, the
  picker, a card reader), where the camera sees a face-up card in that seat's zone, becomes an
  example (:meth:`Learning.entered`): the corner read as that card, else the one corner in the
  zone that no card of the seat the hand knows explains (the card was read as another, or not
  read). A card the camera does not see yet when it is entered is looked for in the frames of
  the next :data:`PENDING_S` seconds. Each example so learned is linked to its entry (the
  hand's event), and the link is kept in the table's camera file: undoing the entry takes the
  example out again, also after the kiosk was started again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import Card
from kiosk.camera.corners import CornerTracker, Tracked
from kiosk.camera.decks import TableDecks
from kiosk.camera.settings import CameraError, Learned, ui

if TYPE_CHECKING:
    from hardware.camera.deck import Example

log = logging.getLogger(__name__)

#: seconds an entered card is looked for in the frames, when the camera did not see it at once
PENDING_S = 3.0


def check_card(card: object) -> str:
    try:
        return str(Card.parse(str(card)))
    except (TypeError, ValueError) as exc:
        raise CameraError("camera.err.card", card=str(card)) from exc


def corner_for_entry(card: str, in_zone: list[Tracked], known: set[str]) -> Tracked | None:
    """The corner an entered ``card`` was seen at, among the corners in its seat's zone: the
    one read (or named before) as that card, else the only one that no card of the seat the
    hand knows (``known``) explains; None when there is none, or more than one."""
    same = [t for t in in_zone if card in (t.card, t.named)]
    if same:
        return max(same, key=lambda t: (t.last, t.confidence))
    free = [t for t in in_zone if not ({t.card, t.named} & known)]
    return free[0] if len(free) == 1 else None


@dataclass(frozen=True, slots=True)
class Entry:
    """An up card entered during a hand: the hand (its id and number), its event, the seat."""

    hand: int
    number: int
    seq: int
    seat: int
    card: str
    until: float


class Learning:
    """Examples for the table's deck, from the dealer's names and entries; thread-safe."""

    def __init__(self, decks: TableDecks, tracker: CornerTracker, lang: str,
                 links: tuple[Learned, ...],
                 keep_links: Callable[[tuple[Learned, ...]], None]) -> None:
        self.decks = decks
        self.tracker = tracker
        self.lang = lang
        self._lock = threading.RLock()
        self._links = links
        self._keep_links = keep_links
        self._pending: list[Entry] = []

    @property
    def links(self) -> tuple[Learned, ...]:
        return self._links

    def default_name(self, n: int) -> str:
        """The name of a deck the kiosk makes by itself ("Deck 1", "Mazzo 1")."""
        return ui("camera.deck.default_name", self.lang, n=n)

    def _learn(self, tracked: Tracked, card: str, source: str) -> tuple[str, Example]:
        from hardware.camera.examples import example_at

        frame = self.tracker.frame_of(tracked)
        if frame is None:
            raise CameraError("camera.err.corner_gone")
        example = example_at(frame, tracked.corner, card, source)
        key, example = self.decks.add(example, self.default_name)
        self.tracker.name(tracked.id, card)
        return key, example

    # ---- the camera page -----------------------------------------------------------------------

    def name(self, corner_id: object, card: object) -> tuple[str, Example]:
        """The dealer named the outlined corner ``corner_id`` ``card``: an example of it."""
        card = check_card(card)
        tracked = self.tracker.get(str(corner_id))
        if tracked is None:
            raise CameraError("camera.err.corner_gone")
        with self._lock:
            return self._learn(tracked, card, "registration")

    def name_read(self, least: float) -> list[tuple[str, Example]]:
        """Every corner outlined that the camera read at ``least`` or more as a card the table's
        deck has not learned yet, named as read (the dealer confirmed them all at once)."""
        deck = self.decks.table_deck()
        learned = {e.card for e in deck} if deck is not None else set()
        out = []
        for t in self.tracker.shown():
            if t.card is not None and t.named is None and t.confidence >= least \
                    and t.card not in learned:
                try:
                    with self._lock:
                        out.append(self._learn(t, t.card, "registration"))
                except CameraError:
                    continue
        return out

    # ---- a hand's entries ----------------------------------------------------------------------

    def entered(self, entry: Entry, in_zone: list[Tracked], known: set[str]) -> Learned | None:
        """An up card entered: an example of it from the corner it lies at, linked to its
        entry; when there is no such corner yet, it is looked for in the next frames
        (:meth:`retry`)."""
        tracked = corner_for_entry(entry.card, in_zone, known)
        if tracked is None:
            with self._lock:
                self._pending.append(entry)
            return None
        return self._link(entry, tracked)

    def _link(self, entry: Entry, tracked: Tracked) -> Learned | None:
        with self._lock:
            try:
                key, example = self._learn(tracked, entry.card, f"hand {entry.number}")
            except CameraError:
                return None
            link = Learned(entry.hand, entry.seq, key, example.id)
            self._links = (*[x for x in self._links if x.hand == entry.hand], link)
            self._keep_links(self._links)
            return link

    def retry(self, look: Callable[[Entry], tuple[list[Tracked], set[str]] | None]) -> None:
        """After a frame read: the entries whose card was not seen yet, looked for again
        (``look(entry)`` gives the corners in the entry's seat zone and the cards of the seat the
        hand knows, or None when the entry no longer stands)."""
        now = time.monotonic()
        with self._lock:
            pending, self._pending = self._pending, []
        for entry in pending:
            if entry.until < now:
                continue
            seen = look(entry)
            if seen is None:
                continue
            tracked = corner_for_entry(entry.card, *seen)
            if tracked is None:
                with self._lock:
                    self._pending.append(entry)
            else:
                self._link(entry, tracked)

    def undone(self, hand: int, events: int) -> None:
        """The hand ``hand`` has ``events`` events left after an undo: the examples of the
        entries taken back go."""
        with self._lock:
            self._pending = [e for e in self._pending if e.hand == hand and e.seq < events]
            gone = [x for x in self._links if x.hand == hand and x.seq >= events]
            if not gone:
                return
            self._links = tuple(x for x in self._links if x not in gone)
            self._keep_links(self._links)
        for link in gone:
            try:
                example = self.decks.remove(link.deck, link.example)
            except CameraError:
                continue  # deleted meanwhile
            self.tracker.forget_names(example.card)

    def new_hand(self, hand: int | None) -> None:
        """Another hand: the entries of the one before can no longer be undone."""
        with self._lock:
            self._pending = [e for e in self._pending if e.hand == hand]
            if any(x.hand != hand for x in self._links):
                self._links = tuple(x for x in self._links if x.hand == hand)
                self._keep_links(self._links)
