"""Recognition, stage 3 (decide): a card is named only where its evidence agrees and is sure; the
other corners are unknown. Over a frame: one reading per card, its other corner, one card an
index, and the enlarged frame's readings read in detail."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera import decide
from hardware.camera.params import DEFAULT
from hardware.camera.recognize import Recognizer, load_image
from hardware.camera.types import CardReading, Evidence, Found, Source, card_quad
from tests.hardware.drawn import FIXTURES, VALIDATION, glyph
from tests.hardware.stages import assemble

GLYPHS = Source("read", "glyphs", "rank")
OTHER = Source("read", "other", "reader")
QUAD = ((0.0, 0.0), (70.0, 0.0), (70.0, 100.0), (0.0, 100.0))


def _corner(x: int, *evidence: tuple[str, str, float] | tuple[str, str, float, bool]) -> Found:
    """A corner at (``x``, 100) with evidence given as (rank, suit, p[, against])."""
    r, s = glyph("K", 1.0, x, 100, 10), glyph("h", 1.0, x, 114, 7)
    return Found(r, s, True, card_quad(r, s), GLYPHS,
                 [Evidence(OTHER if i > 1 else GLYPHS, e[2], e[0], e[1], *e[3:])
                  for i, e in enumerate(evidence)])


def test_decide_names_a_card_where_its_evidence_agrees_and_is_sure() -> None:
    sure = _corner(100, ("K", "", 0.99), ("", "h", 0.98))
    agreed = _corner(300, ("Q", "", 0.9), ("", "s", 0.9), ("Q", "s", 0.95))
    doubted = _corner(500, ("7", "", 0.95), ("", "d", 0.95), ("2", "", 0.8, True))
    untold = _corner(700, ("6", "", 0.99), ("", "c", 0.99))
    told = _corner(900, ("6", "", 0.99), ("", "d", 0.99), ("9", "", 1.0))
    found = [sure, agreed, doubted, untold, told]
    read, unknown = decide.readings(found, {})
    assert [(r.card, round(r.confidence, 4)) for r, _size in read] == [
        ("Kh", 0.9702), ("Qs", 0.9905), ("7d", 0.1805), ("9d", 0.9801)]
    assert unknown == 1  # the 6 or 9 not told names no card
    result = decide.frame_result(read, unknown, DEFAULT, 0.9)
    assert [c.card for c in result.cards] == ["Kh", "Qs", "9d"]
    assert result.unknown == 2
    # the corner read unsurely is left for the dealer to name: where its index was found
    assert [c.center for c in result.unread] == [(500, 100)]
    # each card carries the evidence it was named from
    assert [str(e.source) for e in result.cards[1].evidence] == [
        "read/glyphs/rank", "read/glyphs/rank", "read/other/reader"]
    # an index suit a larger pip outweighs names no card, nor any other reading of that rank
    assert decide.readings([sure], {id(sure.rank): "h"}) == ([], 0)
    assert not decide.named(sure, {id(sure.rank): "h"}) and decide.named(sure, {})


def test_the_evidence_of_a_corner_is_weighed_in_its_order() -> None:
    # a suit read again stands when surer; a reading against a part weighs 1 - p against it;
    # whole-card readings of the card make it surer in turn, of another card less sure
    w = decide.weigh(_corner(0, ("K", "", 0.9), ("", "h", 0.6), ("", "h", 0.8), ("", "d", 0.9)))
    assert (w.rank, w.suit, w.rank_p, w.suit_p) == ("K", "h", 0.9, 0.8)
    w = decide.weigh(_corner(0, ("K", "", 0.9), ("", "h", 0.8), ("", "d", 0.5, True)))
    assert w.suit_p == pytest.approx(0.4) and w.parts == pytest.approx(0.36)
    w = decide.weigh(_corner(0, ("K", "", 0.9), ("", "h", 0.8), ("K", "h", 0.9), ("K", "h", 0.5)))
    assert w.confidence == pytest.approx(1 - 0.28 * 0.1 * 0.5)
    w = decide.weigh(_corner(0, ("K", "", 0.9), ("", "h", 0.8), ("K", "d", 0.9)))
    assert w.confidence == pytest.approx(0.72 * 0.1)
    # another card read unsurely says nothing against it
    w = decide.weigh(_corner(0, ("K", "", 0.9), ("", "h", 0.8), ("K", "d", 0.4)))
    assert w.confidence == pytest.approx(0.72)
    # a 6 or 9: a "6" whole reading is of either; a "9" is of a 9 unless told a 6
    w = decide.weigh(_corner(0, ("6", "", 0.9), ("", "h", 0.8), ("9", "", 1.0), ("6", "h", 0.9)))
    assert w.card == "9h" and w.confidence == pytest.approx(1 - 0.28 * 0.1)
    w = decide.weigh(_corner(0, ("6", "", 0.9), ("", "h", 0.8), ("6", "", 1.0), ("9", "h", 0.9)))
    assert w.card == "6h" and w.confidence == pytest.approx(0.72 * 0.1)


def test_a_suit_read_twice_beside_the_rank_is_surer() -> None:
    blank = np.full((200, 300), 235, np.uint8)  # no face can be traced: only the glyphs count
    seven, small_heart = glyph("7", 0.99, 50, 50, 10), glyph("h", 0.90, 50, 64, 7)
    big_heart = glyph("h", 0.99, 68, 62, 20)
    read = assemble([seven, small_heart, big_heart], blank, 0.0).cards
    assert [(c.card, round(c.confidence, 4)) for c in read] == [("7h", 0.9801)]
    assert [str(e.source) for e in read[0].evidence][-1] == "read/glyphs/second suit"
    alone = assemble([seven, small_heart], blank, 0.0).cards
    assert [(c.card, round(c.confidence, 3)) for c in alone] == [("7h", 0.891)]
    off = assemble([seven, small_heart, big_heart], blank, 0.0,
                   p=DEFAULT.without("second-suit")).cards
    assert [(c.card, round(c.confidence, 3)) for c in off] == [("7h", 0.891)]
    # a pip nearer another card's rank is that card's
    eight = glyph("8", 0.99, 78, 70, 10)
    read = assemble([seven, small_heart, big_heart, eight], blank, 0.0).cards
    assert [(c.card, round(c.confidence, 3)) for c in read if c.card == "7h"] == [("7h", 0.891)]
    # a pip of another suit says nothing
    spade = glyph("s", 0.99, 68, 62, 20)
    read = assemble([seven, small_heart, spade], blank, 0.0).cards
    assert [(c.card, round(c.confidence, 3)) for c in read] == [("7h", 0.891)]


def test_a_card_read_from_both_its_corners_is_surer() -> None:
    blank = np.full((400, 600), 235, np.uint8)  # no face can be traced: only the glyphs count
    top = [glyph("Q", 0.9, 100, 100, 10), glyph("h", 0.9, 100, 114, 7)]
    # the other corner, upside down: 9 rank sizes away
    bottom = [glyph("Q", 0.9, 160, 170, 10), glyph("h", 0.9, 160, 156, 7)]

    def read(glyphs: list[Any], threshold: float = 0.0, p: Any = DEFAULT
             ) -> list[tuple[str, float]]:
        return [(c.card, round(c.confidence, 4))
                for c in assemble(glyphs, blank, threshold, p=p).cards]

    assert read(top) == [("Qh", 0.81)]
    assert read(top + bottom) == [("Qh", 0.9639)]  # 1 - (1 - 0.81)^2
    # a threshold applies to the card, after both corners are counted
    assert read(top + bottom, 0.9) == [("Qh", 0.9639)]
    assert read(top, 0.9) == []
    # the same corner found twice is not a second corner; a card 25 rank sizes away is another
    # seat's (a misreading there says nothing of this one)
    twice = [glyph("Q", 0.9, 102, 100, 10), glyph("h", 0.9, 102, 114, 7)]
    assert read(top + twice) == [("Qh", 0.81)]
    far = [glyph("Q", 0.9, 350, 100, 10), glyph("h", 0.9, 350, 114, 7)]
    assert read(top + far) == [("Qh", 0.81)]
    assert read(top + bottom, p=DEFAULT.without("both-corners")) == [("Qh", 0.81)]


def test_an_index_is_read_as_one_card() -> None:
    """Two cards read from one index (a small heart read as a diamond too): only the surer is
    kept. The indices of a tight fan's cards, 1.45 rank sizes apart, are two cards."""
    one = [(CardReading("Jh", 0.96, QUAD, (5.0, 8.0)), 10.0),
           (CardReading("Jd", 0.999, QUAD, (5.5, 8.5)), 10.0),
           (CardReading("Jd", 0.97, QUAD, (65.0, 92.0)), 10.0)]
    read = decide.corroborated(one, DEFAULT.decide)
    assert list(read) == ["Jd"], read
    # read from its other corner too, the J♦ is surer still
    assert read["Jd"].confidence == pytest.approx(1 - 0.001 * 0.03)
    assert str(read["Jd"].evidence[-1].source) == "decide/corners/other corner"
    fan = [(CardReading("Jh", 0.96, QUAD, (5.0, 8.0)), 10.0),
           (CardReading("Jd", 0.999, QUAD, (19.5, 8.0)), 10.0)]
    assert sorted(decide.corroborated(fan, DEFAULT.decide)) == ["Jd", "Jh"]
    both = decide.corroborated(one, DEFAULT.without("one-index").decide)
    assert sorted(both) == ["Jd", "Jh"]


