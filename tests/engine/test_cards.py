from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import DECK, Card, CardError, EngineError, format_cards, parse_cards


def test_deck_has_52_distinct_cards_in_index_order() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert [c.index for c in DECK] == list(range(52))
    assert str(DECK[0]) == "2c" and str(DECK[-1]) == "As"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Ah", "Ah"), ("ah", "Ah"), ("AH", "Ah"), ("Td", "Td"), ("10d", "Td"), ("10D", "Td"),
     ("A♥", "Ah"), ("k♠", "Ks"), ("2♣", "2c"), ("9♦", "9d"), (" Qs ", "Qs")],
)
def test_parse_accepts_every_documented_spelling(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["1h", "Ax", "", "A", "11h", "Ahh", "AhKd", "0c", "h2"])
def test_bad_card_names_the_input_and_what_is_allowed(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "ranks are 2-9, T or 10, J, Q, K, A; suits c, d, h, s" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, EngineError)


def test_exact_message_for_1h() -> None:
    with pytest.raises(CardError, match=r"^'1h' is not a card: ranks are 2-9, T or 10, J, Q, K, A; "
                       r"suits c, d, h, s$"):
        Card.parse("1h")


def test_parse_cards_reads_runs_and_lists() -> None:
    assert format_cards(parse_cards("AhKd 7c")) == "Ah Kd 7c"
    assert format_cards(parse_cards("10h,Jh; Qh")) == "Th Jh Qh"
    assert parse_cards(["Ah", Card.parse("2c")]) == (Card.parse("Ah"), Card.parse("2c"))
    assert parse_cards("") == ()


def test_parse_cards_refuses_duplicates_and_garbage() -> None:
    with pytest.raises(CardError, match="Ah appears twice"):
        parse_cards("Ah Kd ah")
    with pytest.raises(CardError, match="cannot read 'Zz'"):
        parse_cards("Ah Zz")


def test_suit_order_and_card_order() -> None:
    c, d, h, s = (Card.parse(x) for x in ("2c", "2d", "2h", "2s"))
    assert c < d < h < s
    assert Card.parse("As") > Card.parse("Kc")
    assert sorted(parse_cards("As 2d 2c Kh")) == list(parse_cards("2c 2d Kh As"))


def test_cards_are_frozen_and_interned() -> None:
    card = Card.parse("Qh")
    assert card is Card.parse("qh") is Card.from_index(card.index)
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    with pytest.raises(CardError):
        Card(15, "h")
    with pytest.raises(CardError, match="0 to 51"):
        Card.from_index(52)


def test_symbols_for_screens() -> None:
    assert Card.parse("Th").symbol == "10♥"
    assert Card.parse("As").symbol == "A♠"


@given(st.sampled_from(DECK))
def test_format_parse_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.symbol) is card
    assert eval(repr(card)) is card


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=10), st.sampled_from([" ", "", ","]))
def test_list_round_trip(cards: list[Card], sep: str) -> None:
    assert list(parse_cards(format_cards(cards, sep))) == cards
