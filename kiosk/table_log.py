"""The table's events that are not a hand's: one log, one way in, one undo, one replay.

A hand is a fold of its engine events; the table between hands is a fold of its *table events*:
a player bought in, rebought, sat out, moved or cashed out, a night opened or closed (and, for
tournaments, a level or an elimination). Each has a ``type`` and is described by an
:class:`EventKind`:

- ``schema``: its shape, a pydantic model (:mod:`kiosk.table_event_schema`): what it refuses is
  refused in words, field by field, before anything else;
- ``check(book, setup, event, ctx)``: is it allowed now? It returns the entry as it is stored,
  with every number the fold needs (the chips a seat had, the money a buy-in is worth), or raises a
  :class:`~kiosk.errors.KioskError` that says what is allowed;
- ``table(setup, entry)``: the table's setup after it (seats, names, stacks; ``None``: unchanged);
- ``book``: the kind of book it belongs to (``night``), or ``None`` for an event of the table
  alone (moving a seat), which joins the open book when there is one;
- ``opens`` / ``closes``: it opens a new book of a kind, or closes the open one;
- ``during_hand``, ``kiosk``, ``follows_hand``: made during a hand too (and left alone by the
  undo), made by the kiosk only (a tournament's level put in play before a hand, its eliminations
  after one), taken back by the undo with the hand's last event.

A book may also give the entries the kiosk makes around a hand: ``before_hand(setup, now)`` and
``after_hand(setup, hand_id, start, end)`` return them (a list of entries with their ``type``);
the service writes them through :meth:`TableLog.push` like any other.

A *book* (a night, a tournament) is the fold of its entries: ``BOOK_KINDS[kind].fold(id, entries)``
rebuilds it, ``book.apply(entry)`` adds one. The service (``TableService.submit``) sends an event
whose type is a table event's here, checks it, writes the entry with the setup before and after it
in one transaction (:class:`~kiosk.book_store.BookStore`), folds it into the open book and tells
every screen; the same ``undo`` takes back the table's latest entry, hand event or table event,
whichever came last: the setup before it is put back and the book is folded again from its
entries. After a restart the setup is as stored and the open book is folded again from the store.

A kind of book registers itself with :func:`register_book`, its events with
:func:`register_event` (see :mod:`kiosk.night`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from kiosk.book_store import BookStore
from kiosk.errors import Kind, KioskError
from kiosk.store import Answer
from kiosk.table_event_schema import validate


class Book(Protocol):
    """A fold of a book's entries (a night, a tournament)."""

    id: int
    kind: str
    closed: bool

    def apply(self, entry: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Context:
    """What a check may need besides the book and the setup."""

    players: Callable[[int], dict[str, Any] | None]
    """A player of the list by id (None: no such player)."""
    hand_running: bool
    latest_hand: int | None = None
    """The table's latest hand (its id), if any."""


Check = Callable[[Any, dict[str, Any], dict[str, Any], Context], dict[str, Any]]
TableChange = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any] | None]
Schema = type[BaseModel]


@dataclass(frozen=True)
class EventKind:
    type: str
    check: Check
    schema: Schema
    table: TableChange | None = None
    book: str | None = None
    opens: str | None = None
    closes: bool = False
    during_hand: bool = False
    """Made during a hand too (a tournament's clock); such an entry is not taken back by the
    undo (the clock has its own controls)."""
    kiosk: bool = False
    """Made by the kiosk itself (a tournament's level, an elimination), never sent."""
    follows_hand: bool = False
    """Made by the kiosk at a hand's end: the undo takes it back with the hand's last event."""


EVENT_KINDS: dict[str, EventKind] = {}
BOOK_KINDS: dict[str, Any] = {}


def register_event(kind: EventKind) -> EventKind:
    EVENT_KINDS[kind.type] = kind
    return kind


def register_book(kind: str, book_class: Any) -> None:
    """``book_class.fold(book_id, entries)`` rebuilds a book of ``kind`` from its entries."""
    BOOK_KINDS[kind] = book_class


