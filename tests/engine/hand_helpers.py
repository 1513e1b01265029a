"""Short ways to write hands in tests: cards per seat as text, actions as (seat, action, amount)."""

from __future__ import annotations

from engine.cards import Card
from engine.events import Act, Deal
from engine.hand import Hand
from engine.settings import GameSettings, HouseRules, SeatConfig


def settings(
    variant: str = "seven-card-stud",
    stacks: dict[int, int] | None = None,
    ante: int = 1,
    bring_in: int = 2,
    small: int = 5,
    big: int = 10,
    dealer: int = 0,
    unit: int = 1,
    **house: object,
) -> GameSettings:
    stacks = stacks or {1: 100, 2: 100, 3: 100}
    return GameSettings(
        variant,
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=big,
        seats=tuple(SeatConfig(n, f"P{n}", s) for n, s in stacks.items()),
        dealer=dealer,
        chip_unit=unit,
        house=HouseRules(**house),  # type: ignore[arg-type]
    )


def deal(hand: Hand, cards: dict[int, str]) -> None:
    """Deal one street: ``{1: "?? ?? 3c", 2: "As Kd 4h"}``; down cards first, ``??`` unknown."""
    for seat, text in cards.items():
        downs, _ = hand.cards_needed()[seat]
        for i, token in enumerate(text.split()):
            up = i >= downs
            card = None if token == "??" else Card.parse(token)
            hand.push(Deal(seat, card, up))


def act(hand: Hand, *actions: tuple[int, str] | tuple[int, str, int]) -> None:
    for a in actions:
        hand.push(Act(a[0], a[1], a[2] if len(a) > 2 else None))


def options(hand: Hand) -> list[tuple[str, int]]:
    """The legal actions as (action, round total after it)."""
    return [(o.action, o.to) for o in hand.legal_actions()]


def check_down(hand: Hand, streets: list[dict[int, str]], show: bool = True) -> None:
    """Deal ``streets`` with the least betting possible (bring in, call, check), then show every
    hand in the order asked."""
    for cards in streets:
        deal(hand, cards)
        passive(hand)
    if show:
        show_all(hand)


def passive(hand: Hand) -> None:
    """Bring in, call or check until the round is over."""
    while hand.to_act is not None:
        legal = {o.action for o in hand.legal_actions()}
        for action in ("bring_in", "check", "call"):
            if action in legal:
                act(hand, (hand.to_act, action))
                break


def show_all(hand: Hand) -> None:
    from engine.events import Show

    while hand.next_to_show is not None:
        seat = hand.next_to_show
        cards = tuple(s.card for s in hand.state.seat(seat).cards if s.card is not None)
        hand.push(Show(seat, cards))


def check(
    hand: Hand, pot: int, to_act: int | None, legal: list[tuple[str, int]] | None = None
) -> None:
    """The pot (every chip committed), the seat to act and its legal actions (action, to)."""
    state = hand.state
    assert state.total_pot == pot, (state.total_pot, pot)
    assert state.to_act == to_act, (state.to_act, to_act)
    if legal is not None:
        assert options(hand) == legal, options(hand)
