"""Recognition, stage 1 (find): a rank with no suit beside it paired with the pips of its own card
face, traced around it."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from hardware.camera import DEFAULT_MIN_CONFIDENCE, find
from hardware.camera.faces import Face, face_of
from hardware.camera.params import DEFAULT
from hardware.camera.recognize import Recognizer
from hardware.camera.types import Glyph
from tests.hardware.drawn import FELT, committed, far_suit, glyph, lay, printed_light, rank_only
from tests.hardware.stages import assemble


def test_a_rank_without_a_suit_beside_it_takes_the_suit_of_its_face(reader: Recognizer) -> None:
    cards = ["9c", "4h", "7d", "5s", "3s", "8h"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        lay(scene, rank_only(card), 100 + i * 200, 250, -20 + i * 8)
    read = reader.read(scene).cards
    assert {c.card for c in read} <= set(cards)
    assert len(read) >= 5
    assert sum(str(c.source) == "find/pairing/face" for c in read) >= 3, read
    # the quad is the card's face, not a guess from the index: the 7 of diamonds lies alone
    seven = next(c for c in read if c.card == "7d")
    xs, ys = [x for x, _ in seven.quad], [y for _, y in seven.quad]
    assert 480 < min(xs) < 520 and 620 < max(xs) < 660 and 250 < min(ys) < 290
    # the pips of the face read upright read them too (the faces are in full view: their pips
    # are not counted)
    off = DEFAULT.without("face-pairing", "pip-count")
    upright = {c.card for c in reader.using(off).read(scene).cards if c.confidence >= 0.9}
    assert upright <= set(cards) and len(upright) >= 4, upright
    assert reader.using(off.without("face-upright")).read(scene).cards == []


def test_a_face_s_quad_is_the_card_upright(reader: Recognizer) -> None:
    # a card read from its face is placed in the face's rectangle, turned as the card is
    # printed: its top edge is the shorter one and the rank lies at the top, however the card
    # lies on the table (the card-view network reads the quad so)
    cards = ["9c", "4h", "7d", "5s", "3s", "8h"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, (card, angle) in enumerate(zip(cards, (30, 60, 100, 135, 200, 250), strict=True)):
        lay(scene, rank_only(card), 100 + i * 200, 250, angle)
    read = reader.read(scene).cards
    assert len(read) >= 5 and {c.card for c in read} <= set(cards)
    for c in read:
        q = np.array(c.quad)
        top, left = q[1] - q[0], q[3] - q[0]
        assert np.linalg.norm(top) < 0.85 * np.linalg.norm(left), c
        assert np.dot(np.array(c.index_center) - q.mean(axis=0), left) < 0, c


def test_a_face_s_quad_starts_where_its_rank_is_printed() -> None:
    # the rank at the top left of its card as printed (most decks) or at the top right (a deck
    # printing the rank and the suit in opposite corners): either way the quad's top edge is the
    # card's shorter side and the rank's corner is one of its two top corners
    for angle in (0.0, 35.0, 90.0, 160.0, 250.0):
        box = cv2.boxPoints(((400.0, 300.0), (70.0, 100.0), angle))
        face = Face(np.zeros((1, 1), np.uint8), 0, 0, box.astype(np.int32))
        for corner in range(4):
            toward = box.mean(axis=0) + (box[corner] - box.mean(axis=0)) * 0.85
            rank = Glyph(0, 0, 10, 14, float(toward[0]), float(toward[1]), False)
            q = np.array(face.quad(rank))
            top, left = np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])
            assert top < left, (angle, corner)
            nearest = int(np.argmin(np.hypot(*(q - toward).T)))
            assert nearest in (0, 1), (angle, corner)


def _light_card(marks: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    gray = np.full((400, 400), 40, np.uint8)
    cv2.rectangle(gray, (100, 100), (240, 300), 230, -1)
    for x, y, half in marks:
        cv2.rectangle(gray, (x - half, y - half), (x + half, y + half), 30, -1)
    return gray


def test_a_face_whose_pips_look_like_another_suit_gives_its_rank_no_suit() -> None:
    # a king on a light card, its small index suit read as a club; its one large pip read
    # ``other``, but looking more like a spade than any other suit (0.43): the face's suit is in
    # doubt and the king takes none. Two pips read as clubs outnumber it, and the king is a club
    doubt = DEFAULT.faces.doubt
    assert doubt is not None
    gray = _light_card(((117, 120, 8), (222, 280, 6), (170, 200, 14), (170, 150, 8)))
    king = glyph("K", 0.999, 117, 120, 20)
    index_club = glyph("c", 0.91, 222, 280, 12)
    pip = replace(glyph("other", 0.54, 170, 200, 28), suit="s", suit_prob=0.43)
    club_pip = glyph("c", 0.95, 170, 150, 16)

    def suit(suits: list[Glyph], doubts: list[Glyph]) -> tuple[str, float] | None:
        on_face = find.face_suit(king, suits, [king], gray, DEFAULT, None, doubts)
        return None if on_face is None else (on_face[0].label, on_face[1])

    assert suit([index_club], []) == ("c", 0.91)
    assert suit([index_club], [pip]) is None
    assert suit([index_club, club_pip], [pip]) == ("c", 0.95)
    # a glyph looking like the same suit, or lying off the face, leaves it as it was
    assert suit([index_club], [replace(pip, suit="c")]) == ("c", 0.91)
    assert suit([index_club], [replace(pip, cx=300.0, cy=200.0)]) == ("c", 0.91)

    # through the whole pairing: a glyph is a doubt from Faces.doubt of another suit
    def cards(pip_suit_prob: float) -> list[str]:
        glyphs = [king, index_club, replace(pip, suit_prob=pip_suit_prob)]
        return [c.card for c in assemble(glyphs, gray, 0.0).cards]

    assert cards(doubt) == []
    assert cards(doubt - 0.01) == ["Kc"]


def test_a_speck_read_as_another_rank_is_no_other_card_s_index() -> None:
    # a king on a light card with a club pip; a speck of its picture read as a 4. Read below
    # Faces.other_rank with no suit beside it, it is no index, and the king takes the club; with
    # a suit beside it, or read surer, it is another card's index on the same face (faces
    # touching in a fan), and the king takes none
    other_rank = DEFAULT.faces.other_rank
    gray = _light_card(((117, 120, 10), (170, 240, 8), (185, 160, 9), (185, 185, 6)))
    king = glyph("K", 0.999, 117, 120, 20)
    club_pip = glyph("c", 0.95, 170, 240, 16)
    beside = glyph("c", 0.9, 185, 185, 12)

    def suit(speck_prob: float, suits: list[Glyph]) -> tuple[str, float] | None:
        speck = glyph("4", speck_prob, 185, 160, 18)
        on_face = find.face_suit(king, suits, [king, speck], gray, DEFAULT, None, [])
        return None if on_face is None else (on_face[0].label, on_face[1])

    assert suit(other_rank - 0.02, [club_pip]) == ("c", 0.95)
    assert suit(0.3, [club_pip]) == ("c", 0.95)
    assert suit(other_rank, [club_pip]) is None
    assert suit(other_rank - 0.02, [club_pip, beside]) is None


def test_a_face_s_large_pips_outweigh_its_small_index_suit() -> None:
    # a king on a light card whose small index spade is read as a club while its large pip is
    # read as a spade: the large pip's suit stands when it is 1.5 times the size or more
    assert DEFAULT.faces.pip_over == 1.5
    gray = _light_card(((117, 120, 8), (222, 280, 6), (170, 200, 14), (200, 140, 8)))
    king = glyph("K", 0.999, 117, 120, 20)
    index_club = glyph("c", 0.91, 222, 280, 12)
    pip = glyph("s", 0.97, 170, 200, 28)

    def suit(suits: list[Glyph], p: object = DEFAULT) -> tuple[str, float] | None:
        on_face = find.face_suit(king, suits, [king], gray, p)  # type: ignore[arg-type]
        return None if on_face is None else (on_face[0].label, on_face[1])

    assert suit([index_club, pip]) == ("s", 0.97)
    # a pip less than 1.5 times the size of the glyph read otherwise leaves the face unread
    assert suit([index_club, replace(pip, w=17, h=17)]) is None
    assert suit([replace(index_club, w=20, h=20), pip]) is None
    # a large glyph of each suit: no suit
    assert suit([index_club, pip, glyph("c", 0.9, 200, 140, 28)]) is None
    assert suit([index_club, pip], DEFAULT.with_(faces={"pip_over": None})) is None


def test_a_black_face_on_dark_red_felt_is_traced_by_its_colour(reader: Recognizer) -> None:
    # light print on black faces with no light border, each rank's own suit painted out (as on
    # decks that print the rank and the suit in different corners), laid on dark red felt whose
    # grey lies near the faces': by grey alone a face runs into the felt and gives its rank no
    # suit; by colour it is the card's own, and its pips give the suit (the faces are in full
    # view: their pips are not counted)
    cards = ["2c", "4s", "7c", "5s", "3s", "8c"]
    by_colour = reader.using(DEFAULT.without("pip-count"))
    by_grey = reader.using(by_colour.params.with_(faces={"chroma": None}))

    def sure(r: Recognizer, scene: np.ndarray) -> set[str]:
        return {c.card for c in r.read(scene).cards if c.confidence >= DEFAULT_MIN_CONFIDENCE}

    for felt in ((30, 30, 95), (40, 40, 120)):
        scene = np.full((720, 1280, 3), felt, np.uint8)
        for i, card in enumerate(cards):
            face = printed_light(card, (20, 20, 20), rank_only(card, border=False), 190.0,
                                 border=False)
            lay(scene, face, 60 + i * 200, 250, -20 + i * 8)
        read = sure(by_colour, scene)
        assert read == set(cards), (felt, sorted(read))
        grey = sure(by_grey, scene)
        assert grey <= set(cards) and len(grey) <= 4, (felt, sorted(grey))


def test_a_rank_takes_the_suit_printed_in_its_card_s_far_corner(reader: Recognizer) -> None:
    # long cards (about 12 rank sizes) whose suit lies in the far corner only: traced ten
    # rank sizes around the rank, the face runs on past that, holding no suit; traced farther,
    # the whole face holds the suit, which the rank takes
    cards = ["Kh", "Qc", "Jd", "As", "Ks", "Qd"]

    def sure(r: Recognizer, scene: np.ndarray) -> set[str]:
        return {c.card for c in r.read(scene).cards if c.confidence >= DEFAULT_MIN_CONFIDENCE}

    for height in (232, 256):
        scene = np.full((720, 1280, 3), FELT, np.uint8)
        for i, card in enumerate(cards):
            lay(scene, far_suit(card, height), 60 + i * 200, 200, -15 + i * 3)
        assert sure(reader, scene) == set(cards), height
        assert sure(reader.using(DEFAULT.without("far-corner")), scene) == set(), height


def test_a_face_traced_past_the_reach_of_its_glyph_is_not_taken_for_whole(
        reader: Recognizer) -> None:
    # a large card (218 x 304): from the small suit of its index (21 px) the face is traced ten
    # of its sizes around, which cuts off its far end; from the larger rank (29 px), the whole
    face = cv2.resize(committed("8c"), None, fx=1.6, fy=1.6, interpolation=cv2.INTER_AREA)
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    lay(scene, face, 400, 150, 0)
    frame = reader.frame(scene)
    glyphs = [g for g in reader.glyphs(frame) if g.prob >= 0.5 and g.label in "8c"]
    suit = min((g for g in glyphs if g.label == "c"), key=lambda g: g.cy)
    rank = min((g for g in glyphs if g.label == "8"), key=lambda g: g.cy)
    cut = face_of(suit, frame.gray, DEFAULT, 0.0, 0.3)
    whole = face_of(rank, frame.gray, DEFAULT, 0.0, 0.3)
    assert cut is not None and whole is not None
    assert not cut.whole and whole.whole
    assert cut.mask.shape[0] < 285 < whole.mask.shape[0], (cut.mask.shape, whole.mask.shape)


def test_touching_light_faces_are_not_taken_for_one_card(reader: Recognizer) -> None:
    # the 8 of clubs shows only its index strip; its face runs into the 7 of spades' face with no
    # border between them, so the spades there are not the 8's
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    lay(scene, rank_only("8c", border=False), 300, 250, 0)
    lay(scene, rank_only("7s", border=False), 322, 250, 0)
    assert [c.card for c in reader.read(scene).cards] == ["7s"]