def test_a_card_is_read_once_in_its_quad() -> None:
    """Two cards read in one quad (a ten counted by its pips as clubs, and paired by the deck
    with a pip beside its index as hearts): one card lies there, the surer reading stands. The
    cards of a fan, even a tight one, are two cards."""
    shifted = tuple((x + 1.0, y - 1.0) for x, y in QUAD)
    same = {"Tc": CardReading("Tc", 0.98, QUAD, (5.0, 8.0)),
            "Th": CardReading("Th", 0.97, shifted, (65.0, 92.0))}
    assert list(decide.one_card_a_quad(same, DEFAULT.decide)) == ["Tc"]
    half = tuple((x + 8.0, y) for x, y in QUAD)  # a tight fan: overlapping 0.8
    fan = {"Tc": CardReading("Tc", 0.98, QUAD, (5.0, 8.0)),
           "Th": CardReading("Th", 0.97, half, (40.0, 8.0))}
    assert sorted(decide.one_card_a_quad(fan, DEFAULT.decide)) == ["Tc", "Th"]
    assert sorted(decide.one_card_a_quad(same, DEFAULT.without("one-quad").decide)) \
        == ["Tc", "Th"]


def test_a_large_pip_beside_the_index_outweighs_its_small_suit_of_the_same_colour() -> None:
    # a king whose small index spade reads as a club, beside its card's large spade pip, which
    # reads surely as a spade: the index is read as no card rather than as the K of clubs
    assert DEFAULT.pairing.outweigh_near == 2.0
    grey = np.full((240, 240), 235, np.uint8)
    king, club = glyph("K", 0.999, 100, 100, 14), glyph("c", 0.92, 100, 116, 8)

    def read(*more: Any, p: Any = DEFAULT) -> list[str]:
        return [c.card for c in assemble([king, club, *more], grey, 0.0, p=p).cards]

    assert read() == ["Kc"]
    assert read(glyph("s", 0.999, 114, 120, 16)) == []
    # a pip of the other colour, a pip not read surely, a pip no larger than the index suit, a
    # pip farther off, a pip lying nearer another rank: the index is read as before
    assert read(glyph("h", 0.999, 114, 120, 16)) == ["Kc"]
    assert read(glyph("s", 0.95, 114, 120, 16)) == ["Kc"]
    assert read(glyph("s", 0.999, 114, 120, 10)) == ["Kc"]
    assert read(glyph("s", 0.999, 128, 124, 16)) == ["Kc"]
    assert "Kc" in read(glyph("s", 0.999, 114, 120, 16), glyph("Q", 0.99, 120, 128, 14))
    assert read(glyph("s", 0.999, 114, 120, 16), p=DEFAULT.without("outweigh")) == ["Kc"]


