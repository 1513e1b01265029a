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
)
from engine.events import (
    Act,
    Community,
    Deal,
    Event,
    Expose,
    Identify,
    Misdeal,
    Muck,
    Show,
    event_from_dict,
)
from engine.hand import (
    CardSlot,
    Hand,
    HandState,
    LegalAction,
    Prompt,
    SeatState,
)
from engine.hand_errors import (
    DealError,
    DuplicateCardError,
    HandError,
    HandOverError,
    IllegalActionError,
    OutOfTurnError,
    PHHError,
    SettingsError,
    ShowdownError,
    WrongAmountError,
)
from engine.phh import from_phh, to_phh
from engine.pokerstars import from_pokerstars, to_pokerstars
from engine.pots import Pot
from engine.settings import GameSettings, HouseRules, SeatConfig
from engine.showdown import HandResult, OddChip, PotResult, Share
from engine.strength import (
    high_strength,
    high_strength7,
    low8_strength,
    low8_strength7,
    low_strength,
    soko_strength,
)
from engine.variants import VARIANTS, Street, Variant

__all__ = [
    "DECK",
    "NO_LOW",
    "VARIANTS",
    "Act",
    "Card",
    "CardError",
    "CardSlot",
    "Community",
    "Deal",
    "DealError",
    "DuplicateCardError",
    "EngineError",
    "EvaluationError",
    "Event",
    "Expose",
    "GameSettings",
    "Hand",
    "HandError",
    "HandOverError",
    "HandResult",
    "HandState",
    "HandValue",
    "HouseRules",
    "Identify",
    "IllegalActionError",
    "LegalAction",
    "Misdeal",
    "Muck",
    "OddChip",
    "OutOfTurnError",
    "PHHError",
    "Pot",
    "PotResult",
    "Prompt",
    "SeatConfig",
    "SeatState",
    "SettingsError",
    "Share",
    "Show",
    "ShowdownError",
    "Street",
    "Variant",
    "WrongAmountError",
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
    "event_from_dict",
    "format_cards",
    "from_phh",
    "from_pokerstars",
    "high_strength",
    "high_strength7",
    "low8_strength",
    "low8_strength7",
    "low_strength",
    "parse_cards",
    "soko_strength",
    "to_phh",
    "to_pokerstars",
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
