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

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

__all__ = ["Database", "DatabaseError", "sqlite_file"]

SQLITE_BUSY_TIMEOUT_MS = 30_000


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
            self.engine = create_engine(
                url, connect_args=connect_args, pool_pre_ping=True, echo=echo
            )
            self._read_engine = self.engine
        else:
            raise DatabaseError(f"unsupported database {self.dialect!r}: use sqlite or postgresql")
        self._sessions = sessionmaker(self.engine, class_=Session, expire_on_commit=False)
        self._readers = sessionmaker(self._read_engine, class_=Session, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on error."""
        with self._sessions() as session, session.begin():
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
        with self.engine.begin() as conn:
            yield conn

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
