"""How each pot is pushed: winners, hi/lo halves, ties in whole chips and the odd chips' reasons
(docs/rules.md §6).

The hand calls :func:`settle` once the showdown is over.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.beats import Beaten
from engine.cards import Card
from engine.evaluate import HandValue
from engine.i18n import translate
from engine.pots import Pot


@dataclass(frozen=True, slots=True)
class Share:
    """What one seat wins from one half of a pot; ``hand`` is None when it won uncontested."""

    seat: int
    amount: int
    hand: HandValue | None

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "seat": self.seat,
            "amount": self.amount,
            "hand": None if self.hand is None else self.hand.name(lang),
            "cards": None if self.hand is None else [str(c) for c in self.hand.cards],
        }


@dataclass(frozen=True, slots=True)
class OddChip:
    """An odd chip and why it went where it did.

    ``rule`` is ``hilo-split`` (the odd chip of halving a pot goes to the high half; ``seat`` is
    None), ``nearest-dealer`` or ``high-card-suit`` (``card`` is the card that decided).
    """

    seat: int | None
    amount: int
    half: str
    rule: str
    card: Card | None = None

    def text(self, lang: str = "en") -> str:
        if self.rule == "hilo-split":
            return translate("play.odd.hilo", lang, amount=self.amount)
        half = translate(f"play.half.{self.half}", lang)
        if self.rule == "nearest-dealer":
            return translate(
                "play.odd.nearest", lang, seat=self.seat, amount=self.amount, half=half
            )
        key = "play.odd.suit_low" if self.half == "low" else "play.odd.suit_high"
        card = "" if self.card is None else self.card.symbol
        return translate(key, lang, seat=self.seat, amount=self.amount, half=half, card=card)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "seat": self.seat,
            "amount": self.amount,
            "half": self.half,
            "rule": self.rule,
            "card": None if self.card is None else str(self.card),
            "reason": self.text(lang),
        }


@dataclass(frozen=True, slots=True)
class PotResult:
    """How one pot is pushed (index 0 is the main pot)."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    high: tuple[Share, ...]
    low: tuple[Share, ...] = ()
    no_low: bool = False
    odd_chips: tuple[OddChip, ...] = ()
    awards: tuple[tuple[int, int], ...] = ()
    beaten: tuple[Beaten, ...] = ()
    """The hands shown for this pot that did not win a half of it, each with why."""

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "index": self.index,
            "name": translate("play.pot.main" if self.index == 0 else "play.pot.side", lang,
                              n=self.index),
            "amount": self.amount,
            "eligible": list(self.eligible),
            "high": [s.to_dict(lang) for s in self.high],
            "low": [s.to_dict(lang) for s in self.low],
            "no_low": self.no_low,
            "odd_chips": [o.to_dict(lang) for o in self.odd_chips],
            "awards": {str(s): a for s, a in self.awards},
            "beaten": [b.to_dict(lang) for b in self.beaten],
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: every pot, the chips given back and the total pushed to each seat."""

    pots: tuple[PotResult, ...]
    returned: tuple[tuple[int, int], ...]
    payouts: tuple[tuple[int, int], ...]
    misdeal: bool = False
    showdown: bool = False

    def payout(self, seat: int) -> int:
        return dict(self.payouts).get(seat, 0)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "misdeal": self.misdeal,
            "showdown": self.showdown,
            "pots": [p.to_dict(lang) for p in self.pots],
            "returned": {str(s): a for s, a in self.returned},
            "payouts": {str(s): a for s, a in self.payouts},
        }


def _deciding_card(hand: HandValue, low: bool, shared: Collection[Card]) -> Card | None:
    """The card that decides an odd chip by suit: the highest of the player's own cards among the
    five that play (the lowest, for a low). A community card is everyone's and decides nothing."""
    own = [c for c in hand.cards if c not in shared]
    if not own:
        return None
    return min(own, key=lambda c: c.low_index) if low else max(own)


def rule_order(
    seats: Sequence[int],
    hands: Mapping[int, HandValue],
    low: bool,
    rule: str,
    clockwise: Sequence[int],
    shared: Collection[Card] = (),
) -> list[tuple[int, Card | None]]:
    """Tied winners in the order they receive odd chips, each with the card that decided (None:
    the seat nearest the dealer took it). docs/rules.md §6: by ``high-card-suit`` the highest card
    by suit among each winner's own playing cards (``shared`` are the community cards), then
    nearest the dealer; by ``nearest-dealer`` clockwise from the dealer."""
    position = {s: i for i, s in enumerate(clockwise)}
    if rule != "high-card-suit" or not all(s in hands for s in seats):
        return [(s, None) for s in sorted(seats, key=position.__getitem__)]
    deciding = {s: _deciding_card(hands[s], low, shared) for s in seats}

    def key(seat: int) -> tuple[int, int, int]:
        card = deciding[seat]
        if card is None:
            return (1, 0, position[seat])
        return (0, card.low_index if low else -card.index, position[seat])

    return [(s, deciding[s]) for s in sorted(seats, key=key)]


