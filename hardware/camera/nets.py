"""The recogniser's networks (ONNX files run by ONNX Runtime) and the pictures they read.

* the glyph classifier (``model/cards.onnx``): a 2x32x32 patch around a glyph, read at any
  angle, as a rank (a 6 and a 9 are one class), the ``1`` of a ten, a suit or ``other``;
* the upright classifier (``model/upright.onnx``): the same patch turned so that its card's
  down points down (a 6 and a 9 apart);
* the index networks (``model/index-1.onnx``, ``model/index-2.onnx``): a window around a suit
  glyph, turned upright, read whole as a rank and a suit (or no index), trained apart;
* the card-view network (``model/view.onnx``): a card's quad turned upright, read as a rank and
  a suit (or no card).

Their input sizes and classes are facts of the trained files, not settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.types import Glyph, Image

MODEL_PATH = Path(__file__).resolve().parent / "model" / "cards.onnx"
UPRIGHT_PATH = MODEL_PATH.with_name("upright.onnx")
INDEX_PATHS = (MODEL_PATH.with_name("index-1.onnx"), MODEL_PATH.with_name("index-2.onnx"))
VIEW_PATH = MODEL_PATH.with_name("view.onnx")
#: classifier classes, in output order
CLASSES: tuple[str, ...] = (
    "2", "3", "4", "5", "6", "7", "8", "T", "J", "Q", "K", "A", "1",
    "c", "d", "h", "s", "other",
)
#: classes of the upright classifier, which reads a glyph of an index turned upright: a 6 and a
#: 9 are told apart
UPRIGHT_CLASSES: tuple[str, ...] = (
    "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "1",
    "c", "d", "h", "s", "other",
)
UP = {c: i for i, c in enumerate(UPRIGHT_CLASSES)}
RANK_CLASSES = frozenset("2345678TJQKA")
SUIT_CLASSES = frozenset("cdhs")
RANK_CLASS_IDS = np.array([i for i, c in enumerate(CLASSES) if c in RANK_CLASSES])
SUIT_CLASS_IDS = np.array([i for i, c in enumerate(CLASSES) if c in SUIT_CLASSES])
OTHER = CLASSES.index("other")
PATCH = 32
#: patches given to a network at a time
NET_BATCH = 32
#: the ranks of an index (or card-view) network, in output order (then "none"), then its suits
#: (then "none")
INDEX_RANKS = "23456789TJQKA"
INDEX_SUITS = "cdhs"
#: an index window's side, a card view's width and height, in pixels
INDEX_PX = 40
VIEW_W, VIEW_H = 40, 56


class Net:
    """An ONNX network run by ONNX Runtime on one thread (the kiosk reads frames in two reader
    processes, one per core): it runs these small networks about a third faster than
    ``cv2.dnn`` (the glyph network 0.13 against 0.18 ms a window on the build machine)."""

    def __init__(self, path: Path | str, what: str = "model") -> None:
        """The network of the file ``path``; a missing file is a FileNotFoundError naming
        ``what`` it was to be (``"card model"``) and where it was looked for."""
        import onnxruntime

        if not Path(path).is_file():
            raise FileNotFoundError(f"{what} not found: {path}")

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), options,
                                                    providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name

    def run(self, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The network's first output for a batch."""
        out = self.session.run(None, {self.input: np.ascontiguousarray(batch, np.float32)})[0]
        return np.asarray(out, np.float32).reshape(len(batch), -1)


def softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs: npt.NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return probs


