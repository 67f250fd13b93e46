"""Resolution at the deadline: exactly once (two resolvers, a killed resolver),
catching up after downtime, rollback, pause and resume, verification."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text, update
from sqlmodel import col
from support import resolver_child
from support.service_table import FIRST_DEADLINE, GM, Table, make_table, orders_text, set_up_game

from bot.service import GameService, RenderReporter
from bot.service.rounds import resolve as rounds_module
from storage.db import Database
from storage.models import EventRow, OrderRow, OutboxRow, Round, Snapshot


async def _ordered_table(db: Database) -> Table:
    table = make_table(db)
    await set_up_game(table)
    state = table.state()
    assert (await table.say(201, orders_text(state, "left"))).status == "ok"
    assert (await table.say(301, orders_text(state, "right"))).status == "ok"
    return table


def _same_database(db: Database) -> Database:
    return Database(db.url, schema=db.schema)


def _resolved_once(table: Table) -> Round:
    first = table.rounds()[0]
    assert first.status == "resolved"
    assert sorted(s.tick for s in table.rows(Snapshot, Snapshot.round_id == first.id)) == [
        0,
        1,
        2,
        3,
    ]
    events = table.rows(EventRow, EventRow.round_id == first.id)
    assert sorted(e.seq for e in events) == list(range(len(events)))  # one run, no copies
    assert len([r for r in table.rounds() if r.number == 2]) == 1
    return first


async def test_two_resolvers_at_once_resolve_the_round_once(any_db: Database) -> None:
    table = await _ordered_table(any_db)
    engine_runs: list[str] = []
    saw_waiter: list[bool] = []

    def hold_the_lock(game_id: int, number: int) -> None:
        engine_runs.append(threading.current_thread().name)
        if any_db.is_sqlite:
            time.sleep(0.5)  # BEGIN IMMEDIATE makes the other wait meanwhile
            return
        # Keep the game row locked until the other resolver is seen waiting for it.
        with any_db.engine.connect() as conn:
            for _ in range(200):
                waiting = conn.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                ).scalar_one()
                if waiting:
                    saw_waiter.append(True)
                    return
                time.sleep(0.05)

    services = []
    for _ in range(2):
        db = _same_database(any_db)
        services.append(
            GameService(
                db,
                table.service.settings,
                reporter=RenderReporter(pictures=False),
                after_engine=hold_the_lock,
            )
        )
    try:
        results = await asyncio.gather(*(s.resolve_due(FIRST_DEADLINE) for s in services))
    finally:
        for s in services:
            s.db.dispose()
    assert sorted(len(r) for r in results) == [0, 1]
    assert len(engine_runs) == 1
    if not any_db.is_sqlite:
        assert saw_waiter == [True], "the second resolver never waited for the lock"
    _resolved_once(table)
    assert len(table.outbox(kind="results")) == 4


async def test_resolver_killed_before_commit_leaves_no_trace(
    any_db: Database, tmp_path: Path
) -> None:
    table = await _ordered_table(any_db)
    marker = tmp_path / "engine-ran"
    child = subprocess.Popen(
        [
            sys.executable,
            resolver_child.__file__,
            any_db.url,
            any_db.schema or "-",
            FIRST_DEADLINE.isoformat(),
            str(marker),
        ],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        for _ in range(600):
            if marker.exists() or child.poll() is not None:
                break
            await asyncio.sleep(0.05)
        assert marker.read_text() == f"{table.game_id} 1"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    # The killed transaction left nothing behind ...
    first = table.rounds()[0]
    assert first.status == "open" and len(table.rounds()) == 1
    assert table.rows(EventRow) == [] and table.outbox(kind="results") == []
    # ... and the restarted service resolves the round, once.
    assert [r.round_number for r in await table.service.resolve_due(FIRST_DEADLINE)] == [1]
    assert await table.service.resolve_due(FIRST_DEADLINE) == []
    _resolved_once(table)
    assert (await table.service.verify(table.game_id, 1)).ok


async def test_catch_up_after_downtime_spanning_two_deadlines(table: Table) -> None:
    # Down from before round 1's deadline until two hours after the next one.
    await table.clock.set(FIRST_DEADLINE + timedelta(days=1, hours=2))
    done = await table.service.resolve_due()
    # The overdue round is played once; the next one is not played blank at
    # once (nobody could order it without round 1's results): it gets a fresh
    # deadline, the first scheduled time at least min_round_time from now.
    assert [r.round_number for r in done] == [1]
    r1, r2 = table.rounds()
    assert (r1.status, r2.status) == ("resolved", "open")
    assert r2.deadline == FIRST_DEADLINE + timedelta(days=2)
    assert r1.resolved_at == table.clock.now()
    assert await table.service.resolve_due() == []
    assert (await table.service.verify(table.game_id, 1)).ok
    opened = [r.text for r in table.outbox(kind="round_open") if "раунд 2" in r.text]
    assert opened and all("21:00" in text for text in opened), opened


async def test_a_round_resolved_on_time_keeps_the_schedule(table: Table) -> None:
    await table.clock.set(FIRST_DEADLINE + timedelta(seconds=5))
    assert [r.round_number for r in await table.service.resolve_due()] == [1]
    assert table.rounds()[1].deadline == FIRST_DEADLINE + timedelta(days=1)


async def test_back_before_the_next_deadline_the_schedule_is_kept(table: Table) -> None:
    # Back 10 minutes before round 2's scheduled time: it is not yet past, so
    # the schedule is kept (the game master can /extend it).
    await table.clock.set(FIRST_DEADLINE + timedelta(days=1) - timedelta(minutes=10))
    assert [r.round_number for r in await table.service.resolve_due()] == [1]
    assert table.rounds()[1].deadline == FIRST_DEADLINE + timedelta(days=1)


async def test_rollback_restores_the_position_and_draws_a_new_seed(table: Table) -> None:
    state = table.state()
    await table.say(201, orders_text(state, "left"))
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    old = table.rounds()[0]
    await table.say(
        201, orders_text(table.state(), "left", [1], ticks=(1,))
    )  # an order for round 2

    # With a deadline named, the round is reopened for the teams to change orders.
    reply = await table.say(GM, "/rollback 2h")
    assert reply.status == "ok", reply.text
    assert "Объявлено:" in reply.text
    rolled, void, again = table.rounds()
    assert (rolled.id, rolled.status, void.status) == (old.id, "rolled_back", "void")
    assert (again.number, again.attempt, again.status) == (1, 2, "open")
    assert again.deadline == table.clock.now() + timedelta(hours=2)
    assert again.commitment != old.commitment  # the old seed is public now
    assert table.state() == state
    round2 = table.rows(OrderRow, OrderRow.round_number == 2)
    assert round2 and not any(r.current for r in round2)
    assert (
        len(table.rows(OrderRow, OrderRow.round_number == 1, col(OrderRow.current).is_(True))) == 21
    )
    assert any("отменил итоги" in r.text for r in table.outbox(kind="announce"))
    # The left team had ordered for round 2: it is told those orders are gone.
    dropped = [r for r in table.outbox(kind="announce") if "сняты" in r.text]
    assert sorted(r.destination for r in dropped) == ["201", "202"]

    assert (await table.say(GM, "/resolve")).status == "ok"
    statuses = [(r.number, r.attempt, r.status) for r in table.rounds()]
    assert statuses == [(1, 1, "rolled_back"), (2, 1, "void"), (1, 2, "resolved"), (2, 2, "open")]
    check = await table.service.verify(table.game_id, 1)
    assert check.ok and check.commitment == again.commitment
    # The replay's post says it is one; the rolled-back attempt still verifies.
    replay = table.outbox(kind="results", destination="201")[-1]
    assert replay.text.startswith("Переигровка раунда 1 (попытка 2)")
    first = await table.service.verify(table.game_id, 1, attempt=1)
    assert first.ok and first.rolled_back and first.commitment == old.commitment


async def test_rollback_replays_the_round_at_once(table: Table) -> None:
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    reply = await table.say(GM, "/rollback")
    assert reply.status == "ok", reply.text
    assert "переигран (попытка 2)" in reply.text
    statuses = [(r.number, r.attempt, r.status) for r in table.rounds()]
    assert statuses == [(1, 1, "rolled_back"), (2, 1, "void"), (1, 2, "resolved"), (2, 2, "open")]
    assert (await table.say(201, "/verify 1/1")).status == "ok"  # the attempt undone
    assert (await table.say(201, "/verify 1")).status == "ok"


async def test_pause_holds_the_deadline_and_resume_moves_it(table: Table) -> None:
    assert (await table.say(GM, "/pause")).status == "ok"
    await table.clock.set(FIRST_DEADLINE + timedelta(hours=1))
    assert await table.service.resolve_due() == []
    assert table.rounds()[0].status == "open"
    assert (await table.say(GM, "/resume")).status == "ok"
    deadline = table.rounds()[0].deadline
    assert deadline == FIRST_DEADLINE + timedelta(days=1)
    assert await table.service.resolve_due() == []
    await table.clock.set(deadline)
    assert [r.round_number for r in await table.service.resolve_due()] == [1]


async def test_verify_passes_on_a_real_round_and_fails_on_a_tampered_seed(table: Table) -> None:
    state = table.state()
    await table.say(201, orders_text(state, "left"))
    await table.say(301, orders_text(state, "right"))
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    good = await table.service.verify(table.game_id, 1)
    assert good.ok and good.recomputed_digest == good.digest
    reply = await table.say(202, "/verify 1")
    assert reply.status == "ok" and good.seed in reply.text

    with table.db.transaction() as s:
        s.execute(update(Round).where(col(Round.number) == 1).values(seed="00" * 32))
    bad = await table.service.verify(table.game_id, 1)
    assert not bad.ok and not bad.commitment_ok and not bad.result_ok
    reply = await table.say(202, "/verify 1")
    assert reply.status == "rejected" and "НЕ сходится" in reply.text


async def test_verify_of_an_unplayed_round_says_so(table: Table) -> None:
    reply = await table.say(201, "/verify 7")
    assert reply.status == "rejected" and "7" in reply.text


@pytest.mark.parametrize("command", ["/resolve", "/rollback"])
async def test_referee_commands_need_a_referee(table: Table, command: str) -> None:
    assert (await table.say(301, command)).status == "refused"
    assert table.rows(OutboxRow, OutboxRow.kind == "results") == []


async def test_a_failing_game_does_not_stop_the_others(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    broken = table.game_id
    await set_up_game(table)
    real = rounds_module.resolve_round

    def engine(state, orders, ruleset, seed):  # type: ignore[no-untyped-def]
        if engine.calls == 0:  # the first game resolved (the oldest) fails once
            engine.calls += 1
            raise RuntimeError("engine bug")
        return real(state, orders, ruleset, seed)

    engine.calls = 0  # type: ignore[attr-defined]
    monkeypatch.setattr(rounds_module, "resolve_round", engine)
    done = await table.service.resolve_due(FIRST_DEADLINE)
    assert [r.game_id for r in done] == [table.game_id]  # the other game went on
    alerts = [r for r in table.outbox(kind="gm_alert") if "engine bug" in r.text]
    assert [r.game_id for r in alerts] == [broken]
    assert [r.round_number for r in await table.service.resolve_due(FIRST_DEADLINE)] == [
        1
    ]  # retried
    assert len([r for r in table.outbox(kind="gm_alert") if "engine bug" in r.text]) == 1
