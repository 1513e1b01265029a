"""Hand histories in the PokerStars text form for stud games, which hand-history viewers and
trackers read; :func:`to_pokerstars` writes one and :func:`from_pokerstars` reads it back.

PokerStars deals no five-card stud or Sökö: those are written in the same form under their own
names. The form has no field for the house rules, the dealer's place or a card exposed by accident:
the reader takes the first two from its caller, and an exposed card is written as the down card it
was. Down cards are written where they were dealt when every down card of the seat is known;
otherwise the seat's up cards only, as PokerStars writes the other players'.

>>> from engine.settings import GameSettings, SeatConfig
>>> from engine.events import Act, Deal
>>> hand = Hand(GameSettings("razz", 1, 2, 4, 8, seats=(SeatConfig(1, "A", 50),
...                                                      SeatConfig(2, "B", 50))))
>>> for event in (Deal(1, None, False), Deal(1, None, False), Deal(1, Card.parse("Kd"), True),
...               Deal(2, None, False), Deal(2, None, False), Deal(2, Card.parse("3c"), True),
...               Act(1, "bring_in"), Act(2, "complete"), Act(1, "fold")):
...     _ = hand.push(event)
>>> print(to_pokerstars(hand, number=12), end="")
PokerStars Hand #12:  Razz Limit (4/8)
Table 'stud-kiosk' 8-max
Seat 1: A (50 in chips)
Seat 2: B (50 in chips)
A: posts the ante 1
B: posts the ante 1
*** 3rd STREET ***
Dealt to A [Kd]
Dealt to B [3c]
A: brings in for 2
B: completes it to 4
A: folds
Uncalled bet (2) returned to B
B collected 6 from pot
B: doesn't show hand
*** SUMMARY ***
Total pot 6 | Rake 0
Seat 1: A folded on the 3rd Street
Seat 2: B collected (6)
>>> from_pokerstars(to_pokerstars(hand)).payouts == hand.payouts
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime

from engine.cards import Card, format_cards, parse_cards
from engine.evaluate import EVALUATORS
from engine.events import Act, Community, Deal, Event, Misdeal, Muck, Show
from engine.hand import Hand
from engine.hand_errors import HandError, PHHError, SettingsError
from engine.hand_state import CardSlot
from engine.settings import GameSettings, HouseRules, SeatConfig

__all__ = ["GAME_NAMES", "from_pokerstars", "to_pokerstars"]

GAME_NAMES = {
    "five-card-stud": "5 Card Stud",
    "seven-card-stud": "7 Card Stud",
    "seven-card-stud-hilo": "7 Card Stud Hi/Lo",
    "soko": "Soko",
    "razz": "Razz",
}
"""Each game's name in the history's first line (followed by ``Limit``)."""

_ORDINAL = {2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"}


def _street_title(held: int) -> str:
    """``3rd STREET`` ...; the seventh card's street is the ``RIVER``."""
    return "RIVER" if held == 7 else f"{_ORDINAL[held]} STREET"


def _cards(cards: list[Card]) -> str:
    return f"[{format_cards(cards)}]"


def _pot_name(index: int, pots: int) -> str:
    if pots == 1:
        return "pot"
    return "main pot" if index == 0 else "side pot" if index == 1 else f"side pot-{index}"


def _names(settings: GameSettings) -> dict[int, str]:
    """Each seat's name in the history: the player's, with the seat number after a name that
    two seats share (each name stands for one player)."""
    names = [s.name for s in settings.seats]
    return {s.number: s.name if names.count(s.name) == 1 else f"{s.name} ({s.number})"
            for s in settings.seats}


