"""Camera card entry: capture from a configured source and recognition of the face-up cards."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: the confidence below which a read card is "unknown" (chosen on synthetic scenes,
#: docs/recognition.md); here, not in ``recognize``, so that the kiosk can read it without
#: loading OpenCV
DEFAULT_MIN_CONFIDENCE = 0.90
#: the same for a picture read in detail (``Recognizer.read``'s ``detail``, what ``stud-kiosk
#: recognize`` does unless told not to): a card read at the picture's own scale counts from
#: here, one read enlarged from ``recognize.DETAIL_SURE``. Chosen on synthetic scenes with it
#: (docs/recognition.md, step 7): read in detail, an enlarged reading adds right cards at less
#: cost in wrong ones than the frame's own readings of 0.90-0.95 do
DETAIL_MIN_CONFIDENCE = 0.95

#: a card is about this many of its index's rank heights tall: a card read from its index is
#: given a quad so tall, and the rank's height is told back from a read card's quad
CARD_RANK_HEIGHTS = 10.0

#: below this rank height (pixels of the frame) a camera reads an index far less surely: on the
#: validation pictures at 0.90, 0.80-0.82 of the cards with ranks of 8-12 px, 0.96-0.97 of those
#: of 12-14 px and 0.93-1.0 of larger ones (docs/camera.md, "How large the cards must be")
SMALL_RANK_PX = 12.0
#: the rank height from which indices are read best (the figures above)
GOOD_RANK_PX = 14.0


def rank_height(quad: Sequence[Sequence[float]]) -> float:
    """The height in pixels of the rank of a card read with this quad (its four corners, in
    order around it): its longer sides' mean length over ``CARD_RANK_HEIGHTS``. Exact for a card
    read from an index, near it for one read by counting its pips (a card's height is 9-12 of
    its ranks on the decks measured)."""
    if len(quad) != 4:
        raise ValueError(f"a card's quad has 4 corners, not {len(quad)}")
    sides = [math.dist(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    return max(sides[0] + sides[2], sides[1] + sides[3]) / 2.0 / CARD_RANK_HEIGHTS


@dataclass(frozen=True, slots=True)
class DeckFile:
    """A learned deck as the readers get it (``hardware.camera.readers``): its file, and a
    version that grows each time the file is written again (the writer's count, not the
    deck's). Here, not in ``readers``, so that the kiosk can name it without loading OpenCV."""

    path: str
    version: int
