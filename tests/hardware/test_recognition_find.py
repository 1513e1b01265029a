"""Recognition, stage 1 (find): glyph candidates, the glyph classifier as a finder, and the index
corners paired from them: a rank with the suit beside it, printed in its ink."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from hardware.camera import DEFAULT_MIN_CONFIDENCE, find
from hardware.camera.candidates import candidate_glyphs, fine_candidates, line_cut, waist_halves
from hardware.camera.faces import card_axis
from hardware.camera.glyphs import read_glyphs
from hardware.camera.nets import CLASSES, MODEL_PATH, PATCH, RANK_CLASSES, glyph_patches
from hardware.camera.params import DEFAULT, Candidates
from hardware.camera.recognize import Recognizer, load_image
from hardware.camera.types import Glyph
from tests.hardware.drawn import (
    FELT,
    FIXTURES,
    committed,
    glyph,
    joined_index,
    laid_at,
    lay,
    printed_light,
    ruled,
)
from tests.hardware.stages import assemble

LAID = (("Kh", 0), ("7d", 35), ("Qs", -60), ("3c", 120), ("Ad", 200), ("9s", 300))


def test_find_places_a_corner_at_each_index_laid(reader: Recognizer) -> None:
    # six committed faces laid at any angle: stage 1 pairs each of their twelve corner indices,
    # where the rank is printed, its down along the card's, its glyphs named (a 9 is the 6-or-9
    # class until a reader tells it), and finds no corner anywhere else
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    indices = []
    for i, (card, angle) in enumerate(LAID):
        face = committed(card)
        h, w = face.shape[:2]
        x, y = 60 + (i % 3) * 420, 60 + (i // 3) * 330
        lay(scene, face, x, y, angle)
        for rank, suit in (((12, 15), (12, 35)), ((w - 12, h - 15), (w - 12, h - 35))):
            indices.append((card, laid_at(face, x, y, angle, *rank),
                            laid_at(face, x, y, angle, *suit)))
    frame = reader.frame(scene)
    found = find.corners(frame, reader.glyphs(frame), DEFAULT).found
    assert len(found) == len(indices), [(f.rank.label, f.corner.center) for f in found]
    for card, rank, suit in indices:
        at = [f for f in found if math.dist(f.corner.center, rank) < 6.0]
        assert len(at) == 1, (card, rank, [f.corner.center for f in found])
        f = at[0]
        down = np.subtract(suit, rank) / math.dist(suit, rank)
        assert float(np.dot(f.corner.down, down)) > 0.98, (card, f.corner.down)
        assert (f.rank.label, f.suit.label) == ("6" if card[0] == "9" else card[0], card[1])
        assert f.beside and f.corner.suit is not None
        assert math.dist((f.corner.suit.cx, f.corner.suit.cy), suit) < 6.0, card
        assert cv2.pointPolygonTest(np.array(f.quad, np.float32), rank, False) >= 0
        # the glyph classifier's readings are its first evidence, each with its source
        assert [(e.rank, e.suit, str(e.source)) for e in f.evidence[:2]] == [
            (f.rank.label, "", "read/glyphs/rank"), ("", card[1], "read/glyphs/suit")]
        assert str(f.source) == "find/pairing/beside"


def test_each_glyph_keeps_the_suit_it_looks_most_like(reader: Recognizer) -> None:
    # whatever a glyph is read as, the classifier's likeliest suit for it is kept with it: its
    # own reading when it is read as a suit, less likely than its reading otherwise
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    lay(scene, committed("Kh"), 500, 200, 20)
    read = reader.glyphs(reader.frame(scene))
    assert all(len(g.suit) == 1 and g.suit in "cdhs" for g in read)
    assert all((g.suit, g.suit_prob) == (g.label, g.prob) for g in read if g.label in "cdhs")
    assert all(0.0 < g.suit_prob <= g.prob for g in read)
    # the king's ranks are read as kings, and look like hearts less than they look like kings
    kings = [g for g in read if g.label == "K" and g.prob >= 0.9]
    assert kings and all(g.suit_prob < 0.1 for g in kings)


def test_the_classifier_has_the_expected_outputs(recognizer: Recognizer) -> None:
    assert recognizer.nets.glyph.run(np.zeros((3, 2, PATCH, PATCH), np.float32)).shape == (
        3, len(CLASSES))


def test_teachers_read_a_patch_as_the_recogniser_does(recognizer: Recognizer) -> None:
    """Training by distillation takes the teachers' probabilities from ONNX Runtime as the
    recogniser reads them; one model taught twice is that model's own reading."""
    from hardware.training.train import teacher_probabilities

    image = load_image(FIXTURES / "scene01.jpg")
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    glyphs = candidate_glyphs(gray)
    patches = glyph_patches(image, gray, glyphs)
    own = recognizer.nets.glyphs(patches)
    joint = teacher_probabilities([MODEL_PATH] * 2, patches.astype(np.float16))
    assert joint.shape == (len(glyphs), len(CLASSES)) and len(glyphs) > 20
    np.testing.assert_allclose(joint.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(joint, own, atol=0.01)
    # the patches hold index glyphs read surely, not only the felt
    assert int((joint[:, CLASSES.index("other")] < 0.1).sum()) >= 5


def test_light_print_on_a_dark_face_is_cut_out_by_the_stricter_threshold(
        reader: Recognizer) -> None:
    # a deck printed grey on dark red and black faces with a light border, a little out of
    # focus: the first threshold, below the mean that the border and the pips lift, keeps the
    # face around many of its indices, and the stricter one cuts them out
    cards = [r + "h" for r in "23456789TA"] + [r + "s" for r in "2345678"]
    scene = np.full((720, 1280, 3), (110, 60, 20), np.uint8)
    for i, card in enumerate(cards):
        face = printed_light(card, (6, 6, 75) if card[1] == "h" else (20, 20, 20))
        lay(scene, face, 40 + (i % 7) * 180, 20 + (i // 7) * 180, (i * 37) % 360)
    blurred = cv2.GaussianBlur(scene, (0, 0), 0.8)
    ok, jpeg = cv2.imencode(".jpg", blurred, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    view = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)

    def sure(r: Recognizer) -> set[str]:
        return {c.card for c in r.read(view).cards if c.confidence >= DEFAULT_MIN_CONFIDENCE}

    read = sure(reader)
    assert read <= set(cards), sorted(read - set(cards))
    first_only = sure(reader.using(DEFAULT.without("strict-light")))
    assert first_only <= set(cards), sorted(first_only - set(cards))
    assert len(read) >= len(first_only) + 4, (sorted(read), sorted(first_only))
    assert first_only <= read


def _king_by_a_pip() -> np.ndarray:
    img = np.full((120, 200), 235, np.uint8)
    cv2.putText(img, "K", (60, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 190, 2)
    cv2.circle(img, (105, 52), 16, 10, -1)
    cv2.circle(img, (72, 80), 6, 20, -1)
    return np.asarray(cv2.GaussianBlur(img, (0, 0), 1.0), np.uint8)


def test_the_finer_second_look_adds_only_glyphs_not_already_held() -> None:
    # a glyph found twice, by both thresholds with slightly different boxes, would be read twice
    # (and a 6 or 9 told apart twice, not always alike)
    img = _king_by_a_pip()
    have = candidate_glyphs(img)
    suit = [g for g in have if g.dark and abs(g.cx - 72) < 4 and abs(g.cy - 80) < 4]
    assert len(suit) == 1
    fresh = fine_candidates(img, suit, [])
    assert any(abs(g.cx - 68) < 6 and abs(g.cy - 52) < 6 for g in fresh)  # the K, found again
    assert len(fresh) >= 2
    assert fine_candidates(img, suit, have) == []


def test_a_glyph_inside_a_much_larger_candidate_is_looked_at_on_its_own() -> None:
    # the coarse threshold joined the king to the large pip beside it into one candidate, read
    # ``other``; the finer look finds the king alone, and so large a candidate does not hold it
    # (one read as a rank or suit does: a piece of a glyph read surely is no glyph of its own)
    img = _king_by_a_pip()
    suit = [g for g in candidate_glyphs(img)
            if g.dark and abs(g.cx - 72) < 4 and abs(g.cy - 80) < 4]
    assert len(suit) == 1
    joined = Glyph(56, 34, 68, 36, 90.0, 52.0, True)  # the king and the pip in one box

    def king(have: list[Glyph], other: bool = True,
             p: Candidates = DEFAULT.candidates) -> list[Glyph]:
        return [g for g in fine_candidates(img, suit, have, [other] * len(have), p)
                if abs(g.cx - 68) < 6 and abs(g.cy - 52) < 6]

    held_area = DEFAULT.candidates.held_area
    assert held_area is not None
    found = king([joined])
    assert len(found) == 1 and found[0].w * found[0].h * held_area < 68 * 36
    assert king([joined], other=False) == []
    # a candidate of about its size holds it
    assert king([replace(joined, x=found[0].x, y=found[0].y, w=found[0].w + 4)]) == []
    assert king([joined], p=DEFAULT.without("held-area").candidates) == []


def test_a_faint_rank_beside_a_large_pip_is_looked_for_again_finer(
        recognizer: Recognizer) -> None:
    # faded, slightly blurred indices: the large pip beside each one darkens the coarse
    # threshold's window so much that the thin rank falls under it, and only the small suit is
    # found; the finer binarisation around that lonely suit finds the rank (read without the
    # upright classifier, whose second reading makes some cards surer either way; the cards
    # lie in full view: counting their pips would read the number cards as well)
    reader = Recognizer(min_confidence=0.0, upright_path=None,
                        params=DEFAULT.without("pip-count"))
    cards = ["7d", "4h", "9c", "5s", "3s", "8h", "Kd", "Qc"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        faded = committed(card).astype(np.float32)
        h, w = faded.shape[:2]
        for ys, xs in ((slice(0, 27), slice(0, 24)), (slice(h - 27, h), slice(w - 24, w))):
            faded[ys, xs] = 255 - (255 - faded[ys, xs]) * 0.45
        lay(scene, faded.astype(np.uint8), 60 + i * 150, 250, -20 + i * 6)
    blurred = np.asarray(cv2.GaussianBlur(scene, (0, 0), 1.0), np.uint8)

    def sure(r: Recognizer) -> set[str]:
        return {c.card for c in r.read(blurred).cards if c.confidence >= 0.85}

    found = sure(reader)
    assert found <= set(cards)
    assert len(found) >= 5, found
    assert len(sure(reader.using(reader.params.without("finer-look")))) <= 2


def test_a_rank_run_into_a_straight_line_is_cut_from_it(reader: Recognizer) -> None:
    # every rank runs into a rule across its card (as print runs into a card's lit border or
    # the felt at its edge); around each lonely small suit the rule is taken out of the coarse
    # threshold's picture, and the rank is cut out of it (the pips would read the number cards:
    # their counting is left out)
    cards = ["7c", "4h", "9c", "5s", "3s", "8h", "Kd", "Qc", "2d", "6h", "Td", "Js", "Ah", "8c"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        lay(scene, ruled(card), 60 + (i % 7) * 170, 60 + (i // 7) * 260, -15 + i * 7)

    def sure(*off: str) -> set[str]:
        r = reader.using(DEFAULT.without("pip-count", *off))
        return {c.card for c in r.read(scene).cards if c.confidence >= DEFAULT_MIN_CONFIDENCE}

    cut = sure()
    assert cut <= set(cards), sorted(cut - set(cards))
    assert len(cut) >= 3, sorted(cut)
    assert sure("line-cut") == set()


def test_a_rounded_corner_of_a_border_is_no_glyph_cut_from_its_lines() -> None:
    # a card's dark border turning round a corner, and a rank run into its top edge: once the
    # straight lines are taken out, the rank is a glyph of its own; the rounded corner left
    # between the two lines touches both, at an angle, and is no glyph (read as a J or a 7)
    win = np.full((160, 200), 220, np.uint8)
    cv2.line(win, (46, 20), (190, 20), 40, 2)
    cv2.line(win, (28, 38), (28, 155), 40, 2)
    cv2.ellipse(win, (46, 38), (18, 18), 180, 0, 90, 40, 2)
    cv2.putText(win, "7", (100, 35), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 40, 2)
    zone = np.full(win.shape, 255, np.uint8)

    def boxes(p: Candidates = DEFAULT.candidates) -> list[tuple[int, int, int, int]]:
        return [(g.x, g.y, g.w, g.h) for g in line_cut(win, zone, True, 10.0, p)]

    rank = [b for b in boxes() if b[0] > 90]
    assert len(rank) == 1 and 9 <= rank[0][3] <= 13, boxes()
    assert boxes() == rank
    corner = [b for b in boxes(replace(DEFAULT.candidates, line_corner=1000.0)) if b[0] < 40]
    assert len(corner) == 1, boxes()


def test_a_rank_joined_to_its_suit_is_cut_at_its_waist(reader: Recognizer) -> None:
    # indices whose suit touches the rank: one candidate, read ``other`` (or as a 4); cut across
    # its narrowest waist, the upper half reads as the rank, and the suit is read in windows below
    # it (nowhere else: a half is no rank for the other pairings)
    cards = ["3c", "5h", "4c", "8s"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        lay(scene, joined_index(card), 100 + i * 250, 250, -15 + i * 10)
    scene = np.asarray(cv2.GaussianBlur(scene, (0, 0), 0.6), np.uint8)
    gray = cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)
    joined = [g for g in candidate_glyphs(gray) if g.dark and 28 <= max(g.w, g.h) <= 40]
    assert len(joined) >= len(cards)
    halves = [waist_halves(gray, g) for g in joined]
    # each joined index is cut in two
    assert sum(len(h) == 2 for h in halves) >= len(cards)

    def sure(r: Recognizer) -> set[str]:
        return {c.card for c in r.read(scene).cards if c.confidence >= DEFAULT_MIN_CONFIDENCE}

    read = sure(reader)
    assert read <= set(cards) and len(read) >= 3, read
    assert sure(reader.using(DEFAULT.without("waist-cut"))) == set()


def test_a_rank_and_suit_joined_only_by_blur_are_cut_apart(reader: Recognizer) -> None:
    # one row apart, blurred: the candidates' threshold joins rank and suit, but at the
    # threshold of the candidate's own box some fall apart into two pieces, neither of them
    # elongated; those pieces together are cut at their waist, into the rank and the suit
    cards = ["3c", "5h", "4c", "8s", "7d", "2s"]
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        lay(scene, joined_index(card, gap=1), 60 + i * 200, 250, -15 + i * 7)
    scene = np.asarray(cv2.GaussianBlur(scene, (0, 0), 0.8), np.uint8)
    frame = reader.frame(scene)
    joined = [g for g in candidate_glyphs(frame.gray) if g.dark and 26 <= max(g.w, g.h) <= 42]
    assert len(joined) >= 5
    least = DEFAULT.looks.window_rank

    def cut(p: Candidates = DEFAULT.candidates) -> list[str]:
        """The halves read as a rank at ``Looks.window_rank`` or more (those kept)."""
        halves = [h for g in joined for h in waist_halves(frame.gray, g, p)]
        return [h.label for h in read_glyphs(reader.nets, frame, halves)
                if h.label in RANK_CLASSES and h.prob >= least]

    # (a piece elongated by itself, an 8, is cut into two loops: a half is read as a rank only
    # for the window read of the suit below it, which must read as a suit there)
    ranks = set(cut()) & {c[0] for c in cards}
    assert len(ranks) >= 5, ranks
    assert len(set(cut(replace(DEFAULT.candidates, split_part=1.0))) & ranks) < len(ranks)


# -- pairing ----
def test_a_rank_and_a_suit_in_different_inks_are_not_one_index() -> None:
    # real decks print a rank and its suit in one ink: a black 7 beside a red heart is a 7 whose
    # own suit was not read, lying by the pip of another card
    def index(rank_ink: tuple[int, int, int], suit_ink: tuple[int, int, int],
              blur: bool = False) -> np.ndarray:
        img = np.full((120, 120, 3), 235, np.uint8)
        cv2.putText(img, "7", (42, 58), cv2.FONT_HERSHEY_SIMPLEX, 0.8, rank_ink, 2)
        cv2.circle(img, (50, 74), 6, suit_ink, -1)
        return cv2.GaussianBlur(img, (0, 0), 1.2) if blur else img

    seven, suit = Glyph(40, 40, 18, 20, 49, 50, True, "7", 0.99), glyph("h", 0.99, 50, 74, 14)
    black, red, blue = (20, 20, 20), (40, 40, 200), (170, 60, 10)
    for rank_ink, suit_ink, blur, cards in (
            (red, red, False, ["7h"]), (red, red, True, ["7h"]), (black, black, True, ["7h"]),
            (black, red, False, []), (black, red, True, []), (red, black, False, []),
            (blue, red, False, [])):
        image = index(rank_ink, suit_ink, blur)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        read = [c.card for c in assemble([seven, suit], grey, 0.0, image).cards]
        assert read == cards, (rank_ink, suit_ink, blur)
    # without the colour picture (grey input) the inks cannot be compared
    image = index(black, red)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert [c.card for c in assemble([seven, suit], grey, 0.0).cards] == ["7h"]
    # nor with the rule off
    off = DEFAULT.without("ink-check")
    assert [c.card for c in assemble([seven, suit], grey, 0.0, image, p=off).cards] == ["7h"]

def test_the_card_axis_is_the_angle_of_its_edges(reader: Recognizer) -> None:
    # the lines around a card's rank run along the card's sides: their angle, modulo a quarter
    # turn, is the angle at which the card was laid
    for card in ("Kd", "5s"):
        for angle in (0, 17, 40, 77, 135, 200, 333):
            scene = np.full((720, 1280, 3), FELT, np.uint8)
            lay(scene, committed(card), 500, 250, angle)
            frame = reader.frame(scene)
            ranks = [g for g in reader.glyphs(frame)
                     if g.label in RANK_CLASSES and g.prob >= 0.9]
            assert ranks, (card, angle)
            for r in ranks:
                # laid turned counter-clockwise on the screen: clockwise in image coordinates
                off = (math.degrees(card_axis(frame.gray, r)) + angle) % 90
                assert min(off, 90 - off) <= 6.0, (card, angle, off)
