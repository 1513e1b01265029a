"""Every tuning value of card recognition, in one place: frozen settings passed to the stages.

A :class:`Params` holds one group per part of the pipeline (``docs/recognition.md``): where
glyphs are cut out (:class:`Candidates`), how the glyph classifier is read (:class:`Classify`),
how ranks are paired with suits into index corners (:class:`Pairing`, :class:`Faces`), the
readers (:class:`Upright`, :class:`Looks`, :class:`Pips`, :class:`Whole`), the reading in detail
(:class:`Detail`), the decision (:class:`Decide`), the learned deck's reading (:class:`Learned`)
and the recognition loop over frames (:class:`Follow`). The values were chosen on synthetic scenes
of the permitted decks (``hardware/training``), never on the validation pictures.

A rule is switched off by a setting of its own (a flag, or None where a value turns it on), so
that what each rule gives can be measured: :meth:`Params.without` names them.

    >>> DEFAULT.without("pip-count").pips.count
    False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Candidates:
    """Glyph candidates: connected components of index-character size (stage 1, find)."""

    #: a candidate's longer side, in pixels
    min_glyph: int = 6
    max_glyph: int = 44
    #: light print on a dark face is also cut out where it stands this far above its
    #: neighbourhood's mean (an adaptive threshold's offset, negative: above); None: not
    strict_light_c: int | None = -8
    #: such a glyph is kept when the mean at its centre lies this share of its brightest pixel
    #: below that pixel (a light glyph on a dark face, not light face between dark print)
    strict_stands_out: float = 0.3
    #: around a rank or suit with no partner in reach (read at ``lonely_prob`` or more), a finer
    #: binarisation (window, offset) is looked at, this many glyph sizes each way
    fine: bool = True
    fine_block: int = 11
    fine_c: int = 6
    fine_reach: float = 3.0
    lonely_prob: float = 0.5
    #: a candidate read ``other`` this many times the area of a glyph inside it does not hold
    #: that glyph (the coarse threshold joined it to a pip beside it); None: it does
    held_area: float | None = 8.0
    #: around a lonely glyph that is no pip (no suit within ``line_pips`` of its size near it),
    #: straight lines ``line_long`` glyph sizes or longer are taken out of the coarse picture,
    #: ``line_cut`` px wide (None: not), looked for in the strokes an opening of ``line_thin``
    #: px takes away, in ``line_steps`` directions; a piece touching them at places
    #: ``line_spread`` of its size apart, or two lines ``line_corner`` degrees apart, is a
    #: border's; a piece so cut is kept when read as a rank or suit at ``line_keep`` or more
    line_cut: int | None = 3
    line_long: float = 3.0
    line_thin: int = 7
    line_steps: int = 90
    line_spread: float = 0.8
    line_corner: float = 30.0
    line_keep: float = 0.99
    line_pips: float = 1.4
    #: a candidate read ``other`` or below ``split_below``, ``split_aspect`` times longer than
    #: wide and ``split_long`` px long, is cut in two at its narrowest waist (a rank and its suit
    #: joined by blur); its pieces of ``split_part`` of the largest one's area are cut together
    split_waist: bool = True
    split_aspect: tuple[float, float] = (1.5, 3.0)
    split_long: tuple[float, float] = (12.0, 48.0)
    split_below: float = 0.9
    split_part: float = 0.3
    #: (a half read as a rank at ``Looks.window_rank`` is kept: its suit is read in windows)
    #: a cut whose halves read as a rank and a suit, each at ``split_pair_prob`` or more, is
    #: kept whole (read upright, ``Looks.cut_halves``)
    split_pair_prob: float = 0.5


@dataclass(frozen=True, slots=True)
class Classify:
    """The glyph classifier (``model/cards.onnx``) as a finder of rank- and suit-like glyphs."""

    #: a likely rank (or suit) from this probability, read again turned by these quarter turns
    #: when a suit (rank) lies in pairing reach; its probabilities the geometric mean
    recheck_prob: float = 0.3
    recheck_turns: tuple[int, ...] = (2,)


@dataclass(frozen=True, slots=True)
class Pairing:
    """Pairing ranks with suits into index corners (stage 1, find)."""

    #: a rank nearer a suit takes it from the rank being paired when this share as sure
    block_share: float = 0.8
    #: a rank and a suit printed in different inks are not one index (the colour picture's
    #: print against its face, the lightness weighted by ``ink_lightness``, a cosine below
    #: ``ink_agree``)
    ink_check: bool = True
    ink_lightness: float = 0.2
    ink_agree: float = 0.5
    #: a suit read again beside the rank (a corner pip) makes it surer, below ``face_check_below``
    second_suit: bool = True
    #: an index suit read as one suit while a larger pip of the other suit of its colour
    #: (``outweigh_size`` times its size, at most 2.5 rank sizes) within ``outweigh_near`` rank
    #: sizes is read at ``outweigh_prob`` or more, is read as no card (None: never)
    outweigh_near: float | None = 2.0
    outweigh_prob: float = 0.99
    outweigh_size: float = 1.5


@dataclass(frozen=True, slots=True)
class Faces:
    """A card face traced around its rank: its pips give a rank with no suit beside it one."""

    #: pairing by the face is on; a card read below ``check_below`` is checked against its pips
    pairing: bool = True
    check_below: float = 0.99
    #: the face is looked for this many rank sizes around; for its suit, this far when it runs on
    reach: float = 10.0
    suit_reach: float = 16.0
    #: another rank on the face, with no suit beside it, is another card's index from this
    other_rank: float = 0.85
    #: a face larger than this many squared rank sizes has run into other cards or the felt
    max_area: float = 120.0
    #: a glyph on it not read as a suit looking like another suit this much is a doubt (None:
    #: not looked at)
    doubt: float | None = 0.3
    #: suits that disagree: the largest glyphs' stands when the others are this much smaller
    #: (None: the face is left unread)
    pip_over: float | None = 1.5
    #: a face's shade also lies within this of the face's colour (Cr, Cb; None: by grey alone)
    chroma: float | None = 24.0
    #: a face's quad is turned upright, the rank at its top
    quad_upright: bool = True


@dataclass(frozen=True, slots=True)
class Upright:
    """The upright classifier (``model/upright.onnx``) reading an index turned as printed."""

    #: the corners paired beside their rank are read again upright, those read below ``below``
    corners: bool = True
    below: float = 0.99
    #: naming the corner's rank and suit at this or more: a second reading of it
    agree: float = 0.95
    #: naming another rank or suit at this or more: the corner that much less sure
    veto: float = 0.5
    #: naming another card, its rank and suit each at this or more: a reading of that card
    names: float = 0.999
    #: a 6 or 9 is told when one of the two has this share of both
    six_nine: float = 0.9
    #: a 6 or 9 the upright reading does not tell is told by where its loop lies
    loop: bool = True


@dataclass(frozen=True, slots=True)
class Looks:
    """Second looks: corners found again, where the first look paired a rank or suit with
    nothing or unsurely, and read by the upright classifier (stage 2, read)."""

    #: the two halves of a cut candidate read as one index; a suit half read ``other`` counts
    #: as the suit it looks like this much
    cut_halves: bool = True
    cut_looks: float = 0.05
    #: a rank or suit with no partner read with each unnamed glyph beside it; the upright
    #: reading names both at ``half_agree``; a glyph read ``other`` this surely is skipped
    half: bool = True
    half_agree: float = 0.98
    half_other: float = 0.99
    #: a likely rank (``axis_rank``) read with the glyphs where a suit of its card lies, along
    #: the card's edges (looked for ``axis_reach`` rank sizes around): both named at
    #: ``axis_agree``; a rank ``axis_block`` as sure lying nearer a glyph keeps it
    axis: bool = True
    axis_reach: float = 5.0
    axis_rank: float = 0.5
    axis_agree: float = 0.98
    axis_block: float = 0.5
    #: where the permitted decks print a suit of the card: along, inward and size against the
    #: rank's (each from, to), and the least probability of the rank (the index's own suit,
    #: the face's nearest pips, larger pips with a rank read surely)
    axis_zones: tuple[tuple[float, float, float, float, float, float, float], ...] = (
        (0.8, 1.4, -0.5, 1.45, 0.3, 1.6, 0.5),
        (0.4, 2.0, 0.7, 2.0, 0.9, 1.6, 0.5),
        (0.4, 2.0, 0.7, 2.0, 1.6, 2.0, 0.9),
    )
    #: a card paired by its face whose rank reads at this or more is read with the pip it took
    axis_face_rank: float = 0.9
    #: a sure rank (``window_rank``) with no sure card has its suit read upright in windows below
    #: it (along, across, sizes in rank sizes): one at ``window_agree``, or ``window_several``
    #: places at ``window_several_prob``
    window: bool = True
    window_rank: float = 0.9
    window_agree: float = 0.995
    window_along: tuple[float, ...] = (1.0, 1.2, 1.4)
    window_across: tuple[float, ...] = (-0.2, 0.0, 0.2)
    window_sizes: tuple[float, ...] = (0.8, 1.0)
    window_several: int = 3
    window_several_prob: float = 0.95
    #: a sure rank (``face_rank``) with no sure card has the pips of its face read upright (the
    #: glyphs looking like a suit ``face_looks``), of its card's colour: one at ``face_agree``
    face: bool = True
    face_rank: float = 0.9
    face_looks: float = 0.3
    face_agree: float = 0.995
    #: a rank's print against its face, red from this, black to that (the a* of its ink)
    face_red: float = 0.45
    face_black: float = 0.1


@dataclass(frozen=True, slots=True)
class Pips:
    """Counting the pips of a card lying in full view (stage 2, read)."""

    count: bool = True
    #: the face is cut along thin dark lines deeper than this share of the print's contrast (a
    #: black-hat over ``cut_window`` glyph sizes; None: not)
    cut: float | None = 0.08
    cut_window: float = 0.4
    #: pips whose suits disagree are read again upright (the middle ones within ``upright_middle``
    #: card widths count with the top half)
    upright: bool = True
    upright_middle: float = 0.1
    #: a glyph in the quad of a card read this surely is no seed
    skip_sure: float = 0.99
    #: the face traced closing no gap, in a shade this near the face's
    close: float = 0.0
    near: float = 0.3
    #: a pip read as a suit at ``prob`` counts; one read as another at ``against`` leaves it
    #: unread; a rank on the face naming another at ``veto`` too
    prob: float = 0.5
    against: float = 0.8
    veto: float = 0.85
    #: from this many pips read apart, the suit is their readings together (None: the surest)
    combine: int | None = 2
    #: the rank a count gives is as sure as this
    rank_prob: float = 0.98
    #: a face's long side over its short side; nearer square than ``square`` either way
    face_aspect: tuple[float, float] = (0.9, 1.9)
    square: float = 1.2
    #: the face fills the quadrilateral of its corners this much
    face_fill: float = 0.93
    #: mirrored pips lie within this many pip sizes
    mirror: float = 0.5
    #: corner indices lie this far from the middle lines (across, down: shares)
    corner: tuple[float, float] = (0.31, 0.3)
    #: print below ``speck`` of a pip is a speck; below ``least_area`` px left out
    speck: float = 0.15
    least_area: int = 6
    #: a pip is at most this share of its card's width; the pips differ by at most ``area``
    most: float = 0.45
    area: float = 1.6
    #: a traced face's hull simplified to within this share of its length
    quad_eps: float = 0.04


@dataclass(frozen=True, slots=True)
class Whole:
    """The networks that read an index or a card whole, in detail (stage 2, read)."""

    #: the index networks read a window around each suit glyph read at ``index_anchor``
    #: (``index_across`` x ``index_down`` suit sizes, turned four ways); a card both name at
    #: ``index_sure`` is read (None: never), or from ``index_viewed`` where the card-view network
    #: names it too (None: not); its rank placed ``index_rank`` suit sizes above the suit
    index_sure: float | None = 0.985
    index_viewed: float | None = 0.8
    index_anchor: float = 0.5
    index_across: tuple[float, float] = (-3.0, 1.4)
    index_down: tuple[float, float] = (-3.2, 1.0)
    index_rank: float = 1.3
    #: the suits found in the enlarged picture are anchors too
    index_enlarged: bool = False
    #: the card-view network reads a card's quad widened by ``view_margin``: a reading at
    #: ``view_check`` (from, below) named so at ``view_agree`` is surer (None: not read)
    view_check: tuple[float, float] | None = (0.1, 0.999)
    view_agree: float = 0.9
    view_margin: float = 0.06
    #: a rank at ``lone_rank`` with no reading at ``lone_near`` within ``lone_reach`` of its
    #: sizes has its card's quad read by it: one named at ``lone_view`` is read (None: never)
    lone_view: float | None = 0.99
    lone_rank: float = 0.5
    lone_near: float = 0.5
    lone_reach: float = 2.0


@dataclass(frozen=True, slots=True)
class Detail:
    """Reading in detail: the frame also read enlarged, for indices too small for its scale."""

    #: enlarged this many times (None: never)
    scale: float | None = 1.5
    #: of the enlarged reading, cards whose rank is this size (frame pixels) or more
    smallest: float = 6.0
    #: nor one whose index the frame's own reading names otherwise at this or more
    conflict: float = 0.05
    #: an enlarged reading counts from this confidence
    sure: float = 0.992
    #: an enlarged reading this sure of another card leaves out the frame's own (None: never)
    overrules: float | None = 0.9995


@dataclass(frozen=True, slots=True)
class Decide:
    """Naming the cards from the evidence (stage 3, decide)."""

    #: a card read at both its corner indices (``apart`` to ``within`` rank sizes apart) is
    #: surer, 1 - (1 - a)(1 - b)
    corroborate: bool = True
    apart: float = 3.0
    within: float = 18.0
    #: two cards read from one index (within this many rank sizes): only the surer stands
    one_index: float | None = 0.5
    #: two cards read in quads of this intersection over union: one card lies there, the surer
    #: reading stands (the quads an index gives two cards of a tight fan overlap up to 0.8)
    one_quad: float | None = 0.9
    #: a whole-card reading of another card than a corner's, from another reader, makes the
    #: corner this much less sure from this probability
    against: float = 0.5


@dataclass(frozen=True, slots=True)
class Learned:
    """Reading with the deck on the table (``hardware.camera.learned``)."""

    #: the deck's own corners: any glyph paired with a suit-like one (``suit_like`` or more)
    #: this many of its sizes away, of this size over its own, in the same ink
    reach: tuple[float, float] = (0.5, 2.2)
    sizes: tuple[float, float] = (0.45, 1.6)
    suit_like: float = 0.05
    #: nor a glyph read as a rank at this or more
    not_suit: float = 0.5
    #: the deck's examples show where it prints its suits (``Deck.layout``) once half of them lie
    #: within this many rank sizes of their median (a deck printing its suit only in the far
    #: corner has its examples' suits anywhere on the face, and no layout)
    agree: float = 1.0
    #: once they do, only glyphs lying so pair, as far and of the size within this factor
    fit: float = 1.5
    #: a suit the deck prints away from its rank is the suit-like glyph nearest where its
    #: layout puts it, within this many of the rank's sizes
    snap: float = 1.5
    #: a glyph read "other" or as a suit at this or more is no rank of the deck's
    not_rank: float = 0.9
    #: the likeness of a window to the nearest example of a class, over ``tau``, is that
    #: class's weight (a softmax); a class the deck has no example of weighs as ``unseen``
    tau: float = 0.05
    unseen: float = 0.5
    #: and "none of the deck's glyphs" weighs as a class this like
    none: float = 0.6
    #: a corner of the deck's own is printed on a face of the deck's colour: its rank window's
    #: ground within this distance (Lab, lightness counted a quarter) of an example's
    ground: float = 30.0
    #: the glyph classifier's reading joins the deck's with this power (0: the deck's alone)
    generic: float = 0.5
    #: the deck's reading of a card weighs against a corner's other reading from this
    against: float = 0.9


@dataclass(frozen=True, slots=True)
class Follow:
    """The recognition loop: which frames are read, and when (stage 4, follow;
    :class:`~hardware.camera.stable.CameraLoop`)."""

    #: frames read at once, each by a reader of its own on one core: the Python part of a
    #: reading holds the interpreter, the OpenCV part does not, so two readers of one core each
    #: read more frames a second than one reader given both cores (docs/benchmarks.md)
    readers: int = 2
    #: frames read, whatever the frame check says, from the one that changed on (a stabiliser's
    #: window of readings of their own)
    settle_reads: int = 5
    #: where the house has a still table read in detail, this many frames are read in detail one
    #: after another once a change has settled (a card that only the detailed reading reads
    #: needs as many readings as the stabiliser asks for), and the rereads of the still table
    #: are in detail too. 0: never in detail
    detail_reads: int = 3
    #: a still table is read again this long (seconds) after the frames read on its last
    #: change, whatever the frame check says; each reread doubles the wait, up to
    #: ``reread_most_s``: the frame check sees every card that moves, so the rereads only
    #: refresh readings near the threshold, and a still table is most of an evening
    reread_s: float = 1.0
    reread_most_s: float = 4.0

    def longer(self, wait: float) -> float:
        """The wait before a still table's next reread, after one of ``wait``."""
        return min(2 * wait, self.reread_most_s)

    def rereads_grown_s(self) -> float:
        """How long a still table lies before its rereads wait ``reread_most_s``: the sum of
        every wait up to the first that long."""
        total, wait = 0.0, self.reread_s
        while wait < self.reread_most_s:
            total, wait = total + wait, self.longer(wait)
        return total + wait


