"""Recognition, stage 2 (read): an ace or number card in full view read by counting its pips, and
a 6 told from a 9 by its loop."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.camera import decide, pips
from hardware.camera.find import Corners
from hardware.camera.nets import RANK_CLASSES, SUIT_CLASSES
from hardware.camera.params import DEFAULT, Params
from hardware.camera.recognize import Recognizer
from hardware.camera.types import Frame, Glyph
from hardware.camera.upright import six_or_nine
from tests.hardware.drawn import FELT, glyph, lay, tilted, worn
from tests.hardware.stages import assemble, sure_cards


def test_a_card_in_full_view_is_read_by_counting_its_pips(reader: Recognizer) -> None:
    cards = ["Ah", "2c", "3d", "4s", "5h", "6c", "7d", "8s", "9h", "Tc"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        lay(scene, worn(card), 60 + (i % 5) * 240, 60 + (i // 5) * 330, -25 + i * 11)
    for view in (scene, tilted(scene, 1.0)):
        assert sure_cards(reader, view) == set(cards)
    # placed over the card's face: the 7 of diamonds' face, 136 x 190, is centred at (368, 485)
    seven = next(c for c in reader.read(scene).cards if c.card == "7d")
    assert str(seven.source) == "read/pips/count"
    quad = np.array(seven.quad)
    sides = sorted(np.hypot(*(np.roll(quad, -1, axis=0) - quad).T))
    assert np.hypot(*(quad.mean(axis=0) - (368, 485))) < 6, seven.quad
    assert 126 < sides[0] < 146 and 180 < sides[-1] < 200, sides
    # the worn indices alone name none of them surely
    without = reader.using(DEFAULT.without("pip-count"))
    assert all(c.confidence < 0.9 for c in without.read(scene).cards)


def _two_of_clubs(gray: np.ndarray, pips_: list[Glyph], ranks: list[Glyph] | None = None,
                  p: Params = DEFAULT) -> list[tuple[str, float]]:
    c = Corners(pips_, [], ranks or [], [g for g in pips_ if g.label in "cdhs"], [])
    return [(f.rank.label + f.suit.label, decide.weigh(f).parts)
            for f in pips.count(c, [], Frame(gray), p)]


def test_the_pips_of_a_counted_card_read_apart_make_its_suit_surer() -> None:
    # a 2 drawn on a light card lying square on dark felt: its indices' marks in two opposite
    # corners, its two pips on the middle column, each read as a club, neither surely
    q = DEFAULT.pips
    assert q.combine == 2 and q.veto == 0.85
    gray = np.full((400, 400), 40, np.uint8)
    cv2.rectangle(gray, (100, 60), (240, 260), 230, -1)
    for x, y in ((112, 75), (228, 245)):
        cv2.rectangle(gray, (x - 4, y - 6), (x + 4, y + 6), 30, -1)
    for y in (110, 210):
        cv2.rectangle(gray, (158, y - 12), (182, y + 12), 30, -1)
    top, bottom = glyph("c", 0.87, 170, 110, 25), glyph("c", 0.89, 170, 210, 25)
    (card, confidence), = _two_of_clubs(gray, [top, bottom])
    # two pips read at 0.87 and 0.89: the suit as sure as 1 - 0.13 x 0.11
    assert card == "2c" and confidence == pytest.approx(q.rank_prob * (1 - 0.13 * 0.11))
    assert confidence >= 0.9
    # one pip read only: as sure as that pip
    (card, confidence), = _two_of_clubs(gray, [top, replace(bottom, label="other", prob=0.9)])
    assert card == "2c" and confidence == pytest.approx(q.rank_prob * 0.87)
    # a pip read as another suit leaves the card unread, as before
    assert _two_of_clubs(gray, [top, replace(bottom, label="s", prob=0.6)]) == []
    # so does a rank read on the face that names another rank, from Pips.veto (a speck of an
    # Oxygen picture read as a king at 0.82 kept a 4 of diamonds unread from 0.7)
    king = glyph("K", q.veto, 205, 160, 10)
    assert _two_of_clubs(gray, [top, bottom], [king]) == []
    assert [c for c, _ in _two_of_clubs(gray, [top, bottom], [replace(king, prob=0.84)])] \
        == ["2c"]
    assert [c for c, _ in _two_of_clubs(gray, [top, bottom], [replace(king, cx=300.0)])] \
        == ["2c"]  # off it
    # without the rule, the surest pip's reading only
    (card, confidence), = _two_of_clubs(gray, [top, bottom], p=DEFAULT.with_(pips={
        "combine": None}))
    assert card == "2c" and confidence == pytest.approx(q.rank_prob * 0.89)
    assert confidence < 0.9


def test_a_counted_card_keeps_the_index_at_its_border() -> None:
    # the 2 of the test above, its bottom index's mark printed against the card's border (as an
    # index looks when the card's border line is lost in the blur of the card beneath): not a
    # hole in the face but a notch in its outline. The face's hull holds it: two corners
    # printed, the card is whole
    gray = np.full((400, 400), 40, np.uint8)
    cv2.rectangle(gray, (100, 60), (240, 260), 230, -1)
    cv2.rectangle(gray, (108, 69), (116, 81), 30, -1)
    cv2.rectangle(gray, (230, 239), (240, 251), 30, -1)  # against the right border
    for y in (110, 210):
        cv2.rectangle(gray, (158, y - 12), (182, y + 12), 30, -1)
    pips_ = [glyph("c", 0.97, 170, 110, 25), glyph("c", 0.96, 170, 210, 25)]
    assert [c for c, _ in _two_of_clubs(gray, pips_)] == ["2c"]
    # a card in full view only: the same marks on a face running on past the picture's edge
    assert _two_of_clubs(np.ascontiguousarray(gray[:, :236]), pips_) == []


def test_a_counted_card_lying_on_another_is_traced_apart_along_its_border(
        reader: Recognizer) -> None:
    # the 5 of hearts lying on the 9 of spades, both faces light, their indices worn: small and
    # out of focus, the two faces are of one shade but for the thin line of the 5's border, and
    # traced as one they are no card. Cut along that line, the 5 lies in full view and its pips
    # are counted; the 9, partly covered, is not
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    lay(scene, worn("9s"), 100, 150, 0)
    lay(scene, worn("5h"), 160, 190, 20)
    uncut = reader.using(DEFAULT.with_(pips={"cut": None}))
    for scale, blur in ((0.6, 1.5), (0.45, 1.0)):
        view = cv2.GaussianBlur(cv2.resize(scene, None, fx=scale, fy=scale,
                                           interpolation=cv2.INTER_AREA), (0, 0), blur)
        assert sure_cards(reader, view) == {"5h"}, scale
        assert sure_cards(uncut, view) == set(), scale


def test_pips_whose_suits_disagree_are_read_again_upright(reader: Recognizer) -> None:
    # the 9 of spades in full view, its indices worn; read at any angle, its shaded spades may
    # pass for clubs (Oxygen's do): the suits of its pips disagree, and it was left unread. Read
    # again upright, each pip turned as printed, they are spades
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    lay(scene, worn("9s"), 500, 200, 15)
    frame = reader.frame(scene)
    glyphs = reader.glyphs(frame)
    spades = [g for g in glyphs if g.label == "s" and g.prob >= 0.9 and g.size >= 20]
    assert len(spades) == 9
    # as the glyph classifier read Oxygen's: a third of them clubs, unsure
    confused = [replace(g, label="c", prob=0.7) if k % 3 == 0 else g
                for k, g in enumerate(spades)]
    glyphs = [g for g in glyphs if g not in spades] + confused
    c = Corners(glyphs, [], [g for g in glyphs if g.label in RANK_CLASSES and g.prob >= 0.3],
                [g for g in glyphs if g.label in SUIT_CLASSES and g.prob >= 0.3], [])
    turns: list[list[tuple[float, float]]] = []
    upright = reader.upright(frame)
    assert upright is not None

    def counted(gl: list[Glyph], downs: list[tuple[float, float]]) -> np.ndarray:
        turns.append(downs)
        return upright(gl, downs)

    found = pips.count(c, [], frame, DEFAULT, None, counted)
    assert [(f.rank.label, f.suit.label) for f in found] == [("6", "s")]
    w = decide.weigh(found[0])
    assert w.card == "9s" and w.suit_p >= 0.9
    # read four ways (the far half turned, the card's top either way; every pip upright)
    assert len(turns) == 1 and len(turns[0]) == 4 * 9
    # without the second reading the card stays unread
    assert pips.count(c, [], frame, DEFAULT.without("pip-upright"), None, counted) == []


def test_pips_are_not_counted_on_a_card_partly_covered_smudged_or_with_a_picture(
        reader: Recognizer) -> None:
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    # a stud fan: the 9 of spades under the 5 of hearts, two of its pips columns in view
    lay(scene, worn("9s"), 100, 150, 0)
    lay(scene, worn("5h"), 180, 150, 0)
    # a king, its indices worn: a picture and a pip
    lay(scene, worn("Kh"), 500, 150, 12)
    # an 8 with a thumb's smudge over one pip
    eight = worn("8c")
    cv2.circle(eight, (40, 50), 17, (90, 90, 90), -1)
    lay(scene, eight, 800, 150, -8)
    # a 6 with one pip rubbed out: five pips that are no layout
    six = worn("6d")
    six[130:165, 20:60] = 255
    lay(scene, six, 1050, 150, 5)
    # two faces with no border line, touching edge to edge: they trace as one face of a card's
    # proportions, with four pips in two suits
    for x, card in ((60, "2c"), (196, "2d")):
        face = worn(card)
        face[:3], face[-3:], face[:, :3], face[:, -3:] = 255, 255, 255, 255
        lay(scene, face, x, 420, 0)
    # cards cut by the picture's edge: what is in view looks like a whole card of fewer pips
    # (the 10 as a 5, the 9 as a 7, the 6 as a 4)
    for x, card, seen in ((500, "Ts", 114), (750, "9s", 150), (1000, "6h", 126)):
        lay(scene, worn(card), x, 720 - seen, 0)
    assert sure_cards(reader, scene) == {"5h"}


# -- the loop of a 6 or 9 ----
def _six(loop: int) -> np.ndarray:
    img = np.full((80, 40), 230, np.uint8)
    cv2.line(img, (22, 28), (14, 42), 40, 3)
    cv2.circle(img, (20, 46), 6, 40, -1)
    cv2.circle(img, (20, 46), 2, loop, -1)  # the loop: 230 when sharp, darker when blurred
    return img


def test_a_loop_blurred_nearly_shut_still_tells_a_six_from_a_nine() -> None:
    from hardware.camera.candidates import glyph_hole

    rank = Glyph(10, 26, 18, 28, 20, 40, True, "6", 0.99)
    below, above = glyph("h", 0.99, 20, 66, 10), glyph("h", 0.99, 20, 14, 10)
    for loop in (230, 110):
        hole = glyph_hole(_six(loop), rank)
        assert hole is not None and hole[1] > 44, (loop, hole)
        # the loop toward the suit is a 6; away from it, a 9 (the index seen the other way up)
        assert six_or_nine(rank, below, _six(loop)) == "6"
        assert [c.card for c in assemble([rank, below], _six(loop), 0.0).cards] == ["6h"]
        assert [c.card for c in assemble([rank, above], _six(loop), 0.0).cards] == ["9h"]
    # a suit read again beside it (a large corner pip) makes a 6 surer, as it does any rank
    unsure, pip = glyph("h", 0.90, 20, 66, 10), glyph("h", 0.99, 40, 62, 20)
    read = assemble([rank, unsure, pip], _six(230), 0.0).cards
    assert [(c.card, round(c.confidence, 4)) for c in read] == [("6h", 0.9801)]
    # shut: no loop, no guess; the rule off: no guess either
    assert glyph_hole(_six(60), rank) is None
    assert assemble([rank, below], _six(60), 0.0).cards == []
    assert assemble([rank, below], _six(230), 0.0, p=DEFAULT.without("loop")).cards == []


def test_a_loop_in_the_middle_of_the_glyph_is_neither_a_six_nor_a_nine() -> None:
    # a ring in the middle of the glyph's box under a heavy top stroke: the ink centroid lies
    # above the loop, but the loop is no nearer one end than the other
    from hardware.camera.candidates import glyph_hole

    img = np.full((80, 40), 230, np.uint8)
    cv2.rectangle(img, (12, 26), (28, 33), 40, -1)
    cv2.circle(img, (20, 40), 6, 40, 3)
    cv2.line(img, (20, 46), (20, 54), 40, 3)
    ys, xs = np.nonzero(img < 128)
    rank = Glyph(int(xs.min()), int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1,
                 float(xs.mean()), float(ys.mean()), True, "6", 0.99)
    assert rank.cy < 39  # the heavy top stroke pulls the centroid up, above the loop
    hole = glyph_hole(img, rank)
    assert hole is not None and abs(hole[1] - 40) < 1.5, hole
    suit = glyph("h", 0.99, 20, 68, 14)
    assert assemble([rank, suit], img, 0.0).cards == []