def split(
    amount: int,
    winners: Sequence[int],
    hands: Mapping[int, HandValue],
    half: str,
    rule: str,
    clockwise: Sequence[int],
    unit: int,
    low: bool = False,
    shared: Collection[Card] = (),
) -> tuple[list[Share], list[OddChip]]:
    """Split ``amount`` among tied ``winners`` in whole chip units; odd units one each by rule.

    ``half`` is ``high``, ``low`` or ``pot`` (the whole pot); ``low`` says the hands are lows, so
    that the high-card-suit rule looks for the lowest card; ``shared`` are the community cards.
    """
    units = amount // unit
    base, odd = divmod(units, len(winners))
    ordered = rule_order(winners, hands, low, rule, clockwise, shared)
    extra = {s: 0 for s in winners}
    chips: list[OddChip] = []
    for seat, card in ordered[:odd]:
        extra[seat] = unit
        decided_by = rule if card is not None else "nearest-dealer"
        chips.append(OddChip(seat, unit, half, decided_by, card))
    shares = [Share(s, base * unit + extra[s], hands.get(s)) for s, _ in ordered]
    return shares, chips


def best(seats: Sequence[int], hands: Mapping[int, HandValue]) -> list[int]:
    """The seats holding the best of ``hands`` (greater is better)."""
    top = max(hands[s] for s in seats)
    return [s for s in seats if hands[s] == top]


def settle_pot(
    index: int,
    pot: Pot,
    winners_high: Callable[[Sequence[int]], tuple[list[int], Mapping[int, HandValue]]],
    winners_low: Callable[[Sequence[int]], tuple[list[int], Mapping[int, HandValue]]] | None,
    contenders: Sequence[int],
    rule: str,
    clockwise: Sequence[int],
    unit: int,
    lowball: bool = False,
    shared: Collection[Card] = (),
) -> PotResult:
    """Push one pot among ``contenders`` (eligible seats still holding a hand).

    ``winners_high`` gives the best hands of the main ranking (razz's low when ``lowball``);
    ``winners_low`` the qualifying lows of a hi/lo game (None in other games); ``shared`` are the
    community cards, which decide no odd chip.
    """
    high_seats, high_hands = winners_high(contenders)
    low_seats: list[int] = []
    low_hands: Mapping[int, HandValue] = {}
    if winners_low is not None and len(contenders) > 1:
        low_seats, low_hands = winners_low(contenders)
    odd_chips: list[OddChip] = []
    if low_seats:
        units = pot.amount // unit
        high_amount = (units - units // 2) * unit
        low_amount = pot.amount - high_amount
        if high_amount != low_amount:
            odd_chips.append(OddChip(None, high_amount - low_amount, "high", "hilo-split"))
    else:
        high_amount, low_amount = pot.amount, 0
    half = "high" if low_seats else "pot"
    high, chips = split(
        high_amount, high_seats, high_hands, half, rule, clockwise, unit, lowball, shared
    )
    odd_chips.extend(chips)
    low: list[Share] = []
    if low_seats:
        low, chips = split(
            low_amount, low_seats, low_hands, "low", rule, clockwise, unit, True, shared
        )
        odd_chips.extend(chips)
    awards: dict[int, int] = {}
    for share in (*high, *low):
        awards[share.seat] = awards.get(share.seat, 0) + share.amount
    beaten = _beaten(half, contenders, high_seats, high_hands)
    if low_seats:
        shown = [s for s in contenders if s in high_hands]
        beaten += _beaten("low", shown, low_seats, low_hands, no_low=True)
    return PotResult(
        index=index,
        amount=pot.amount,
        eligible=pot.eligible,
        high=tuple(high),
        low=tuple(low),
        no_low=winners_low is not None and len(contenders) > 1 and not low_seats,
        odd_chips=tuple(odd_chips),
        awards=tuple(sorted(awards.items())),
        beaten=tuple(beaten),
    )


def _beaten(
    half: str,
    contenders: Sequence[int],
    winners: Sequence[int],
    hands: Mapping[int, HandValue],
    no_low: bool = False,
) -> list[Beaten]:
    """The contenders' hands that lost ``half`` to ``winners``: the shown ones, and with
    ``no_low`` those with no qualifying low as well (``hands`` then holds only the lows)."""
    if not winners or winners[0] not in hands:
        return []
    top = hands[winners[0]]
    return [
        Beaten(seat, half, hands.get(seat), winners[0], top)
        for seat in contenders
        if seat not in winners and (seat in hands or no_low)
    ]


def settle(
    pots: Sequence[Pot],
    contenders: Sequence[Sequence[int]],
    values: Mapping[int, HandValue],
    lows: Mapping[int, HandValue] | None,
    *,
    rule: str,
    clockwise: Sequence[int],
    unit: int,
    lowball: bool = False,
    shared: Collection[Card] = (),
) -> tuple[PotResult, ...]:
    """Push every pot (docs/rules.md §6), each on its own: ``contenders[i]`` are the seats still
    holding a hand among those who can win ``pots[i]``; ``values`` the shown hands by the game's
    ranking (razz's low when ``lowball``); ``lows`` the qualifying 8-or-better lows of a hi/lo
    game (None in the other games); ``shared`` the community cards."""

    def high_winners(seats: Sequence[int]) -> tuple[list[int], Mapping[int, HandValue]]:
        if len(seats) == 1:
            return list(seats), {s: values[s] for s in seats if s in values}
        return best(seats, values), values

    def low_winners(seats: Sequence[int]) -> tuple[list[int], Mapping[int, HandValue]]:
        assert lows is not None
        qualified = [s for s in seats if s in lows]
        if not qualified:
            return [], lows
        return best(qualified, lows), lows

    return tuple(
        settle_pot(
            index, pot, high_winners, None if lows is None else low_winners, seats, rule,
            clockwise, unit, lowball=lowball, shared=shared,
        )
        for index, (pot, seats) in enumerate(zip(pots, contenders, strict=True))
    )
