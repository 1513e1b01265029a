"""Card recognition: the face-up cards of a camera frame, read in named stages.

    frame ─► 1 find ─► corners ─► 2 read ─► evidence ─► 3 decide ─► cards, unread corners
                                                                  ─► 4 follow (stable.py)

1. **find** (``candidates``, ``glyphs``, ``find``): glyph candidates in both polarities and the
   finer looks around the lonely ones, read by the glyph classifier as rank-, suit- or
   other-like; every likely rank paired with a suit beside it, or with the pips of its face,
   into an index corner (:class:`~hardware.camera.types.Found`: its glyphs, its card's quad and
   down).
2. **read** (``upright``, ``looks``, ``pips``, ``whole``): readers, in order, each adding
   :class:`~hardware.camera.types.Evidence` tagged with its source to the corners, and some
   finding corners of their own: the upright classifier (a second reading of each corner; the
   second looks where the first pairing missed), pip counting, the loop of a 6 or 9; read in
   detail, the card-view network and the index networks. A reader of a learned deck plugs in
   as one more (:class:`CornerReader`).
3. **decide** (``decide``): a card is named only where its evidence agrees and is sure; the
   rest are unknown, and their corners the frame's ``unread``.
4. **follow** (``stable``): cards read over frames become stable proposals.

Every tuning value is in ``params`` (:class:`~hardware.camera.params.Params`); ``docs/
recognition.md`` describes the design and what each rule was measured to give.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import DEFAULT_MIN_CONFIDENCE, decide, looks, pips, whole
from hardware.camera.candidates import candidate_glyphs
from hardware.camera.deck import Corner, Deck
from hardware.camera.deck import Glyph as DeckGlyph
from hardware.camera.find import Corners, corners
from hardware.camera.glyphs import classify, read_glyphs
from hardware.camera.nets import INDEX_PATHS, MODEL_PATH, UPRIGHT_PATH, VIEW_PATH, Networks
from hardware.camera.params import DEFAULT, Params
from hardware.camera.types import (
    CardReading,
    Evidence,
    Found,
    Frame,
    FrameResult,
    Glyph,
    Image,
    RecognitionError,
    corner_of,
)
from hardware.camera.upright import UprightFn, read_corners, read_loops

__all__ = [
    "INDEX_PATHS", "MODEL_PATH", "UPRIGHT_PATH", "VIEW_PATH", "CardReading", "CornerReader",
    "FrameResult", "RecognitionError", "Recognizer", "check_frame", "corner_of", "decode_image",
    "find_and_read", "load_image",
]


class CornerReader(Protocol):
    """A reader of the corners found (stage 2): evidence for each corner, in their order (a
    reader of the learned deck, say, names the ranks and suits of a deck's examples); and the
    corners it finds of its own, read (stage 1; none for most readers)."""

    def read(self, frame: Frame, corners: Sequence[Corner]) -> list[list[Evidence]]: ...

    def find(self, frame: Frame, corners: Corners, found: Sequence[Found]) -> list[Found]: ...


@dataclass(slots=True)
class Look:
    """One frame (or the frame enlarged) read: its glyphs, its corners and their evidence, the
    cards they name (each with its rank's size) and the 6s and 9s not told."""

    frame: Frame
    glyphs: list[Glyph]
    corners: Corners
    found: list[Found]
    readings: list[tuple[CardReading, float]]
    unknown: int


def find_and_read(frame: Frame, glyphs: list[Glyph], p: Params = DEFAULT,
                  upright: UprightFn | None = None,
                  read: Callable[[list[Glyph]], list[Glyph]] | None = None,
                  readers: Sequence[CornerReader] = ()) -> tuple[Corners, list[Found]]:
    """Stages 1 and 2 on a frame whose glyph candidates the classifier has read: the corners
    paired (stage 1), then the readers in order (stage 2): with ``upright`` (the upright
    classifier) the halves of a cut candidate, the upright reading of the corners and the
    second looks; counting the pips (with ``read``, the glyph classifier, reading them); the
    corner ``readers`` (each corner with its suit glyph, a pip of its face too, but for those
    counted from their pips); the loops of the 6s and 9s left untold. Returns what stage 1 found and
    every corner read."""
    c = corners(frame, glyphs, p)
    found = list(c.found)
    if upright is not None:
        found.extend(looks.cut_halves(c, upright, frame, p))
        if p.upright.corners:
            found.extend(read_corners(found, upright, p))
        found.extend(looks.half(c, found, upright, frame, p))
        found.extend(looks.axis(c, found, upright, frame, p))
        found.extend(looks.window(c, found, upright, frame, p))
        found.extend(looks.face(c, found, upright, frame, p))
    found.extend(pips.count(c, found, frame, p, read, upright))
    # a counted corner's rank glyph is its middle pip: nothing for a deck to read
    asked = [f for f in found if f.source != pips.COUNT]
    for reader in readers:
        for f, evidence in zip(asked, reader.read(frame, [f.read_corner for f in asked]),
                               strict=True):
            f.evidence.extend(evidence)
    for reader in readers:
        found.extend(reader.find(frame, c, list(found)))
    read_loops(found, frame.gray, p)
    return c, found


def deck_checked(reading: CardReading, readers: Sequence[CornerReader], frame: Frame,
                 p: Params) -> CardReading:
    """A card the index networks read around a suit glyph, weighed against the deck on the
    table's reading of the same corner: where the deck names another card at
    ``Learned.against`` or more, the reading is that much less sure, ``c (1 - p)`` (a deck whose
    jack prints a В is not read as an 8 because the networks never saw a В)."""
    if reading.corner is None:
        return reading
    conf, evidence = reading.confidence, list(reading.evidence)
    for reader in readers:
        for e in reader.read(frame, [reading.corner])[0]:
            if e.rank and e.suit and e.rank + e.suit != reading.card \
                    and e.p >= p.learned.against:
                conf *= 1.0 - e.p
                evidence.append(replace(e, against=True))
    if conf == reading.confidence:
        return reading
    return replace(reading, confidence=conf, evidence=tuple(evidence))


class Recognizer:
    """Reads the face-up cards of a frame. Thread-compatible: one instance per thread.

    ``params`` holds every tuning value; ``deck_reader``, given the deck on the table, makes the
    reader of its examples that reads the corners as one more source of evidence."""

    def __init__(self, model_path: Path | str = MODEL_PATH,
                 min_confidence: float = DEFAULT_MIN_CONFIDENCE,
                 upright_path: Path | str | None = UPRIGHT_PATH,
                 index_paths: Sequence[Path | str] | None = INDEX_PATHS,
                 view_path: Path | str | None = VIEW_PATH, params: Params = DEFAULT,
                 deck_reader: Callable[[Deck], CornerReader] | None = None) -> None:
        self.nets = Networks(model_path, upright_path, index_paths, view_path)
        self.min_confidence = min_confidence
        self.params = params
        #: makes the reader of a deck's examples; None: the glyph network's, made for this
        #: thread when first needed
        self.deck_reader = deck_reader
        self._own_deck_reader: Callable[[Deck], CornerReader] | None = None
        #: the networks' files (another recogniser reading as this one is made of them)
        self.model_paths = self.nets.paths

    def twin(self) -> Recognizer:
        """Another recogniser reading as this one does, with networks of its own (for another
        thread: each thread runs networks of its own)."""
        return Recognizer(self.model_paths[0], self.min_confidence, self.model_paths[1],
                          self.model_paths[2], self.model_paths[3], self.params,
                          self.deck_reader)

    def using(self, params: Params, min_confidence: float | None = None) -> Recognizer:
        """This recogniser reading with other settings (or another threshold), with the same
        networks: for the same thread (a rule measured switched off, a test)."""
        other = copy.copy(self)
        other.params = params
        if min_confidence is not None:
            other.min_confidence = min_confidence
        return other

    def frame(self, image: Image) -> Frame:
        """A BGR picture as the stages read it."""
        q = self.params.pairing
        return Frame.of(image, q.ink_lightness, q.ink_agree)

    def upright(self, frame: Frame) -> UprightFn | None:
        """The upright classifier reading glyphs of ``frame`` (None without it)."""
        if self.nets.upright is None:
            return None
        nets = self.nets

        def upright(glyphs: list[Glyph], downs: list[tuple[float, float]]
                    ) -> npt.NDArray[np.float32]:
            return nets.read_upright(frame.both, glyphs, downs)
        return upright

    def glyphs(self, frame: Frame) -> list[Glyph]:
        """Stage 1's glyphs: the frame's candidates, read by the glyph classifier."""
        p = self.params
        return classify(self.nets, frame, candidate_glyphs(frame.gray, p.candidates), p)

    def look(self, image: Image, detail: bool = False,
             readers: Sequence[CornerReader] = ()) -> Look:
        """A frame read at its own scale: stages 1 and 2 and the cards its corners name; in
        ``detail``, the unsure ones read again whole by the card-view network."""
        p = self.params
        frame = self.frame(image)
        glyphs = self.glyphs(frame)
        c, found = find_and_read(frame, glyphs, p, self.upright(frame),
                                 lambda more: read_glyphs(self.nets, frame, more), readers)
        if detail and self.nets.view is not None:
            whole.view_check(self.nets.view, frame,
                             [f for f in found if decide.named(f, c.vetoes)], p)
        readings, unknown = decide.readings(found, c.vetoes, p)
        return Look(frame, glyphs, c, found, readings, unknown)

    def corners(self, image: Image) -> tuple[list[Corner], list[DeckGlyph]]:
        """What a deck may be learned from in a frame: every index corner (those the readers
        found, and every glyph paired with a suit-like glyph beside it: ``learned.glyph_pairs``)
        and every suit-like glyph (for a deck printing its suit away from its rank)."""
        from hardware.camera.learned import glyph_pairs, pair_corner, suit_like

        p = self.params.learned
        look = self.look(image)
        corners = [f.corner for f in look.found] + [
            pair_corner(r, s) for r, s in glyph_pairs(look.glyphs, p)]
        suits = [DeckGlyph(g.cx, g.cy, g.size) for g in look.glyphs
                 if not g.half and suit_like(g, p)]
        return corners, suits

    def readings(self, image: Image, detail: bool = False) -> list[tuple[CardReading, float]]:
        """Every card the corners of a frame name (at any confidence), with its rank's size."""
        return self.look(image, detail).readings

    def read(self, image: Image, detail: bool = False, deck: Deck | None = None) -> FrameResult:
        """Recognise the face-up cards of a BGR frame (with ``deck``, the deck on the table:
        read by ``deck_reader`` too). In ``detail`` (a still picture or a table lying still: a
        few times the work), the frame is also read enlarged ``Detail.scale`` times for the
        indices too small for its own scale, the windows around the suits are read whole by
        the index networks, and the cards seen whole by the card-view network."""
        check_frame(image)
        p = self.params
        readers = [self._deck_reader()(deck)] if deck is not None and len(deck) else []
        own = self.look(image, detail, readers)
        found: list[CardReading] = []
        if detail and self.nets.index:
            found = whole.index_windows(self.nets.index, own.frame, own.glyphs, p,
                                        self.nets.view)
        if detail:
            found += self._lone_ranks(own)
        unknown, enlarged = own.unknown, None
        if detail and p.detail.scale is not None:
            scale = p.detail.scale
            more = self.look(cv2.resize(image, None, fx=scale, fy=scale,
                                        interpolation=cv2.INTER_CUBIC), detail, readers)
            unknown = max(unknown, more.unknown)
            enlarged = [(decide.scaled(r, 1.0 / scale), size / scale)
                        for r, size in more.readings]
            found += [decide.scaled(r, 1.0 / scale) for r in self._lone_ranks(more)]
            if self.nets.index and p.whole.index_enlarged:
                found += [decide.scaled(r, 1.0 / scale) for r in whole.index_windows(
                    self.nets.index, more.frame, more.glyphs, p)]
        if readers:
            found = [deck_checked(r, readers, own.frame, p) if r.source == whole.INDEX else r
                     for r in found]
        return decide.frame_result(own.readings, unknown, p, self.min_confidence, enlarged,
                                   found)

    def _deck_reader(self) -> Callable[[Deck], CornerReader]:
        if self.deck_reader is not None:
            return self.deck_reader
        if self._own_deck_reader is None:
            from hardware.camera.learned import DeckReaders

            self._own_deck_reader = DeckReaders(p=self.params.learned)
        return self._own_deck_reader

    def _lone_ranks(self, look: Look) -> list[CardReading]:
        """The cards of the ranks with no card read near them, read by the card-view network
        (``whole.lone_ranks``); none without that network or the upright classifier."""
        upright = self.upright(look.frame)
        if self.nets.view is None or upright is None:
            return []
        return whole.lone_ranks(self.nets.view, look.frame, look.glyphs, look.readings,
                                upright, self.params)


def check_frame(image: Any) -> None:
    """Raise :class:`RecognitionError`, saying what is wrong, unless ``image`` is a colour frame
    that :meth:`Recognizer.read` can read."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise RecognitionError("expected a colour (BGR) image of shape (height, width, 3)")
    if image.size == 0:
        raise RecognitionError(f"the image is empty (shape {image.shape}): expected a colour "
                               "(BGR) image of shape (height, width, 3)")


def decode_image(data: bytes) -> Image:
    """Decode JPEG/PNG bytes to a BGR image, or raise :class:`RecognitionError` saying why."""
    if not data:
        raise RecognitionError("empty image data")
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-4096:]:
        raise RecognitionError("truncated JPEG: the data ends before the image does")
    buf = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if image is None:
        raise RecognitionError("not a readable image (expected JPEG or PNG data)")
    return np.asarray(image, dtype=np.uint8)


def load_image(path: Path | str) -> Image:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecognitionError(f"{p}: cannot read: {exc.strerror}") from exc
    try:
        return decode_image(data)
    except RecognitionError as exc:
        raise RecognitionError(f"{p}: {exc}") from exc
