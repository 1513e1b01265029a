"""The stud rules engine: cards, hand evaluation and the hand state machine. Pure Python, no I/O."""

from typing import TYPE_CHECKING

from engine.cards import DECK, Card, format_cards, parse_cards
from engine.errors import CardError, EngineError
from engine.evaluate import (
    NO_LOW,
    EvaluationError,
    HandValue,
    bring_in_order,
    evaluate_exposed,
    evaluate_high,
    evaluate_low,
    evaluate_low8,
    evaluate_soko,
    high_strength,
    high_strength7,
    low8_strength,
    low8_strength7,
    low_strength,
    soko_strength,
)

__all__ = [
    "DECK",
    "NO_LOW",
    "Card",
    "CardError",
    "EngineError",
    "EvaluationError",
    "HandValue",
    "bring_in_order",
    "evaluate_exposed",
    "evaluate_high",
    "evaluate_high_batch",
    "evaluate_low",
    "evaluate_low8",
    "evaluate_low8_batch",
    "evaluate_low_batch",
    "evaluate_soko",
    "evaluate_soko_batch",
    "format_cards",
    "high_strength",
    "high_strength7",
    "low8_strength",
    "low8_strength7",
    "low_strength",
    "parse_cards",
    "soko_strength",
]

_BATCH = ("evaluate_high_batch", "evaluate_low8_batch", "evaluate_low_batch", "evaluate_soko_batch")

if TYPE_CHECKING:
    from engine.batch import (
        evaluate_high_batch,
        evaluate_low8_batch,
        evaluate_low_batch,
        evaluate_soko_batch,
    )
else:

    def __getattr__(name: str) -> object:
        # The numpy batch evaluators load on first use, so that importing the engine stays light.
        if name in _BATCH:
            from engine import batch

            return getattr(batch, name)
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
