"""Leadership of the roles only one process may run (PostgreSQL advisory locks),
the channel marks shared between processes, and SQLite's one ``serve``."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from support.judge_process import JudgeProcess

from bot.service.runtime.leadership import (
    Leadership,
    OnlyOneProcess,
    hold_sqlite,
    lock_key,
    sqlite_lock_path,
)
from bot.service.runtime.sharedmarks import SharedMarks
from bot.service.runtime.watermark import Watermarks
from storage.db import Database
from storage.testing import POSTGRES_URL, temporary_database

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


@pytest.fixture
def pg() -> Iterator[Database]:
    with temporary_database("postgresql", migrate=True) as db:
        yield db


async def until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for ``condition`` (the bound only keeps a broken test from hanging)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.02)


class Worker:
    """A role's work that says when it runs and when it was stopped."""

    def __init__(self) -> None:
        self.running = False
        self.starts = 0
        self.cancelled = 0

    async def __call__(self) -> None:
        self.running = True
        self.starts += 1
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.running = False


@pytest.fixture
def leaders(pg: Database) -> Callable[[], Leadership]:
    return lambda: Leadership(POSTGRES_URL, schema=pg.schema, interval=0.1)


def run(lead: Awaitable[object]) -> asyncio.Task[object]:
    return asyncio.ensure_future(lead)


def _holder(schema: str | None, role: str) -> int:
    """The pid of the session holding the role's lock (other tests' locks may be there)."""
    key = lock_key("test", str(schema), role) % 2**64
    engine = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            (pid,) = conn.execute(
                text(
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    " AND classid::bigint = :high AND objid::bigint = :low AND objsubid = 1"
                ),
                {"high": key >> 32, "low": key & 0xFFFFFFFF},
            ).one()
            return int(pid)
    finally:
        engine.dispose()


def _terminate(pid: int) -> None:
    engine = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        engine.dispose()


def test_lock_keys_differ_by_schema_and_role() -> None:
    keys = {
        lock_key("test", "a", "telegram"),
        lock_key("test", "b", "telegram"),
        lock_key("test", "a", "reminders"),
        lock_key("other", "a", "telegram"),
    }
    assert len(keys) == 4
    assert all(-(2**63) <= k < 2**63 for k in keys)


async def test_one_leader_and_a_clean_hand_over(leaders: Callable[[], Leadership]) -> None:
    a, b = leaders(), leaders()
    work_a, work_b = Worker(), Worker()
    task_a = run(a.lead("telegram", work_a))
    await until(lambda: work_a.running)
    task_b = run(b.lead("telegram", work_b))
    other = run(b.lead("reminders", Worker()))  # another role: taken beside it
    await until(lambda: b.holds("reminders"))
    await asyncio.sleep(0.5)  # five of b's tries of the telegram lock
    assert not work_b.running and not b.holds("telegram") and a.holds("telegram")

    task_a.cancel()  # a clean stop: the connection closes, the lock goes with it
    await asyncio.gather(task_a, return_exceptions=True)
    assert work_a.cancelled == 1 and not a.holds("telegram")
    await until(lambda: work_b.running)
    assert b.holds("telegram") and b.terms["telegram"] == 1
    for task in (task_b, other):
        task.cancel()
    await asyncio.gather(task_b, other, return_exceptions=True)


async def test_a_leader_whose_connection_dies_stops_and_the_role_is_led_again(
    pg: Database, leaders: Callable[[], Leadership]
) -> None:
    a, b = leaders(), leaders()
    work_a, work_b = Worker(), Worker()
    task_a = run(a.lead("imap:judge", work_a))
    await until(lambda: work_a.running)
    task_b = run(b.lead("imap:judge", work_b))
    await asyncio.sleep(0.3)
    assert not work_b.running
    _terminate(_holder(pg.schema, "imap:judge"))  # the server ends a's session: its lock is free
    await until(lambda: work_a.cancelled == 1)  # a noticed, and stopped its work
    # Whoever tries first leads now (a, reconnected, may win the race): one of them.
    await until(lambda: work_a.running or work_b.running)
    await asyncio.sleep(0.5)
    assert work_a.running != work_b.running
    assert (a.holds("imap:judge"), b.holds("imap:judge")) == (work_a.running, work_b.running)
    for task in (task_a, task_b):
        task.cancel()
    await asyncio.gather(task_a, task_b, return_exceptions=True)


async def test_work_that_fails_is_an_error_of_the_leader(
    leaders: Callable[[], Leadership],
) -> None:
    async def broken() -> None:
        raise ValueError("bad token")

    leadership = leaders()
    with pytest.raises(ValueError, match="bad token"):
        await leadership.lead("telegram", broken)
    assert not leadership.holds("telegram")


