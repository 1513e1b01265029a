"""Hand evaluation for every stud game: high, 8-or-better low, razz low, Sökö and exposed hands.

Two layers over the same tables (docs/evaluation.md):

* the **value API** (``evaluate_high``, ``evaluate_low8``, ``evaluate_low``, ``evaluate_soko``,
  ``evaluate_exposed``) takes cards (``Card`` objects, card texts or one ``parse_cards`` string) and
  returns a :class:`HandValue`: totally ordered (a better hand compares greater), with its category,
  the five cards that play in the order a dealer reads them, and a name in words;
* the **strength API** (:mod:`engine.strength`: ``high_strength`` and the others) takes card
  indices and returns the plain integer ``HandValue.strength`` with no checking, for the odds
  engine's inner loops. ``engine.batch`` does the same for numpy arrays of hands.

>>> evaluate_high("Kh Kd Ks 9c 9h 2d 3s")
evaluate_high('Ks Kh Kd 9h 9c')
>>> print(evaluate_high("Kh Kd Ks 9c 9h 2d 3s"))
Full house, kings over nines
>>> evaluate_high("Kh Kd Ks 9c 9h").name("it")
'Full di re con nove'
>>> evaluate_high("AhKhQhJhTh") > evaluate_high("AsAdAcAh2c")
True
>>> evaluate_low8("8h 6d 4c 2s Ah Kd Kc").name()
'8-6-4-2-A low'
>>> evaluate_low8("9h 9d Tc Js Ah 2d 3c") is None
True
>>> evaluate_soko("Kh Th 7h 2h 2c").category
'four-flush'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from engine import _tables as _t
from engine.cards import DECK, RANK_CHARS, Card, format_cards, parse_cards
from engine.errors import EngineError
from engine.i18n import translate
from engine.strength import flush_suit, high_strength, low8_strength, low_strength, soko_strength
from engine.variants import VARIANTS, Ranking, Variant

__all__ = [
    "CATEGORIES",
    "EVALUATORS",
    "EXPOSED_GAMES",
    "NO_LOW",
    "EvaluationError",
    "HandValue",
    "bring_in_order",
    "category_name",
    "evaluate_exposed",
    "evaluate_high",
    "evaluate_low",
    "evaluate_low8",
    "evaluate_soko",
    "hand_name",
]

CATEGORIES: Final = _t.CATEGORIES
NO_LOW: Final = _t.NO_LOW
EXPOSED_GAMES: Final = tuple(VARIANTS)
"""The game ids :func:`evaluate_exposed` and :func:`bring_in_order` accept: every variant."""


class EvaluationError(EngineError):
    """Cards that cannot be evaluated: a wrong number of cards, or an unknown game.

    Made from a message key (``eval.error.*``) and its parameters, it reads in any language with
    :meth:`text`; ``str(error)`` is the English. A plain message (the batch API's, for
    programmers) is kept as it is.

    >>> EvaluationError("eval.error.count.soko", count=2, cards="'Ah Kd'").text("it")
    "Una mano di Sökö vuole esattamente 5 carte, ne ha 2: 'Ah Kd'"
    """

    def __init__(self, message: str, **params: Any) -> None:
        self.key = message if message.startswith("eval.error.") else None
        self.params = params
        super().__init__(translate(message, "en", **params) if self.key else message)

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en``, ``it``)."""
        if self.key is None:
            return str(self.args[0])
        return translate(self.key, lang, **self.params)




# ---------------------------------------------------------------------------------------------
# Exposed hands: who acts first (docs/rules.md §3).
# ---------------------------------------------------------------------------------------------


