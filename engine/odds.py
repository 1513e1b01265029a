"""Each live player's chance to win the pot from the cards that are known (docs/odds.md).

The cards nobody knows (down cards not known, and the cards still to come) are dealt at random:
every deal counted when there are few enough (*exact*), else random runouts until every figure is
within :attr:`OddsSettings.margin` of the truth at 95 % (an *estimate*). A tie counts as the
share of the pot it wins; in hi/lo a qualifying low takes half the pot. Games rank hands by their
own rankings (``Variant.rankings``), evaluated with the batch evaluators of ``engine.batch``.

>>> from engine.cards import parse_cards
>>> aces, kings = parse_cards("Ah As 2c 7d 9h 3s"), parse_cards("Kh Ks 4c 8d Th 5s")
>>> result = odds(problem("seven-card-stud", [aces, kings]))
>>> result.exact, result.runouts, round(result.players[0].equity, 4)
(True, 1560, 0.7603)
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from engine.cards import Card, parse_cards
from engine.hand_errors import WordedError
from engine.variants import VARIANTS, Variant

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from engine.hand import Hand
    from engine.hand_state import CardSlot

__all__ = [
    "Odds",
    "OddsError",
    "OddsSettings",
    "PlayerOdds",
    "Problem",
    "deals",
    "hand_problem",
    "odds",
    "parse_hand",
    "problem",
]

Slot = Card | None
Known = Literal["public", "all"]
_FIGURES = ("win", "high", "low", "scoop", "equity")


class OddsError(WordedError):
    """Cards the odds cannot be computed from; the message says what is wrong and what is allowed.

    >>> OddsError("odds.error.players", game="razz", count=9, most=8).text("it")
    'A razz giocano da 1 a 8 giocatori, non 9'
    """



@dataclass(frozen=True, slots=True)
class OddsSettings:
    """How the odds are computed: accuracy, and the sizes that decide exact or estimated."""

    margin: float = 0.005
    """Every estimated figure is within this of the truth at 95 % (0.005: half a point)."""
    z: float = 1.96
    """The normal quantile of the confidence asked (1.96: 95 %)."""
    exact_most: int = 200_000
    """Hands valued at most (deals times players) to count every deal when nothing else is
    asked; more are estimated."""
    exact_hard_most: int = 8_000_000
    """Hands valued at most (deals times players) when exact odds are asked for."""
    pilot: int = 3_000
    """Runouts dealt before their spread says how many are needed."""
    runouts_most: int = 400_000
    """Runouts dealt at most, whatever the spread."""
    batch: int = 16_384
    """Deals evaluated at once (memory: about 1 KB each at eight players)."""

    def __post_init__(self) -> None:
        if not 0 < self.margin < 1 or self.z <= 0:
            raise OddsError("odds.error.settings", margin=self.margin, z=self.z)
        if min(self.exact_most, self.pilot, self.runouts_most, self.batch) < 1:
            raise OddsError("odds.error.settings", margin=self.margin, z=self.z)


@dataclass(frozen=True, slots=True)
class PlayerOdds:
    """One player's odds, each a fraction of 1.

    ``equity``: the expected share of the pot (ties split, hi/lo halves); ``win``: the chance to
    take the whole pot alone (in hi/lo, a scoop); hi/lo only: ``high`` and ``low``, the expected
    shares of the high and of the low half (a tie counting as its share; ``low`` is 0 when nobody
    qualifies), and ``scoop``.
    """

    win: float
    equity: float
    high: float | None = None
    low: float | None = None
    scoop: float | None = None

    def to_dict(self, digits: int = 4) -> dict[str, float]:
        out = {"win": round(self.win, digits)}
        for name in ("high", "low", "scoop"):
            value = getattr(self, name)
            if value is not None:
                out[name] = round(value, digits)
        out["equity"] = round(self.equity, digits)
        return out


@dataclass(frozen=True, slots=True)
class Odds:
    """The odds of every player, in the order of the problem's hands."""

    exact: bool
    runouts: int
    """The deals counted (exact) or the random runouts dealt (estimate)."""
    players: tuple[PlayerOdds, ...]
    margin: float
    """The half-width of the widest 95 % interval among the figures (0 when exact)."""

    def to_dict(self, digits: int = 4) -> dict[str, Any]:
        return {
            "exact": self.exact,
            "runouts": self.runouts,
            "players": [p.to_dict(digits) for p in self.players],
        }


