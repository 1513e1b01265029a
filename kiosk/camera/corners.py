"""The index corners the camera sees, followed from frame to frame.

Each frame read gives the corners of the cards it named (``FrameResult.cards[i]`` through
``recognize.corner_of``) and of those it could not name (``FrameResult.unread``). A corner seen
again within a fraction of its rank's size of where it lay is the same corner, and keeps its
:attr:`Tracked.id`: the camera page outlines it and the dealer names it by that id, though the
frames go on; the card an entered card was learned from keeps the name it was given
(:attr:`Tracked.named`), so that the camera knows which of the corners in a seat's zone are
cards the hand has already. A corner not seen for :data:`FORGET_AFTER` frames read is forgotten.

The frames of the last :data:`KEEP_FRAMES` readings are kept: an example is cut out of the
frame a corner was last seen in (``hardware.camera.examples.example_at``), never out of a later
frame where the card may have moved.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hardware.camera.deck import Corner

#: frames read whose pictures are kept for the examples to be cut out of
KEEP_FRAMES = 4
#: frames read a corner may go unseen (a hand passing over it) before it is forgotten
FORGET_AFTER = 8
#: a corner lies where one was when their ranks' centres are this many rank sizes apart or less
SAME_PLACE = 0.8
#: frames read a corner must have been seen in to be outlined on the camera page (a glint seen
#: once is not)
SHOWN_AFTER = 2


@dataclass(frozen=True, slots=True)
class Tracked:
    """A corner followed over the frames: where it lay when last seen (``corner``, in the
    pixels of frame ``last``), the card read there then (None: not named), how surely, in how
    many frames it was seen, and the card the dealer named it (an example learned from it)."""

    id: str
    corner: Corner
    card: str | None
    confidence: float
    seen: int
    last: int
    named: str | None = None

    @property
    def center(self) -> tuple[float, float]:
        return self.corner.center


def _distance(a: Corner, b: Corner) -> float:  # both in the same frame's pixels
    return math.dist(a.center, b.center)


class CornerTracker:
    """The corners of the frames read, followed over the frames; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._corners: dict[str, Tracked] = {}
        self._frames: dict[int, Any] = {}
        self._seq = 0
        self._last_result: Any = None

    @property
    def seq(self) -> int:
        """The number of frames read so far."""
        return self._seq

    def update(self, result: Any, frame: Any) -> bool:
        """A frame read (``FrameResult``) and its picture; False when ``result`` is the last
        reading counted again (nothing moved: nothing new to follow)."""
        from hardware.camera.recognize import corner_of

        if result is self._last_result:
            return False
        found: list[tuple[Corner, str | None, float]] = [
            (corner_of(c), c.card, c.confidence) for c in result.cards]
        found += [(c, None, 0.0) for c in result.unread]
        with self._lock:
            self._last_result = result
            self._seq += 1
            seq = self._seq
            self._frames[seq] = frame
            for old in [s for s in self._frames if s <= seq - KEEP_FRAMES]:
                del self._frames[old]
            pairs = sorted(
                ((_distance(corner, t.corner), i, t.id) for i, (corner, _c, _p) in enumerate(found)
                 for t in self._corners.values()
                 if _distance(corner, t.corner) <= SAME_PLACE * max(corner.rank.size, 4.0)),
                key=lambda p: p[0])
            matched: dict[int, str] = {}
            taken: set[str] = set()
            for _d, i, tid in pairs:
                if i not in matched and tid not in taken:
                    matched[i] = tid
                    taken.add(tid)
            for i, (corner, card, confidence) in enumerate(found):
                known = matched.get(i)
                if known is None:
                    new = f"c{next(self._ids)}"
                    self._corners[new] = Tracked(new, corner, card, confidence, 1, seq)
                else:
                    was = self._corners[known]
                    self._corners[known] = replace(was, corner=corner, card=card,
                                                 confidence=confidence, seen=was.seen + 1,
                                                 last=seq)
            for tid in [t.id for t in self._corners.values() if t.last <= seq - FORGET_AFTER]:
                del self._corners[tid]
        return True

    def shown(self) -> list[Tracked]:
        """The corners to outline: seen in the latest frame read or the one before, and in
        :data:`SHOWN_AFTER` frames or more (or named)."""
        with self._lock:
            return sorted((t for t in self._corners.values()
                           if t.last >= self._seq - 1
                           and (t.seen >= SHOWN_AFTER or t.named is not None)),
                          key=lambda t: (t.center[1], t.center[0]))

    def get(self, corner_id: str) -> Tracked | None:
        with self._lock:
            return self._corners.get(corner_id)

    def frame_of(self, tracked: Tracked) -> Any:
        """The picture ``tracked`` was last seen in, or None when it is no longer kept."""
        with self._lock:
            return self._frames.get(tracked.last)

    def in_sight(self, where: Callable[[float, float], bool]) -> list[Tracked]:
        """The corners seen in the latest frame read or the one before whose rank's centre
        (frame pixels) ``where`` holds."""
        with self._lock:
            return [t for t in self._corners.values()
                    if t.last >= self._seq - 1 and where(*t.center)]

    def name(self, corner_id: str, card: str | None) -> None:
        """The dealer named the corner ``card`` (an example was learned from it), or the name
        was withdrawn (None)."""
        with self._lock:
            was = self._corners.get(corner_id)
            if was is not None:
                self._corners[corner_id] = replace(was, named=card)

    def forget_names(self, card: str) -> None:
        """``card`` is no longer named anywhere (its entry was undone)."""
        with self._lock:
            for tid, t in list(self._corners.items()):
                if t.named == card:
                    self._corners[tid] = replace(t, named=None)
