"""Events made in Python with fields of the wrong kind are refused as the JSON path refuses them:
a :class:`HandError` that says what is allowed, the hand unchanged, ``hand.can`` False."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.cards import Card
from engine.events import Act, Deal, Event, Identify, Show, event_from_dict
from engine.hand import Hand
from engine.hand_errors import HandError
from tests.engine.hand_helpers import check_down, deal, settings


def _refused(hand: Hand, event: Event) -> HandError:
    before, events = hand.state, hand.events
    assert not hand.can(event)
    with pytest.raises(HandError) as info:
        hand.push(event)
    assert hand.state == before and hand.events == events
    return info.value


def _bring_in_hand() -> Hand:
    hand = Hand(settings(bring_in=1))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    return hand


@pytest.mark.parametrize("amount", [1.0, Decimal(1), True], ids=["float", "decimal", "bool"])
def test_an_amount_that_is_not_a_whole_number_of_chips_is_refused(amount: object) -> None:
    hand = _bring_in_hand()
    error = _refused(hand, Act(1, "bring_in", amount))  # type: ignore[arg-type]
    assert str(error) == (
        f"The amount must be a whole number of chips, or none for the only legal one; "
        f"not {amount!r}"
    )
    assert error.text("it").startswith("L'importo deve essere un numero intero di fiche")
    hand.push(Act(1, "bring_in", 1))
    assert hand.state.seat(1).bet == 1 and type(hand.events[-1]) is Act


@pytest.mark.parametrize(
    "seat", [1.0, Decimal(1), True, "1"], ids=["float", "decimal", "bool", "text"]
)
def test_a_seat_that_is_not_a_seat_number_is_refused(seat: object) -> None:
    hand = _bring_in_hand()
    error = _refused(hand, Act(seat, "bring_in"))  # type: ignore[arg-type]
    assert str(error) == f"A seat is given by its number, such as 3; not {seat!r}"
    fresh = Hand(settings())
    _refused(fresh, Deal(seat, None, False))  # type: ignore[arg-type]
    _refused(fresh, Identify(seat, Card.parse("Ah")))  # type: ignore[arg-type]


def test_an_unknown_action_is_refused_with_the_actions_allowed() -> None:
    hand = _bring_in_hand()
    error = _refused(hand, Act(1, "shove"))
    assert str(error) == (
        "'shove' is not an action: the actions are bring_in, complete, bet, raise, call, check, "
        "fold"
    )
    with pytest.raises(HandError):
        hand.verify(Act(1, None))  # type: ignore[arg-type]


def test_a_card_that_is_not_a_card_value_is_refused() -> None:
    hand = Hand(settings())
    error = _refused(hand, Deal(1, "Ah", True))  # type: ignore[arg-type]
    assert str(error) == "'Ah' is not a card: give a Card, such as Card.parse('Ah')"
    _refused(hand, Deal(1, Card.parse("Ah"), "up"))  # type: ignore[arg-type]
    assert str(_refused(hand, Deal(1, Card.parse("Ah"), 1))) == (  # type: ignore[arg-type]
        "'up' must be true or false, not 1"
    )


def test_a_show_needs_a_sequence_of_cards() -> None:
    hand = Hand(settings())
    assert str(_refused(hand, Show(1, "Ah Kd"))) == (  # type: ignore[arg-type]
        "A show needs a list of cards, not 'Ah Kd'"
    )
    _refused(hand, Show(1, ("Ah",)))  # type: ignore[arg-type]


def test_a_show_given_as_a_list_is_stored_as_a_tuple_and_replays_equal() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100}))
    streets = [{1: "?? ?? 3c", 2: "?? ?? Kd"}, {1: "4c", 2: "4d"}, {1: "5c", 2: "5d"},
               {1: "6c", 2: "6d"}, {1: "??", 2: "??"}]
    check_down(hand, streets, show=False)
    seat = hand.next_to_show
    assert seat is not None
    cards = [Card.parse(c) for c in ("As", "Ks", "Qs")]
    stored = hand.push(Show(seat, cards))  # type: ignore[arg-type]
    assert isinstance(stored, Show) and stored.cards == tuple(cards)
    assert event_from_dict(stored.to_dict()) == stored


def test_the_json_path_refuses_the_same_fields_with_the_same_words() -> None:
    with pytest.raises(HandError) as info:
        event_from_dict({"type": "act", "seat": 1, "action": "call", "amount": 2.5})
    assert str(info.value) == (
        "{'type': 'act', 'seat': 1, 'action': 'call', 'amount': 2.5}: The amount must be a "
        "whole number of chips, or none for the only legal one; not 2.5"
    )
    with pytest.raises(HandError) as info:
        event_from_dict({"type": "act", "seat": 1, "action": "shove"})
    assert "'shove' is not an action: the actions are bring_in" in str(info.value)
