"""How a hand plays its events: the hand's state, set up from the settings (antes, the first
street), and what each event does to it: cards dealt, the betting rounds, the showdown and the
end of the hand with its pots settled (docs/rules.md names each rule). :class:`HandPlay` is the
base of :class:`~engine.hand.Hand`; an event reaches it only once checked
(:mod:`engine.hand_checks`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.betting import BettingRound, Opening
from engine.cards import Card
from engine.deck import street_deck
from engine.evaluate import EVALUATORS, HandValue, bring_in_order, evaluate_exposed
from engine.events import Act, Community, Deal, Event, Expose, Identify, Misdeal, Muck, Show
from engine.pots import Pot, build_pots
from engine.settings import GameSettings
from engine.showdown import HandResult, PotResult, Share, settle
from engine.variants import Ranking, Variant


class Seat:
    """A seat's part in the hand: its chips in front and in the pot, its cards (None: a down card
    not entered), whether it folded, went all in (and on which street), showed or mucked."""

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


class HandPlay:
    """The state of a hand and how events change it (see the module's text)."""

    settings: GameSettings
    variant: Variant
    _order: tuple[int, ...]
    _pos: dict[int, int]

    # ------------------------------------------------------------------ setting up

    def _reset(self) -> None:
        st = self.settings
        self._seats: dict[int, Seat] = {}
        for cfg in st.seats:
            seat = Seat(cfg.number, cfg.name, cfg.stack)
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

