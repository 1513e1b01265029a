"""Why one hand shown at showdown beats another, in words a dealer says to the table.

A :class:`Beaten` is a hand that was shown and did not win one half of a pot (the whole pot, the
high half or the low half of a hi/lo pot), with the hand that did. :func:`why` says it: the two
hands by name, and a reason where the names alone do not tell (a ranking of its own, as Sökö's
four-flush above a pair; razz's pairs counting against a hand; two hands of one name that a later
card decides).

>>> from engine.evaluate import evaluate_high, evaluate_soko
>>> print(why(evaluate_soko("Ah Th 7h 2h 9c"), evaluate_soko("Qs Qd 9s 4c 3d"), "en"))
Four-flush, ace high beats pair of queens: in Sökö a four-flush beats a pair
>>> why(evaluate_high("Qs Qd As 9c 4d"), evaluate_high("Qh Qc Kd 9d 4s"), "en")
'Pair of queens beats pair of queens: deciding card, ace against king'
>>> why(evaluate_high("Ks Kd 4c 4d 2s"), evaluate_high("Qh Qc Jd 9d 4s"), "en")
'Two pair, kings and fours beats pair of queens'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.evaluate import HandValue
from engine.i18n import translate

_SOKO_CATEGORIES = ("four-flush", "four-straight")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _rank(rank: int, lang: str) -> str:
    return translate(f"rank.{14 if rank == 1 else rank}.one", lang)


def _reason(winner: HandValue, loser: HandValue, lang: str) -> str | None:
    """Why ``winner`` is better than ``loser`` where their names do not say it, else None."""
    if winner.category != loser.category:
        if winner.kind == "soko" and {winner.category, loser.category} & set(_SOKO_CATEGORIES):
            return translate(
                "beats.reason.soko", lang,
                winner=translate(f"beats.the.{winner.category}", lang),
                loser=translate(f"beats.a.{loser.category}", lang),
            )
        if winner.kind == "low":
            return translate(
                "beats.reason.razz", lang, loser=translate(f"beats.a.{loser.category}", lang)
            )
        return None
    if winner.name(lang) != loser.name(lang):
        return None
    for mine, theirs in zip(winner.ranks, loser.ranks, strict=False):
        if mine != theirs:
            return translate(
                "beats.reason.card", lang, winner=_rank(mine, lang), loser=_rank(theirs, lang)
            )
    return None


def why(winner: HandValue, loser: HandValue | None, lang: str = "en") -> str:
    """``winner`` against ``loser`` in words (``loser`` None: a hand with no qualifying low)."""
    if loser is None:
        return translate("beats.no_low", lang, winner=winner.name(lang))
    reason = _reason(winner, loser, lang)
    words = {"winner": winner.name(lang), "loser": _lower_first(loser.name(lang))}
    if reason is None:
        return translate("beats.text", lang, **words)
    return translate("beats.because", lang, reason=reason, **words)


@dataclass(frozen=True, slots=True)
class Beaten:
    """A hand shown at showdown that did not win ``half`` (``pot``, ``high`` or ``low``) of a pot:
    ``hand`` (None: no qualifying low), and the seat and hand that won that half (the first of
    them when several tied)."""

    seat: int
    half: str
    hand: HandValue | None
    by: int
    by_hand: HandValue

    def name(self, lang: str = "en") -> str:
        """The beaten hand's name (or that it has no qualifying low)."""
        if self.hand is None:
            return translate("hands.no-low", lang)
        return self.hand.name(lang)

    def why(self, lang: str = "en") -> str:
        return why(self.by_hand, self.hand, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "seat": self.seat,
            "half": self.half,
            "hand": self.name(lang),
            "cards": None if self.hand is None else [str(c) for c in self.hand.cards],
            "by": self.by,
            "why": self.why(lang),
        }