def is_table_event(event: Any) -> bool:
    return isinstance(event, dict) and event.get("type") in EVENT_KINDS


class TableLog:
    """One table's log of table events and its open book."""

    def __init__(self, books: BookStore, table_id: int) -> None:
        self.books = books
        self.table_id = table_id
        self.book: Any = None
        #: the book the log's latest entry closed (the screens show how it ended)
        self.closed: Any = None
        self.reload()

    def reload(self) -> None:
        """Fold the open book again from the store (at start, after an undo)."""
        row = self.books.open_book(self.table_id)
        self.book = None if row is None else self.fold(row)
        self.closed = None
        last = self.last() if self.book is None else None
        kind = EVENT_KINDS.get(str(last["event"].get("type"))) if last else None
        if last is not None and kind is not None and kind.closes and last["book_id"]:
            closed = self.books.book(last["book_id"])
            self.closed = None if closed is None else self.fold(closed)

    def fold(self, row: dict[str, Any]) -> Any:
        entries = [e["event"] | {"seq": e["seq"]} for e in self.books.book_events(row["id"])]
        return BOOK_KINDS[row["kind"]].fold(row["id"], entries)

    def check(self, event: dict[str, Any], setup: dict[str, Any],
              ctx: Context) -> tuple[EventKind, dict[str, Any]]:
        kind = EVENT_KINDS[str(event["type"])]
        if kind.kiosk:
            raise KioskError("book.err.kiosk_only", type=kind.type)
        if ctx.hand_running and not kind.during_hand:
            raise KioskError("book.err.hand_running", Kind.NOT_NOW)
        if kind.opens is not None and self.book is not None:
            raise KioskError(f"{self.book.kind}.err.open", Kind.NOT_NOW)
        if kind.book is not None and kind.opens is None and (
            self.book is None or self.book.kind != kind.book
        ):
            raise KioskError(f"{kind.book}.err.none", Kind.NOT_NOW)
        # the client's own id for the entry, if any, is not the entry's
        shaped = validate({k: v for k, v in event.items() if k != "id"}, kind.schema)
        entry = kind.check(self.book, setup, shaped, ctx)
        entry["type"] = kind.type
        return kind, entry

    def push(self, kind: EventKind, entry: dict[str, Any], setup: dict[str, Any], setup_key: str,
             after_hand: int | None, source: str,
             answer: Answer | None = None) -> dict[str, Any]:
        """Write ``entry``, the setup after it and the answer to the client's id
        (:mod:`kiosk.entries`); returns that setup."""
        after = kind.table(copy.deepcopy(setup), entry) if kind.table else None
        after = setup if after is None else after
        book: int | str | None = kind.opens if kind.opens else (
            self.book.id if self.book is not None else None)
        seq, book_id = self.books.append(
            self.table_id, entry, book=book, before=setup, settings={setup_key: after},
            after_hand=after_hand, source=source, closes=kind.closes, answer=answer)
        stored = entry | {"seq": seq}
        if kind.opens:
            assert book_id is not None
            self.book = BOOK_KINDS[kind.opens].fold(book_id, [stored])
            self.closed = None
        elif self.book is not None:
            self.book.apply(stored)
            if kind.closes:
                self.book, self.closed = None, self.book
        return after

    def last(self) -> dict[str, Any] | None:
        """The latest entry the undo may take back (a clock's entries are left alone)."""
        kept = [kind.type for kind in EVENT_KINDS.values() if kind.during_hand]
        return self.books.last_entry(self.table_id, skip=kept)

    def pop(self, last: dict[str, Any], setup_key: str,
            answer: Answer | None = None) -> dict[str, Any]:
        """Take back ``last`` (:meth:`last`), with the answer to the client's id for the undo;
        returns the setup before it."""
        before: dict[str, Any] = last["before"]
        self.books.pop(self.table_id, last["seq"], {setup_key: before}, answer=answer)
        self.reload()
        return before


__all__ = ["BOOK_KINDS", "EVENT_KINDS", "Book", "Context", "EventKind", "TableLog",
           "is_table_event", "register_book", "register_event"]