def forward(net: Net, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A network's outputs for a batch, read ``NET_BATCH`` at a time."""
    out: list[npt.NDArray[np.float32]] = []
    for start in range(0, len(batch), NET_BATCH):
        out.append(net.run(batch[start:start + NET_BATCH]))
    return np.concatenate(out)


def softmax_forward(net: Any, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A classifier's probabilities for a batch of patches, read ``NET_BATCH`` at a time."""
    return softmax(forward(net, batch))


def rank_suit(net: Any, batch: npt.NDArray[np.float32]
              ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """An index or card-view network's rank and suit probabilities for a batch."""
    out = forward(net, batch)
    ranks = len(INDEX_RANKS) + 1
    return softmax(out[:, :ranks]), softmax(out[:, ranks:])


class Networks:
    """The networks a recogniser reads with, each from its file (the upright, index and
    card-view ones optional), read by one thread at a time."""

    def __init__(self, model_path: Path | str = MODEL_PATH,
                 upright_path: Path | str | None = UPRIGHT_PATH,
                 index_paths: Sequence[Path | str] | None = INDEX_PATHS,
                 view_path: Path | str | None = VIEW_PATH) -> None:
        path = Path(model_path)
        self.glyph = Net(path, "card model")
        #: the files (another set read as this one is made of them)
        self.paths: tuple[Path, Path | str | None, tuple[Path | str, ...] | None,
                          Path | str | None] = (
            path, upright_path, None if index_paths is None else tuple(index_paths), view_path)
        self.upright: Any = None
        if upright_path is not None:
            self.upright = Net(upright_path, "upright card model")
        self.index: list[Any] = [Net(p, "index model") for p in index_paths or ()]
        self.view: Any = None
        if view_path is not None:
            self.view = Net(view_path, "card-view model")

    def glyphs(self, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The glyph classifier's probabilities (``CLASSES``) for a batch of patches."""
        return softmax_forward(self.glyph, batch)

    def read_upright(self, both: Image, glyphs: list[Glyph], downs: list[tuple[float, float]]
                     ) -> npt.NDArray[np.float32]:
        """The upright classifier's probabilities (``UPRIGHT_CLASSES``) for each glyph, turned
        so that its ``down`` (a unit vector in the frame) points down; ``both`` is the colour
        picture with its grey merged (``Frame.both``)."""
        return softmax_forward(self.upright, patches(both, glyphs, downs))


def patches(both: Image, glyphs: list[Glyph],
            downs: list[tuple[float, float]] | None = None) -> npt.NDArray[np.float32]:
    """The normalised 2x32x32 patch around each glyph, cut from the colour and grey channels
    merged into one picture (``Frame.both``) in one pass: print dark on light, then redness; a
    square of 1.5 glyph sizes (at least 12 px). With ``downs`` (a unit vector per glyph: the
    direction of its index from rank to suit), each patch is turned so that this direction
    points down, the glyph upright as printed."""
    cuts = np.empty((len(glyphs), PATCH, PATCH, 4), np.uint8)
    for k, g in enumerate(glyphs):
        side = max(g.size * 1.5, 12.0)
        cx, cy = g.x + g.w / 2.0, g.y + g.h / 2.0
        scale = PATCH / side
        dx, dy = (0.0, 1.0) if downs is None else downs[k]
        # the patch's axes in the frame: its y axis along ``down``
        xx, xy, yx, yy = scale * dy, -scale * dx, scale * dx, scale * dy
        m = np.array([[xx, xy, PATCH / 2 - xx * cx - xy * cy],
                      [yx, yy, PATCH / 2 - yx * cx - yy * cy]], dtype=np.float64)
        flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        cuts[k] = cv2.warpAffine(both, m, (PATCH, PATCH), flags=flags,
                                 borderMode=cv2.BORDER_REPLICATE)
    # the two channels written in place into the batch (a seventh of the time of whole-array
    # steps: 0.75 against 5.0 ms for a frame's 126 candidates)
    out = np.empty((len(glyphs), 2, PATCH, PATCH), np.float32)
    p = out[:, 0]
    np.copyto(p, cuts[:, :, :, 3])
    light = np.array([not g.dark for g in glyphs], bool)
    p[light] = 255.0 - p[light]
    lo, hi = p.min(axis=(1, 2), keepdims=True), p.max(axis=(1, 2), keepdims=True)
    p -= lo
    p /= np.maximum(hi - lo, 16.0)
    red = out[:, 1]
    np.subtract(cuts[:, :, :, 2], np.maximum(cuts[:, :, :, 0], cuts[:, :, :, 1]), out=red,
                dtype=np.float32)
    red /= 128.0
    np.clip(red, -1.0, 1.0, out=red)
    return out


def glyph_patches(image: Image, gray: Image, glyphs: list[Glyph]) -> npt.NDArray[np.float32]:
    """``patches`` of a colour picture and its grey."""
    both = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    cv2.insertChannel(gray, both, 3)
    return patches(both, glyphs)


def index_window(image: Image, gray: Image, cx: float, cy: float, size: float,
                 down: tuple[float, float], across: tuple[float, float] = (-3.0, 1.4),
                 along: tuple[float, float] = (-3.2, 1.0)) -> npt.NDArray[np.float32]:
    """The 2 x ``INDEX_PX`` x ``INDEX_PX`` window of the index network around a suit glyph
    centred at (``cx``, ``cy``) of box size ``size``, spanning ``across`` and ``along`` suit
    sizes about it (``Whole.index_across``, ``Whole.index_down``: the rank above the suit, as
    printed), turned so that ``down`` (a unit vector in the frame, the card's down as printed)
    points down."""
    dx, dy = down
    ax, ay = dy, -dx  # the card's right when its down is (dx, dy)

    def at(u: float, v: float) -> tuple[float, float]:
        return cx + (ax * u + dx * v) * size, cy + (ay * u + dy * v) * size

    (left, right), (top, bottom) = across, along
    src = np.array([at(left, top), at(right, top), at(right, bottom), at(left, bottom)],
                   np.float32)
    return warped(image, gray, src, (INDEX_PX, INDEX_PX), cv2.INTER_LINEAR)


def card_view(image: Image, gray: Image, quad: Sequence[Sequence[float]],
              margin: float = 0.06) -> npt.NDArray[np.float32]:
    """The 2 x ``VIEW_H`` x ``VIEW_W`` view of the card-view network of the card whose corners
    (top-left, top-right, bottom-right, bottom-left as printed) are ``quad``: the quad widened
    by ``margin`` of its size on each side (``Whole.view_margin``) and turned upright."""
    q = np.array(quad, np.float32)
    middle = q.mean(axis=0)
    q = middle + (q - middle) * (1.0 + 2.0 * margin)
    return warped(image, gray, q, (VIEW_W, VIEW_H), cv2.INTER_AREA)


def warped(image: Image, gray: Image, src: npt.NDArray[np.float32], size: tuple[int, int],
           flags: int) -> npt.NDArray[np.float32]:
    """The quadrilateral ``src`` of the frame (its corners top-left, top-right, bottom-right,
    bottom-left) cut to ``size`` (width, height) pixels: the grey standardised (its mean taken
    away, over its spread plus 8 levels), then the redness of the colour over 64."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    g = cv2.warpPerspective(gray, m, size, flags=flags,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    c = cv2.warpPerspective(image, m, size, flags=flags,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    red = c[..., 2] - (c[..., 0] + c[..., 1]) / 2.0
    g = (g - g.mean()) / (g.std() + 8.0)
    return np.stack([g, red / 64.0])