def _exposed_groups(ranks: list[int]) -> tuple[int, list[int]]:
    """Category code (pairs and high cards only) and the ranks ordered by group size, then rank."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    if shape[0] == 4:
        code = _t.QUADS
    elif shape[0] == 3:
        code = _t.TRIPS
    elif shape[0] == 2:
        code = _t.TWO_PAIR if len(shape) > 1 and shape[1] == 2 else _t.PAIR
    else:
        code = _t.HIGH_CARD
    return code, [r for r, c in groups for _ in range(c)]


def _exposed_high_strength(ranks: list[int]) -> int:
    """Strength of 1-4 upcards by pairs and high cards only (ranks 2..14)."""
    code, ordered = _exposed_groups(ranks)
    return (code << 20) | _t.pack(ordered)


def _exposed_razz_strength(ranks: list[int]) -> int:
    """Razz: the same groups with aces low (the caller reads the lowest as the best)."""
    code, ordered = _exposed_groups([1 if r == 14 else r for r in ranks])
    return _t.razz_pack(code, _t.pack(ordered))


def _exposed_four_card_strength(cards: Sequence[Card]) -> int:
    """Sökö four-flush or four-straight strength of exactly four upcards, or 0."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    if len({c.suit for c in cards}) == 1:
        return (_t.FOUR_FLUSH << 20) | _t.pack(ranks)
    if len(set(ranks)) == 4:
        if ranks[0] - ranks[3] == 3:
            return (_t.FOUR_STRAIGHT << 20) | _t.pack(ranks)
        if ranks == [14, 4, 3, 2]:
            return (_t.FOUR_STRAIGHT << 20) | _t.pack([4, 3, 2, 1])
    return 0


# ---------------------------------------------------------------------------------------------
# The value API.
# ---------------------------------------------------------------------------------------------

def _rank_word(rank: int, form: str, lang: str) -> str:
    return translate(f"rank.{14 if rank == 1 else rank}.{form}", lang)


def hand_name(category: str, ranks: Sequence[int], lang: str = "en") -> str:
    """A hand in words from its category and its ranks in reading order (ace low = 1).

    >>> hand_name("full-house", [13, 13, 13, 9, 9], "it")
    'Full di re con nove'
    >>> hand_name("low", [8, 6, 4, 2, 1])
    '8-6-4-2-A low'
    """
    if category == "low":
        text = translate("hand.low", lang, low="-".join("A" if r in (1, 14) else
                                                       RANK_CHARS[r - 2] for r in ranks))
    elif category == "straight-flush" and ranks[0] == 14:
        text = translate("hand.royal-flush", lang)
    else:
        distinct: list[int] = []
        for r in ranks:
            if r not in distinct:
                distinct.append(r)
        params: dict[str, str] = {}
        for n, rank in enumerate(distinct[:2], start=1):
            params[f"r{n}"] = _rank_word(rank, "one", lang)
            params[f"p{n}"] = _rank_word(rank, "many", lang)
            params[f"a{n}"] = _rank_word(rank, "at", lang)
        text = translate(f"hand.{category}", lang, **params)
    return text[:1].upper() + text[1:]


def category_name(category: str, lang: str = "en") -> str:
    """The category in words: ``category_name("full-house", "it") == 'Full'``."""
    return translate(f"category.{category}", lang)


