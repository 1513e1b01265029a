"""The table's durable log: settings, hands, every engine event and every result.

The store sits behind this one small class keyed by a database URL (SQLAlchemy Core), so that a card
room can point many kiosks at PostgreSQL by changing ``STUD_KIOSK_DATABASE_URL``. The embedded
default is SQLite in the instance folder, in WAL mode with ``synchronous=FULL``: when a write method
returns, the row is on disk, and the kiosk acknowledges a dealer's action only after that.

>>> store = Store("sqlite://")
>>> hand_id = store.begin_hand(1, {"game": "seven-card-stud"})
>>> store.append_event(hand_id, 0, {"type": "deal"}, source="touch")
>>> [e["type"] for e in store.events(hand_id)]
['deal']
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool

metadata = MetaData()

settings_table = Table(
    "settings",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
    Column("updated_at", String(32), nullable=False),
)

hands_table = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("setup", Text, nullable=False),
    Column("status", String(16), nullable=False),  # running | finished | misdeal | void
    Column("started_at", String(32), nullable=False),
    Column("ended_at", String(32)),
)

events_table = Table(
    "events",
    metadata,
    Column("hand_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("event", Text, nullable=False),
    Column("source", String(32), nullable=False),
    Column("created_at", String(32), nullable=False),
)

results_table = Table(
    "results",
    metadata,
    Column("hand_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("result", Text, nullable=False),
    Column("stacks_after", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
)


answers_table = Table(
    "answers",
    metadata,
    Column("table_id", Integer, primary_key=True),
    Column("entry_id", String(64), primary_key=True),
    Column("answer", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
)
"""The first answer to each entry a client sent with an id: a repeat gets it again."""

#: answers are kept this long for repeats (a client retries within seconds or minutes)
ANSWERS_KEPT = timedelta(days=2)


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of a hand, written with its last entry: status, result, stacks, settings."""

    status: str
    result: dict[str, Any] | None
    stacks_after: dict[str, int]
    settings: dict[str, Any]