async def test_a_url_with_its_own_search_path_keeps_it(pg: Database) -> None:
    url = f"{POSTGRES_URL}?options=-csearch_path%3D{pg.schema}"
    seen: list[int] = []
    leadership = Leadership(url, interval=0.1)
    original = leadership._key

    async def key(conn: object, role: str) -> int:
        cursor = await conn.execute("SELECT current_schema()")  # type: ignore[attr-defined]
        row = await cursor.fetchone()
        assert row[0] == pg.schema
        found = await original(conn, role)
        seen.append(found)
        return found

    leadership._key = key  # type: ignore[method-assign]
    task = run(leadership.lead("telegram", Worker()))
    await until(lambda: leadership.holds("telegram"))
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert seen == [lock_key("test", str(pg.schema), "telegram")]


# ---------------------------------------------------------------- shared marks


async def test_marks_published_by_one_process_are_merged_by_another(pg: Database) -> None:
    reader, resolver = Watermarks(), Watermarks()
    for marks in (reader, resolver):
        marks.expect("telegram")
    published = SharedMarks(pg, reader, "host:1:aa")
    merged = SharedMarks(pg, resolver, "host:2:bb")
    reader.advance("telegram", T0)
    reader.advance("telegram", T0 + timedelta(seconds=5))
    await published.flush()
    assert resolver.lagging(T0) == ["telegram"]
    await merged.load()
    assert resolver.read_until("telegram") == T0 + timedelta(seconds=5)
    assert resolver.lagging(T0) == []
    # Merged marks are not published again, and a mark never goes back.
    resolver.merge("telegram", T0)
    await merged.flush()
    published2 = SharedMarks(pg, Watermarks(), "host:3:cc")
    published2.marks.expect("telegram")
    published2.marks.advance("telegram", T0 - timedelta(hours=1))
    await published2.flush()
    fresh = Watermarks()
    fresh.expect("telegram")
    await SharedMarks(pg, fresh, "host:4:dd").load()
    assert fresh.read_until("telegram") == T0 + timedelta(seconds=5)


# ---------------------------------------------------------------- SQLite


def test_sqlite_is_held_by_one_serve_at_a_time(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    assert sqlite_lock_path(url) == tmp_path / "judge.db.serve-lock"
    assert sqlite_lock_path("sqlite:///:memory:") is None
    with hold_sqlite(url):
        with pytest.raises(OnlyOneProcess) as refused, hold_sqlite(url):
            pass
        message = str(refused.value)
        assert "another `dragonball serve`" in message and str(tmp_path / "judge.db") in message
        assert "PostgreSQL" in message
    with hold_sqlite(url):  # released with the first
        pass


async def test_a_second_serve_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    first = JudgeProcess(
        tmp_path / "first",
        {
            "database": {"url": f"sqlite:///{tmp_path / 'judge.db'}"},
            "game_masters": {"telegram_ids": [7]},
        },
    )
    first.upgrade()
    first.start()
    try:
        lock = tmp_path / "judge.db.serve-lock"
        await until(lambda: lock.exists() and lock.read_text().strip().isdigit(), timeout=60)
        assert first.process is not None
        assert lock.read_text().strip() == str(first.process.pid)
        second = subprocess.run(
            [sys.executable, "-m", "bot.cli", "--config", str(first.config_path), "serve"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 1
        assert "another `dragonball serve`" in second.stderr
        assert f"process {first.process.pid}" in second.stderr
        assert "stop the other one first" in second.stderr
        assert first.running  # the first one serves on
    finally:
        assert first.stop() == 0


# ---------------------------------------------------------------- outbox claims


async def test_a_running_worker_takes_back_the_claims_of_one_killed_beside_it(
    tmp_path: Path,
) -> None:
    from support.service_table import make_table

    from bot.service import DeliveryResult, OutboxItem, OutboxWorker, PartLog
    from bot.service.kernel import notify
    from bot.service.kernel.context import Tx
    from bot.service.kernel.notify import Destination
    from storage.models import OutboxRow

    class Channel:
        name = "telegram"

        def __init__(self) -> None:
            self.delivered: list[OutboxItem] = []

        async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
            self.delivered.append(item)
            return DeliveryResult(ok=True)

    with temporary_database("sqlite", tmp_path) as db:
        table = make_table(db)
        service = table.service
        channel = Channel()
        worker = OutboxWorker(service, {"telegram": channel}, table.clock, heartbeat=0.05)
        service.listeners.append(worker.wake)
        stop = asyncio.Event()
        running = asyncio.ensure_future(worker.run(stop))
        await until(lambda: service.owner == worker.worker_id)
        # Another judge process on this host claims a message, and is killed.
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
        other = f"{worker.worker_id.split(':')[0]}:{gone.stdout.strip()}:dead"

        def claim(tx: Tx) -> int:
            from bot.service.runtime import workers

            workers.register(tx.s, other, tx.now)
            outbox_id = notify.queue(tx, Destination("telegram", "555", "ru"), "notice", "hi")
            row = tx.s.get(OutboxRow, outbox_id)
            assert row is not None
            row.claimed_by, row.attempts = other, 1
            row.next_try_at = tx.now + timedelta(minutes=5)  # its lease
            return outbox_id

        outbox_id = await service._tx(claim)
        await until(lambda: [i.id for i in channel.delivered] == [outbox_id])
        stop.set()
        await running
        assert table.rows(OutboxRow, OutboxRow.id == outbox_id)[0].state == "sent"
