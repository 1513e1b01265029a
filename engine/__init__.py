"""The stud rules engine: cards, hand evaluation and the hand state machine. Pure Python, no I/O."""

from engine.cards import DECK, Card, format_cards, parse_cards
from engine.errors import CardError, EngineError

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "EngineError",
    "format_cards",
    "parse_cards",
]
