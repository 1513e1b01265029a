"""One hand of stud as a state machine over the dealer's events: verify, can, push, pop. The rules
it plays are those of docs/rules.md; each names its section there.

The hand is the fold of its events: :meth:`Hand.push` checks an event and applies it (an event that
does not fit raises a :class:`~engine.hand_errors.HandError` child and changes nothing),
:meth:`Hand.pop` undoes the last one, and the event list written as JSON replays to the same state.

>>> from engine.settings import GameSettings, SeatConfig
>>> from engine.cards import Card
>>> from engine.events import Act, Deal
>>> s = GameSettings("seven-card-stud", ante=1, bring_in=2, small_bet=5, big_bet=10,
...                  seats=(SeatConfig(1, "Anna", 100), SeatConfig(2, "Bruno", 100)))
>>> hand = Hand(s)
>>> hand.prompt().text("en")
'Deal third street: two down and one up to seats 1, 2'
>>> for seat, up in ((1, "3c"), (2, "Kd")):
...     _ = hand.push(Deal(seat, None, False)); _ = hand.push(Deal(seat, None, False))
...     _ = hand.push(Deal(seat, Card.parse(up), True))
>>> hand.prompt().text("en")
'Seat 1 (Anna) brings in for 2 or completes to 5'
>>> hand.legal_actions()
(LegalAction(action='bring_in', amount=2, to=2), LegalAction(action='complete', amount=5, to=5))
>>> hand.push(Act(1, "bring_in"))
Act(seat=1, action='bring_in', amount=2)
>>> before = hand.state; _ = hand.push(Act(2, "complete")); _ = hand.pop(); hand.state == before
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine.cards import Card
from engine.deck import street_deck
from engine.events import Event, event_from_dict
from engine.hand_checks import HandChecks
from engine.hand_errors import HandError
from engine.hand_state import CardSlot, HandState, SeatState
from engine.pots import Pot, build_pots
from engine.prompt import LegalAction, Prompt
from engine.settings import GameSettings
from engine.showdown import HandResult

__all__ = ["CardSlot", "Hand", "HandState", "LegalAction", "Prompt", "SeatState", "replay"]


class Hand(HandChecks):
    """One hand: see the module docstring and docs/engine.md."""

    def __init__(self, settings: GameSettings) -> None:
        if not isinstance(settings, GameSettings):
            raise TypeError(f"Hand needs GameSettings, not {settings!r}")
        self.settings = settings
        self.variant = settings.variant_info
        self._order = settings.clockwise()
        self._pos = {s: i for i, s in enumerate(self._order)}
        self._events: list[Event] = []
        self._reset()

    # ------------------------------------------------------------------ the event log

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def verify(self, event: Event) -> None:
        """Raise the :class:`HandError` child that says why ``event`` does not fit now."""
        self._check(event)

    def can(self, event: Event) -> bool:
        """Whether ``event`` fits now: False wherever :meth:`verify` raises, a field of the wrong
        kind included."""
        try:
            self._check(event)
        except HandError:
            return False
        return True

    def push(self, event: Event) -> Event:
        """Check and apply ``event``; returns it as stored (amounts filled in)."""
        stored = self._check(event)
        self._apply(stored)
        self._events.append(stored)
        return stored

    def pop(self) -> Event:
        """Undo the last event and return it."""
        if not self._events:
            raise HandError("play.error.nothing_to_undo")
        last = self._events.pop()
        events = self._events
        self._events = []
        self._reset()
        for event in events:
            self._apply(event)
            self._events.append(event)
        return last

    def undo(self) -> Event:
        """The dealer's undo: the same as :meth:`pop`."""
        return self.pop()

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings.to_dict(),
            "events": [e.to_dict() for e in self._events],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Hand:
        """Replay a hand written by :meth:`to_dict`; a bad event raises naming its number."""
        if not isinstance(data, dict) or "settings" not in data:
            raise HandError(f"a hand must be an object with settings and events, not {data!r}")
        hand = Hand(GameSettings.from_dict(data["settings"]))
        events = data.get("events", [])
        if not isinstance(events, list):
            raise HandError(f"'events' must be a list, not {events!r}")
        for number, item in enumerate(events, 1):
            try:
                hand.push(event_from_dict(item))
            except HandError as exc:
                raise exc.with_prefix(f"event {number} ({item!r}): ") from exc
        return hand

    @staticmethod
    def from_json(text: str) -> Hand:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise HandError(f"the hand is not JSON: {exc}") from exc
        return Hand.from_dict(data)

    # ------------------------------------------------------------------ reading the state

    @property
    def finished(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> HandResult | None:
        return self._result

    @property
    def to_act(self) -> int | None:
        return self._round.to_act if self._phase == "betting" else None

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def finishing_stacks(self) -> dict[int, int]:
        """Seat -> stack (after the pots are pushed once the hand is over)."""
        return {n: s.stack for n, s in self._seats.items()}

    @property
    def payouts(self) -> dict[int, int]:
        """Seat -> chips pushed to it (pots won and chips given back); empty before the end."""
        return {} if self._result is None else dict(self._result.payouts)

    @property
    def state(self) -> HandState:
        seats = tuple(
            SeatState(
                number=s.number,
                name=s.name,
                stack=s.stack,
                bet=s.bet,
                committed=s.committed,
                folded=s.folded,
                all_in=s.all_in,
                cards=tuple(
                    CardSlot(c, up, ex)
                    for c, up, ex in zip(s.cards, s.ups, s.exposed, strict=True)
                ),
                shown=s.shown,
                mucked=s.mucked,
            )
            for s in (self._seats[n] for n in sorted(self._seats))
        )
        return HandState(
            variant=self.variant.id,
            phase=self._phase,
            street=self._street,
            street_name=self.variant.street_name(self._street),
            seats=seats,
            community=tuple(self._community),
            pots=self.pots,
            total_pot=sum(s.committed for s in self._seats.values())
            if self._result is None
            else 0,
            to_act=self.to_act,
            last_action=self._last_action,
            finished=self.finished,
            result=self._result,
            deck_left=self._deck_left,
            burns=self._burned,
            runout=self._runout,
            first_to_show=self._first_show,
        )

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The pots in the middle: chips of finished rounds (the final pots once over)."""
        if self._final_pots is not None:
            return self._final_pots
        gathered = {n: s.committed - s.bet for n, s in self._seats.items()}
        live = {n for n, s in self._seats.items() if not s.folded}
        pots, returned = build_pots(gathered, live)
        if returned:
            # chips only one seat has put in so far are shown as its own pot until called
            extra = tuple(Pot(a, (s,)) for s, a in returned)
            return pots + extra
        return pots

    def cards_needed(self) -> dict[int, tuple[int, int]]:
        """Seat -> (down cards, up cards) it still needs on the street being dealt."""
        if self._phase != "deal":
            return {}
        return {n: (d, u) for n, (d, u) in self._need.items()}

    def next_card(self) -> tuple[int, bool] | None:
        """Where the next card of the street being dealt goes in dealing order, and whether it is
        dealt up: the street's cards go round one at a time clockwise from the dealer's left, its
        down cards before its up card, so the next card is the first seat's (in dealing order) of
        those that still need the most. None when no card is being dealt."""
        if self._phase != "deal" or not self._need:
            return None
        pending = [n for n in self._order if n in self._need]
        most = max(sum(self._need[n]) for n in pending)
        seat = next(n for n in pending if sum(self._need[n]) == most)
        return seat, self._need[seat][0] == 0

    @property
    def street(self) -> int:
        """The index of the street being dealt or bet (0 = the first)."""
        return self._street

    def seat_cards(self, seat: int) -> tuple[Card | None, ...]:
        """The cards in front of ``seat`` in the order dealt (None: unknown), without the cost of
        a whole :attr:`state`."""
        return tuple(self._seat(seat).cards)

    @property
    def current_bet(self) -> int:
        """The highest bet of this betting round."""
        return self._round.current if self._phase == "betting" else 0

    def community_ahead(self) -> bool:
        """Whether one community card is still to come if every player now in stays to the
        end: the deck as the dealer holds it now, street after street, by docs/rules.md §5
        (what the odds deal, engine.odds)."""
        if self._community or self._phase in ("over", "showdown"):
            return False
        if self._phase == "community":
            return True
        players = len(self._live())
        deck_left = self._deck_left - sum(d + u for d, u in self.cards_needed().values())
        burned = self._burned
        for street in self.variant.streets[self._street + 1 :]:
            step = street_deck(deck_left, burned, players, street.cards, self.settings.house.burns)
            if step.runout == "community":
                return True
            deck_left, burned = step.deck_left - players * street.cards, step.burned
        return False

    def needs(self, seat: int) -> tuple[int, int]:
        """(down cards, up cards) ``seat`` still needs on the street being dealt."""
        need = self._need.get(seat) if self._phase == "deal" else None
        return (0, 0) if need is None else (need[0], need[1])

    def seat_bet(self, seat: int) -> int:
        """What ``seat`` has put in on this betting round."""
        return self._seat(seat).bet

    @property
    def next_to_show(self) -> int | None:
        """The seat that shows or mucks next at showdown."""
        return self._next_show if self._phase == "showdown" else None

    def must_show(self, seat: int) -> bool:
        """Whether ``seat`` was all in before the last round (it may not muck)."""
        return self._must_show(seat)

    def legal_actions(self) -> tuple[LegalAction, ...]:
        if self._phase != "betting" or self._round.to_act is None:
            return ()
        return tuple(self._options(self._round.to_act))


def replay(settings: GameSettings, events: Iterable[Event]) -> Hand:
    """A hand with ``events`` pushed in order."""
    hand = Hand(settings)
    for event in events:
        hand.push(event)
    return hand