@dataclass(frozen=True, slots=True)
class Params:
    """The recogniser's settings, one group per part."""

    candidates: Candidates = field(default_factory=Candidates)
    classify: Classify = field(default_factory=Classify)
    pairing: Pairing = field(default_factory=Pairing)
    faces: Faces = field(default_factory=Faces)
    upright: Upright = field(default_factory=Upright)
    looks: Looks = field(default_factory=Looks)
    pips: Pips = field(default_factory=Pips)
    whole: Whole = field(default_factory=Whole)
    detail: Detail = field(default_factory=Detail)
    decide: Decide = field(default_factory=Decide)
    learned: Learned = field(default_factory=Learned)
    follow: Follow = field(default_factory=Follow)

    def with_(self, **groups: object) -> Params:
        """These settings with some of their values changed: ``group=dict(name=value)``."""
        changed = {name: replace(getattr(self, name), **values)  # type: ignore[arg-type]
                   for name, values in groups.items()}
        return replace(self, **changed)

    def without(self, *rules: str) -> Params:
        """These settings with the named rules (:data:`RULES`) switched off."""
        out = self
        for rule in rules:
            if rule not in RULES:
                raise ValueError(f"no rule {rule!r}; the rules are {', '.join(RULES)}")
            out = RULES[rule][1](out)
        return out


