"""One betting round of fixed-limit stud: its state, what the seat to act may do, and what an
action does to the round (docs/rules.md §1, §3 and §4).

The hand (:mod:`engine.hand`) moves the chips and finds who acts next; the round keeps the levels,
the raise count and who may still raise.

>>> from engine.settings import GameSettings, SeatConfig
>>> stakes = GameSettings("seven-card-stud", ante=1, bring_in=2, small_bet=5, big_bet=10,
...                       seats=(SeatConfig(1, "Anna", 100), SeatConfig(2, "Bruno", 100)))
>>> round = BettingRound(step=5, opening="forced")
>>> round.options(1, bet=0, stack=99, settings=stakes, callers=2)
[LegalAction(action='bring_in', amount=2, to=2), LegalAction(action='complete', amount=5, to=5)]
>>> round.record(1, "bring_in", bet=2, all_in=False, settings=stakes, callers=2)
>>> round.options(2, bet=0, stack=99, settings=stakes, callers=2)
[LegalAction(action='call', amount=2, to=2), LegalAction(action='complete', amount=5, to=5), \
LegalAction(action='fold', amount=0, to=0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.prompt import LegalAction
from engine.settings import GameSettings

Opening = Literal["forced", "open"]


@dataclass(slots=True)
class BettingRound:
    """The state of the betting round being played; each round starts from a new one."""

    step: int = 0
    """The size of one bet or raise on this round: the small or the big bet (§1); the big bet
    once a big bet is made on an open pair (§3)."""

    current: int = 0
    """The highest bet of the round so far: what a call goes to."""

    full: int = 0
    """The last full bet level: a bet or raise goes to it plus a step. An all-in of less than
    half a step over it does not move it (§4); 0 while nobody has bet (a bring-in of less than
    the small bet is not a bet)."""

    raises: int = 0
    """The full bets and raises made: the bet (or the completion, or a bring-in of the whole
    small bet) and each raise. The round is capped at 1 + ``max_raises`` (§1)."""

    acted: set[int] = field(default_factory=set)
    """The seats that have acted since the betting was last reopened by a full bet or raise: a
    seat here may call but not raise (§4), and is not asked again unless it owes a call."""

    uncapped: bool = False
    """The round has no cap: at most two players could still bet before the cap was reached,
    whether the round started so or came down to two by folds or all-ins (§1, house rule
    ``heads_up_uncapped``)."""

    open_pair: bool = False
    """A pair shows on the open-pair street: a bet or raise may be the big bet (§3, house rule
    ``open_pair_double``)."""

    opening: Opening | None = None
    """The first round's first action, still to come: ``forced`` (the low card must bring in or
    complete) or ``open`` (the low card is all in with the ante, so the next player may fold,
    bring in or complete) (§3). None once it is made, and on later rounds."""

    aggressor: int | None = None
    """The last seat to bet, raise or complete on this round: on the last round it shows first
    (§6)."""

    first: int | None = None
    """The seat that acted first on this round; None when the round has no betting (fewer than
    two players can bet, §4)."""

    to_act: int | None = None
    """The seat to act now; None when nobody is (the round is over or has no betting)."""

    def capped(self, settings: GameSettings) -> bool:
        """Whether the round has reached its cap: the bet and ``max_raises`` raises (§1)."""
        return not self.uncapped and self.raises >= 1 + settings.house.max_raises

    def can_raise(self, number: int, settings: GameSettings, callers: int) -> bool:
        """Whether ``number`` may still bet or raise: another player could still call it (§4),
        it has not acted since the last full raise (§4), and the round is not capped (§1)."""
        return callers >= 2 and number not in self.acted and not self.capped(settings)

    def count_callers(self, callers: int, settings: GameSettings) -> None:
        """Note how many players could still put chips in: once at most two can, before the cap
        is reached, the round is heads-up and has no cap (§1, house rule ``heads_up_uncapped``)."""
        if settings.house.heads_up_uncapped and callers <= 2 and not self.capped(settings):
            self.uncapped = True

    def options(
        self, number: int, bet: int, stack: int, settings: GameSettings, callers: int
    ) -> list[LegalAction]:
        """What seat ``number``, with ``bet`` in front of it this round and ``stack`` behind, may
        do. ``callers`` is how many players could still put chips in, this seat among them: a bet
        or raise nobody else could call is not offered (§4)."""
        opts: list[LegalAction] = []
        if self.opening is not None:
            # §3: the bring-in, or the optional first action when the low card is all in
            if self.opening == "open":
                opts.append(LegalAction("fold", 0, bet))
            bring = min(settings.bring_in, stack)
            opts.append(LegalAction("bring_in", bring, bet + bring))
            if stack > settings.bring_in and settings.bring_in < self.step:
                amount = min(self.step - bet, stack)
                opts.append(LegalAction("complete", amount, bet + amount))
            return opts
        to_call = self.current - bet
        if to_call > 0:
            opts.append(LegalAction("call", min(to_call, stack), bet + min(to_call, stack)))
        else:
            opts.append(LegalAction("check", 0, bet))
        if stack > to_call and self.can_raise(number, settings, callers):
            name = "bet" if self.current == 0 else ("complete" if self.full == 0 else "raise")
            steps = [self.step]
            if self.open_pair and self.step < settings.big_bet:
                steps.append(settings.big_bet)
            for step in steps:
                amount = min(self.full + step - bet, stack)
                if opts[-1].action != name or opts[-1].amount != amount:  # an all-in is one
                    opts.append(LegalAction(name, amount, bet + amount))
        if to_call > 0:
            opts.append(LegalAction("fold", 0, bet))
        return opts

    def record(
        self,
        number: int,
        action: str,
        bet: int,
        all_in: bool,
        settings: GameSettings,
        callers: int,
    ) -> None:
        """Seat ``number`` made ``action``; ``bet`` is its round total after it, ``all_in`` says
        whether that took its last chip, ``callers`` how many players could still put chips in
        after it (the hand folds the seat and moves the chips)."""
        if action in ("check", "call"):
            self.acted.add(number)
        elif action == "bring_in":
            self.opening = None
            self.acted = {number}
            self.current = max(self.current, bet)
            if bet >= self.step:
                # a bring-in of a whole small bet is the round's bet: raises go on from it
                self.full = bet
                self.raises = 1
        elif action != "fold":
            self.opening = None
            increment = bet - self.full
            # §4: a full bet or raise, or an all-in of half a step or more, reopens the betting
            if increment >= self.step or (all_in and 2 * increment >= self.step):
                self.raises += 1
                self.full = bet
                self.acted = {number}
                if self.open_pair and increment >= settings.big_bet:
                    self.step = settings.big_bet
            else:
                self.acted.add(number)
            self.current = max(self.current, bet)
            self.aggressor = number
        self.count_callers(callers, settings)

    def pending(self, number: int, bet: int, callers: int) -> bool:
        """Whether seat ``number``, still in and not all in, with ``bet`` in front of it, has to
        act before the round ends; ``callers`` is how many players could still put chips in.
        With nobody else left to bet against, a seat that owes nothing is not asked (§4), nor
        offered the optional first action (§3)."""
        if self.opening == "open":
            return number not in self.acted and callers >= 2
        return bet < self.current or (number not in self.acted and callers >= 2)
