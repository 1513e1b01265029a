"""What a hand asks for and accepts now: the dealer's prompt, each seat's legal actions, and the
check an event must pass before it is applied (an event that does not fit raises the
:class:`~engine.hand_errors.HandError` child that says why, naming what is allowed).
:class:`HandChecks` is the base of :class:`~engine.hand.Hand`."""

from __future__ import annotations

from engine.cards import Card, format_cards
from engine.events import Act, Community, Deal, Event, Expose, Identify, Muck, Show, check_fields
from engine.hand_errors import (
    DealError,
    DuplicateCardError,
    HandOverError,
    IllegalActionError,
    OutOfTurnError,
    ShowdownError,
    WrongAmountError,
)
from engine.hand_play import HandPlay, Seat
from engine.prompt import ActionWord, LegalAction, Prompt, StreetWord, Where, Words


class HandChecks(HandPlay):
    """The prompt and the checks of a hand (see the module's text)."""

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

    def _seat(self, number: int) -> Seat:
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

