"""Reading with the deck on the table: examples cut from labelled pictures, the deck's own
corners and readings, and ``stud-kiosk recognize --learn/--deck/--save-deck`` on pictures of the
committed CC0 deck drawn at test time."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from hardware.camera.deck import Corner, Deck, Example, Glyph
from hardware.camera.examples import Labelled, examples_in, glyph_window
from hardware.camera.learned import DECK_CARD, DECK_PAIR, DeckReaders
from hardware.camera.pips import COUNT
from hardware.camera.recognize import Recognizer
from hardware.camera.types import Found
from hardware.training.cardart import load_decks
from hardware.training.tables import write_tables


def _picture(path: str) -> npt.NDArray[np.uint8]:
    """A picture read from ``path``; a missing or unreadable file fails here, by name."""
    image = cv2.imread(path)
    assert image is not None, f"cannot read {path}"
    return image.astype(np.uint8)


ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DECK = "cards-heruka"


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """Six table pictures of the CC0 deck with their labels (quads included)."""
    out = tmp_path_factory.mktemp("tables")
    decks = {DECK: load_decks(FIXTURES)[DECK]}
    images = write_tables(decks, DECK, 6, out, first_seed=40_000_000)
    return out, images


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _cards(image: dict[str, Any]) -> list[Labelled]:
    return [Labelled(c["card"], tuple(map(tuple, c["quad"]))) for c in image["cards"]]


def _learned(recognizer: Recognizer, folder: Path, images: list[dict[str, Any]]) -> Deck:
    deck = Deck("CC0")
    for image in images:
        picture = _picture(str(folder / image["file"]))
        corners, suits = recognizer.corners(picture)
        for example in examples_in(picture, corners, _cards(image), "labels", suits):
            deck.add(example)
    return deck


def test_a_labelled_picture_gives_one_example_per_index_corner_in_view(
        tables: tuple[Path, list[dict[str, Any]]], recognizer: Recognizer) -> None:
    folder, images = tables
    deck = _learned(recognizer, folder, images[:1])
    face_up = Counter(c["card"] for c in images[0]["cards"] if c["face_up"])
    learned = Counter(e.card for e in deck)
    assert learned, "no example learned from a picture of eight-odd face-up cards"
    # every example is one of the picture's face-up cards, at most one per index corner
    assert all(card in face_up and n <= 2 * face_up[card] for card, n in learned.items())
    # the deck prints its suit under its rank: the layout says so
    layout = deck.layout()
    assert layout is not None
    right, down, size = layout
    assert abs(right) < 0.5 and 0.7 < down < 2.0 and 0.5 < size < 1.4


def test_a_glyph_window_is_as_large_however_the_card_lies() -> None:
    """The window is cut at the glyph's upright height, not its box in the frame: a card turned
    45 degrees gives the window it gives lying straight."""
    face = _picture(str(FIXTURES / DECK / "Ks.png"))
    big = cv2.resize(face, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
    canvas = np.full((600, 600, 3), (40, 110, 40), np.uint8)
    windows = []
    for angle in (0.0, 45.0):
        m = cv2.getRotationMatrix2D((136.0, 190.0), angle, 1.0)
        m[:, 2] += (300 - 136, 300 - 190)
        frame = cv2.warpAffine(big, m, (600, 600), dst=canvas.copy(),
                               borderMode=cv2.BORDER_TRANSPARENT)
        # the rank K of the index (card pixels about (22, 26) at twice the size)
        x, y = (m @ np.array([22.0, 26.0, 1.0])).tolist()
        a = math.radians(angle)
        down = (math.sin(a), math.cos(a))
        box = 30.0 * (abs(math.cos(a)) + abs(math.sin(a)))  # the box grows as it turns
        windows.append(glyph_window(frame, Glyph(x, y, box), down).astype(np.float32))
    a, b = (w - w.mean() for w in windows)
    assert float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum())) > 0.8


@pytest.mark.slow
def test_the_deck_finds_and_reads_corners_of_its_own(
        tables: tuple[Path, list[dict[str, Any]]], recognizer: Recognizer) -> None:
    """Learned from four pictures, the deck reads the two others: it finds corners of its own,
    gives its card as evidence on the corners the glyph readers found, and the cards read with
    it are more than without it, none of them wrong."""
    folder, images = tables
    deck = _learned(recognizer, folder, images[:4])
    reader = DeckReaders()(deck)
    plain: set[tuple[int, str]] = set()
    learned: set[tuple[int, str]] = set()
    truth: set[tuple[int, str]] = set()
    found: list[Found] = []
    for k in (4, 5):
        picture = _picture(str(folder / images[k]["file"]))
        look = recognizer.look(picture, readers=[reader])
        assert any(f.source == DECK_PAIR for f in look.found), "no corner of the deck's own"
        found += look.found
        truth |= {(k, c["card"]) for c in images[k]["cards"] if c["face_up"]}
        plain |= {(k, c.card) for c in recognizer.read(picture, detail=True).cards}
        learned |= {(k, c.card) for c in recognizer.read(picture, detail=True, deck=deck).cards}
    assert learned <= truth, sorted(learned - truth)
    assert len(learned) > len(plain & truth), (sorted(learned), sorted(plain))
    # the deck's card is evidence on the corners of the glyph readers, but not on those counted
    # from their pips: their rank glyph is a pip, nothing for the deck to read
    by_glyphs = [f for f in found if f.source not in (DECK_PAIR, COUNT)]
    counted = [f for f in found if f.source == COUNT]
    assert any(e.source == DECK_CARD for f in by_glyphs for e in f.evidence)
    assert counted and not any(e.source == DECK_CARD for f in counted for e in f.evidence)


def _recognize(*args: str | Path) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "recognize", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_recognize_learns_a_deck_saves_it_and_reads_with_it(
        tables: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    folder, images = tables
    labels = folder / "learn.json"
    labels.write_text(json.dumps({"images": images[:4]}), encoding="utf-8")
    deck_file = tmp_path / "cc0.npz"
    pictures = [folder / i["file"] for i in images[4:]]
    learned = _recognize("--learn", labels, "--save-deck", deck_file, "--json", *pictures)
    assert deck_file.is_file()
    again = _recognize("--deck", deck_file, "--json", *pictures)
    assert [line["cards"] for line in learned] == [line["cards"] for line in again]
    plain = _recognize("--json", *pictures)

    def score(lines: list[dict[str, Any]]) -> tuple[int, int]:
        """Cards named right (of the readable ones) and wrong (of none face up)."""
        right = wrong = 0
        for image, line in zip(images[4:], lines, strict=True):
            up = Counter(c["card"] for c in image["cards"] if c["face_up"])
            readable = Counter(c["card"] for c in image["cards"] if c["face_up"] and c["readable"])
            named = Counter(c["card"] for c in line["cards"])
            right += sum((readable & named).values())
            wrong += sum((named - up).values())
        return right, wrong

    (right, wrong), (right_plain, _) = score(learned), score(plain)
    assert wrong == 0
    assert right > right_plain, (right, right_plain)


def test_a_labels_file_that_is_none_is_refused_in_words(tmp_path: Path) -> None:
    bad = tmp_path / "labels.json"
    bad.write_text('{"pictures": []}', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "recognize", "--learn", str(bad),
                           str(FIXTURES / "camera" / "scene01.jpg")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "not a labels file" in done.stderr and "Traceback" not in done.stderr


def test_a_corner_of_no_suit_is_read_where_the_deck_prints_its_suit() -> None:
    """A deck whose examples show the suit five rank sizes to the left of the rank: a corner of
    a rank alone is read with the suit found there."""
    from hardware.camera.deck import Example
    from hardware.camera.examples import suit_from_layout

    blank = np.zeros((48, 48, 3), np.uint8)
    deck = Deck("apart", [Example(f"e{i}", "Kh", blank, blank, np.zeros((64, 64, 3), np.uint8),
                                  True, "t", suit_at=(-5.0, 1.5, 1.1)) for i in range(3)])
    assert deck.layout() == (-5.0, 1.5, 1.1)
    corner = Corner(Glyph(100.0, 100.0, 10.0), None, (0.0, 1.0), True, ())
    suit = suit_from_layout(corner, deck.layout() or (0.0, 0.0, 0.0))
    # down (0, 1): the card's right is +x, so five sizes to the left is x - 50
    assert (round(suit.cx), round(suit.cy), round(suit.size)) == (50, 115, 11)


def test_a_deck_whose_examples_do_not_agree_where_the_suit_lies_has_no_layout() -> None:
    """A deck printing the suit only in the far corner: its examples' suits were paired with
    pips here and there on the face. Their median would send every rank to a place no index
    prints; a layout is where most of the examples agree, within a rank size."""
    from hardware.camera.deck import Example

    blank = np.zeros((48, 48, 3), np.uint8)

    def deck(*places: tuple[float, float]) -> Deck:
        return Deck("far", [Example(f"e{i}", "Kh", blank, blank,
                                    np.zeros((64, 64, 3), np.uint8), True, "t",
                                    suit_at=(x, y, 1.0)) for i, (x, y) in enumerate(places)])

    assert deck((-5.4, 8.1), (-5.9, 1.1), (-6.3, 9.1), (-4.4, 0.1), (-7.2, 10.8)).layout() is None
    # most agree: the stray example does not move the layout, nor take it away
    assert deck((0.0, 1.2), (0.1, 1.1), (-0.1, 1.2), (0.0, 1.3), (-5.0, 8.0)).layout() == (
        0.0, 1.2, 1.0)


def _printed(ground: tuple[int, int, int], ink: tuple[int, int, int], text: str
             ) -> npt.NDArray[np.uint8]:
    window = np.full((48, 48, 3), ground, np.uint8)
    cv2.putText(window, text, (12, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.1, ink, 3)
    return window


def test_the_deck_finds_corners_only_on_faces_of_its_colour() -> None:
    """A pair of glyphs printed on a ground of another colour than the deck's faces (a chip's
    dots, the felt's pattern) is no corner of the deck's; one on a face of its colour, even
    lit less, is."""
    white, black = (235, 235, 235), (20, 20, 20)
    deck = Deck("white")
    deck.add(Example("a", "2s", _printed(white, black, "2"), _printed(white, black, "s"),
                     np.full((64, 64, 3), 235, np.uint8), True, "test"))
    reader = DeckReaders()(deck)
    assert reader.on_face(_printed((150, 150, 150), (10, 10, 10), "7"), True)  # in shadow
    assert not reader.on_face(_printed((30, 140, 30), (240, 240, 240), "o"), False)  # a chip
    assert not reader.on_face(_printed((200, 120, 40), black, "7"), True)  # a blue face


def test_the_deck_pairs_only_glyphs_lying_as_it_prints_its_index() -> None:
    """Once its examples show the suit printed a rank size below the rank and two thirds its
    size, a glyph so placed pairs with a rank; the two digits of a 10, side by side and of one
    size, do not, nor a pip three rank sizes away."""
    from hardware.camera.learned import fits_layout
    from hardware.camera.types import Glyph as FrameGlyph

    def at(x: float, y: float, size: float) -> FrameGlyph:
        return FrameGlyph(round(x - size / 2), round(y - size / 2), round(size), round(size),
                          x, y, True)

    layout = (0.0, 1.0, 0.66)
    rank = at(100, 100, 30)
    assert fits_layout(rank, at(102, 131, 20), layout, 1.5)
    assert not fits_layout(rank, at(120, 100, 30), layout, 1.5)  # the 0 of a 10
    assert not fits_layout(rank, at(100, 190, 20), layout, 1.5)


def test_a_rank_paired_with_a_pip_of_its_face_is_read_by_the_deck_with_that_pip() -> None:
    """A deck printing its suit only in the far corner: the glyph readers pair a rank with a
    pip of its face. The deck knows that corner with no suit of its index (it learns only index
    suits), but reads it with the pip as its suit, and names its card."""
    from hardware.camera.find import ON_FACE
    from hardware.camera.types import Frame
    from hardware.camera.types import Glyph as FrameGlyph

    face = np.full((200, 140, 3), 235, np.uint8)
    cv2.putText(face, "7", (14, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (20, 20, 20), 2)
    cv2.circle(face, (70, 100), 11, (20, 20, 20), -1)
    rank = FrameGlyph(14, 20, 18, 21, 23.0, 30.5, True, "7", 0.9)
    pip = FrameGlyph(59, 89, 23, 23, 70.0, 100.0, True, "c", 0.6)
    down = (0.0, 1.0)
    deck = Deck("far suits")
    deck.add(Example("a", "7c", glyph_window(face, Glyph(23.0, 30.5, 21.0), down),
                     glyph_window(face, Glyph(70.0, 100.0, 23.0), down),
                     np.full((64, 64, 3), 235, np.uint8), True, "test"))
    found = Found(rank, pip, False, ((5.0, 5.0), (135.0, 5.0), (135.0, 195.0), (5.0, 195.0)),
                  ON_FACE)
    assert found.corner.suit is None  # what the deck learns from: the index's own glyphs
    reader = DeckReaders()(deck)
    frame = Frame.of(face)
    assert reader.read(frame, [found.corner]) == [[]]
    [evidence] = reader.read(frame, [found.read_corner])
    assert [(e.source, e.rank + e.suit) for e in evidence] == [(DECK_CARD, "7c")]
