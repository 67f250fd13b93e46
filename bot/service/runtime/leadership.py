"""Who may do what when several judge processes share one database.

Most of the judge's work is shared safely by row locks: any process may file
an order, resolve a round (``SELECT … FOR UPDATE`` on the game) or deliver a
message (``SKIP LOCKED`` claims).  A few things only one process may do at a
time — the Telegram long poll (Telegram answers a second ``getUpdates``
consumer with 409), the IMAP reader of a mailbox, the reminders — and are
*roles* with a leader:

**PostgreSQL.**  :class:`Leadership` runs a role's work only while this
process holds the role's session-level advisory lock
(``pg_try_advisory_lock``), on a connection of its own.  A process that dies
loses its session and with it the lock; the others try the lock every
``interval`` seconds, so one of them takes the role over about that long after
PostgreSQL ends the dead session — at once when the process died and its
machine lives (the socket closes), after ``idle_session_timeout`` (set on the
leader's session) when the whole machine went away.  The leader checks its
connection every ``interval`` seconds: when it is gone, the lock may already
be someone else's, so the work is cancelled at once and the process goes back
to trying.  The lock key is derived from the database, the schema and the
role's name, so judges on other schemas of the same server do not collide;
the connection's ``application_name`` says which role and process it is
(``SELECT application_name FROM pg_stat_activity``).

**SQLite** is for one process: :func:`hold_sqlite` takes an exclusive lock on
a file beside the database for the life of ``serve``, and a second ``serve``
on the same file refuses to start.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import random
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import make_url

from bot.logging import get_logger

__all__ = ["Leadership", "OnlyOneProcess", "hold_sqlite", "lock_key", "sqlite_lock_path"]

log = get_logger(__name__)


def lock_key(database: str, schema: str, role: str) -> int:
    """The advisory lock's 64-bit key (signed, as PostgreSQL's bigint) for a role."""
    digest = hashlib.blake2b(f"dragonball\0{database}\0{schema}\0{role}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


class _Lost(Exception):
    """The leader's connection is gone: the lock may be someone else's by now."""


class Leadership:
    """Runs each role's work while this process holds the role's advisory lock."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        interval: float = 1.0,
        connect: Callable[..., Awaitable[Any]] | None = None,
    ) -> None:
        parsed = make_url(url)
        if parsed.get_backend_name() != "postgresql":
            raise ValueError("leadership needs PostgreSQL")
        query = dict(parsed.query)
        # Options of the URL (a search_path, say) are kept: ours are added to them.
        given = query.pop("options", "")
        self._options = " ".join(given) if isinstance(given, tuple) else given
        self._conninfo = parsed.set(drivername="postgresql", query=query).render_as_string(
            hide_password=False
        )
        self._schema = schema
        self.interval = interval
        # A session idle this long is ended by the server: the lock of a leader
        # whose machine vanished (no socket closes) is freed after it.
        self.idle_timeout = max(10.0, 5 * interval)
        self._connect = connect
        self.held: set[str] = set()
        self.listeners: list[Callable[[str, bool], None]] = []  # (role, held)
        self.terms: dict[str, int] = {}  # how often each role was taken, for tests and logs

    def holds(self, role: str) -> bool:
        return role in self.held

    async def _open(self, role: str) -> Any:
        import psycopg  # only with PostgreSQL, which needs it anyway

        connect = self._connect or psycopg.AsyncConnection.connect
        options = f"{self._options} -c idle_session_timeout={int(self.idle_timeout * 1000)}"
        if self._schema:
            options += f" -c search_path={self._schema}"
        # Who leads what, for an operator (and the tests): pg_stat_activity names it.
        name = f"dragonball {role} pid={os.getpid()}"[:63]
        return await connect(
            self._conninfo, autocommit=True, options=options, application_name=name
        )

    async def _try(self, conn: Any, key: int) -> bool:
        cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))
        row = await cursor.fetchone()
        return bool(row and row[0])

    async def _key(self, conn: Any, role: str) -> int:
        cursor = await conn.execute("SELECT current_database(), current_schema()")
        row = await cursor.fetchone()
        return lock_key(str(row[0]), str(row[1]), role)

    def _tell(self, role: str, held: bool) -> None:
        for listener in self.listeners:
            try:
                listener(role, held)
            except Exception:
                log.exception("leadership listener failed", role=role)

    async def lead(self, role: str, work: Callable[[], Awaitable[Any]]) -> Any:
        """Forever: wait for the role's lock, run ``work`` while it is held.  Returns
        (or raises) what ``work`` does when it ends by itself; run it as a task and
        cancel it to stop (the lock goes with the connection)."""
        while True:
            conn = None
            try:
                conn = await self._open(role)
                key = await self._key(conn, role)
                while not await self._try(conn, key):
                    await asyncio.sleep(self.interval * random.uniform(0.8, 1.2))
                self.held.add(role)
                self.terms[role] = self.terms.get(role, 0) + 1
                log.info("leader of a role", role=role, pid=os.getpid())
                self._tell(role, True)
                return await self._hold(conn, role, work)
            except _Lost as exc:
                log.warning("leadership lost: the connection is gone", role=role, error=str(exc))
            except (OSError, TimeoutError) as exc:
                log.warning("leadership: no database connection", role=role, error=repr(exc))
            except Exception as exc:
                if not _is_db_error(exc):
                    raise
                log.warning("leadership: database error", role=role, error=repr(exc))
            finally:
                if role in self.held:
                    self.held.discard(role)
                    self._tell(role, False)
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), self.interval)
            await asyncio.sleep(self.interval * random.uniform(0.8, 1.2))

    async def _hold(self, conn: Any, role: str, work: Callable[[], Awaitable[Any]]) -> Any:
        task = asyncio.ensure_future(work())
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=self.interval)
                if done:
                    return task.result()
                try:
                    await asyncio.wait_for(conn.execute("SELECT 1"), 2 * self.interval + 1)
                except Exception as exc:
                    raise _Lost(repr(exc)) from exc
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


def _is_db_error(exc: Exception) -> bool:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - PostgreSQL without its driver cannot get here
        return False
    return isinstance(exc, psycopg.Error)


# ---------------------------------------------------------------- SQLite


class OnlyOneProcess(RuntimeError):
    """Another ``serve`` runs on this SQLite database; the message says what to do."""


def sqlite_lock_path(url: str) -> Path | None:
    """The lock file of a SQLite database file (None for an in-memory database)."""
    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    return Path(database).resolve().with_name(Path(database).name + ".serve-lock")


@contextlib.contextmanager
def hold_sqlite(url: str) -> Iterator[None]:
    """Hold the database's lock file for as long as the block runs, or raise
    :class:`OnlyOneProcess` when another process holds it.  The lock is the
    kernel's (``flock``): it goes with the process, however it ends."""
    path = sqlite_lock_path(url)
    if path is None:
        yield
        return
    handle: IO[str] = path.open("a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise OnlyOneProcess(
                f"another `dragonball serve` (process {holder}) is running on the SQLite "
                f"database {make_url(url).database}. SQLite is for one judge process: stop "
                "the other one first, or, to run several processes, move the judge to "
                "PostgreSQL (docs/service.md, 'Several processes')."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()  # closing releases the lock