class HandValue:
    """The value of a hand under one evaluator: compare with ``<``, ``==``; read its words.

    Values from the same evaluator (``kind``) are totally ordered by :attr:`strength`: a better
    hand compares greater, hands of equal strength compare equal whatever their suits. Comparing
    values of different kinds (a high value with a low one) raises ``TypeError``.

    Attributes: ``kind`` (``high``, ``low8``, ``low``, ``soko``, ``exposed``), ``strength`` (the
    integer of docs/evaluation.md), ``category`` (one of :data:`CATEGORIES`, or ``low`` for an
    unpaired ace-to-five low), ``cards`` (the cards that play, in the order a dealer reads them).
    """

    __slots__ = ("_cards", "_from", "_ranks", "category", "game", "kind", "strength")

    kind: str
    strength: int
    category: str
    game: str | None
    _cards: tuple[Card, ...] | None
    _from: tuple[Sequence[Card], list[int], int] | None
    _ranks: tuple[int, ...]

    def __init__(
        self,
        kind: str,
        strength: int,
        category: str,
        cards: tuple[Card, ...] | None,
        ranks: list[int],
        game: str | None = None,
        pick_from: tuple[Sequence[Card], list[int], int] | None = None,
    ) -> None:
        """``cards``: the cards that play, or None to choose them from ``pick_from`` (the hand,
        its card indices, the flush suit or -1) when first asked for."""
        self.kind = kind
        self.game = game
        self.strength = strength
        self.category = category
        self._cards = cards
        self._from = pick_from
        self._ranks = tuple(filter(None, ranks))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that play, in the order a dealer reads them."""
        cards = self._cards
        if cards is None:  # (_from stays set: another thread may be here at the same time)
            assert self._from is not None, "a HandValue needs its cards or where to pick them"
            hand, indices, suit = self._from
            cards = self._cards = _pick(hand, indices, list(self._ranks), suit)
        return cards

    def _check(self, other: object) -> HandValue | None:
        if not isinstance(other, HandValue):
            return None
        if other.kind != self.kind or other.game != self.game:
            raise TypeError(
                f"cannot compare a {self._scale()} value with a {other._scale()} value"
            )
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (
            self.kind == other.kind and self.game == other.game and self.strength == other.strength
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.game, self.strength))

    def _scale(self) -> str:
        return self.kind if self.game is None else f"{self.kind} {self.game}"

    def __lt__(self, other: object) -> bool:
        o = self._check(other)
        if o is None:
            return NotImplemented
        return self.strength < o.strength

    def __le__(self, other: object) -> bool:
        o = self._check(other)
        if o is None:
            return NotImplemented
        return self.strength <= o.strength

    def __gt__(self, other: object) -> bool:
        o = self._check(other)
        if o is None:
            return NotImplemented
        return self.strength > o.strength

    def __ge__(self, other: object) -> bool:
        o = self._check(other)
        if o is None:
            return NotImplemented
        return self.strength >= o.strength

    @property
    def ranks(self) -> list[int]:
        """The ranks that decide the value, in reading order (an ace playing low is 1)."""
        return list(self._ranks)

    def name(self, lang: str = "en") -> str:
        """The hand in words, as a dealer says it: ``Full house, kings over nines``."""
        return hand_name(self.category, self._ranks, lang)

    def __str__(self) -> str:
        return self.name("en")

    def __repr__(self) -> str:
        cards = format_cards(self.cards)
        if self.kind == "exposed":
            return f"evaluate_exposed({cards!r}, {self.game!r})"
        return f"evaluate_{self.kind}({cards!r})"


_INDEX_BY_ID: Final = {id(card): card.index for card in DECK}
"""Card.index by object identity: the 52 interned cards, found without hashing a dataclass."""


def _hand(
    cards: str | Iterable[Card | str], low: int, high: int, what: str
) -> tuple[tuple[Card, ...], list[int]]:
    """The cards and their indices, checked: ``low`` to ``high`` distinct cards (``what``: the
    evaluator, for the error message)."""
    hand: tuple[Card, ...] | None = None
    if isinstance(cards, (tuple, list)):  # a tuple of types: faster than a union
        try:  # the common case, a few of the 52 interned Card objects: no parsing
            indices = list(map(_INDEX_BY_ID.__getitem__, map(id, cards)))
        except KeyError:
            pass
        else:
            if len(set(indices)) == len(indices):
                hand = tuple(cards)
    if hand is None:
        hand = parse_cards(cards)
        indices = [c.index for c in hand]
    if not low <= len(hand) <= high:
        raise EvaluationError(
            f"eval.error.count.{what}", count=len(hand), cards=repr(format_cards(hand) or "none")
        )
    return hand, indices


def _pick(
    hand: Sequence[Card], indices: list[int], ranks: list[int], suit: int = -1
) -> tuple[Card, ...]:
    """The cards of the given ranks (ace as 1 or 14; 0 ends the list), in that order, the highest
    suit first where a rank has several; of suit ``suit`` (0..3) only, if given."""
    free = set(indices)
    chosen: list[Card] = []
    for rank in ranks:
        if not rank:
            break
        base = (12 if rank == 1 else rank - 2) * 4
        if suit >= 0:
            i = base + suit
        else:
            i = base + 3
            while i > base and i not in free:
                i -= 1
        free.discard(i)
        chosen.append(DECK[i])
    return tuple(chosen)


def evaluate_high(cards: str | Iterable[Card | str]) -> HandValue:
    """The best five-card high hand among 5 to 7 cards.

    >>> v = evaluate_high("As Ad 7c 7h Kd 2s 3c")
    >>> v.category, v.name(), v.name("it")
    ('two-pair', 'Two pair, aces and sevens', 'Doppia coppia, assi e sette')
    >>> v.cards
    (Card.parse('As'), Card.parse('Ad'), Card.parse('7h'), Card.parse('7c'), Card.parse('Kd'))
    """
    hand, indices = _hand(cards, 5, 7, "high")
    strength = high_strength(indices)
    code = strength >> 20
    ranks = _t.unpack(strength)
    suit = -1
    if code >= _t.FLUSH and code != _t.FULL_HOUSE and code != _t.QUADS:
        suit = flush_suit(indices)
    return HandValue("high", strength, CATEGORIES[code], None, ranks, None, (hand, indices, suit))


def evaluate_low8(cards: str | Iterable[Card | str]) -> HandValue | None:
    """The best 8-or-better ace-to-five low among 5 to 7 cards, or ``None`` when there is none.

    Straights and flushes do not spoil a low. Category ``low``; cards read highest first.

    >>> v = evaluate_low8("Ah 2h 3h 4h 5h 9c 9d")
    >>> v.name(), v.name("it"), v.category
    ('5-4-3-2-A low', 'Basso 5-4-3-2-A', 'low')
    >>> evaluate_low8("8c 6d 4h 2s Ad") > evaluate_low8("8c 6d 5h 2s Ad")
    True
    """
    hand, indices = _hand(cards, 5, 7, "low8")
    strength = low8_strength(indices)
    if strength == NO_LOW:
        return None
    ranks = _t.unpack(_t.LOW_TOP - strength)
    return HandValue("low8", strength, "low", None, ranks, None, (hand, indices, -1))


def evaluate_low(cards: str | Iterable[Card | str]) -> HandValue:
    """The best ace-to-five low among 5 to 7 cards, with no qualifier (razz).

    Pairs count against a low; straights and flushes do not. Category ``low`` for five different
    ranks, else the pair category (``pair``, ``two-pair``...) the hand has to play.

    >>> evaluate_low("Kh Qd 7c 3s 2h 7d Kc").name()
    'K-Q-7-3-2 low'
    >>> evaluate_low("5h 5d 4c 3s 2h").name()
    'Pair of fives'
    >>> evaluate_low("Kh Qd 7c 3s 2h") > evaluate_low("5h 5d 4c 3s 2h")
    True
    """
    hand, indices = _hand(cards, 5, 7, "low")
    strength = low_strength(indices)
    code = 15 - (strength >> 20)
    ranks = _t.unpack(_t.LOW_TOP - (strength & 0xFFFFF))
    category = "low" if code == _t.HIGH_CARD else CATEGORIES[code]
    return HandValue("low", strength, category, None, ranks, None, (hand, indices, -1))


def evaluate_soko(cards: str | Iterable[Card | str]) -> HandValue:
    """The Sökö (Canadian stud) value of exactly five cards (docs/rules.md §6).

    >>> v = evaluate_soko("Jh Qd Kc Ah 2s")
    >>> v.category, v.name(), v.name("it")
    ('four-straight', 'Four-straight, ace high', "Scala di quattro all'asso")
    >>> evaluate_soko("Kh Th 7h 2h 2c") > evaluate_soko("Ah Kd Qc Jh 5s")
    True
    >>> evaluate_soko("3c 3d 5h 5s 9c") > evaluate_soko("Kh Th 7h 2h 2c")
    True
    """
    hand, indices = _hand(cards, 5, 5, "soko")
    strength = soko_strength(indices)
    code = strength >> 20
    ranks = _t.unpack(strength)
    if code == _t.FOUR_FLUSH:
        suits = [i & 3 for i in indices]
        suit = next(s for s in suits if suits.count(s) == 4)
        flush_part = _pick(hand, indices, ranks[:4], suit)
        odd = tuple(c for c in hand if c not in flush_part)
        return HandValue("soko", strength, "four-flush", flush_part + odd, ranks)
    suit = indices[0] & 3 if code in (_t.FLUSH, _t.STRAIGHT_FLUSH) else -1
    return HandValue("soko", strength, CATEGORIES[code], None, ranks, None, (hand, indices, suit))


EVALUATORS: Final[dict[Ranking, Callable[[Iterable[Card]], HandValue | None]]] = {
    "high": evaluate_high,
    "low8": evaluate_low8,
    "low": evaluate_low,
    "soko": evaluate_soko,
}
"""The value evaluator of each ranking (``Variant.rankings``); ``low8`` gives None without a low."""


def _variant(game: str) -> Variant:
    variant = VARIANTS.get(game)
    if variant is None:
        raise EvaluationError("eval.error.game", game=repr(game), games=", ".join(EXPOSED_GAMES))
    return variant


def evaluate_exposed(
    cards: str | Iterable[Card | str], game: str, *, last_round: bool | None = None
) -> HandValue:
    """Strength of 1 to 4 upcards for deciding who acts first (docs/rules.md §3).

    Four of a kind > three of a kind > two pair > one pair > high cards; straights and flushes do
    not count. In a game whose exposed hands rank low (razz) the lowest hand is best, so it
    compares greatest. Where four-card hands count (Sökö) four upcards making a four-straight or
    four-flush count as that hand on the last round: ``last_round=None`` (the default) takes four
    upcards to be the last round, which is always true in Sökö (one downcard, four upcards); pass
    ``last_round`` to say it outright. Equal-strength hands compare equal: the caller breaks ties
    (nearest the dealer).

    >>> evaluate_exposed("Kh Kd", "seven-card-stud") > evaluate_exposed("Ah Qd", "seven-card-stud")
    True
    >>> evaluate_exposed("7h 4d 2c", "razz") > evaluate_exposed("8h 4d 2c", "razz")
    True
    >>> evaluate_exposed("9h Th Jh Qh", "soko").name()
    'Four-flush, queen high'
    >>> evaluate_exposed("9h Th Jh Qh", "five-card-stud").name()
    'Queen high'
    """
    variant = _variant(game)
    hand, indices = _hand(cards, 1, 4, "exposed")
    ranks = [c.rank for c in hand]
    if variant.exposed == "low":
        strength = _exposed_razz_strength(ranks)
        code = 15 - (strength >> 20)
        read = [r for r in _t.unpack(_t.LOW_TOP - (strength & 0xFFFFF)) if r]
        category = "low" if code == _t.HIGH_CARD else CATEGORIES[code]
        played = _pick(hand, indices, read)
        return HandValue("exposed", strength, category, played, read, game)
    strength = _exposed_high_strength(ranks)
    if variant.exposed_four_card and len(hand) == 4 and (last_round is None or last_round):
        strength = max(strength, _exposed_four_card_strength(hand))
    read = [r for r in _t.unpack(strength) if r]
    code = strength >> 20
    suit = indices[0] & 3 if code == _t.FOUR_FLUSH else -1
    played = _pick(hand, indices, read, suit)
    return HandValue("exposed", strength, CATEGORIES[code], played, read, game)


def bring_in_order(card: Card | str, game: str, *, bring_in: bool | None = None) -> int:
    """Sort key for the first round: the upcard with the greatest key opens it (docs/rules.md §3).

    In a game played with a bring-in the lowest upcard brings in, aces high, clubs lowest; where
    exposed hands rank low (razz) the highest upcard, aces low, spades highest. Without a
    bring-in (Sökö by default) the highest upcard opens, spades highest. ``bring_in=None`` takes
    the game's own rule (``Variant.bring_in``); pass ``bring_in=True`` for a Sökö table playing
    the ``bring_in`` house rule.

    >>> str(max(parse_cards("2d 2c Ah"), key=lambda c: bring_in_order(c, "seven-card-stud")))
    '2c'
    >>> str(max(parse_cards("Kd Ks Ah"), key=lambda c: bring_in_order(c, "razz")))
    'Ks'
    >>> str(max(parse_cards("Kd Ks 9h"), key=lambda c: bring_in_order(c, "soko")))
    'Ks'
    >>> str(max(parse_cards("Kd Ks 9h"), key=lambda c: bring_in_order(c, "soko", bring_in=True)))
    '9h'
    """
    variant = _variant(game)
    c = card if isinstance(card, Card) else Card.parse(card)
    if bring_in is None:
        bring_in = variant.bring_in
    if not bring_in:
        return c.index
    if variant.exposed == "low":
        return c.low_index
    return 51 - c.index
