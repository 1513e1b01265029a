"""The errors of settings, hands and hand histories: children of :class:`EngineError`.

Each message says what was refused and what is allowed, so that the kiosk can show it as it is.
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.i18n import translate


class WordedError(EngineError):
    """An engine error made from a message catalogue key and its parameters: it reads in any
    language with :meth:`text`, and ``str(error)`` is the English. Parameters that have a
    ``text(lang)`` method are read in the same language."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en``, ``it``)."""
        values = {
            k: (v.text(lang) if hasattr(v, "text") else v) for k, v in self.params.items()
        }
        return translate(self.key, lang, **values)


class SettingsError(WordedError):
    """Game settings that cannot be played: the message says which value and what is allowed.

    Made from a message catalogue key (``settings.error.*``) and its parameters, the error reads in
    any language with :meth:`text`; ``str(error)`` is the English. Parameters that have a
    ``text(lang)`` method are read in the same language.

    >>> SettingsError("settings.error.players", variant="soko", least=2, most=6, count=7).text("it")
    'soko si gioca da 2 a 6 giocatori, non 7'
    """


class HandError(EngineError):
    """An event that does not fit the hand as it stands.

    Made from a message catalogue key (``play.error.*``) and its parameters, the error can be read
    in any language with :meth:`text`; ``str(error)`` is the English. Parameters that have a
    ``text(lang)`` method are read in the same language. A plain message is kept as it is.
    """

    def __init__(self, message: str, *, prefix: str = "", **params: Any) -> None:
        self.key = message if message.startswith("play.") else None
        self.params = params
        self.prefix = prefix
        super().__init__(self.text("en") if self.key else prefix + message)

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en``, ``it``)."""
        if self.key is None:
            return str(self.args[0])
        values = {
            k: (v.text(lang) if hasattr(v, "text") else v) for k, v in self.params.items()
        }
        return self.prefix + translate(self.key, lang, **values)

    def with_prefix(self, prefix: str) -> HandError:
        """The same error, its message preceded by ``prefix`` (say, which event it was)."""
        if self.key is None:
            return type(self)(prefix + str(self.args[0]))
        return type(self)(self.key, prefix=prefix + self.prefix, **self.params)


class OutOfTurnError(HandError):
    """An action by a seat that is not to act, or an event that is not expected now."""


class IllegalActionError(HandError):
    """An action that is not allowed to the seat to act."""


class WrongAmountError(HandError):
    """An action with an amount that is not the legal one."""


class DuplicateCardError(HandError):
    """A card that is already in this hand."""


class DealError(HandError):
    """A card that the seat does not need now, or an unknown card where a known one is needed."""


class ShowdownError(HandError):
    """A show or muck that does not fit the showdown."""


class HandOverError(HandError):
    """An event after the hand has ended."""


class PHHError(EngineError):
    """A hand history that cannot be read or replayed. When an action of the history was refused
    by the hand, ``cause`` is that error and :meth:`text` reads it in any language."""

    def __init__(self, message: str, cause: HandError | None = None) -> None:
        self.cause = cause
        self.prefix = message
        super().__init__(message + (cause.text("en") if cause is not None else ""))

    def text(self, lang: str = "en") -> str:
        if self.cause is None:
            return str(self.args[0])
        return self.prefix + self.cause.text(lang)
