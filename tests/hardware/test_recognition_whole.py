"""Recognition, stage 2 (read), in detail: the card-view network reading a card whole in its quad,
and the index networks reading a window around a suit whole."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.camera import DETAIL_MIN_CONFIDENCE, decide, rank_height, whole
from hardware.camera.nets import INDEX_RANKS, INDEX_SUITS, VIEW_H, VIEW_W, card_view, index_window
from hardware.camera.params import DEFAULT, Params
from hardware.camera.readers import ReaderProcess
from hardware.camera.recognize import Recognizer, load_image
from hardware.camera.types import CardReading, Evidence, Found
from tests.hardware.drawn import (
    BROKEN,
    FELT,
    FIXTURES,
    broken,
    committed,
    glyph,
    laid_quad,
    lay,
    table,
)
from tests.hardware.stages import HAND, sure_cards

VIEWED = (("Kh", 0), ("7d", 35), ("Qs", -60), ("3c", 120), ("Ad", 200))
SMALL_TABLE = ("Kh", "7d", "Qs", "3c", "Ad", "9s", "Jc", "5h", "8d", "2s", "Tc", "6h", "4d", "Kc",
               "Qh", "Js", "9d", "Ah")



def test_the_card_view_is_the_quad_turned_upright() -> None:
    # a light card lying a quarter turn round, a dark mark in its top-left corner as printed: the
    # view shows the card upright, the mark top left, the felt in the margin about it
    face = np.full((120, 84, 3), 235, np.uint8)
    face[6:30, 6:24] = 20
    scene = np.full((400, 400, 3), FELT, np.uint8)
    lay(scene, face, 150, 140, 90)
    quad = laid_quad(face, 150, 140, 90)
    gray = cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)
    view = card_view(scene, gray, quad)
    assert view.shape == (2, VIEW_H, VIEW_W)
    grey = view[0]
    h, w = grey.shape
    mark = grey[h // 8:h // 4, w // 6:w // 3].mean()
    face_grey = grey[h // 2:3 * h // 4, w // 3:2 * w // 3].mean()
    others = [grey[h // 8:h // 4, w - w // 3:w - w // 6].mean(),
              grey[h - h // 4:h - h // 8, w // 6:w // 3].mean(),
              grey[h - h // 4:h - h // 8, w - w // 3:w - w // 6].mean()]
    assert mark < face_grey - 1.0 and all(o > mark + 1.0 for o in others), (mark, others)
    assert grey[0, w // 2] < face_grey - 0.5  # the felt in the margin
    # the green felt is no red; the same card seen from its other corner is the view turned
    # round (the quad's corners map to the view's pixel corners 0 and VIEW_W: a pixel apart)
    assert abs(float(view[1].mean())) < 1.0
    turned = card_view(scene, gray, quad[2:] + quad[:2])[0]
    assert float(np.abs(turned[1:, 1:] - view[0][::-1, ::-1][:-1, :-1]).mean()) < 0.02


def _viewed() -> tuple[np.ndarray, list[tuple[str, tuple[tuple[float, float], ...]]]]:
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    laid = []
    for i, (card, angle) in enumerate(VIEWED):
        face = cv2.resize(committed(card), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        x, y = 80 + i * 240, 260
        lay(scene, face, x, y, angle)
        laid.append((card, laid_quad(face, x, y, angle)))
    return scene, laid


def _corner_at(card: str, quad: tuple[tuple[float, float], ...], prob: float) -> Found:
    r, s = glyph(card[0], 1.0, round(quad[0][0]), round(quad[0][1]), 10), \
        glyph(card[1], 1.0, round(quad[0][0]), round(quad[0][1]) + 10, 8)
    return Found(r, s, True, quad, HAND, [Evidence(HAND, prob, rank=card[0]),
                                          Evidence(HAND, 1.0, suit=card[1])])


def test_an_unsure_reading_is_made_surer_by_the_card_seen_whole(reader: Recognizer) -> None:
    """A corner read at ``view_check`` confidence whose card the card-view network names in the
    view of its quad (from either corner) at ``view_agree`` or more is surer; one naming another
    card, or read outside ``view_check``, is as it was; with ``view_check`` None, every one."""
    scene, laid = _viewed()
    frame = reader.frame(scene)
    net = reader.nets.view

    def corners(prob: float, name: dict[str, str] | None = None) -> list[Found]:
        out = []
        for card, quad in laid:
            named = card if name is None else name[card]
            out += [_corner_at(named, quad, prob), _corner_at(named, quad[2:] + quad[:2], prob)]
        return out

    q = DEFAULT.whole
    low, high = q.view_check or (1.0, 1.0)
    assert low <= 0.6 < high
    found = corners(0.6)
    whole.view_check(net, frame, found, DEFAULT)
    sure = 1.0 - 0.4 * (1.0 - q.view_agree)
    surer = [f for f in found if decide.weigh(f).confidence >= sure]
    assert len(surer) >= 8 and all(decide.weigh(f).confidence <= 1.0 for f in found)
    assert all(str(f.evidence[-1].source) == "read/view/agrees" for f in surer)
    # another card's name, and the same cards read surely or hardly at all: as they were
    other = {"Kh": "Kd", "7d": "7s", "Qs": "Js", "3c": "8c", "Ad": "Ah"}
    for given, p in ((corners(0.6, other), DEFAULT), (corners(high), DEFAULT),
                     (corners(low / 2), DEFAULT),
                     (corners(0.6), DEFAULT.without("view-check"))):
        whole.view_check(net, frame, given, p)
        assert all(len(f.evidence) == 2 for f in given)


def test_a_rank_with_no_card_read_near_it_is_read_by_the_card_seen_whole(
        reader: Recognizer) -> None:
    """A rank read with no card read near it has the quad its index gives its card read by the
    card-view network: the card named there of that rank at ``lone_view`` or more is read, its
    index where the rank is; a rank with a reading near it at ``lone_near`` or more is left
    alone, one read under it is not; with ``lone_view`` None nothing is read so."""
    scene, laid = _viewed()
    frame = reader.frame(scene)
    glyphs = reader.glyphs(frame)
    upright = reader.upright(frame)
    assert upright is not None
    q = DEFAULT.whole
    net = reader.nets.view

    def card_at(x: float, y: float) -> str:
        at = [card for card, quad in laid
              if cv2.pointPolygonTest(np.array(quad, np.float32), (x, y), False) >= 0]
        assert len(at) == 1, (x, y, at)
        return at[0]

    reads = whole.lone_ranks(net, frame, glyphs, [], upright, DEFAULT)
    assert {r.card for r in reads} == {card for card, _angle in VIEWED}, reads
    for r in reads:
        # of the rank read at its index, named surely, the card lying there
        rank = [g for g in glyphs if (g.cx, g.cy) == r.index_center]
        assert len(rank) == 1 and rank[0].label == r.card[0], (r, rank)
        assert r.confidence >= (q.lone_view or 1.0) and str(r.source) == "read/view/lone rank"
        assert card_at(*r.index_center) == r.card
    # a reading near each rank, sure enough: none is read again; under lone_near: as with none
    near = [(CardReading("2c", q.lone_near, r.quad, r.index_center), 10.0) for r in reads]
    assert whole.lone_ranks(net, frame, glyphs, near, upright, DEFAULT) == []
    unsure = [(replace(r, confidence=q.lone_near / 2), size) for r, size in near]
    assert whole.lone_ranks(net, frame, glyphs, unsure, upright, DEFAULT) == reads
    assert whole.lone_ranks(net, frame, glyphs, [], upright,
                            DEFAULT.without("lone-rank")) == []


def test_a_covered_card_whose_suit_is_not_cut_out_is_read_in_detail_from_its_rank(
        reader: Recognizer) -> None:
    """In the committed scene (``fixtures.LONE_RANK_SEED``) the covered 5 of clubs shows its rank
    in full, but its suit is not cut out: read in detail it is read all the same, by the card
    view of its rank's quad, and nothing is read (at the command line's threshold) that does not
    lie face up there. Without that reading it is not read at all."""
    image = load_image(FIXTURES / "lone-rank.jpg")
    face_up = json.loads((FIXTURES / "lone-rank.json").read_text())["face_up"]
    read = {c.card: c for c in reader.read(image, detail=True).cards
            if c.confidence >= DETAIL_MIN_CONFIDENCE}
    assert set(read) <= set(face_up), read
    assert "5c" in read and read["5c"].confidence >= (DEFAULT.whole.lone_view or 1.0), read
    without = sure_cards(reader.using(DEFAULT.without("lone-rank")), image, DETAIL_MIN_CONFIDENCE,
                    detail=True)
    assert without == set(read) - {"5c"}, (without, read)


def _reads_in_detail_as_its_process(reader: Recognizer, scene: np.ndarray) -> None:
    """A reader process made of ``reader`` reads ``scene`` in detail as it does."""
    process = ReaderProcess.of(reader).start()
    try:
        assert process.read(scene, detail=True) == reader.read(scene, detail=True)
    finally:
        process.close()


@pytest.mark.slow
def test_a_table_of_small_cards_is_read_in_full_with_the_cards_seen_whole(
        reader: Recognizer) -> None:
    """Committed faces laid at a third of their size (ranks of about 6 px): read in detail, a
    few are read too unsurely from their indices alone; the card-view network names them in
    the view of their quads, and every card is read at DETAIL_MIN_CONFIDENCE, none wrong. Without
    the network (or with view_check and lone_view None) they are not; a reader process reads as
    the recogniser it was made of."""
    scene = table(SMALL_TABLE, committed, 0.35)
    least = DETAIL_MIN_CONFIDENCE
    seen = sure_cards(reader, scene, least, detail=True)
    without = sure_cards(Recognizer(min_confidence=0.0, view_path=None), scene, least, detail=True)
    assert seen == set(SMALL_TABLE), sorted(seen)
    assert without < seen and len(seen - without) >= 2, sorted(without)
    _reads_in_detail_as_its_process(reader, scene)
    # the network still reads the ranks with no card read near them, and no card wrong
    no_check = DEFAULT.without("view-check")
    assert without <= sure_cards(reader.using(no_check), scene, least, detail=True) <= seen
    assert sure_cards(reader.using(no_check.without("lone-rank")), scene, least,
                 detail=True) == without


@pytest.mark.slow
def test_an_index_whose_rank_is_cut_into_pieces_is_read_whole_around_its_suit(
        reader: Recognizer) -> None:
    """Read in detail, the window around each suit glyph is read whole by the index networks:
    cards whose ranks are cut into pieces too small to be read one by one are read there, at
    ``index_sure`` or more, none of them wrong and no other card lost; without the networks, or
    with them never sure, they are not read."""
    scene = table(BROKEN, broken, 0.5)
    least = DETAIL_MIN_CONFIDENCE

    def cards(r: Recognizer) -> dict[str, float]:
        return {c.card: c.confidence for c in r.read(scene, detail=True).cards
                if c.confidence >= least}

    read = cards(reader)
    without = cards(Recognizer(min_confidence=0.0, index_paths=None))
    added = set(read) - set(without)
    assert len(added) >= 3 and added <= set(BROKEN), (sorted(read), sorted(without))
    assert set(without) <= set(read)
    sure = DEFAULT.whole.index_sure
    assert sure is not None and all(read[card] >= sure for card in added), read
    # placed where the card lies: its quad holds the suit it was read around, and is about as
    # large as the card (its ranks are printed 18 px tall, here 9; a window around one of the
    # face's larger suits reads it larger)
    for reading in reader.read(scene, detail=True).cards:
        if reading.card in added:
            assert str(reading.source) == "read/index/windows"
            assert cv2.pointPolygonTest(np.array(reading.quad, np.float32),
                                        reading.index_center, False) >= 0, reading
            assert 6.0 <= rank_height(reading.quad) <= 18.0, reading
    assert cards(reader.using(DEFAULT.without("index-windows"))) == without


def test_an_index_read_unsurely_around_its_suit_counts_where_its_card_seen_whole_agrees(
        reader: Recognizer) -> None:
    """The index networks' readings from ``index_viewed`` up to ``index_sure`` are read again by
    the card-view network in the view of their quads: those it names at ``view_agree`` or more
    count, surer, and the others do not; without the network, or with ``index_viewed`` None,
    only the readings at ``index_sure`` or more count, as when the network never agrees."""
    scene = table(BROKEN, broken, 0.5)
    frame = reader.frame(scene)
    glyphs = reader.glyphs(frame)
    nets = reader.nets

    def read(view_net: object, p: Params = DEFAULT) -> list[CardReading]:
        return whole.index_windows(nets.index, frame, glyphs, p, view_net)

    q = DEFAULT.whole
    sure = read(None)
    assert q.index_sure is not None and sure and all(r.confidence >= q.index_sure
                                                     for r in sure), sure
    viewed = read(nets.view)
    added = {r.card for r in viewed} - {r.card for r in sure}
    # the sure ones as they were; cards more, all of them lying there, each named surely twice
    assert [r for r in viewed if r in sure] == sure
    assert len(added) >= 3 and added <= set(BROKEN), (sorted(added), sure)
    assert q.index_viewed is not None
    floor = 1.0 - (1.0 - q.index_viewed) * (1.0 - q.view_agree)
    assert all(r.confidence >= floor for r in viewed if r not in sure), viewed
    # each with its corner: the suit glyph it was read around, the rank above it on the card
    for r in viewed:
        assert r.corner is not None and r.corner.suit is not None
        assert (r.corner.suit.cx, r.corner.suit.cy) == r.index_center
        d = (r.corner.suit.cx - r.corner.rank.cx, r.corner.suit.cy - r.corner.rank.cy)
        assert d[0] * r.corner.down[0] + d[1] * r.corner.down[1] > 0  # the rank above its suit
    assert read(nets.view, DEFAULT.with_(whole={"view_agree": 1.01})) == sure
    assert read(nets.view, DEFAULT.with_(whole={"index_viewed": None})) == sure


def test_the_index_network_reads_a_window_the_way_up_its_card_is_printed(
        reader: Recognizer) -> None:
    """The window around a card's index suit names the card turned the card's way up (its down
    pointing down), and reads no index turned the other three ways (the face below the suit, or
    the print beside it)."""
    scene = np.full((400, 400, 3), FELT, np.uint8)
    face = cv2.resize(committed("Qh"), None, fx=0.7, fy=0.7, interpolation=cv2.INTER_AREA)
    scene[100:100 + face.shape[0], 150:150 + face.shape[1]] = face
    frame = reader.frame(scene)
    glyphs = reader.glyphs(frame)
    # the top-left index's suit: the heart nearest the card's top-left corner
    suit = min((g for g in glyphs if g.label == "h" and g.prob >= 0.5),
               key=lambda g: math.hypot(g.cx - 150, g.cy - 100))
    windows = np.stack([index_window(scene, frame.gray, suit.cx, suit.cy, suit.size, down)
                        for down in ((0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0))])
    ranks, suits = len(INDEX_RANKS) + 1, len(INDEX_SUITS) + 1
    assert len(reader.nets.index) == 2
    for net in reader.nets.index:
        out = net.run(windows.astype(np.float32))
        assert out.shape == (4, ranks + suits)
        rank, suit_read = out[:, :ranks].argmax(axis=1), out[:, ranks:].argmax(axis=1)
        assert INDEX_RANKS[rank[0]] + INDEX_SUITS[suit_read[0]] == "Qh"
        assert all(rank[k] == ranks - 1 or suit_read[k] == suits - 1 for k in (1, 2, 3)), \
            (rank, suit_read)
