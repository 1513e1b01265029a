"""The engine's errors: one small hierarchy under :class:`ValueError`.

Every message names the input that was refused and says what is allowed, so that the kiosk can show
it to the dealer as it is.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""


class CardError(EngineError):
    """A card or list of cards could not be read."""
