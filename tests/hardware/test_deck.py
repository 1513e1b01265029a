"""A learned deck: examples cut from a frame, kept in files, withdrawn; errors in words."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera.deck import GLYPH_PX, THUMB_PX, Corner, Deck, DeckError, DeckStore, Glyph
from hardware.camera.examples import example_at


def _frame_with_index() -> tuple[np.ndarray, Corner]:
    """A light card face with a dark K above a heart-ish blob, lying turned a quarter round."""
    image = np.full((200, 300, 3), (40, 110, 40), np.uint8)
    cv2.rectangle(image, (60, 40), (240, 160), (235, 235, 235), -1)
    cv2.putText(image, "K", (90, 80), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (20, 20, 20), 2)
    cv2.circle(image, (101, 100), 7, (30, 30, 200), -1)
    corner = Corner(Glyph(100.0, 70.0, 20.0), Glyph(101.0, 100.0, 14.0), (0.0, 1.0), True,
                    ((80.0, 50.0), (140.0, 50.0), (140.0, 150.0), (80.0, 150.0)))
    return image, corner


def test_an_example_keeps_its_glyphs_upright_and_a_thumbnail() -> None:
    image, corner = _frame_with_index()
    ex = example_at(image, corner, "Kh", "registration")
    assert ex.rank is not None and ex.rank.shape == (GLYPH_PX, GLYPH_PX, 3)
    assert ex.suit is not None and ex.suit.shape == (GLYPH_PX, GLYPH_PX, 3)
    assert ex.thumb.shape == (THUMB_PX, THUMB_PX, 3)
    # the rank's dark print lies in the middle of its window, the face around it
    middle = ex.rank[GLYPH_PX // 3: 2 * GLYPH_PX // 3, GLYPH_PX // 3: 2 * GLYPH_PX // 3]
    assert middle.min() < 80 and ex.rank.max() > 200


def test_an_example_of_a_card_that_is_none_is_refused() -> None:
    image, corner = _frame_with_index()
    with pytest.raises(DeckError, match="not a card: 'Kx'"):
        example_at(image, corner, "Kx", "registration")


def test_a_deck_counts_ranks_and_suits_apart() -> None:
    image, corner = _frame_with_index()
    deck = Deck("Modiano rosso")
    deck.add(example_at(image, corner, "Kh", "hand 1"))
    deck.add(example_at(image, corner, "Ks", "hand 1"))
    deck.add(example_at(image, corner, "2h", "hand 2"))
    assert deck.counts() == {"examples": 3, "ranks": {"2": 1, "K": 2},
                             "suits": {"h": 2, "s": 1}}


def test_a_deck_survives_its_file_and_an_example_is_withdrawn(tmp_path: Path) -> None:
    image, corner = _frame_with_index()
    store = DeckStore(tmp_path / "decks")
    deck = store.create("Modiano rosso")
    first = deck.add(example_at(image, corner, "Kh", "hand 1"))
    deck.add(example_at(image, corner, "Qd", "hand 1"))
    store.save(deck)
    again = store.load("Modiano rosso")
    assert sorted(e.card for e in again) == ["Kh", "Qd"]
    kept = again.get(first.id)
    assert kept is not None and kept.rank is not None and first.rank is not None
    assert np.array_equal(kept.rank, first.rank)
    version = again.version
    again.remove(first.id)
    assert again.version > version and [e.card for e in again] == ["Qd"]
    with pytest.raises(DeckError, match="has no example"):
        again.remove(first.id)
    assert store.names() == ["Modiano rosso"]
    store.delete("Modiano rosso")
    assert store.names() == []


def test_a_deck_name_and_a_damaged_file_are_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="1 to 40 printable"):
        Deck("")
    store = DeckStore(tmp_path)
    store.create("Rosso")
    with pytest.raises(DeckError, match="exists already"):
        store.create(" Rosso ")
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"not a deck")
    with pytest.raises(DeckError, match="not a deck file"):
        Deck.load(bad)
    assert store.names() == ["Rosso"]


def test_a_deck_file_of_an_older_format_is_refused_in_words(tmp_path: Path) -> None:
    """A deck kept when examples held other pixels is not read as if they were today's."""
    import json

    import numpy as np

    path = tmp_path / "old.npz"
    Deck("Old").save(path)
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(bytes(arrays["meta"]).decode())
    meta["format"] = 1
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez(path, **arrays)
    with pytest.raises(DeckError, match=r"format 1, kept by an older kiosk.*learn the deck again"):
        Deck.load(path)
