"""The database handle: one SQLAlchemy engine and its transactions.

Sessions are synchronous; the async service runs each transaction in a worker
thread.  Both databases take the same code path, with two differences kept
here: SQLite opens every transaction with ``BEGIN IMMEDIATE`` (one writer at
a time, so a transaction that reads a game and then writes it cannot race
another), and PostgreSQL gets row locks (``SELECT … FOR UPDATE``) from
:func:`storage.repo.lock_game`.

SQLite files run in WAL mode with ``synchronous=NORMAL``: a commit survives a
crash of the process, not a power loss or an OS crash (docs/service.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

__all__ = ["Database", "DatabaseError", "sqlite_file"]

SQLITE_BUSY_TIMEOUT_MS = 30_000
_ASYNC_COMMIT = text("SET LOCAL synchronous_commit TO OFF")


class DatabaseError(RuntimeError):
    """The database cannot be used as configured (bad URL, unreachable, old schema)."""


def _sqlite_engine(url: str, *, immediate: bool = True, **kw: Any) -> Engine:
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        **kw,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        if make_url(url).database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # Readers (Database.reading) take no write lock: WAL lets them run beside a writer.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


# A pooled connection idle longer than this is tested before use (the server
# may have restarted or dropped it).  Testing every one (``pool_pre_ping``) cost
# a round trip per transaction — three per message; one used a moment ago is
# alive, and if it is not, the transaction fails as any other database error
# does (an inbound message not stored is fetched again; one not worked on is
# worked on by ``GameService.recover``) and the pool starts afresh.
IDLE_PING_SECONDS = 10.0


def _ping_when_idle(engine: Engine) -> None:
    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return  # new, or used a moment ago
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise DisconnectionError(str(exc)) from exc  # the pool connects anew
        if not alive:
            raise DisconnectionError("the connection did not answer")


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL (None: another database, or one in memory)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


class Database:
    """An engine plus a session factory; ``transaction()`` is the unit of work."""

    def __init__(self, url: str, *, schema: str | None = None, echo: bool = False) -> None:
        try:
            parsed = make_url(url)
        except Exception as exc:  # sqlalchemy raises ArgumentError with a long text
            raise DatabaseError(f"database.url is not a database URL: {url!r}") from exc
        self.url = url
        self.dialect = parsed.get_backend_name()
        self.schema = schema
        if self.dialect == "sqlite":
            if schema:
                raise DatabaseError("SQLite has no schemas")
            self.engine = _sqlite_engine(url, echo=echo)
            self._read_engine = _sqlite_engine(url, immediate=False, echo=echo)
        elif self.dialect == "postgresql":
            connect_args = {"options": f"-csearch_path={schema}"} if schema else {}
            self.engine = create_engine(url, connect_args=connect_args, echo=echo)
            _ping_when_idle(self.engine)
            self._read_engine = self.engine
        else:
            raise DatabaseError(f"unsupported database {self.dialect!r}: use sqlite or postgresql")
        # SQLite: one writer at a time.  A thread that finds the write lock taken
        # sleeps in SQLite's busy handler — 1, 2, 5, 10 … up to 100 ms between
        # tries — and may sleep on long after the lock is free: under a burst
        # of messages that, not the work, made the slowest answers.  The
        # threads of this process queue here instead and start the moment the
        # writer before them ends (another process — a second ``serve`` is
        # refused, a CLI command is not — still meets the busy handler).
        self._writer = threading.RLock() if self.dialect == "sqlite" else None
        self._sessions = sessionmaker(self.engine, class_=Session, expire_on_commit=False)
        self._readers = sessionmaker(self._read_engine, class_=Session, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @contextmanager
    def _writing(self) -> Iterator[None]:
        if self._writer is None:
            yield
            return
        # Never longer than SQLite itself would wait: then SQLite decides, as before.
        held = self._writer.acquire(timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
        try:
            yield
        finally:
            if held:
                self._writer.release()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on error."""
        with self._writing(), self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session that only reads and is always rolled back: on SQLite it holds
        no write lock (work that needs no lock — parsing a message — runs here)."""
        with self._readers() as session:
            try:
                yield session
            finally:
                session.rollback()

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """A bare connection in one transaction, for hot paths that need no ORM
        (storing an inbound message): committed on success, rolled back on error."""
        with self._writing(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def one_statement(self) -> Iterator[Connection]:
        """A bare connection for a single statement, which is its own transaction
        (storing an inbound message).  PostgreSQL runs it in autocommit: no
        ``BEGIN`` and ``COMMIT`` round trips around it, and committed — waiting
        for the disk — when it returns.  SQLite: :meth:`connection`."""
        if self.dialect != "postgresql":
            with self.connection() as conn:
                yield conn
            return
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            yield conn

    def relax_commit(self, session: Session) -> None:
        """Let this transaction's commit return before its WAL record is on disk
        (PostgreSQL ``synchronous_commit=off`` for it alone): a crash of the
        database server — never one of the judge — may lose it, the database
        stays consistent.  Only for work that can be done again from what a
        durable commit kept (docs/service.md, "Durability").  SQLite: nothing
        (``synchronous=NORMAL`` already)."""
        if self.dialect == "postgresql":
            session.execute(_ASYNC_COMMIT)

    def dispose(self) -> None:
        self.engine.dispose()
        if self._read_engine is not self.engine:
            self._read_engine.dispose()

    @property
    def display_url(self) -> str:
        """The URL without its password: for logs and messages."""
        return make_url(self.url).render_as_string(hide_password=True)

    def __repr__(self) -> str:
        return f"Database({self.display_url!r})"
