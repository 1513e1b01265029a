"""The durable part of a table's events that are not a hand's: the player list, the books (a night,
later a tournament) and the table log.

It sits on the same database as the hands (:class:`~kiosk.store.Store`, SQLite by default,
PostgreSQL in a card room) and writes in the same way: when a method returns, its transaction is
committed. Every entry of the table log is written together with the table's setup after it and,
for an undo, the setup before it, in one transaction, so that the seats, the stacks and the log
never disagree, whatever moment the power goes.

Tables (SQLAlchemy Core, on the store's ``metadata``):

- ``players``: the players kept across nights; ``merged_into`` points a duplicate at the player it
  was merged with (its entries keep its id: the merge is a pointer, undone by clearing it);
- ``books``: a table's books, each of a ``kind`` (``night``) and ``open`` or ``closed``;
- ``table_events``: the table's log, numbered per table (``seq``), each entry with its book (if
  any), its type, the entry, the setup before it and the latest hand of the table when it was made
  (``after_hand``: the undo takes back whichever is later, this entry or that hand's last event).

The answer to the client's id for an entry (:mod:`kiosk.entries`) is written in the entry's
transaction, in the store's one table of answers, as for a hand's entries.

>>> from kiosk.store import Store
>>> books = BookStore(Store("sqlite://"))
>>> anna = books.add_player("Anna")
>>> books.player(anna)["name"]
'Anna'
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    text,
    update,
)

from kiosk.store import Answer, Store, _now, metadata

NAME_MOST = 24
"""The longest name or nickname of a player, in characters."""

players_table = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("nickname", String(64)),
    Column("merged_into", Integer),
    Column("created_at", String(32), nullable=False),
)

books_table = Table(
    "books",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, nullable=False, index=True),
    Column("kind", String(16), nullable=False),
    Column("status", String(16), nullable=False),  # open | closed
    Column("opened_at", String(32), nullable=False),
    Column("closed_at", String(32)),
)

table_events_table = Table(
    "table_events",
    metadata,
    Column("table_id", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("book_id", Integer, index=True),
    Column("type", String(24), nullable=False),
    Column("event", Text, nullable=False),
    Column("before", Text, nullable=False),
    Column("after_hand", Integer),
    Column("source", String(32), nullable=False),
    Column("created_at", String(32), nullable=False),
)

TABLES = [players_table, books_table, table_events_table]


class BookStore:
    """Players, books and table logs, on a :class:`~kiosk.store.Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.engine.begin() as conn:
            if store.engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(7314)"))
            metadata.create_all(conn, tables=TABLES)

    # -- players ----
    def add_player(self, name: str, nickname: str | None = None) -> int:
        with self.store._tx() as conn:
            result = conn.execute(
                insert(players_table).values(name=name, nickname=nickname or None,
                                             created_at=_now())
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def players(self) -> list[dict[str, Any]]:
        """Every player, merged ones too (``merged_into`` set), by name."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(players_table).order_by(
                func.lower(players_table.c.name), players_table.c.id)).all()
        return [dict(row._mapping) for row in rows]

    def player(self, player_id: int) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(players_table).where(players_table.c.id == player_id)).first()
        return None if row is None else dict(row._mapping)

    def rename_player(self, player_id: int, name: str, nickname: str | None) -> None:
        with self.store._tx() as conn:
            conn.execute(update(players_table).where(players_table.c.id == player_id)
                         .values(name=name, nickname=nickname or None))

    def merge_player(self, duplicate: int, into: int | None) -> None:
        """Point ``duplicate`` at ``into`` (None: separate them again); players merged into the
        duplicate follow it."""
        with self.store._tx() as conn:
            conn.execute(update(players_table).where(players_table.c.id == duplicate)
                         .values(merged_into=into))
            if into is not None:
                conn.execute(update(players_table)
                             .where(players_table.c.merged_into == duplicate)
                             .values(merged_into=into))

    # -- books and the table log ----
    def open_book(self, table_id: int) -> dict[str, Any] | None:
        """The table's open book (id, kind, status, opened_at), if any."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(books_table)
                .where((books_table.c.table_id == table_id) & (books_table.c.status == "open"))
                .order_by(books_table.c.id.desc())
            ).first()
        return None if row is None else dict(row._mapping)

    def book(self, book_id: int) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(books_table).where(books_table.c.id == book_id)).first()
        return None if row is None else dict(row._mapping)

    def books(self, kind: str, table_id: int | None = None) -> list[dict[str, Any]]:
        """The books of ``kind`` (of one table, or of every table), newest first."""
        query = select(books_table).where(books_table.c.kind == kind)
        if table_id is not None:
            query = query.where(books_table.c.table_id == table_id)
        with self.store.engine.connect() as conn:
            rows = conn.execute(query.order_by(books_table.c.id.desc())).all()
        return [dict(row._mapping) for row in rows]

    def book_events(self, book_id: int) -> list[dict[str, Any]]:
        """A book's entries in order, each with its ``seq``, ``source`` and ``created_at``."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(table_events_table)
                .where(table_events_table.c.book_id == book_id)
                .order_by(table_events_table.c.seq)
            ).all()
        return [self._entry(row._mapping) for row in rows]

    def last_entry(self, table_id: int, skip: list[str] | None = None) -> dict[str, Any] | None:
        """The table log's latest entry (of a type not in ``skip``), with the setup before it."""
        query = select(table_events_table).where(table_events_table.c.table_id == table_id)
        if skip:
            query = query.where(table_events_table.c.type.not_in(skip))
        with self.store.engine.connect() as conn:
            row = conn.execute(query.order_by(table_events_table.c.seq.desc())).first()
        if row is None:
            return None
        entry = self._entry(row._mapping)
        entry["before"] = json.loads(row._mapping["before"])
        return entry

    @staticmethod
    def _entry(row: Any) -> dict[str, Any]:
        return {
            "seq": row["seq"],
            "book_id": row["book_id"],
            "event": json.loads(row["event"]),
            "after_hand": row["after_hand"],
            "source": row["source"],
            "created_at": row["created_at"],
        }

    def append(
        self,
        table_id: int,
        event: dict[str, Any],
        *,
        book: int | str | None,
        before: dict[str, Any],
        settings: dict[str, Any],
        after_hand: int | None,
        source: str,
        closes: bool = False,
        answer: Answer | None = None,
    ) -> tuple[int, int | None]:
        """Write an entry of the table log with the settings after it and the ``answer`` to the
        client's id, if any (one transaction); ``book`` is the id of the open book, or a kind
        (``"night"``) to open a new book with this entry; ``closes`` closes the book. Returns the
        entry's ``seq`` and its book's id."""
        with self.store._tx() as conn:
            book_id = self._book_for(conn, table_id, book)
            seq = int(conn.execute(
                select(func.coalesce(func.max(table_events_table.c.seq), 0))
                .where(table_events_table.c.table_id == table_id)
            ).scalar_one()) + 1
            conn.execute(insert(table_events_table).values(
                table_id=table_id, seq=seq, book_id=book_id, type=str(event["type"]),
                event=json.dumps(event, sort_keys=True), before=json.dumps(before, sort_keys=True),
                after_hand=after_hand, source=source, created_at=_now(),
            ))
            if closes and book_id is not None:
                conn.execute(update(books_table).where(books_table.c.id == book_id)
                             .values(status="closed", closed_at=_now()))
            for key, value in settings.items():
                Store._put(conn, key, value)
            Store._answer(conn, answer)
            return seq, book_id

    @staticmethod
    def _book_for(conn: Connection, table_id: int, book: int | str | None) -> int | None:
        if not isinstance(book, str):
            return book
        result = conn.execute(insert(books_table).values(
            table_id=table_id, kind=book, status="open", opened_at=_now()))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    def pop(self, table_id: int, seq: int, settings: dict[str, Any],
            answer: Answer | None = None) -> None:
        """Take back entry ``seq`` (the latest) and put ``settings`` back, with the ``answer`` to
        the client's id for the undo, in one transaction: the book it opened is gone, the book it
        closed is open again."""
        with self.store._tx() as conn:
            row = conn.execute(select(table_events_table.c.book_id).where(
                (table_events_table.c.table_id == table_id)
                & (table_events_table.c.seq == seq))).first()
            conn.execute(delete(table_events_table).where(
                (table_events_table.c.table_id == table_id)
                & (table_events_table.c.seq == seq)))
            book_id = None if row is None else row[0]
            if book_id is not None:
                left = conn.execute(select(func.count()).select_from(table_events_table).where(
                    table_events_table.c.book_id == book_id)).scalar_one()
                if left == 0:
                    conn.execute(delete(books_table).where(books_table.c.id == book_id))
                else:
                    conn.execute(update(books_table).where(books_table.c.id == book_id)
                                 .values(status="open", closed_at=None))
            for key, value in settings.items():
                Store._put(conn, key, value)
            Store._answer(conn, answer)


__all__ = ["NAME_MOST", "BookStore", "books_table", "players_table", "table_events_table"]