@dataclass(frozen=True, slots=True)
class Problem:
    """What the odds are computed from: the live players' hands as dealt (``None`` for a card
    not known), the cards seen and out of play, the community cards turned, and whether one
    community card is still to come (docs/rules.md §5)."""

    game: str
    hands: tuple[tuple[Slot, ...], ...]
    dead: tuple[Card, ...] = ()
    shared: tuple[Card, ...] = ()
    community: bool = False

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.game]

    @property
    def key(self) -> str:
        """A short name of the problem: equal problems have equal keys (cards in any order)."""

        def cards(slots: Iterable[Slot]) -> str:
            known = sorted(c.index for c in slots if c is not None)
            unknown = sum(1 for c in slots if c is None)
            return ",".join(map(str, known)) + "?" * unknown

        text = "|".join(
            (self.game, "/".join(cards(h) for h in self.hands), cards(self.dead),
             cards(self.shared), "c" if self.community else "")
        )
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    def needs(self) -> tuple[int, ...]:
        """The private cards each hand is still to get (unknown down cards and cards to come)."""
        size = self.variant.hand_size - len(self.shared) - int(self.community)
        return tuple(size - sum(1 for c in h if c is not None) for h in self.hands)

    def unseen(self) -> list[int]:
        """The indices of the cards that may still be dealt to the hands."""
        seen = {c.index for h in self.hands for c in h if c is not None}
        seen |= {c.index for c in (*self.dead, *self.shared)}
        return [i for i in range(52) if i not in seen]