# -- the enlarged reading, in detail ----
SHRUNK = (("scene03.jpg", 0.6), ("scene07.jpg", 0.7), ("scene08.jpg", 0.7), ("scene01.jpg", 0.7),
          ("scene04.jpg", 0.7), ("scene07.jpg", 0.6))


def _shrunk(name: str, scale: float) -> np.ndarray:
    return np.asarray(cv2.resize(load_image(FIXTURES / name), None, fx=scale, fy=scale,
                                 interpolation=cv2.INTER_AREA), np.uint8)


@pytest.mark.slow
def test_an_enlarged_reading_counts_only_when_sure() -> None:
    """A card read enlarged below ``Detail.sure`` leaves the frame's own reading as it was (a
    small index suit read as another of its shape family enlarged is read at 0.99 and more).
    Read without the index networks (the cards they read whole count from ``index_sure``) and
    without the card-view network (which makes surer the unsure readings of its card)."""
    reader = Recognizer(min_confidence=0.0, index_paths=None, view_path=None)
    shrunk = [_shrunk(name, scale) for name, scale in SHRUNK]

    def enlarged(r: Recognizer, small: Any) -> dict[str, float]:
        """The cards whose reading in detail is not the frame's own, with their confidence."""
        plain = {(c.card, c.confidence) for c in r.read(small).cards}
        return {c.card: c.confidence for c in r.read(small, detail=True).cards
                if (c.card, c.confidence) not in plain}

    least = DEFAULT.detail.sure
    sure = [enlarged(reader, small) for small in shrunk]
    assert sum(map(len, sure)) >= 5, sure
    assert all(conf >= least for read in sure for conf in read.values()), sure
    # counted whatever their confidence, more cards come from the enlarged reading, some of
    # them below Detail.sure
    anyhow = [enlarged(reader.using(DEFAULT.with_(detail={"sure": 0.0})), small)
              for small in shrunk]
    unsure = [conf for read in anyhow for conf in read.values() if conf < least]
    assert len(unsure) >= 3, anyhow
    for read, more in zip(sure, anyhow, strict=True):
        assert set(read) <= set(more)


