"""PHH hand histories: our files read back the same, pokerkit reads ours and we read pokerkit's."""

from __future__ import annotations

import random
import warnings

import pytest
from pokerkit import HandHistory

from engine.hand import Hand
from engine.hand_errors import PHHError
from engine.phh import finishing_stacks_in_file_order, from_phh, to_phh
from engine.variants import VARIANTS
from tests.engine.hand_driver import play, random_settings
from tests.engine.hand_helpers import act, deal, settings
from tests.engine.pokerkit_driver import SetAside, play_one


def _cards(hand: Hand) -> dict[int, list[str]]:
    return {
        s.number: sorted(str(c.card) for c in s.cards if c.card is not None)
        for s in hand.state.seats
    }


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_our_histories_read_back_to_the_same_hand(variant: str) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        hand = play(Hand(random_settings(rng, variant)), rng, unknown=0.3)
        text = to_phh(hand)
        back = from_phh(text)
        assert back.settings == hand.settings
        assert back.finishing_stacks == hand.finishing_stacks
        assert back.result == hand.result
        assert _cards(back) == _cards(hand)
        assert to_phh(back) == text


def _pokerkit_stacks(text: str) -> list[int]:
    history = HandHistory.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(history)
    return list(states[-1].stacks)


@pytest.mark.parametrize("variant", ["seven-card-stud", "seven-card-stud-hilo", "razz"])
def test_pokerkit_reads_ours_and_we_read_pokerkits(variant: str) -> None:
    checked = 0
    seed = 0
    while checked < 25:
        seed += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours, pk, game = play_one(variant, seed)
        except SetAside:
            continue
        checked += 1
        text = to_phh(ours)
        assert text.startswith(f"variant = \"{VARIANTS[variant].phh_code}\"")
        assert _pokerkit_stacks(text) == finishing_stacks_in_file_order(ours)
        theirs = HandHistory.from_game_state(game, pk).dumps()
        read = from_phh(theirs)
        assert read.finished
        assert finishing_stacks_in_file_order(read) == list(pk.stacks)


def test_a_recorded_pokerkit_history_replays() -> None:
    text = """
variant = 'F7S'
ante_trimming_status = false
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 50]
actions = ['d dh p1 AsKd3c', 'd dh p2 2c2s4c', 'p1 pb', 'p2 cc', 'd dh p1 Th', 'd dh p2 9h',
  'p1 cc', 'p2 cc', 'd dh p1 5c', 'd dh p2 Td', 'p2 cc', 'p1 cc', 'd dh p1 Js', 'd dh p2 4d',
  'p2 cc', 'p1 cc', 'd dh p1 Tc', 'd dh p2 9c', 'p2 cc', 'p1 cc', 'p2 sm 2c2s4c9hTd4d9c',
  'p1 sm AsKd3cTh5cJsTc']
"""
    hand = from_phh(text)
    assert finishing_stacks_in_file_order(hand) == [97, 53]
    assert hand.result is not None
    assert hand.result.pots[0].high[0].hand is not None
    assert hand.result.pots[0].high[0].hand.name() == "Two pair, nines and fours"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("'p2 cc', 'd dh p1 Th'", "'p2 cbr 9', 'd dh p1 Th'"),
         "action 4 ('p2 cbr 9'): seat 2 cannot bet or raise to 9: allowed is complete to 4"),
        (("'p1 pb'", "'p2 pb'"), "action 3 ('p2 pb'): Seat 2 cannot act now: seat 1 is to act"),
        (("'d dh p2 2c2s4c'", "'d dh p2 2c2s4c4c'"), "action 2 ('d dh p2 2c2s4c4c')"),
        (("'d dh p2 2c2s4c'", "'d dh p2 As2s4c'"),
         "action 2 ('d dh p2 As2s4c'): As is already in this hand (seat 1)"),
        (("'p1 pb'", "'p1 jump'"), "action 3 ('p1 jump'): not a stud action"),
        (("'F7S'", "'NT'"), "variant 'NT' is not played here"),
        (("'p1 pb'", "'p9 pb'"), "action 3 ('p9 pb'): 'p9' is not a player"),
    ],
)
def test_bad_histories_name_the_action_and_the_reason(
    change: tuple[str, str], message: str
) -> None:
    text = """variant = 'F7S'
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 50]
actions = ['d dh p1 AsKd3c', 'd dh p2 2c2s4c', 'p1 pb', 'p2 cc', 'd dh p1 Th']
"""
    bad = text.replace(*change)
    assert bad != text
    with pytest.raises(PHHError) as info:
        from_phh(bad)
    assert message in str(info.value)


def test_five_card_stud_and_soko_use_our_own_codes() -> None:
    for variant, code in (("five-card-stud", "X-F5S"), ("soko", "X-SOKO")):
        hand = Hand(settings(variant, bring_in=0 if variant == "soko" else 2))
        deal(hand, {1: "?? 3c", 2: "?? Kd", 3: "?? 9h"})
        text = to_phh(hand)
        assert f'variant = "{code}"' in text
        assert from_phh(text).state == hand.state
    hand = Hand(settings("five-card-stud"))
    deal(hand, {1: "?? 3c", 2: "?? Kd", 3: "?? 9h"})
    act(hand, (1, "bring_in"), (2, "fold"), (3, "fold"))
    assert from_phh(to_phh(hand)).finishing_stacks == {1: 102, 2: 99, 3: 99}