#: (table, the client's id for the entry, the answer it was given)
Answer = tuple[int, str, dict[str, Any]]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _is_read_only(error: OperationalError) -> bool:
    reason = str(error.orig).lower()
    return "readonly" in reason or "read-only" in reason or "read only" in reason


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Store:
    """Settings, hands, events and results of the tables behind one database URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        else:  # a database server (a card room): survive its restarts
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._lock = threading.Lock()
        #: why the store can only be read (a read-only disk or database), or None
        self.read_only: str | None = None
        try:
            with self.engine.begin() as conn:
                if self.engine.dialect.name == "postgresql":
                    # Kiosks of a card room may start together: one creates the tables at a time.
                    conn.execute(text("SELECT pg_advisory_xact_lock(7314)"))
                metadata.create_all(conn)
        except OperationalError as exc:
            if not _is_read_only(exc):
                raise
            self.read_only = str(exc.orig)
        if self.read_only is None:
            self.read_only = self._write_refused()

    def _write_refused(self) -> str | None:
        """Why this SQLite database cannot be written, found without writing (None if it can)."""
        if self.engine.dialect.name != "sqlite":
            return None
        try:
            with self.engine.connect() as conn:
                # a write that changes nothing: refused all the same by a read-only database
                conn.execute(update(settings_table).where(text("0")).values(key="probe"))
                conn.rollback()
        except OperationalError as exc:
            if _is_read_only(exc):
                return str(exc.orig)
            raise
        return None

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self._lock, self.engine.begin() as conn:
            yield conn

    def close(self) -> None:
        self.engine.dispose()

    # -- key/value settings (table setup, dealer PIN hash) ------------------------------------
    def get(self, key: str) -> Any:
        """The JSON value stored under ``key``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(settings_table.c.value).where(settings_table.c.key == key)
            ).first()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        with self._tx() as conn:
            self._put(conn, key, value)

    def create(self, key: str, value: Any) -> bool:
        """Store ``value`` under ``key`` only if nothing is stored there yet (the first PIN):
        True if it was stored, False if a value was there already (two first starts at once:
        one of them is the first)."""
        try:
            with self._tx() as conn:
                conn.execute(
                    insert(settings_table).values(
                        key=key, value=json.dumps(value, sort_keys=True), updated_at=_now()
                    )
                )
        except IntegrityError:
            return False
        return True

    @staticmethod
    def _put(conn: Connection, key: str, value: Any) -> None:
        text = json.dumps(value, sort_keys=True)
        done = conn.execute(
            update(settings_table)
            .where(settings_table.c.key == key)
            .values(value=text, updated_at=_now())
        )
        if done.rowcount == 0:
            conn.execute(insert(settings_table).values(key=key, value=text, updated_at=_now()))

    # -- hands and events ----
    def begin_hand(self, table_id: int, setup: dict[str, Any]) -> int:
        """Open a new hand with the setup it was started from; returns its id."""
        with self._tx() as conn:
            number = conn.execute(
                select(func.count())
                .select_from(hands_table)
                .where(hands_table.c.table_id == table_id)
            ).scalar_one()
            result = conn.execute(
                insert(hands_table).values(
                    table_id=table_id,
                    number=int(number) + 1,
                    setup=json.dumps(setup, sort_keys=True),
                    status="running",
                    started_at=_now(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            old = (datetime.now(UTC) - ANSWERS_KEPT).isoformat(timespec="milliseconds")
            conn.execute(
                answers_table.delete().where(
                    (answers_table.c.table_id == table_id) & (answers_table.c.created_at < old)
                )
            )
            return int(key[0])

    def append_event(
        self,
        hand_id: int,
        seq: int,
        event_: dict[str, Any],
        source: str,
        finish: Finish | None = None,
        answer: Answer | None = None,
    ) -> None:
        """Write event number ``seq`` of a hand and, in the same transaction, the end of the hand
        it ends (``finish``) and the answer to the client's id: all of it or none of it is
        committed (and on disk) when this returns."""
        with self._tx() as conn:
            conn.execute(
                insert(events_table).values(
                    hand_id=hand_id,
                    seq=seq,
                    event=json.dumps(event_, sort_keys=True),
                    source=source,
                    created_at=_now(),
                )
            )
            if finish is not None:
                self._finish(conn, hand_id, finish)
            self._answer(conn, answer)

    def pop_event(
        self,
        hand_id: int,
        seq: int,
        reopen: dict[str, Any] | None = None,
        answer: Answer | None = None,
    ) -> None:
        """Remove event ``seq`` (an undo) of a hand; when it had ended the hand, ``reopen`` its
        settings as before it: one transaction."""
        with self._tx() as conn:
            conn.execute(
                events_table.delete().where(
                    (events_table.c.hand_id == hand_id) & (events_table.c.seq == seq)
                )
            )
            if reopen is not None:
                self._reopen(conn, hand_id, reopen)
            self._answer(conn, answer)

    @staticmethod
    def _answer(conn: Connection, answer: Answer | None) -> None:
        """Keep the answer to a client's id for an entry, in the entry's transaction."""
        if answer is None:
            return
        table_id, entry_id, body = answer
        conn.execute(
            insert(answers_table).values(
                table_id=table_id, entry_id=entry_id,
                answer=json.dumps(body, sort_keys=True), created_at=_now(),
            )
        )

    def answer(self, table_id: int, entry_id: str) -> dict[str, Any] | None:
        """The first answer given to the entry the client sent with ``entry_id``, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(answers_table.c.answer).where(
                    (answers_table.c.table_id == table_id)
                    & (answers_table.c.entry_id == entry_id)
                )
            ).first()
        return None if row is None else dict(json.loads(row[0]))

    def events(self, hand_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_table.c.event)
                .where(events_table.c.hand_id == hand_id)
                .order_by(events_table.c.seq)
            ).all()
        return [json.loads(row[0]) for row in rows]

    def finish_hand(
        self,
        hand_id: int,
        status: str,
        result: dict[str, Any] | None,
        stacks_after: dict[str, int],
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Close a hand (``finished``, ``misdeal``, ``void``): its result, the stacks after and,
        in the same transaction, the settings given (the table setup with the new stacks)."""
        with self._tx() as conn:
            self._finish(conn, hand_id, Finish(status, result, stacks_after, settings or {}))

    def _finish(self, conn: Connection, hand_id: int, finish: Finish) -> None:
        conn.execute(
            update(hands_table)
            .where(hands_table.c.id == hand_id)
            .values(status=finish.status, ended_at=_now())
        )
        conn.execute(results_table.delete().where(results_table.c.hand_id == hand_id))
        conn.execute(
            insert(results_table).values(
                hand_id=hand_id,
                result=json.dumps(finish.result, sort_keys=True),
                stacks_after=json.dumps(finish.stacks_after, sort_keys=True),
                created_at=_now(),
            )
        )
        for key, value in finish.settings.items():
            self._put(conn, key, value)

    def _reopen(self, conn: Connection, hand_id: int, settings: dict[str, Any]) -> None:
        """Undo the end of a hand: running again, no result, the settings as before it."""
        conn.execute(
            update(hands_table)
            .where(hands_table.c.id == hand_id)
            .values(status="running", ended_at=None)
        )
        conn.execute(results_table.delete().where(results_table.c.hand_id == hand_id))
        for key, value in settings.items():
            self._put(conn, key, value)

    def latest_hand(self, table_id: int) -> dict[str, Any] | None:
        """The table's most recent hand (id, number, setup, status), if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(hands_table)
                .where(hands_table.c.table_id == table_id)
                .order_by(hands_table.c.id.desc())
            ).first()
        return None if row is None else self._hand_row(row._mapping)

    def running_hand(self, table_id: int) -> dict[str, Any] | None:
        """The table's unfinished hand (id, number, setup), if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(hands_table)
                .where((hands_table.c.table_id == table_id) & (hands_table.c.status == "running"))
                .order_by(hands_table.c.id.desc())
            ).first()
        return None if row is None else self._hand_row(row._mapping)

    def hand(self, hand_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(hands_table).where(hands_table.c.id == hand_id)).first()
            if row is None:
                return None
            found = self._hand_row(row._mapping)
            res = conn.execute(
                select(results_table).where(results_table.c.hand_id == hand_id)
            ).first()
        found["result"] = None if res is None else json.loads(res._mapping["result"])
        found["stacks_after"] = None if res is None else json.loads(res._mapping["stacks_after"])
        return found

    def hands(self, table_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """The table's hands, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(hands_table)
                .where(hands_table.c.table_id == table_id)
                .order_by(hands_table.c.id.desc())
                .limit(limit)
            ).all()
        return [self._hand_row(row._mapping) for row in rows]

    @staticmethod
    def _hand_row(row: Any) -> dict[str, Any]:
        return {
            "id": row["id"],
            "table_id": row["table_id"],
            "number": row["number"],
            "setup": json.loads(row["setup"]),
            "status": row["status"],
            "started_at": row["started_at"],
            "ended_at": row["ended_at"],
        }