def test_the_enlarged_reading_keeps_no_index_smaller_than_a_glyph() -> None:
    # without the index networks, which read more in detail whatever the enlarged reading keeps
    reader = Recognizer(min_confidence=0.0, index_paths=None)
    small = _shrunk("scene01.jpg", 0.7)
    plain = [(c.card, c.confidence) for c in reader.read(small).cards]
    read = reader.read(small, detail=True).cards
    assert len(read) > len(plain)
    assert any(c.scale == 1.5 for c in read)
    # no index is that large: the enlarged reading adds nothing
    tiny = reader.using(DEFAULT.with_(detail={"smallest": 100.0}))
    assert [(c.card, c.confidence) for c in tiny.read(small, detail=True).cards] == plain
    never = reader.using(DEFAULT.without("enlarged"))
    assert [(c.card, c.confidence) for c in never.read(small, detail=True).cards] == plain


def test_an_enlarged_reading_naming_another_card_than_the_frame_s_own_is_left_out() -> None:
    quad = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))

    def at(card: str, x: float, confidence: float = 0.99) -> CardReading:
        return CardReading(card, confidence, quad, (x, 100.0))

    own = [(at("5s", 100.0, 0.76), 8.0), (at("Qh", 300.0, 0.02), 8.0), (at("Jd", 500.0), 8.0)]
    enlarged = [
        (at("5c", 106.0), 8.0),   # the same index, another card: a small spade read as a club
        (at("5c", 109.0), 8.0),   # beyond the rank's size from it: another index
        (at("Qc", 301.0), 8.0),   # named otherwise only below Detail.conflict
        (at("Jd", 501.0), 8.0),   # the same card
        (at("Kd", 700.0), 14.0),  # larger: as it is read at the frame's scale, or better
        (at("2c", 900.0), 5.0),   # too small: no glyph at the frame's scale
    ]
    kept = decide.enlarged_kept(enlarged, own, DEFAULT.detail)
    assert [(r.card, r.index_center[0]) for r, _size in kept] == [
        ("5c", 109.0), ("Qc", 301.0), ("Jd", 501.0), ("Kd", 700.0)]


def test_an_index_read_surely_as_another_card_enlarged_is_not_read_at_the_frame_s_scale(
) -> None:
    quad = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))

    def at(card: str, x: float, confidence: float) -> CardReading:
        return CardReading(card, confidence, quad, (x, 100.0))

    sure = DEFAULT.detail.overrules
    assert sure is not None
    own = [(at("7d", 100.0, 0.97), 9.0), (at("5s", 300.0, 0.96), 9.0),
           (at("Jd", 500.0, 0.99), 9.0), (at("Kh", 700.0, 0.98), 9.0)]
    enlarged = [
        (at("2d", 105.0, sure), 9.0),      # the same index, surely another card
        (at("5c", 302.0, 0.999), 9.0),     # another card, not sure enough to overrule
        (at("Jd", 501.0, 1.0), 9.0),       # the same card
        (at("Qh", 710.0, 1.0), 9.0),       # another index: beyond the rank's size from it
    ]
    kept = decide.overruled(own, enlarged, DEFAULT.detail)
    assert [r.card for r, _size in kept] == ["5s", "Jd", "Kh"]
    never = decide.overruled(own, enlarged, DEFAULT.with_(detail={"overrules": None}).detail)
    assert never == own


@pytest.mark.slow
def test_reading_in_detail_leaves_out_the_frame_s_reading_of_an_index_read_surely_enlarged(
        reader: Recognizer) -> None:
    """Validation picture 0019: an Атласные 2♦ index (12 px) is read as a 7♦ at its own scale
    (0.015) and as the 2♦ enlarged (0.99998); read in detail, only the 2♦ is reported."""
    if not (VALIDATION / "0019.jpg").is_file():
        pytest.skip(f"validation set not found at {VALIDATION}")
    image = load_image(VALIDATION / "0019.jpg")
    assert "7d" in {c.card for c in reader.read(image).cards}
    sure = DEFAULT.detail.overrules
    assert sure is not None
    cards = {c.card: c for c in reader.read(image, detail=True).cards}
    assert "7d" not in cards and cards["2d"].confidence >= sure, cards
    # the 2♦ read in the 7♦'s quad leaves it out too (one card a quad): both rules off, it stays
    never = reader.using(DEFAULT.with_(detail={"overrules": None}).without("one-quad"))
    assert "7d" in {c.card for c in never.read(image, detail=True).cards}
