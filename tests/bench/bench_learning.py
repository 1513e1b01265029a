"""What learning the deck costs the kiosk (docs/benchmarks.md, "Learning the deck").

The kiosk's own part of learning, with real OpenCV on the committed CC0 faces laid in rows: the
corners of a frame followed (``CornerTracker.update``, every frame read), 40 cards named on the
camera page (each cut out of its frame and added to the table's deck), the deck written by its
thread and handed to the readers, and a reader loading it. The recogniser's own reading with the
deck is measured by the recognition benchmarks.

    .venv/bin/python -m tests.bench learning
"""

from __future__ import annotations

import copy
import statistics
import tempfile
import time
from pathlib import Path

from hardware.camera.readers import DeckCache
from hardware.camera.recognize import FrameResult, Recognizer, decode_image
from kiosk.camera import TableCamera
from kiosk.service import TableService
from kiosk.store import Store
from tests.helpers.camera_table import FRAME_H, FRAME_W, TablePictures
from tests.kiosk import driver

CARDS = [r + s for s in "cdhs" for r in "23456789TJQKA"]


def main() -> None:
    pictures = TablePictures()
    reader = Recognizer(min_confidence=0.2)
    frames = []
    for k in range(4):  # four layouts of twelve cards, four to a row
        cards = CARDS[12 * k: 12 * k + 12]
        rows: dict[int, list[str | None]] = {s: list(cards[4 * (s - 1): 4 * s]) for s in (1, 2, 3)}
        frame = decode_image(pictures.picture(rows))
        frames.append((frame, reader.read(frame)))
    with tempfile.TemporaryDirectory() as folder:
        table = TableService(Store(f"sqlite:///{Path(folder) / 'table.sqlite3'}"))
        table.configure(copy.deepcopy(driver.SETUP))
        cam = TableCamera(table, Path(folder) / "camera-table-1.json", lang="en")
        cam.decks.create("Bench")
        track, name = [], []
        named = 0
        start_all = time.perf_counter()
        for frame, result in frames:
            for _ in range(3):
                again = FrameResult(list(result.cards), result.unknown, list(result.unread))
                t0 = time.perf_counter()
                cam.corners.update(again, frame)
                track.append(time.perf_counter() - t0)
            for corner in cam.corners.shown():
                if named == 40:
                    break
                t0 = time.perf_counter()
                cam.name_corner(corner.id, corner.card or "2c")
                name.append(time.perf_counter() - t0)
                named += 1
        t0 = time.perf_counter()
        assert cam.decks.flush()
        written = time.perf_counter() - t0
        total = time.perf_counter() - start_all
        ref = cam.deck_file()
        assert ref is not None
        t0 = time.perf_counter()
        deck = DeckCache().get(ref)
        loaded = time.perf_counter() - t0
        assert deck is not None
        size = Path(ref.path).stat().st_size
        cam.stop()
        table.store.close()
    print(f"frame {FRAME_W}x{FRAME_H}, {len(frames)} layouts of 12 cards")
    print(f"corners followed: median {1000 * statistics.median(track):.2f} ms a frame read")
    print(f"{named} cards named: median {1000 * statistics.median(name):.1f} ms each, "
          f"max {1000 * max(name):.1f} ms")
    print(f"deck of {len(deck)} examples written {1000 * written:.0f} ms after the last name "
          f"({size / 1024:.0f} KiB); loaded by a reader in {1000 * loaded:.1f} ms")
    print(f"all of it (following 12 frames, naming, writing): {total:.2f} s")


if __name__ == "__main__":
    main()
