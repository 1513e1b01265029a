"""What a client sends to the table, read before the table looks at it: an entry's shape, the
client's own id for it, and a store's refusal in words.

Every entry (a hand's event, a table event such as a night's rebuy, an undo) may carry the client's
``id``: 1 to 64 letters, digits, ``-`` or ``_`` (:data:`ENTRY_ID`). The table service keeps the
first answer to each id in the store, written in the same transaction as the entry itself
(:meth:`kiosk.store.Store.answer`), so an entry sent again because its answer was lost is answered
again and never made twice. :func:`entry_id` is the one reading of that id.

>>> entry_id({"type": "rebuy", "id": "tap-0003"})
'tap-0003'
>>> check_event({"type": "act", "seat": 3, "action": "call", "id": "tap-0004"})
{'type': 'act', 'seat': 3, 'action': 'call'}
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from kiosk.errors import Kind, KioskError

logger = logging.getLogger(__name__)

#: a client's id for an entry: letters, digits, ``-`` and ``_``
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: what a hand's entry may hold (docs/api.md), and how long a text in it may be
EVENT_KEYS = ("type", "seat", "card", "up", "action", "amount", "cards", "id")
EVENT_TEXT_MOST = 16


def entry_id(event: Any) -> str | None:
    """The client's id of ``event`` (a dict), if it sent one; an id that is not one is refused in
    words."""
    if not isinstance(event, dict):
        raise KioskError("json.not_object", Kind.UNREADABLE)
    value = event.get("id")
    if value is not None and not (isinstance(value, str) and ENTRY_ID.fullmatch(value)):
        raise KioskError("table.err.entry_id")
    return value


def check_event(event: Any) -> dict[str, Any]:
    """A hand's entry for the engine (without the client's id), or a refusal in words that names
    what is allowed and never repeats the whole entry."""
    entry_id(event)
    unknown = sorted(str(k)[:EVENT_TEXT_MOST] for k in event if k not in EVENT_KEYS)
    if unknown:
        raise KioskError("table.err.event_keys", keys=", ".join(unknown[:3]),
                         allowed=", ".join(EVENT_KEYS))
    for key, value in event.items():
        if isinstance(value, str) and len(value) > (64 if key == "id" else EVENT_TEXT_MOST):
            raise KioskError("table.err.event_long", field=key)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**53:
            raise KioskError("table.err.event_number", field=key)
        if isinstance(value, list | dict) and key != "cards":
            raise KioskError("table.err.event_value", field=key)
    cards = event.get("cards")
    if isinstance(cards, list) and (
        len(cards) > 10 or not all(isinstance(c, str) and len(c) <= 4 for c in cards)
    ):
        raise KioskError("table.err.event_cards")
    return {k: v for k, v in event.items() if k != "id"}


def store_refusal(error: BaseException) -> KioskError:
    """A write the store refused, in words: a full disk, a read-only database, or a database that
    cannot be reached (a card room's server)."""
    reason = str(getattr(error, "orig", None) or error).lower()
    if "full" in reason:
        return KioskError("store.full", Kind.UNAVAILABLE)
    if "readonly" in reason or "read-only" in reason or "read only" in reason:
        return KioskError("store.read_only", Kind.UNAVAILABLE)
    return KioskError("store.unavailable", Kind.UNAVAILABLE)


@contextmanager
def stored() -> Iterator[None]:
    """A write the store refuses becomes an error the dealer can read; the caller leaves the
    table as it was."""
    try:
        yield
    except SQLAlchemyError as exc:
        logger.error("the store refused a write: %s", exc)
        raise store_refusal(exc) from exc


__all__ = ["ENTRY_ID", "EVENT_KEYS", "check_event", "entry_id", "store_refusal", "stored"]
