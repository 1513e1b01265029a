"""One hand of stud as a state machine over the dealer's events: verify, can, push, pop.

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
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, format_cards
from engine.evaluate import (
    HandValue,
    evaluate_exposed,
    evaluate_high,
    evaluate_low,
    evaluate_low8,
    evaluate_soko,
)
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
from engine.i18n import translate
from engine.pots import Pot, build_pots
from engine.settings import GameSettings
from engine.showdown import HandResult, PotResult, Share, best, settle_pot

_NUMBER_WORDS = ("zero", "one", "two", "three")


# --------------------------------------------------------------------------- public values


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An action the seat to act may take: ``amount`` chips now, ``to`` its round total after;
    ``all_in`` when those chips are all the seat has left (a call or raise that puts it all in)."""

    action: str
    amount: int
    to: int
    all_in: bool = field(default=False, repr=False, compare=False)

    def text(self, lang: str = "en") -> str:
        """``call 5``, ``raise to 10``, ``fold``."""
        name = translate(f"play.action.{self.action}", lang)
        if self.action in ("fold", "check"):
            return name
        if self.action in ("raise", "complete"):
            return translate("play.action.to", lang, action=name, to=self.to)
        return translate("play.action.for", lang, action=name, amount=self.amount)


@dataclass(frozen=True, slots=True)
class _Words:
    """Several items read as one phrase: ``call 5, raise to 10 or fold``."""

    items: tuple[Any, ...]

    def text(self, lang: str = "en") -> str:
        words = [i.text(lang) if hasattr(i, "text") else str(i) for i in self.items]
        if len(words) <= 1:
            return "".join(words)
        return translate("play.list", lang, head=", ".join(words[:-1]), last=words[-1])


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the dealer should do next. ``kind``: deal, community, bring_in, act, show, over,
    misdeal. ``seats``: the seats concerned. ``params``: the details (see docs/engine.md)."""

    kind: str
    seats: tuple[int, ...]
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str) -> Any:
        return dict(self.params).get(name)

    def text(self, lang: str = "en") -> str:
        """The prompt in words, in ``lang`` (``en``, ``it``)."""
        text = self._text(lang)
        return text[:1].upper() + text[1:]

    def _text(self, lang: str) -> str:
        p = dict(self.params)
        seat_label = _seat_label(self.seats[0], p.get("name", ""), lang) if self.seats else ""
        if self.kind == "deal":
            cards = translate(f"play.cards.d{p['downs']}u{p['ups']}", lang)
            street = translate(f"play.street.{p['street']}", lang)
            text = translate(
                "play.prompt.deal", lang, street=street, cards=cards,
                seats=", ".join(map(str, self.seats)),
            )
            if p.get("runout") == "burns-back":
                text = translate("play.prompt.burns_back", lang, then=text)
            return text
        if self.kind == "community":
            return translate("play.prompt.community", lang)
        if self.kind == "bring_in":
            key = "play.prompt.bring_in_open" if p.get("optional") else "play.prompt.bring_in"
            if p.get("complete") is None:
                key += "_only"
            return translate(
                key, lang, seat=seat_label, amount=p["bring_in"], complete=p.get("complete")
            )
        if self.kind == "act":
            return translate("play.prompt.act", lang, seat=seat_label)
        if self.kind == "show":
            key = "play.prompt.show_first" if p.get("first") else "play.prompt.show"
            if p.get("must_show"):
                key = "play.prompt.must_show"
            return translate(key, lang, seat=seat_label)
        return translate(f"play.prompt.{self.kind}", lang)


def _seat_label(seat: int, name: str, lang: str) -> str:
    if name and name != str(seat):  # a seat named after its own number says nothing more
        return translate("play.seat_named", lang, seat=seat, name=name)
    return translate("play.seat", lang, seat=seat)


@dataclass(frozen=True, slots=True)
class CardSlot:
    """One card in front of a seat: the card (None: unknown), dealt up, and public (up, exposed
    by accident or shown)."""

    card: Card | None
    up: bool
    exposed: bool


@dataclass(frozen=True, slots=True)
class SeatState:
    number: int
    name: str
    stack: int
    bet: int
    committed: int
    folded: bool
    all_in: bool
    cards: tuple[CardSlot, ...]
    shown: bool
    mucked: bool


@dataclass(frozen=True, slots=True)
class HandState:
    """A full-information snapshot of the hand (see docs/engine.md); compare with ``==``."""

    variant: str
    phase: str
    street: int
    street_name: str
    seats: tuple[SeatState, ...]
    community: tuple[Card, ...]
    pots: tuple[Pot, ...]
    total_pot: int
    to_act: int | None
    last_action: Act | None
    finished: bool
    result: HandResult | None
    deck_left: int
    burns: int
    runout: str | None
    first_to_show: int | None

    def seat(self, number: int) -> SeatState:
        for s in self.seats:
            if s.number == number:
                return s
        raise KeyError(number)


# --------------------------------------------------------------------------- internals


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


def _all_in(option: LegalAction, stack: int) -> LegalAction:
    if option.amount and option.amount == stack:
        return LegalAction(option.action, option.amount, option.to, all_in=True)
    return option


def _low_rank_key(card: Card) -> tuple[int, int]:
    return (1 if card.rank == 14 else card.rank, card.suit_order)


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
        return self._to_act if self._phase == "betting" else None

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
        return self._cur if self._phase == "betting" else 0

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
        if self._phase != "betting" or self._to_act is None:
            return ()
        return tuple(self._options(self._to_act))

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
                ),
            )
        if self._phase == "community":
            return Prompt("community", (), (("runout", "community"),))
        if self._phase == "betting":
            seat = self._to_act
            assert seat is not None
            if self._mode is not None:
                options = {o.action: o for o in self._options(seat)}
                complete = options.get("complete")
                return Prompt(
                    "bring_in",
                    (seat,),
                    (
                        ("name", seat_name[seat]),
                        ("bring_in", options["bring_in"].to),
                        ("complete", None if complete is None else complete.to),
                        ("optional", self._mode == "open"),
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
        self._round_first: int | None = None
        self._round_betting = False
        self._aggressor: int | None = None
        self._to_act: int | None = None
        self._mode: str | None = None
        self._cur = 0
        self._full = 0
        self._step = 0
        self._raises = 0
        self._acted: set[int] = set()
        self._uncapped = False
        self._open_pair = False
        self._start_street(0)

    def _live(self) -> list[int]:
        return [n for n in self._order if not self._seats[n].folded]

    def _bettable(self) -> list[int]:
        return [n for n in self._order if not self._seats[n].folded and not self._seats[n].all_in]

    def _start_street(self, index: int) -> None:
        self._street = index
        street = self.variant.streets[index]
        live = self._live()
        self._runout = None
        if index > 0:
            burn = 1 if self.settings.house.burns else 0
            needed = len(live) * street.cards + burn
            if self._deck_left < needed:
                self._deck_left += self._burned
                self._burned = 0
                self._runout = "burns-back" if self._deck_left >= needed else "community"
            self._deck_left -= burn
            self._burned += burn
        if self._runout == "community":
            self._phase = "community"
            self._need = {}
        else:
            self._phase = "deal"
            self._need = {n: [street.downs, street.ups] for n in live}

    # ------------------------------------------------------------------ checking events

    def _check(self, event: Event) -> Event:
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
        elif not isinstance(event, Misdeal):
            raise HandError(f"{event!r} is not an event of a hand")
        return event

    def _seat(self, number: int) -> _Seat:
        seat = self._seats.get(number)
        if seat is None:
            raise OutOfTurnError(
                "play.error.no_seat", seat=number, seats=", ".join(map(str, sorted(self._seats)))
            )
        return seat

    def _check_new_card(self, card: Card) -> None:
        if not isinstance(card, Card):
            raise DealError(f"{card!r} is not a card")
        holder = self._used.get(card)
        if holder is not None:
            raise DuplicateCardError("play.error.duplicate", card=str(card), where=_Where(holder))

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
                street=_Street(self.variant.street_name(self._street)),
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
        bet, stack, cur = seat.bet, seat.stack, self._cur
        opts: list[LegalAction] = []
        if self._mode is not None:
            if self._mode == "open":
                opts.append(LegalAction("fold", 0, bet))
            bring = min(self.settings.bring_in, stack)
            opts.append(LegalAction("bring_in", bring, bet + bring))
            if stack > self.settings.bring_in and self.settings.bring_in < self._step:
                amount = min(self._step - bet, stack)
                opts.append(LegalAction("complete", amount, bet + amount))
            return [_all_in(o, stack) for o in opts]
        to_call = cur - bet
        if to_call > 0:
            opts.append(LegalAction("call", min(to_call, stack), bet + min(to_call, stack)))
        else:
            opts.append(LegalAction("check", 0, bet))
        if (
            stack > to_call
            and number not in self._acted
            and (self._uncapped or self._raises < 1 + self.settings.house.max_raises)
        ):
            name = "bet" if cur == 0 else ("complete" if self._full == 0 else "raise")
            steps = [self._step]
            if self._open_pair and self._step < self.settings.big_bet:
                steps.append(self.settings.big_bet)
            for step in steps:
                amount = min(self._full + step - bet, stack)
                if opts[-1].action != name or opts[-1].amount != amount:  # an all-in is one
                    opts.append(LegalAction(name, amount, bet + amount))
        if to_call > 0:
            opts.append(LegalAction("fold", 0, bet))
        return [_all_in(o, stack) for o in opts]

    def _check_act(self, event: Act) -> Act:
        if self._phase != "betting":
            raise OutOfTurnError("play.error.not_betting", now=self.prompt())
        if event.seat != self._to_act:
            self._seat(event.seat)
            raise OutOfTurnError("play.error.out_of_turn", seat=event.seat, to_act=self._to_act)
        options = self._options(event.seat)
        allowed = _Words(tuple(options))
        matching = [o for o in options if o.action == event.action]
        if not matching:
            raise IllegalActionError(
                "play.error.illegal",
                seat=event.seat,
                action=_Action(event.action),
                allowed=allowed,
            )
        if event.amount is None:
            if len(matching) > 1:
                raise WrongAmountError(
                    "play.error.amount_needed", action=_Action(event.action),
                    allowed=_Words(tuple(matching)),
                )
            return Act(event.seat, event.action, matching[0].amount)
        for option in matching:
            if option.amount == event.amount:
                return event
        raise WrongAmountError(
            "play.error.amount",
            seat=event.seat,
            action=_Action(event.action),
            amount=event.amount,
            allowed=_Words(tuple(matching)),
        )

    def _must_show(self, number: int) -> bool:
        seat = self._seats[number]
        return seat.all_in and seat.all_in_street < len(self.variant.streets) - 1

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
        return event

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
        self._to_act = None

    # ------------------------------------------------------------------ betting

    def _first_round_opener(self) -> tuple[int, str | None]:
        """The seat that opens the first round and the mode: forced, open (bring-in all in)."""
        forced = self.settings.has_bring_in
        # with a bring-in the low card is found among everyone (W 217: if it is all in, the next
        # player clockwise acts); without one, the best card among those who can bet opens
        live = self._live() if forced else self._bettable()
        ups = {n: self._seats[n].upcards()[0] for n in live}
        if self.variant.opener == "high-card-razz":
            chosen = max(live, key=lambda n: _low_rank_key(ups[n]))
        elif self.variant.opener == "high-card" and not self.settings.house.bring_in:
            chosen = max(live, key=lambda n: ups[n].index)
        else:
            chosen = min(live, key=lambda n: ups[n].index)
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
        last = self._street == len(self.variant.streets) - 1
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
        self._phase = "betting"
        street = self.variant.streets[self._street]
        bettable = self._bettable()
        self._step = self.settings.big_bet if street.big_bet else self.settings.small_bet
        self._cur = 0
        self._full = 0
        self._raises = 0
        self._acted = set()
        self._aggressor = None
        self._mode = None
        self._uncapped = self.settings.house.heads_up_uncapped and len(bettable) == 2
        self._open_pair = False
        if self._street == 1 and self.settings.house.open_pair_double:
            for n in self._live():
                ranks = [c.rank for c in self._seats[n].upcards()]
                if len(set(ranks)) < len(ranks):
                    self._open_pair = True
        if len(bettable) < 2:
            self._round_betting = False
            self._round_first = None
            self._end_round()
            return
        self._round_betting = True
        if self._street == 0:
            first, self._mode = self._first_round_opener()
        else:
            first = self._best_exposed(bettable)
        self._round_first = first
        self._to_act = first

    def _apply_act(self, event: Act) -> None:
        seat = self._seats[event.seat]
        amount = event.amount or 0
        action = event.action
        self._last_action = event
        seat.stack -= amount
        seat.bet += amount
        seat.committed += amount
        if seat.stack == 0 and not seat.all_in:
            seat.all_in = True
            seat.all_in_street = self._street
        if action == "fold":
            seat.folded = True
            live = self._live()
            if len(live) == 1:
                self._finish_fold(live[0])
                return
        elif action in ("check", "call"):
            self._acted.add(event.seat)
        elif action == "bring_in":
            self._mode = None
            self._acted = {event.seat}
            self._cur = max(self._cur, seat.bet)
            if seat.bet >= self._step:
                # a bring-in of a whole small bet is the round's bet: raises go on from it
                self._full = seat.bet
                self._raises = 1
        else:
            self._mode = None
            increment = seat.bet - self._full
            if increment >= self._step or (seat.all_in and 2 * increment >= self._step):
                self._raises += 1
                self._full = seat.bet
                self._acted = {event.seat}
                if self._open_pair and increment >= self.settings.big_bet:
                    self._step = self.settings.big_bet
            else:
                self._acted.add(event.seat)
            self._cur = max(self._cur, seat.bet)
            self._aggressor = event.seat
        self._advance(event.seat)

    def _pending(self, number: int, bettable: int) -> bool:
        seat = self._seats[number]
        if seat.folded or seat.all_in:
            return False
        if self._mode == "open":
            return number not in self._acted and not seat.folded
        return seat.bet < self._cur or (number not in self._acted and bettable >= 2)

    def _advance(self, after: int) -> None:
        bettable = len(self._bettable())
        n = len(self._order)
        start = self._pos[after]
        for k in range(1, n + 1):
            cand = self._order[(start + k) % n]
            if self._pending(cand, bettable):
                self._to_act = cand
                return
        self._end_round()

    def _end_round(self) -> None:
        self._to_act = None
        self._mode = None
        for seat in self._seats.values():
            seat.bet = 0
        if self._street == len(self.variant.streets) - 1:
            self._start_showdown()
        else:
            self._start_street(self._street + 1)

    # ------------------------------------------------------------------ the end of the hand

    def _start_showdown(self) -> None:
        self._phase = "showdown"
        live = self._live()
        if self._aggressor is not None:
            first = self._aggressor
        elif self._round_betting and self._round_first is not None:
            first = self._round_first
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

    def _value(self, number: int, kind: str) -> HandValue | None:
        cards = [c for c in self._seats[number].cards if c is not None] + self._community
        if kind == "high":
            return evaluate_high(cards)
        if kind == "soko":
            return evaluate_soko(cards)
        if kind == "low":
            return evaluate_low(cards)
        return evaluate_low8(cards)

    def _finish_showdown(self) -> None:
        assert self._final_pots is not None
        showdown = self.variant.showdown
        main_kind = {"high": "high", "hilo": "high", "soko": "soko", "low": "low"}[showdown]
        values: dict[int, HandValue] = {}
        lows: dict[int, HandValue] = {}
        for number in self._show_order:
            seat = self._seats[number]
            if seat.shown:
                value = self._value(number, main_kind)
                assert value is not None
                values[number] = value
                if showdown == "hilo":
                    low = self._value(number, "low8")
                    if low is not None:
                        lows[number] = low

        def high_winners(seats: Sequence[int]) -> tuple[list[int], dict[int, HandValue]]:
            if len(seats) == 1:
                return list(seats), {s: values[s] for s in seats if s in values}
            return best(seats, values), values

        def low_winners(seats: Sequence[int]) -> tuple[list[int], dict[int, HandValue]]:
            qualified = [s for s in seats if s in lows]
            if not qualified:
                return [], lows
            return best(qualified, lows), lows

        results: list[PotResult] = []
        for index, pot in enumerate(self._final_pots):
            contenders = [s for s in pot.eligible if not self._seats[s].mucked]
            if not contenders:
                contenders = [[s for s in self._mucks if s in pot.eligible][-1]]
            results.append(
                settle_pot(
                    index,
                    pot,
                    high_winners,
                    low_winners if showdown == "hilo" else None,
                    contenders,
                    self.settings.house.odd_chip,
                    self._order,
                    self.settings.chip_unit,
                    lowball=showdown == "low",
                )
            )
        self._finish(tuple(results), self._returned, showdown=True, paid_back=True)

    def _finish_fold(self, winner: int) -> None:
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
        self._to_act = None
        self._next_show = None


@dataclass(frozen=True, slots=True)
class _Street:
    name: str

    def text(self, lang: str = "en") -> str:
        return translate(f"play.street.{self.name}", lang)


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a card is: a seat, or the middle (0)."""

    seat: int

    def text(self, lang: str = "en") -> str:
        if self.seat == 0:
            return translate("play.community", lang)
        return translate("play.seat", lang, seat=self.seat)


@dataclass(frozen=True, slots=True)
class _Action:
    name: str

    def text(self, lang: str = "en") -> str:
        return translate(f"play.action.{self.name}", lang)


def replay(settings: GameSettings, events: Iterable[Event]) -> Hand:
    """A hand with ``events`` pushed in order."""
    hand = Hand(settings)
    for event in events:
        hand.push(event)
    return hand
