"""The kiosk's one error type, and the one mapping from errors to answers.

A :class:`KioskError` is a refusal in words: a message key of the kiosk's catalogue
(``kiosk/locales/ui.<lang>.json``), its parameters, and its :class:`Kind`, which says what kind of
refusal it is. The kind alone decides the HTTP status of a JSON route (:data:`STATUS`) and the NAK
code a serial device gets (:attr:`KioskError.code`); docs/api.md lists them. The engine's own
errors (``EngineError``, each a ``ValueError`` whose message says what is allowed) are refusals of
an entry: ``422`` wherever they come from.

>>> error = KioskError("table.err.no_hand", Kind.NOT_NOW)
>>> status_of(error), error.code
(409, 'busy')
>>> status_of(ValueError("seat 9 is not at the table"))
422
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    """What kind of refusal an error is."""

    UNREADABLE = "unreadable"  # the request cannot be read (not JSON, too deep, not an object)
    DEALER_ONLY = "dealer_only"  # only the dealer's session may do this
    MISSING = "missing"  # no such thing (a hand, a table)
    NOT_NOW = "not_now"  # not possible now (a hand running, no hand, nothing to undo)
    TOO_LARGE = "too_large"  # the request is larger than the kiosk reads
    REFUSED = "refused"  # readable, but not allowed: the answer says what is
    WAIT = "wait"  # too many tries: wait
    UNAVAILABLE = "unavailable"  # the store cannot be written (a full disk, a read-only database)


STATUS: dict[Kind, int] = {
    Kind.UNREADABLE: 400,
    Kind.DEALER_ONLY: 403,
    Kind.MISSING: 404,
    Kind.NOT_NOW: 409,
    Kind.TOO_LARGE: 413,
    Kind.REFUSED: 422,
    Kind.WAIT: 429,
    Kind.UNAVAILABLE: 503,
}
"""The HTTP status of each kind of refusal."""


class KioskError(ValueError):
    """A refusal the kiosk words itself, in every language of its catalogue."""

    def __init__(self, key: str, kind: Kind = Kind.REFUSED, *,
                 problems: list[tuple[str, KioskError]] | None = None, **params: Any) -> None:
        self.key = key
        self.kind = kind
        self.params = params
        #: each field refused and why (a setup), when there are several
        self.problems = problems or []
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        from kiosk.i18n import ui_catalog

        # a refusal inside a refusal (the engine's, the kiosk's) is said in the same language
        said = {k: words(v, lang) if isinstance(v, ValueError) else v
                for k, v in self.params.items()}
        return ui_catalog().translate(self.key, lang, **said)

    @property
    def status(self) -> int:
        return STATUS[self.kind]

    @property
    def code(self) -> str:
        """The NAK code a serial device gets for this refusal (docs/hardware.md)."""
        return "busy" if self.kind in (Kind.NOT_NOW, Kind.UNAVAILABLE) else "refused"


def status_of(error: BaseException) -> int:
    """The HTTP status that answers ``error``: its kind's, ``422`` for the engine's refusals."""
    if isinstance(error, KioskError):
        return error.status
    return 422


def words(error: BaseException, lang: str) -> str:
    """``error`` in ``lang`` when it can say itself so (the kiosk's and the engine's errors), else
    its message."""
    text = getattr(error, "text", None)
    if callable(text):
        try:
            return str(text(lang))
        except (KeyError, ValueError, TypeError):
            pass
    return str(error)


def kind_of(error: BaseException) -> Kind:
    return error.kind if isinstance(error, KioskError) else Kind.REFUSED


def answer(error: BaseException, lang: str) -> dict[str, Any]:
    """The body of a refusal, for a JSON route and a Socket.IO acknowledgement alike; a refusal
    of several fields lists each (``problems``: ``[{"field": "stakes.ante", "error": ...}]``)."""
    body: dict[str, Any] = {"ok": False, "error": words(error, lang), "kind": str(kind_of(error))}
    if isinstance(error, KioskError) and error.problems:
        body["problems"] = [{"field": field, "error": problem.text(lang)}
                            for field, problem in error.problems]
    return body
