"""The ink a glyph is printed in, against its card's face: the two glyphs of one index share
it, and a red card's print is red (or its face is)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from hardware.camera.types import Glyph

Image = npt.NDArray[Any]


def ink(image: Image, g: Glyph, lightness: float) -> npt.NDArray[np.float32] | None:
    """The colour of a glyph's print against its face: the mean Lab colour of the stronger half
    of its print minus that of the face around it, the lightness weighted by ``lightness`` (blur
    mixes print and face, which shortens this vector but keeps its direction). None when it
    cannot be told."""
    x0, y0 = max(g.x - 1, 0), max(g.y - 1, 0)
    region = image[y0:g.y + g.h + 1, x0:g.x + g.w + 1]
    if region.size == 0:
        return None
    grey = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY).reshape(-1)
    lab = cv2.cvtColor(region, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    otsu, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    printed = grey <= otsu if g.dark else grey > otsu
    if printed.sum() < 2 or (~printed).sum() < 2:
        return None
    middle = float(np.median(grey[printed]))
    strong = printed & ((grey <= middle) if g.dark else (grey >= middle))
    v = lab[strong].mean(axis=0) - lab[~printed].mean(axis=0)
    v[0] *= lightness
    n = float(np.linalg.norm(v))
    return None if n < 1e-3 else v / n


class Inks:
    """The inks of a frame's glyphs, each measured once (a glyph is compared with several), and
    the frame's colour apart from its lightness (made once, when a face is first traced)."""

    def __init__(self, image: Image, lightness: float = 0.2, agree: float = 0.5) -> None:
        self.image = image
        #: how much the lightness counts against the colour; the least cosine of one ink
        self.lightness, self.agree = lightness, agree
        self.known: dict[tuple[int, int, int, int, bool], npt.NDArray[np.float32] | None] = {}
        self._chroma: tuple[Image, Image] | None = None

    def chroma(self) -> tuple[Image, Image]:
        """The frame's colour-difference planes (Cr and Cb of YCrCb, 8-bit)."""
        if self._chroma is None:
            ycc = cv2.cvtColor(self.image, cv2.COLOR_BGR2YCrCb)
            self._chroma = (cv2.extractChannel(ycc, 1), cv2.extractChannel(ycc, 2))
        return self._chroma

    def of(self, g: Glyph) -> npt.NDArray[np.float32] | None:
        # by its box, not its identity: a glyph made for a moment (a window, a glyph read again)
        # may take the identity of one gone, and so its ink
        key = (g.x, g.y, g.w, g.h, g.dark)
        if key not in self.known:
            self.known[key] = ink(self.image, g, self.lightness)
        return self.known[key]

    def same(self, rank: Glyph, suit: Glyph) -> bool:
        """Whether a rank and a suit are printed in the same ink, as the two halves of one index
        are (a black rank beside a red heart is a rank beside the next card's pip)."""
        a, b = self.of(rank), self.of(suit)
        return a is None or b is None or float(a @ b) >= self.agree

    def colour(self, g: Glyph, red: float, black: float) -> str | None:
        """"red" or "black": the colour of a glyph's card, told by its print against its face
        (red print on white, or white print on red: the a* of its ink, turned for light print,
        from ``red``, to ``black``); None when it cannot be told."""
        v = self.of(g)
        if v is None:
            return None
        a = float(v[1]) if g.dark else -float(v[1])
        return "red" if a >= red else "black" if a <= black else None