def _off(group: str, **values: object) -> Callable[[Params], Params]:
    return lambda p: p.with_(**{group: values})


#: the rules one can switch off, by name: the stage they belong to and how
RULES: dict[str, tuple[str, Callable[[Params], Params]]] = {
    "strict-light": ("find", _off("candidates", strict_light_c=None)),
    "finer-look": ("find", _off("candidates", fine=False)),
    "held-area": ("find", _off("candidates", held_area=None)),
    "line-cut": ("find", _off("candidates", line_cut=None)),
    "waist-cut": ("find", _off("candidates", split_waist=False)),
    "half-turn": ("find", _off("classify", recheck_turns=())),
    "ink-check": ("find", _off("pairing", ink_check=False)),
    "face-pairing": ("find", _off("faces", pairing=False)),
    "far-corner": ("find", lambda p: p.with_(faces={"suit_reach": p.faces.reach})),
    "second-suit": ("read", _off("pairing", second_suit=False)),
    "outweigh": ("read", _off("pairing", outweigh_near=None)),
    "upright": ("read", _off("upright", corners=False)),
    "upright-names": ("read", _off("upright", names=1.1)),
    "loop": ("read", _off("upright", loop=False)),
    "cut-halves": ("read", _off("looks", cut_halves=False)),
    "half-read": ("read", _off("looks", half=False)),
    "axis-read": ("read", _off("looks", axis=False)),
    "window-read": ("read", _off("looks", window=False)),
    "face-upright": ("read", _off("looks", face=False)),
    "pip-count": ("read", _off("pips", count=False)),
    "pip-upright": ("read", _off("pips", upright=False)),
    "index-windows": ("read", _off("whole", index_sure=None)),
    "view-check": ("read", _off("whole", view_check=None)),
    "lone-rank": ("read", _off("whole", lone_view=None)),
    "enlarged": ("read", _off("detail", scale=None)),
    "both-corners": ("decide", _off("decide", corroborate=False)),
    "one-index": ("decide", _off("decide", one_index=None)),
    "one-quad": ("decide", _off("decide", one_quad=None)),
}

#: the settings in use
DEFAULT = Params()
