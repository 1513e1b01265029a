"""The stud rules engine: cards, hand evaluation and the hand state machine. Pure Python, no I/O."""

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
    "evaluate_low",
    "evaluate_low8",
    "evaluate_soko",
    "format_cards",
    "high_strength",
    "high_strength7",
    "low8_strength",
    "low8_strength7",
    "low_strength",
    "parse_cards",
    "soko_strength",
]