def parse_hand(text: str) -> tuple[Slot, ...]:
    """A hand as dealt, ``??`` for a card not known: ``"?? ?? 7h 7d 2c"``.

    >>> parse_hand("?? ?? 7h 7d")
    (None, None, Card.parse('7h'), Card.parse('7d'))
    """
    slots: list[Slot] = []
    for token in text.replace(",", " ").split():
        for run in re.findall(r"\?+|[^?]+", token):
            if run.startswith("?"):
                if len(run) % 2:
                    raise OddsError("odds.error.unknown", token=token)
                slots.extend([None] * (len(run) // 2))
            else:
                slots.extend(parse_cards(run))
    return tuple(slots)


def problem(
    game: str,
    hands: Sequence[Sequence[Slot] | str],
    dead: Iterable[Card | str] | str = (),
    shared: Iterable[Card | str] | str = (),
    community: bool | None = None,
) -> Problem:
    """A checked :class:`Problem`; raises :class:`OddsError` (or ``CardError``) in words.

    ``community`` None decides from the cards: one community card comes when the unseen cards
    cannot give every hand its own (docs/rules.md §5; a table knows its deck better, see
    :func:`hand_problem`).
    """
    variant = VARIANTS.get(game)
    if variant is None:
        raise OddsError("odds.error.game", game=game, games=", ".join(VARIANTS))
    if not 1 <= len(hands) <= variant.max_players:
        raise OddsError("odds.error.players", game=game, count=len(hands),
                        most=variant.max_players)
    held = tuple(parse_hand(h) if isinstance(h, str) else tuple(h) for h in hands)
    dead_cards = parse_cards(dead) if isinstance(dead, str) else parse_cards(list(dead))
    shared_cards = parse_cards(shared) if isinstance(shared, str) else parse_cards(list(shared))
    for number, hand in enumerate(held, 1):
        most = variant.hand_size - len(shared_cards)
        if len(hand) > most:
            raise OddsError("odds.error.size", number=number, count=len(hand), game=game,
                            most=most)
    everything = [c for h in held for c in h if c is not None] + [*dead_cards, *shared_cards]
    parse_cards(everything)  # a card twice: CardError says which
    found = Problem(game, held, tuple(sorted(dead_cards)), shared_cards, False)
    private = sum(found.needs())
    room = len(found.unseen())
    if community is None:
        community = private > room and not shared_cards
    if community:
        if shared_cards:
            raise OddsError("odds.error.community")
        found = Problem(game, held, found.dead, shared_cards, True)
        private = sum(found.needs()) + 1
    if min(found.needs()) < 0:
        raise OddsError("odds.error.community")
    if private > room:
        raise OddsError("odds.error.deck", needed=private, room=room)
    return found


def hand_problem(
    hand: Hand, known: Known = "public", reveal: Collection[Card] = ()
) -> tuple[tuple[int, ...], Problem] | None:
    """The seats still contending for the pot and their problem, from a hand being played:
    ``known="public"`` the cards every spectator sees (and the ``reveal`` cards wherever they
    are: a replay's, public by the end of the hand), ``"all"`` every card entered. None when
    fewer than two players contend, or the hand is over."""
    state = hand.state
    if state.finished:
        return None

    def visible(slot: CardSlot) -> bool:
        if slot.card is None:
            return False
        return known == "all" or slot.up or slot.exposed or slot.card in reveal

    live = [s for s in state.seats if not s.folded and not s.mucked]
    if len(live) < 2:
        return None
    hands = tuple(tuple(slot.card if visible(slot) else None for slot in s.cards) for s in live)
    dead = tuple(sorted(
        slot.card for s in state.seats if s.folded or s.mucked
        for slot in s.cards if visible(slot) and slot.card is not None
    ))
    found = Problem(state.variant, hands, dead, tuple(state.community), hand.community_ahead())
    return tuple(s.number for s in live), found


def _groups(found: Problem) -> list[int]:
    needs = list(found.needs())
    return [*needs, 1] if found.community else needs


def deals(found: Problem) -> int:
    """How many equally likely deals of the unseen cards there are (what exact odds count)."""
    room = len(found.unseen())
    count = 1
    for size in _groups(found):
        count *= math.comb(room, size)
        room -= size
    return count


def odds(
    found: Problem,
    *,
    exact: bool | None = None,
    runouts: int | None = None,
    settings: OddsSettings | None = None,
    seed: int | None = None,
) -> Odds:
    """The odds of every hand of ``found``: exact when ``exact`` or when there are at most
    ``settings.exact_most`` deals, else (or when ``runouts`` is given) random runouts: exactly
    ``runouts`` of them, or as many as every figure needs to be within ``settings.margin`` at
    95 %. ``seed`` makes the runouts repeatable."""
    settings = settings or OddsSettings()
    needed, room = sum(_groups(found)), len(found.unseen())
    if min(found.needs()) < 0 or needed > room:  # a Problem made by hand, not by problem()
        raise OddsError("odds.error.deck", needed=needed, room=room)
    count = deals(found)
    if exact and runouts is not None:
        raise OddsError("odds.error.both")
    if runouts is not None and runouts < 1:
        raise OddsError("odds.error.runouts", runouts=runouts)
    players = len(found.hands)
    if exact and count * players > settings.exact_hard_most:
        raise OddsError("odds.error.exact", deals=count,
                        most=settings.exact_hard_most // players)
    _Numpy.load()
    table = _Table(found)
    if exact or (runouts is None and count * players <= settings.exact_most):
        tally = _Tally(len(found.hands))
        for block in _enumerate(table.groups, table.unseen, settings.batch):
            tally.add(table.shares(block))
        return tally.odds(found, exact=True, z=settings.z)
    rng = _Numpy.np.random.default_rng(seed)
    tally = _Tally(len(found.hands))
    # a shuffle is read ``table.rotations`` ways: the runouts of one shuffle are one sample
    per_batch = max(1, settings.batch // table.rotations)
    wanted = math.ceil((runouts or settings.pilot) / table.rotations)
    while tally.count < wanted:
        tally.add(table.shares(table.draw(rng, min(per_batch, wanted - tally.count))))
        if runouts is None and tally.count >= wanted:
            needed = math.ceil(tally.variance() * (settings.z / settings.margin) ** 2)
            most = math.ceil(settings.runouts_most / table.rotations)
            wanted = min(max(needed, tally.count), most)
    return tally.odds(found, exact=False, z=settings.z, runouts=tally.count * table.rotations)


class _Numpy:
    """numpy and the batch evaluators, loaded on first use (importing the engine stays light)."""

    np: Any = None
    evaluators: Any = None

    @classmethod
    def load(cls) -> None:
        if cls.np is None:
            import numpy

            from engine.batch import BATCH_EVALUATORS

            cls.np, cls.evaluators = numpy, BATCH_EVALUATORS


class _Table:
    """The hands as an array template: the known card indices, and where each dealt card goes.

    A deal is a row of cards: each hand's own cards side by side (hand after hand), then the
    community card. When every hand needs as many cards, a row is also read as the deals that
    give each hand the cards of the hand ``k`` places on, for every ``k``: each is as random as
    the row itself, and together they cost one shuffle (``rotations`` readings per row)."""

    def __init__(self, found: Problem) -> None:
        np = _Numpy.np
        self.rankings = found.variant.rankings
        self.players = len(found.hands)
        self.size = found.variant.hand_size
        self.groups = _groups(found)
        self.dealt = sum(self.groups)
        self.unseen = np.array(found.unseen(), dtype=np.int8)
        needs = found.needs()
        template = np.zeros((self.players, self.size), dtype=np.int8)
        for player, hand in enumerate(found.hands):
            known = [c.index for c in hand if c is not None] + [c.index for c in found.shared]
            template[player, : len(known)] = known
        self.template = template.reshape(-1)
        self.rotations = self.players if len(set(needs)) == 1 and needs[0] else 1
        offsets = [sum(needs[:i]) for i in range(self.players)]
        targets: list[int] = []
        readings: list[list[int]] = [[] for _ in range(self.rotations)]
        for player in range(self.players):
            first = self.size - needs[player] - int(found.community)
            for n in range(needs[player]):
                targets.append(player * self.size + first + n)
                for k in range(self.rotations):
                    readings[k].append(offsets[(player + k) % self.players] + n)
            if found.community:
                targets.append(player * self.size + self.size - 1)
                for k in range(self.rotations):
                    readings[k].append(self.dealt - 1)
        self.targets = np.array(targets, dtype=np.intp)
        self.sources = np.array(readings, dtype=np.intp)

    def draw(self, rng: Any, count: int) -> npt.NDArray[np.int8]:
        """``count`` random deals: the first cards of a shuffle of the unseen cards, a
        Fisher-Yates shuffle stopped after the cards needed, every deal at once (the deck is
        held card by card, deal by deal, so that each step reads and writes whole rows)."""
        np = _Numpy.np
        room = self.unseen.size
        deck = np.repeat(self.unseen[:, None], count, axis=1)
        flat = deck.reshape(-1)
        left = np.arange(room, room - self.dealt, -1, dtype=np.float32)
        picks = (rng.random((self.dealt, count), dtype=np.float32) * left[:, None]).astype(np.intp)
        picks = np.minimum(picks, (left - 1).astype(np.intp)[:, None])  # float32 rounding
        picks += np.arange(self.dealt)[:, None]
        picks *= count
        picks += np.arange(count)
        for j in range(self.dealt):
            where = picks[j]
            chosen = flat[where]
            flat[where] = deck[j]
            deck[j] = chosen
        return deck[: self.dealt].T  # type: ignore[no-any-return]

    def shares(self, dealt: Any) -> dict[str, Any]:
        """Per deal (rows) and player (columns): each figure's value (win, high, low, scoop,
        equity), averaged over the readings of the deal."""
        np = _Numpy.np
        count, ways = dealt.shape[0], self.sources.shape[0]
        hands = np.empty((count, ways, self.template.size), dtype=np.int8)
        hands[:] = self.template
        hands[:, :, self.targets] = dealt[:, self.sources]
        hands = hands.reshape(count * ways * self.players, self.size)
        shape = (count, ways, self.players)
        main = _Numpy.evaluators[self.rankings[0]](hands).reshape(shape)
        top = main == main.max(axis=2, keepdims=True)
        ties = top.sum(axis=2, keepdims=True)
        high = top / ties
        if len(self.rankings) == 1:
            figures = {"win": top & (ties == 1), "equity": high}
        else:
            low = _Numpy.evaluators[self.rankings[1]](hands).reshape(shape)
            best_low = low.max(axis=2, keepdims=True)
            qualified = best_low >= 0
            low_top = (low == best_low) & qualified
            lows = low_top / np.maximum(low_top.sum(axis=2, keepdims=True), 1)
            equity = np.where(qualified, (high + lows) / 2, high)
            scoop = equity == 1
            figures = {"win": scoop, "high": high, "low": lows, "scoop": scoop, "equity": equity}
        return {name: values.mean(axis=1) for name, values in figures.items()}


class _Tally:
    """Running sums (and sums of squares) of every figure of every player."""

    def __init__(self, players: int) -> None:
        self.count = 0
        self.sums: dict[str, Any] = {}
        self.squares: dict[str, Any] = {}
        self.players = players

    def add(self, shares: dict[str, Any]) -> None:
        for name, values in shares.items():
            self.sums[name] = self.sums.get(name, 0) + values.sum(axis=0)
            self.squares[name] = self.squares.get(name, 0) + (values * values).sum(axis=0)
        self.count += next(iter(shares.values())).shape[0]

    def variance(self) -> float:
        """The largest variance of one deal's value among the figures."""
        np = _Numpy.np
        worst = 0.0
        for name, total in self.sums.items():
            mean = total / self.count
            spread = np.maximum(self.squares[name] / self.count - mean * mean, 0.0)
            worst = max(worst, float(spread.max()))
        return worst

    def odds(self, found: Problem, *, exact: bool, z: float, runouts: int = 0) -> Odds:
        means = {name: total / self.count for name, total in self.sums.items()}
        players = tuple(
            PlayerOdds(**{name: float(means[name][i]) for name in _FIGURES if name in means})
            for i in range(self.players)
        )
        margin = 0.0 if exact else z * math.sqrt(self.variance() / self.count)
        return Odds(exact, runouts or self.count, players, margin)


def _enumerate(groups: list[int], unseen: Any, batch: int) -> Iterator[Any]:
    """Every deal of the unseen cards to the groups (a combination per group, no card twice), in
    blocks of at most ``batch`` rows: the groups' columns side by side."""
    import itertools

    np = _Numpy.np
    bits = np.left_shift(np.uint64(1), unseen.astype(np.uint64))
    rows = np.zeros((1, 0), dtype=np.int8)
    masks = np.zeros(1, dtype=np.uint64)
    for size in groups:
        if size == 0:
            continue
        picks = np.array(list(itertools.combinations(range(unseen.size), size)), dtype=np.intp)
        combos = unseen[picks]
        combo_masks = np.bitwise_or.reduce(bits[picks], axis=1)
        step = max(1, 4_000_000 // max(1, len(combos)))
        new_rows, new_masks = [], []
        for start in range(0, len(rows), step):
            part, part_masks = rows[start : start + step], masks[start : start + step]
            free = (part_masks[:, None] & combo_masks[None, :]) == 0
            r, c = np.nonzero(free)
            new_rows.append(np.concatenate([part[r], combos[c]], axis=1))
            new_masks.append(part_masks[r] | combo_masks[c])
        rows, masks = np.concatenate(new_rows), np.concatenate(new_masks)
    for start in range(0, len(rows), batch):
        yield rows[start : start + batch]