class _Writer:
    """Writes the hand event by event, replaying it to know the bets and the streets."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.settings = hand.settings
        self.final = {s.number: s for s in hand.state.seats}
        self.names = _names(self.settings)
        self.order = self.settings.clockwise()
        self.replay = Hand(self.settings)
        self.lines: list[str] = []
        self.written_streets: set[int] = set()
        self.dealt: dict[int, int] = dict.fromkeys(self.order, 0)

    def known(self, seat: int) -> bool:
        """Whether every down card of ``seat`` is known by the end of the hand."""
        return all(s.card is not None for s in self.final[seat].cards if not s.up)

    def street(self, index: int) -> None:
        if index in self.written_streets:
            return
        self.written_streets.add(index)
        streets = self.settings.variant_info.streets
        held = sum(s.cards for s in streets[: index + 1])
        self.lines.append(f"*** {_street_title(held)} ***")
        for seat in self.order:
            slots = self.ordered(seat)
            start, end = self.dealt[seat], min(len(slots), held)
            if start >= end:
                continue
            self.dealt[seat] = end
            before: Sequence[CardSlot] = slots[:start]
            new: Sequence[CardSlot] = slots[start:end]
            # a street dealt in part (a misdeal) is written as PokerStars writes hidden hands
            if not self.known(seat) or len(new) < streets[index].cards:
                before, new = [s for s in before if s.up], [s for s in new if s.up]
            if not new:
                continue
            shown = [_cards([s.card for s in part if s.card]) for part in (before, new) if part]
            self.lines.append(f"Dealt to {self.names[seat]} {' '.join(shown)}")

    def ordered(self, seat: int) -> list[CardSlot]:
        """The seat's cards street by street, each street's down cards before its up cards (the
        dealer may have entered them in another order)."""
        slots = self.final[seat].cards
        out: list[CardSlot] = []
        start = 0
        for street in self.settings.variant_info.streets:
            part = slots[start : start + street.cards]
            out += [s for s in part if not s.up] + [s for s in part if s.up]
            start += street.cards
        return out

    def act(self, event: Act) -> None:
        before_seat, before_round = self.replay.seat_bet(event.seat), self.replay.current_bet
        stored = self.replay.push(event)
        assert isinstance(stored, Act)
        amount, to = stored.amount or 0, before_seat + (stored.amount or 0)
        who = self.names[event.seat]
        text = {
            "bring_in": f"brings in for {amount}",
            "complete": f"completes it to {to}",
            "bet": f"bets {amount}",
            "raise": f"raises {to - before_round} to {to}",
            "call": f"calls {amount}",
            "check": "checks",
            "fold": "folds",
        }[event.action]
        if amount and self.replay.finishing_stacks[event.seat] == 0:
            text += " and is all-in"
        self.lines.append(f"{who}: {text}")

    def hand_name(self, seat: int) -> str:
        """The shown hand in words, by each ranking of the game: ``HI: ...; LO: ...`` in hi/lo."""
        cards = self.own_cards(seat) + list(self.hand.state.community)
        rankings = self.settings.variant_info.rankings
        names = [EVALUATORS[r](cards) for r in rankings]
        if len(rankings) == 1:
            return names[0].name("en") if names[0] is not None else ""
        return "; ".join(f"{half}: {value.name('en')}"
                         for half, value in zip(("HI", "LO"), names, strict=True) if value)

    def own_cards(self, seat: int) -> list[Card]:
        return [s.card for s in self.ordered(seat) if s.card is not None]

    def write(self, number: int, table: str, started: datetime | None) -> str:
        settings = self.settings
        when = "" if started is None else started.strftime(" - %Y/%m/%d %H:%M:%S %Z").rstrip()
        game = GAME_NAMES[settings.variant]
        self.lines += [
            f"PokerStars Hand #{number}:  {game} Limit ({settings.small_bet}/{settings.big_bet})"
            + when,
            f"Table '{table}' {settings.variant_info.max_players}-max",
        ]
        self.lines += [f"Seat {s.number}: {self.names[s.number]} ({s.stack} in chips)"
                       for s in settings.seats]
        stacks = {s.number: s.stack for s in settings.seats}
        for seat in self.order:
            ante = min(settings.ante, stacks[seat])
            if ante:
                self.lines.append(f"{self.names[seat]}: posts the ante {ante}")
        showdown = False
        for event in self.hand.events:
            if isinstance(event, Deal):
                self.street(self.replay.street)
            elif isinstance(event, Act):
                self.act(event)
                continue
            elif isinstance(event, Community):
                held = settings.variant_info.hand_size
                self.lines.append(f"*** {_street_title(held)} *** {_cards([event.card])}")
                self.written_streets.add(self.replay.street)
            elif isinstance(event, Show | Muck) and not showdown:
                showdown = True
                self.lines.append("*** SHOW DOWN ***")
            if isinstance(event, Show):
                name = self.hand_name(event.seat)
                self.lines.append(f"{self.names[event.seat]}: shows "
                                  f"{_cards(self.own_cards(event.seat))}"
                                  + (f" ({name})" if name else ""))
            elif isinstance(event, Muck):
                self.lines.append(f"{self.names[event.seat]}: mucks hand")
            self.replay.push(event)
        self.end()
        return "\n".join(self.lines) + "\n"

    def end(self) -> None:
        result = self.hand.result
        if result is None:
            return
        names = self.names
        if result.misdeal:
            self.lines += ["*** SUMMARY ***", "Hand cancelled"]
            return
        for seat, amount in result.returned:
            self.lines.append(f"Uncalled bet ({amount}) returned to {names[seat]}")
        for pot in result.pots:
            for share in (*pot.high, *pot.low):
                where = _pot_name(pot.index, len(result.pots))
                self.lines.append(f"{names[share.seat]} collected {share.amount} from {where}")
        if not result.showdown and result.pots and result.pots[0].high:
            self.lines.append(f"{names[result.pots[0].high[0].seat]}: doesn't show hand")
        total = sum(p.amount for p in result.pots)
        parts = [f"Total pot {total}"]
        if len(result.pots) > 1:
            parts += [f"{_pot_name(p.index, 2).capitalize()} {p.amount}." for p in result.pots]
        self.lines += ["*** SUMMARY ***", " ".join(parts) + " | Rake 0"]
        if self.hand.state.community:
            self.lines.append(f"Board {_cards(list(self.hand.state.community))}")
        won = dict(result.payouts)
        returned = dict(result.returned)
        for seat in sorted(self.final):
            state = self.final[seat]
            line = f"Seat {seat}: {names[seat]}"
            gained = won.get(seat, 0) - returned.get(seat, 0)
            if state.folded:
                street = self._fold_street(seat)
                line += f" folded on the {street}"
            elif state.shown:
                cards = _cards(self.own_cards(seat))
                name = self.hand_name(seat)
                line += (f" showed {cards} and won ({gained}) with {name}" if gained
                         else f" showed {cards} and lost with {name}")
            elif state.mucked:
                line += " mucked" + (f" {_cards(self.own_cards(seat))}" if self.known(seat)
                                     else "")
            else:
                line += f" collected ({gained})"
            self.lines.append(line)

    def _fold_street(self, seat: int) -> str:
        held = sum(1 for _ in self.final[seat].cards)
        return "River" if held == 7 else f"{_ORDINAL[held]} Street"


def to_pokerstars(
    hand: Hand, *, number: int = 1, table: str = "stud-kiosk", started: datetime | None = None
) -> str:
    """The hand as PokerStars hand-history text: ``number`` its hand number, ``table`` the table's
    name, ``started`` when it was dealt (left out when None)."""
    return _Writer(hand).write(number, table, started)


# -- reading ---------------------------------------------------------------------------------

_HEADER = re.compile(r"^PokerStars Hand #(\d+):\s+(.+?) Limit \((\d+)/(\d+)\)")
_SEAT = re.compile(r"^Seat (\d+): (.+) \((\d+) in chips\)$")
_STREET = re.compile(r"^\*\*\* (?:(\d)(?:st|nd|rd|th) STREET|RIVER) \*\*\*(?: \[(.+)\])?$")
_ANTE = re.compile(r"^(.+): posts the ante (\d+)$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\](?: \[([^\]]*)\])?$")
_ACTIONS = {
    "posts the ante": "ante",
    "brings in for": "bring_in",
    "completes it to": "complete",
    "bets": "bet",
    "raises": "raise",
    "calls": "call",
    "checks": "check",
    "folds": "fold",
    "shows": "show",
    "mucks hand": "muck",
}


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line.rstrip()


def from_pokerstars(text: str, settings: GameSettings | None = None) -> Hand:
    """The hand a history written by :func:`to_pokerstars` tells, replayed through the engine.

    The form has no field for the house rules, the dealer's place or the chip unit, nor for the
    bring-in when nobody brought in: they are taken from ``settings`` when given (the game, the
    stakes, the ante and the seats must then be those of the text), else the engine's defaults
    and a bring-in of 0. A history that cannot be read raises :class:`PHHError` naming the line.
    """
    lines = list(_lines(text))
    header = _HEADER.match(lines[0][1]) if lines else None
    games = {name: game for game, name in GAME_NAMES.items()}
    if header is None or header.group(2) not in games:
        raise PHHError("line 1: not a PokerStars stud hand history (a first line such as "
                       "'PokerStars Hand #1:  7 Card Stud Limit (5/10)')")
    seats: list[SeatConfig] = []
    ante = 0
    bring_in: int | None = None
    for _number, line in lines:
        if match := _SEAT.match(line):
            if not any(s.number == int(match.group(1)) for s in seats):
                seats.append(SeatConfig(int(match.group(1)), match.group(2),
                                        int(match.group(3))))
        elif match := _ANTE.match(line):
            ante = max(ante, int(match.group(2)))
        elif " brings in for " in line and bring_in is None:
            bring_in = int(line.split(" brings in for ")[1].split()[0])
    given = {s.number: s.name for s in settings.seats} if settings else {}
    try:
        read = GameSettings(
            games[header.group(2)], ante=ante,
            bring_in=bring_in if bring_in is not None else settings.bring_in if settings else 0,
            small_bet=int(header.group(3)), big_bet=int(header.group(4)),
            chip_unit=settings.chip_unit if settings else 1,
            house=settings.house if settings else HouseRules(),
            seats=tuple(SeatConfig(s.number, given.get(s.number, s.name), s.stack)
                        for s in seats),
            dealer=settings.dealer if settings else 0,
        )
    except SettingsError as exc:
        raise PHHError(f"the history's settings cannot be played: {exc}") from exc
    if settings is not None and read.to_dict() != settings.to_dict():
        raise PHHError(f"the history's game, stakes, ante or seats ({read.to_dict()}) are not "
                       f"those of the settings given ({settings.to_dict()})")
    return _Reader(read, {s.name: s.number for s in seats}).read(lines)


class _Reader:
    def __init__(self, settings: GameSettings, by_name: dict[str, int]) -> None:
        self.hand = Hand(settings)
        self.by_name = by_name
        self.dealt: dict[int, list[Card]] = {}

    def who(self, line: str) -> tuple[int, str] | None:
        """The seat whose player begins ``line`` (``Name: ...``), the longest name first."""
        for name in sorted(self.by_name, key=len, reverse=True):
            if line.startswith(name + ": "):
                return self.by_name[name], line[len(name) + 2 :]
        return None

    def push(self, event: Event, number: int, line: str) -> None:
        try:
            self.hand.push(event)
        except HandError as exc:
            raise PHHError(f"line {number} ({line!r}): {exc}") from exc

    def deal_street(self, number: int, line: str, whole: bool = True) -> None:
        """The cards of the street read so far: known ones where the lines gave them, and when
        the street was dealt in ``whole``, every other down card unknown."""
        for seat, (downs, ups) in self.hand.cards_needed().items():
            cards = self.dealt.pop(seat, [])
            if len(cards) == downs + ups:
                known: list[Card | None] = list(cards[:downs])
                up_cards = cards[downs:]
            else:
                known, up_cards = [None] * downs if whole else [], cards
            for card in known:
                self.push(Deal(seat, card, up=False), number, line)
            for card in up_cards:
                self.push(Deal(seat, card, up=True), number, line)
        self.dealt.clear()

    def read(self, lines: list[tuple[int, str]]) -> Hand:
        for number, line in lines:
            if self.hand.cards_needed() and self.street_over(line):
                # a hand cancelled while a street was dealt: the hidden cards dealt before it
                # are not written, and they change nothing
                self.deal_street(number, line, whole=line != "Hand cancelled")
            if (match := _STREET.match(line)) and match.group(2):
                self.push(Community(Card.parse(match.group(2))), number, line)
            elif match := _DEALT.match(line):
                seat = self.by_name.get(match.group(1))
                if seat is None:
                    raise PHHError(f"line {number} ({line!r}): no player is named so")
                self.dealt[seat] = list(parse_cards(match.group(3) or match.group(2)))
            elif line == "Hand cancelled":
                self.push(Misdeal(), number, line)
            elif said := self.who(line):
                self.action(*said, number, line)
        return self.hand

    def street_over(self, line: str) -> bool:
        """Whether ``line`` comes after the cards of the street being dealt: an action, the
        showdown, the end, or the title of a later street."""
        if match := _STREET.match(line):
            held = 7 if match.group(1) is None else int(match.group(1))
            streets = self.hand.variant.streets
            return held > sum(s.cards for s in streets[: self.hand.street + 1])
        if line.startswith(("Dealt to ", "Seat ", "PokerStars ", "Table ", "*** SUMMARY")):
            return False
        said = self.who(line)
        return said is None or not said[1].startswith("posts the ante")

    def action(self, seat: int, said: str, number: int, line: str) -> None:
        verb = next((v for v in _ACTIONS if said.startswith(v)), None)
        if verb is None:
            return  # "doesn't show hand" and other words that change nothing
        kind = _ACTIONS[verb]
        words = said[len(verb):].replace(" and is all-in", "").split()
        if kind == "ante":
            return
        if kind == "show":
            cards = parse_cards(said[len(verb):].split("]")[0].strip(" ["))
            known = [s.card for s in self.hand.state.seat(seat).cards if s.card is not None]
            self.push(Show(seat, tuple(c for c in cards if c not in known)), number, line)
            return
        if kind == "muck":
            self.push(Muck(seat), number, line)
            return
        amount: int | None = None
        if kind in ("bring_in", "bet", "call"):
            amount = int(words[0])
        elif kind == "complete":
            amount = int(words[0]) - self.hand.seat_bet(seat)
        elif kind == "raise":
            amount = int(words[-1]) - self.hand.seat_bet(seat)
        self.push(Act(seat, kind, amount), number, line)
