"""From the camera's stable readings to what the dealer is offered: which card, which seat.

The hand is asked, never restated: the seats that expect an up card now
(:func:`expected_seats`), the seat that shows at the showdown and its down cards never entered
(:func:`showing`), the cards the hand knows (:func:`cards_in_hand`, :func:`known_at_seat`).
:func:`propose` turns the stable readings of a frame into the cards seen (every reading, for the
camera page) and the proposals (those the hand can take now, for the dealer screen).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import Card
from engine.events import Deal
from engine.hand import Hand
from kiosk.camera.settings import CameraSettings, ui

State = Literal["ok", "low", "in_hand"]
Kind = Literal["deal", "show"]


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A stable reading as the camera page shows it: the card, how sure, the seat whose zone
    holds its index (None: outside every zone), its quad as fractions of the picture."""

    card: str
    confidence: float
    seat: int | None
    quad: tuple[tuple[float, float], ...]

    def text(self, lang: str) -> str:
        """"Q♥ 98% · seat 3", or "· outside the zones"."""
        where = (ui("camera.reading_seat", lang, seat=self.seat) if self.seat is not None
                 else ui("camera.reading_no_seat", lang))
        return f"{Card.parse(self.card).symbol} {round(100 * self.confidence)}% · {where}"

    def to_json(self, lang: str) -> dict[str, Any]:
        return {"card": self.card, "confidence": self.confidence, "seat": self.seat,
                "quad": [list(p) for p in self.quad], "text": self.text(lang)}


@dataclass(frozen=True, slots=True)
class SeatProposal:
    """A card the camera proposes for a seat: ``state`` ok, low (under the house's
    threshold: flagged unsure) or in_hand (known elsewhere in the hand: refused if tapped);
    ``kind`` deal, or show at the showdown; read in ``frames`` of the last frames, ``streak`` in
    a row."""

    seat: int
    card: str
    confidence: float
    frames: int
    streak: int
    state: State
    kind: Kind

    def text(self, lang: str) -> str:
        card = Card.parse(self.card).symbol
        key = "camera.proposal_show" if self.kind == "show" else "camera.proposal"
        text = ui(key, lang, seat=self.seat, card=card, confidence=round(100 * self.confidence))
        if self.state != "ok":
            text += " · " + ui(f"camera.flag.{self.state}", lang)
        return text

    def to_json(self, lang: str) -> dict[str, Any]:
        return {"seat": self.seat, "card": self.card, "confidence": self.confidence,
                "frames": self.frames, "streak": self.streak, "state": self.state,
                "kind": self.kind, "text": self.text(lang)}

    def auto_ok(self, settings: CameraSettings) -> bool:
        """Whether the house lets this proposal be entered by itself."""
        return bool(settings.auto_confirm and self.kind == "deal" and self.state == "ok"
                    and self.streak >= settings.auto_frames
                    and self.confidence >= settings.auto_threshold)


# ---- what the hand expects and knows ------------------------------------------------------------


def running(hand: Hand | None) -> Hand | None:
    return None if hand is None or hand.finished else hand


def cards_in_hand(hand: Hand | None) -> set[str]:
    """Every card the hand knows: dealt, and down cards named later (identified, shown)."""
    if hand is None:
        return set()
    return ({str(e.card) for e in hand.events if isinstance(e, Deal) and e.card is not None}
            | {str(c.card) for s in hand.state.seats for c in s.cards if c.card is not None})


def known_at_seat(hand: Hand | None) -> dict[int, set[str]]:
    """Seat -> the cards in front of it the hand knows (its up cards, and its down cards
    entered as dealt or named since)."""
    if hand is None:
        return {}
    return {s.number: {str(c.card) for c in s.cards if c.card is not None}
            for s in hand.state.seats}


def showing(hand: Hand | None) -> tuple[int, int] | None:
    """(seat, down cards never entered) when the hand waits for that seat to show and it has
    such cards: the camera then proposes the cards it reads at that seat."""
    hand = running(hand)
    if hand is None:
        return None
    prompt = hand.prompt()
    if prompt.kind != "show":
        return None
    seat = prompt.seats[0]
    missing = sum(1 for s in hand.state.seats if s.number == seat
                  for c in s.cards if not c.up and c.card is None)
    return (seat, missing) if missing else None


def expected_seats(hand: Hand | None) -> set[int]:
    """Seats the engine expects an up card for now."""
    hand = running(hand)
    if hand is None:
        return set()
    return {seat for seat, (_downs, ups) in hand.cards_needed().items() if ups > 0}


def down_dealt(hand: Hand | None) -> dict[int, int]:
    """Seat -> face-down cards the engine dealt it that still lie face down (seats of the hand
    that have not folded)."""
    hand = running(hand)
    if hand is None:
        return {}
    return {s.number: sum(1 for c in s.cards if not c.up and not c.exposed)
            for s in hand.state.seats if not s.folded and s.cards}


def playing(hand: Hand | None) -> list[tuple[int, str]]:
    """The seats still in the hand (number, name)."""
    hand = running(hand)
    if hand is None:
        return []
    return [(s.number, s.name) for s in hand.state.seats if not s.folded]


# ---- readings to proposals ----------------------------------------------------------------------


def propose(readings: Sequence[Any], frame_size: tuple[int, int],
            seat_of: Callable[[float, float], int | None], hand: Hand | None,
            settings: CameraSettings,
            explained: Callable[[int, Any], bool] = lambda _seat, _reading: False,
            ) -> tuple[list[SeenCard], list[SeatProposal]]:
    """The cards seen and the proposals of a frame's stable readings
    (``hardware.camera.stable.Proposal``). ``seat_of`` gives the seat of a point (fractions of
    the picture); ``explained(seat, reading)`` is true for a reading that is a card of that
    seat the hand knows already, lying where it was entered (whatever the camera reads it as)."""
    w, h = max(frame_size[0], 1), max(frame_size[1], 1)
    seen: list[SeenCard] = []
    out: list[SeatProposal] = []
    expected = expected_seats(hand)
    shows = showing(hand)
    in_hand = cards_in_hand(hand)
    known = known_at_seat(hand)
    for r in readings:
        seat = seat_of(r.center[0] / w, r.center[1] / h)
        seen.append(SeenCard(r.card, round(r.confidence, 3), seat,
                             tuple((round(x / w, 4), round(y / h, 4)) for x, y in r.quad)))
        kind: Kind
        if seat is None:
            continue
        if seat in expected:
            kind = "deal"
        elif shows is not None and seat == shows[0]:
            kind = "show"  # a down card turned up at the showdown
        else:
            continue
        if r.card in known.get(seat, ()) or explained(seat, r):
            continue  # the seat's own card, read where it lies: nothing to enter
        state: State
        if r.confidence < settings.min_confidence:
            state = "low"
        elif r.card in in_hand:
            state = "in_hand"
        else:
            state = "ok"
        out.append(SeatProposal(seat, r.card, round(r.confidence, 3), r.frames, r.streak,
                                state, kind))
    seen.sort(key=lambda s: (s.seat or 99, s.card))
    out.sort(key=lambda p: (p.seat, -p.confidence))
    return seen, out
