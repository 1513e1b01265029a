"""One hand of stud as a state machine over the dealer's events: verify, can, push, pop. The rules
it plays are those of docs/rules.md; each names its section there.

The hand is the fold of its events: :meth:`Hand.push` checks an event and applies it (an event that
does not fit raises a :class:`~engine.hand_errors.HandError` child and changes nothing),
:meth:`Hand.pop` undoes the last one, and the event list written as JSON replays to the same state.

>>> from engine.settings import GameSettings, SeatConfig
>>> from engine.cards import Card
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
from collections.abc import Iterable, Sequence
from typing import Any

from engine.betting import BettingRound, Opening
from engine.cards import Card, format_cards
from engine.deck import street_deck
from engine.evaluate import EVALUATORS, HandValue, bring_in_order, evaluate_exposed
from engine.events import (
    Act,
    Community,
    Deal,
    Event,
    Expose,
    Identify,
    Misdeal,
    Muck,
    Show,
    check_fields,
    event_from_dict,
)
from engine.hand_errors import (
    DealError,
    DuplicateCardError,
    HandError,
    HandOverError,
    IllegalActionError,
    OutOfTurnError,
    ShowdownError,
    WrongAmountError,
)
from engine.hand_state import CardSlot, HandState, SeatState
from engine.pots import Pot, build_pots
from engine.prompt import ActionWord, LegalAction, Prompt, StreetWord, Where, Words
from engine.settings import GameSettings
from engine.showdown import HandResult, PotResult, Share, settle
from engine.variants import Ranking

__all__ = ["CardSlot", "Hand", "HandState", "LegalAction", "Prompt", "SeatState", "replay"]



class _Seat:
    __slots__ = (
        "all_in",
        "all_in_street",
        "bet",
        "cards",
        "committed",
        "exposed",
        "folded",
        "mucked",
        "name",
        "number",
        "shown",
        "stack",
        "ups",
    )

    def __init__(self, number: int, name: str, stack: int) -> None:
        self.number = number
        self.name = name
        self.stack = stack
        self.bet = 0
        self.committed = 0
        self.folded = False
        self.all_in = False
        self.all_in_street = -1
        self.cards: list[Card | None] = []
        self.ups: list[bool] = []
        self.exposed: list[bool] = []
        self.shown = False
        self.mucked = False

    def upcards(self) -> list[Card]:
        return [c for c, up in zip(self.cards, self.ups, strict=True) if up and c is not None]


class Hand:
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

    def prompt(self) -> Prompt:
        seat_name = {n: s.name for n, s in self._seats.items()}
        if self._phase == "over":
            return Prompt("misdeal" if self._result and self._result.misdeal else "over", ())
        if self._phase == "deal":
            pending = [n for n in self._order if n in self._need and any(self._need[n])]
            street = self.variant.streets[self._street]
            return Prompt(
                "deal",
                tuple(pending),  # in dealing order, from the dealer's left
                (
                    ("street", self.variant.street_name(self._street)),
                    ("downs", street.downs),
                    ("ups", street.ups),
                    ("runout", self._runout),
                    ("burns_back", self._burns_back),
                ),
            )
        if self._phase == "community":
            return Prompt(
                "community",
                (),
                (("runout", "community"), ("burns_back", self._burns_back), ("burn", self._burn)),
            )
        if self._phase == "betting":
            seat = self._round.to_act
            assert seat is not None
            if self._round.opening is not None:
                options = {o.action: o for o in self._options(seat)}
                complete = options.get("complete")
                return Prompt(
                    "bring_in",
                    (seat,),
                    (
                        ("name", seat_name[seat]),
                        ("bring_in", options["bring_in"].to),
                        ("complete", None if complete is None else complete.to),
                        ("optional", self._round.opening == "open"),
                        ("all_in", options["bring_in"].amount == self._seats[seat].stack),
                    ),
                )
            return Prompt("act", (seat,), (("name", seat_name[seat]),))
        seat = self._next_show
        assert seat is not None
        return Prompt(
            "show",
            (seat,),
            (
                ("name", seat_name[seat]),
                ("first", seat == self._first_show and not self._shown_any),
                ("must_show", self._must_show(seat)),
            ),
        )

    # ------------------------------------------------------------------ setting up

    def _reset(self) -> None:
        st = self.settings
        self._seats: dict[int, _Seat] = {}
        for cfg in st.seats:
            seat = _Seat(cfg.number, cfg.name, cfg.stack)
            ante = min(st.ante, seat.stack)
            seat.stack -= ante
            seat.committed = ante
            if seat.stack == 0:
                seat.all_in = True
                seat.all_in_street = 0
            self._seats[cfg.number] = seat
        self._used: dict[Card, int] = {}
        self._exposed: dict[tuple[int, int, bool], HandValue] = {}
        self._community: list[Card] = []
        self._deck_left = 52
        self._burned = 0
        self._runout: str | None = None
        self._burns_back = 0
        self._burn = False
        self._street = 0
        self._phase = "deal"
        self._need: dict[int, list[int]] = {}
        self._last_action: Act | None = None
        self._result: HandResult | None = None
        self._final_pots: tuple[Pot, ...] | None = None
        self._returned: tuple[tuple[int, int], ...] = ()
        self._first_show: int | None = None
        self._next_show: int | None = None
        self._shown_any = False
        self._mucks: list[int] = []
        self._show_order: tuple[int, ...] = ()
        self._round = BettingRound()
        self._start_street(0)

    @property
    def _last_round(self) -> bool:
        """Whether the round being dealt or bet is the last one (docs/rules.md §6)."""
        return self._street == self.variant.last_street

    def _live(self) -> list[int]:
        return [n for n in self._order if not self._seats[n].folded]

    def _bettable(self) -> list[int]:
        return [n for n in self._order if not self._seats[n].folded and not self._seats[n].all_in]

    def _start_street(self, index: int) -> None:
        self._street = index
        street = self.variant.streets[index]
        live = self._live()
        self._runout = None
        self._burns_back = 0
        self._burn = False
        if index > 0:
            step = street_deck(
                self._deck_left, self._burned, len(live), street.cards, self.settings.house.burns
            )
            self._runout, self._burns_back, self._burn = step.runout, step.burns_back, step.burn
            self._deck_left, self._burned = step.deck_left, step.burned
        if self._runout == "community":
            self._phase = "community"
            self._need = {}
        else:
            self._phase = "deal"
            self._need = {n: [street.downs, street.ups] for n in live}

    # ------------------------------------------------------------------ checking events

    def _check(self, event: Event) -> Event:
        check_fields(event)
        if self._phase == "over":
            raise HandOverError("play.error.over")
        if isinstance(event, Act):
            return self._check_act(event)
        if isinstance(event, Deal):
            self._check_deal(event)
        elif isinstance(event, Community):
            if self._phase != "community":
                raise OutOfTurnError("play.error.not_community", now=self.prompt())
            self._check_new_card(event.card)
        elif isinstance(event, Identify | Expose):
            self._check_identify(event)
        elif isinstance(event, Show):
            return self._check_show(event)
        elif isinstance(event, Muck):
            self._check_muck(event)
        return event

    def _seat(self, number: int) -> _Seat:
        seat = self._seats.get(number)
        if seat is None:
            raise OutOfTurnError(
                "play.error.no_seat", seat=number, seats=", ".join(map(str, sorted(self._seats)))
            )
        return seat

    def _check_new_card(self, card: Card) -> None:
        holder = self._used.get(card)
        if holder is not None:
            raise DuplicateCardError("play.error.duplicate", card=str(card), where=Where(holder))

    def _check_deal(self, event: Deal) -> None:
        if self._phase != "deal":
            raise OutOfTurnError("play.error.not_dealing", now=self.prompt())
        seat = self._seat(event.seat)
        if seat.folded:
            raise DealError("play.error.folded", seat=event.seat)
        if event.card is None:
            if event.up:
                raise DealError("play.error.unknown_up", seat=event.seat)
        else:
            self._check_new_card(event.card)
        need = self._need.get(event.seat, [0, 0])
        if need[1 if event.up else 0] == 0:
            raise DealError(
                "play.error.no_need_up" if event.up else "play.error.no_need_down",
                seat=event.seat,
                street=StreetWord(self.variant.street_name(self._street)),
                now=self.prompt(),
            )

    def _check_identify(self, event: Identify | Expose) -> None:
        seat = self._seat(event.seat)
        if event.card in seat.cards:
            i = seat.cards.index(event.card)
            if isinstance(event, Identify) or seat.ups[i] or seat.exposed[i]:
                raise DealError("play.error.already_known", seat=event.seat, card=str(event.card))
            return
        self._check_new_card(event.card)
        if not any(c is None for c in seat.cards):
            raise DealError("play.error.no_unknown", seat=event.seat, card=str(event.card))

    def _options(self, number: int) -> list[LegalAction]:
        seat = self._seats[number]
        options = self._round.options(
            number, seat.bet, seat.stack, self.settings, len(self._bettable())
        )
        return [
            LegalAction(o.action, o.amount, o.to, all_in=True)
            if o.amount and o.amount == seat.stack else o
            for o in options
        ]

    def _check_act(self, event: Act) -> Act:
        if self._phase != "betting":
            raise OutOfTurnError("play.error.not_betting", now=self.prompt())
        if event.seat != self._round.to_act:
            self._seat(event.seat)
            raise OutOfTurnError(
                "play.error.out_of_turn", seat=event.seat, to_act=self._round.to_act
            )
        options = self._options(event.seat)
        allowed = Words(tuple(options))
        matching = [o for o in options if o.action == event.action]
        if not matching:
            raise IllegalActionError(
                "play.error.illegal",
                seat=event.seat,
                action=ActionWord(event.action),
                allowed=allowed,
            )
        if event.amount is None:
            if len(matching) > 1:
                raise WrongAmountError(
                    "play.error.amount_needed", action=ActionWord(event.action),
                    allowed=Words(tuple(matching)),
                )
            return Act(event.seat, event.action, matching[0].amount)
        for option in matching:
            if option.amount == event.amount:
                return event
        raise WrongAmountError(
            "play.error.amount",
            seat=event.seat,
            action=ActionWord(event.action),
            amount=event.amount,
            allowed=Words(tuple(matching)),
        )

    def _must_show(self, number: int) -> bool:
        """docs/rules.md §6: a player all in before the last round must show."""
        seat = self._seats[number]
        return seat.all_in and seat.all_in_street < self.variant.last_street

    def _check_show(self, event: Show) -> Show:
        if self._phase != "showdown":
            raise ShowdownError("play.error.not_showdown", now=self.prompt())
        seat = self._seat(event.seat)
        if event.seat != self._next_show:
            raise ShowdownError("play.error.show_turn", seat=event.seat, to_show=self._next_show)
        cards = list(event.cards)
        if len(set(cards)) != len(cards):
            raise ShowdownError("play.error.show_twice", seat=event.seat)
        ups = [c for c, up in zip(seat.cards, seat.ups, strict=True) if up]
        downs_known = [c for c, up in zip(seat.cards, seat.ups, strict=True) if not up and c]
        unknown = sum(1 for c in seat.cards if c is None)
        if len(cards) == len(seat.cards) and all(c in cards for c in ups):
            cards = [c for c in cards if c not in ups]
        elif len(cards) == unknown and not any(c in seat.cards for c in cards):
            cards = [*downs_known, *cards]  # only the cards that were not known yet
        held = format_cards(c for c in downs_known)
        wanted = len(seat.cards) - len(ups)
        if len(cards) != wanted or any(c not in cards for c in downs_known):
            raise ShowdownError(
                "play.error.show_cards",
                seat=event.seat,
                downs=wanted,
                known=held or "-",
            )
        for card in cards:
            if card not in downs_known:
                self._check_new_card(card)
        return Show(event.seat, tuple(event.cards))

    def _check_muck(self, event: Muck) -> None:
        if self._phase != "showdown":
            raise ShowdownError("play.error.not_showdown", now=self.prompt())
        self._seat(event.seat)
        if event.seat != self._next_show:
            raise ShowdownError("play.error.show_turn", seat=event.seat, to_show=self._next_show)
        if self._must_show(event.seat):
            raise ShowdownError("play.error.must_show", seat=event.seat)

    # ------------------------------------------------------------------ applying events

    def _apply(self, event: Event) -> None:
        if isinstance(event, Act):
            self._apply_act(event)
        elif isinstance(event, Deal):
            seat = self._seats[event.seat]
            seat.cards.append(event.card)
            seat.ups.append(event.up)
            seat.exposed.append(event.up)
            if event.card is not None:
                self._used[event.card] = event.seat
            self._deck_left -= 1
            need = self._need[event.seat]
            need[1 if event.up else 0] -= 1
            if not need[0] and not need[1]:
                del self._need[event.seat]
                if not self._need:
                    self._start_round()
        elif isinstance(event, Community):
            self._community.append(event.card)
            self._used[event.card] = 0
            self._deck_left -= 1
            self._start_round()
        elif isinstance(event, Identify | Expose):
            seat = self._seats[event.seat]
            if event.card in seat.cards:
                i = seat.cards.index(event.card)
            else:
                i = seat.cards.index(None)
                seat.cards[i] = event.card
                self._used[event.card] = event.seat
            if isinstance(event, Expose):
                seat.exposed[i] = True
        elif isinstance(event, Show):
            self._apply_show(event)
        elif isinstance(event, Muck):
            self._seats[event.seat].mucked = True
            self._mucks.append(event.seat)
            self._advance_show()
        elif isinstance(event, Misdeal):
            self._apply_misdeal()

    def _apply_show(self, event: Show) -> None:
        seat = self._seats[event.seat]
        known = set(c for c in seat.cards if c is not None)
        fresh = [c for c in event.cards if c not in known]
        for i, (card, up) in enumerate(zip(seat.cards, seat.ups, strict=True)):
            if not up:
                if card is None:
                    card = fresh.pop(0)
                    seat.cards[i] = card
                    self._used[card] = event.seat
                seat.exposed[i] = True
        seat.shown = True
        self._shown_any = True
        self._advance_show()

    def _apply_misdeal(self) -> None:
        returned = []
        for number in sorted(self._seats):
            seat = self._seats[number]
            if seat.committed:
                returned.append((number, seat.committed))
                seat.stack += seat.committed
                seat.committed = 0
                seat.bet = 0
        self._final_pots = ()
        self._result = HandResult(
            pots=(), returned=tuple(returned), payouts=tuple(returned), misdeal=True
        )
        self._phase = "over"
        self._round.to_act = None

    # ------------------------------------------------------------------ betting

    def _first_round_opener(self) -> tuple[int, Opening | None]:
        """The seat that opens the first round and how (docs/rules.md §3): ``forced`` (the
        bring-in), ``open`` (the card that brings in is all in with the ante: the next player
        clockwise may fold, bring in or complete) or None (no bring-in: the opener may check)."""
        forced = self.settings.has_bring_in
        # with a bring-in the card that brings in is found among everyone still in; without one,
        # the best card among those who can bet opens
        live = self._live() if forced else self._bettable()
        game, plays = self.variant.id, self.settings.plays_bring_in
        chosen = max(
            live, key=lambda n: bring_in_order(self._seats[n].upcards()[0], game, bring_in=plays)
        )
        if not self._seats[chosen].all_in:
            return chosen, ("forced" if forced else None)
        nxt = self._next_bettable(chosen)
        assert nxt is not None
        return nxt, ("open" if forced else None)

    def _next_bettable(self, after: int) -> int | None:
        n = len(self._order)
        start = self._pos[after]
        for k in range(1, n + 1):
            cand = self._seats[self._order[(start + k) % n]]
            if not cand.folded and not cand.all_in:
                return cand.number
        return None

    def _best_exposed(self, seats: Sequence[int]) -> int:
        """docs/rules.md §3: the best exposed hand among ``seats`` (up cards only), ties to the
        seat nearest the dealer."""
        last = self._last_round
        best_seat = seats[0]
        best_value: HandValue | None = None
        cache = self._exposed
        for n in seats:  # clockwise from the dealer: ties stay with the earlier seat
            ups = self._seats[n].upcards()[-4:]
            key = (n, len(ups), last)
            value = cache.get(key)
            if value is None:
                value = cache[key] = evaluate_exposed(ups, self.variant.id, last_round=last)
            if best_value is None or value > best_value:
                best_seat, best_value = n, value
        return best_seat

    def _start_round(self) -> None:
        """A betting round: none when at most one player can bet (docs/rules.md §4); the first
        round opened as §3 says, later rounds by the best exposed hand (§3)."""
        self._phase = "betting"
        street = self.variant.streets[self._street]
        bettable = self._bettable()
        step = self.settings.big_bet if street.big_bet else self.settings.small_bet
        self._round = BettingRound(step=step)
        self._round.count_callers(len(bettable), self.settings)
        if self._street == self.variant.open_pair_street and self.settings.house.open_pair_double:
            for n in self._live():
                ranks = [c.rank for c in self._seats[n].upcards()]
                if len(set(ranks)) < len(ranks):
                    self._round.open_pair = True
        if len(bettable) < 2:
            self._end_round()
            return
        if self._street == 0:
            first, self._round.opening = self._first_round_opener()
        else:
            first = self._best_exposed(bettable)
        self._round.first = first
        self._round.to_act = first

    def _apply_act(self, event: Act) -> None:
        seat = self._seats[event.seat]
        amount = event.amount or 0
        self._last_action = event
        seat.stack -= amount
        seat.bet += amount
        seat.committed += amount
        if seat.stack == 0 and not seat.all_in:
            seat.all_in = True
            seat.all_in_street = self._street
        if event.action == "fold":
            seat.folded = True
            live = self._live()
            if len(live) == 1:
                self._finish_fold(live[0])
                return
        callers = len(self._bettable())
        self._round.record(event.seat, event.action, seat.bet, seat.all_in, self.settings, callers)
        self._advance(event.seat, callers)

    def _advance(self, after: int, callers: int) -> None:
        n = len(self._order)
        start = self._pos[after]
        for k in range(1, n + 1):
            cand = self._seats[self._order[(start + k) % n]]
            if cand.folded or cand.all_in:
                continue
            if self._round.pending(cand.number, cand.bet, callers):
                self._round.to_act = cand.number
                return
        self._end_round()

    def _end_round(self) -> None:
        self._round.to_act = None
        self._round.opening = None
        for seat in self._seats.values():
            seat.bet = 0
        if self._last_round:
            self._start_showdown()
        else:
            self._start_street(self._street + 1)

    # ------------------------------------------------------------------ the end of the hand

    def _start_showdown(self) -> None:
        """docs/rules.md §6: the last to bet or raise on the last round shows first, else the
        first to act on it, else (no betting) the best exposed hand; then clockwise. §4: an
        uncalled bet goes back first."""
        self._phase = "showdown"
        live = self._live()
        if self._round.aggressor is not None:
            first = self._round.aggressor
        elif self._round.first is not None:
            first = self._round.first
        else:
            first = self._best_exposed(live)
        self._first_show = first
        i = live.index(first)
        self._show_order = tuple(live[i:] + live[:i])
        committed = {n: s.committed for n, s in self._seats.items()}
        pots, self._returned = build_pots(committed, set(live))
        self._final_pots = pots
        for number, amount in self._returned:  # an uncalled bet goes back before the showdown
            self._seats[number].stack += amount
            self._seats[number].committed -= amount
        self._advance_show()

    def _contesting(self, number: int) -> bool:
        assert self._final_pots is not None
        for pot in self._final_pots:
            if (
                number in pot.eligible
                and sum(1 for s in pot.eligible if not self._seats[s].mucked) >= 2
            ):
                return True
        return False

    def _advance_show(self) -> None:
        for number in self._show_order:
            seat = self._seats[number]
            if not seat.shown and not seat.mucked and self._contesting(number):
                self._next_show = number
                return
        self._next_show = None
        self._finish_showdown()

    def _value(self, number: int, ranking: Ranking) -> HandValue | None:
        cards = [c for c in self._seats[number].cards if c is not None] + self._community
        return EVALUATORS[ranking](cards)

    def _finish_showdown(self) -> None:
        assert self._final_pots is not None
        showdown = self.variant.showdown
        main, *split = self.variant.rankings
        values: dict[int, HandValue] = {}
        lows: dict[int, HandValue] = {}
        for number in self._show_order:
            seat = self._seats[number]
            if seat.shown:
                value = self._value(number, main)
                assert value is not None
                values[number] = value
                for ranking in split:
                    low = self._value(number, ranking)
                    if low is not None:
                        lows[number] = low

        contenders = []
        for pot in self._final_pots:
            alive = [s for s in pot.eligible if not self._seats[s].mucked]
            # a pot whose every hand was mucked goes to the last to muck (docs/rules.md §6)
            contenders.append(alive or [[s for s in self._mucks if s in pot.eligible][-1]])
        results = settle(
            self._final_pots,
            contenders,
            values,
            lows if split else None,
            rule=self.settings.house.odd_chip,
            clockwise=self._order,
            unit=self.settings.chip_unit,
            lowball=showdown == "low",
            shared=tuple(self._community),
        )
        self._finish(results, self._returned, showdown=True, paid_back=True)

    def _finish_fold(self, winner: int) -> None:
        """docs/rules.md §4: the last player left wins every pot it can, without a showdown."""
        committed = {n: s.committed for n, s in self._seats.items()}
        pots, returned = build_pots(committed, {winner})
        self._final_pots = pots
        results = tuple(
            PotResult(
                index=i,
                amount=pot.amount,
                eligible=pot.eligible,
                high=(Share(winner, pot.amount, None),),
                awards=((winner, pot.amount),),
            )
            for i, pot in enumerate(pots)
        )
        self._finish(results, returned, showdown=False)

    def _finish(
        self,
        pots: tuple[PotResult, ...],
        returned: tuple[tuple[int, int], ...],
        showdown: bool,
        paid_back: bool = False,
    ) -> None:
        payouts: dict[int, int] = {}
        for pot in pots:
            for seat, amount in pot.awards:
                payouts[seat] = payouts.get(seat, 0) + amount
        for seat, amount in payouts.items():
            self._seats[seat].stack += amount
        for seat, amount in returned:
            payouts[seat] = payouts.get(seat, 0) + amount
            if not paid_back:
                self._seats[seat].stack += amount
        for s in self._seats.values():
            s.bet = 0
        self._result = HandResult(
            pots=pots,
            returned=returned,
            payouts=tuple(sorted(payouts.items())),
            showdown=showdown,
        )
        self._phase = "over"
        self._round.to_act = None
        self._next_show = None


def replay(settings: GameSettings, events: Iterable[Event]) -> Hand:
    """A hand with ``events`` pushed in order."""
    hand = Hand(settings)
    for event in events:
        hand.push(event)
    return hand
