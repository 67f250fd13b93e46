"""Deadline schedules in local time (DST included) and the scheduler loop."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from support.service_table import FIRST_DEADLINE, Table, orders_text

from bot.service import DeadlineScheduler, FakeClock, next_deadline, parse_schedule
from bot.service.runtime.deadlines import ScheduleError


def test_schedule_is_read_forgivingly_and_sorted() -> None:
    assert [t.isoformat() for t in parse_schedule("21:00, 9.30")] == ["09:30:00", "21:00:00"]


@pytest.mark.parametrize("bad", ["", "25:00", "21-00", "noon"])
def test_bad_schedules_are_named(bad: str) -> None:
    with pytest.raises(ScheduleError):
        parse_schedule(bad)


def test_unknown_zone_is_named() -> None:
    with pytest.raises(ScheduleError, match="Mars/Olympus"):
        next_deadline(datetime(2026, 1, 1, tzinfo=UTC), "Mars/Olympus", "21:00")


def test_deadline_keeps_local_time_across_daylight_saving() -> None:
    # Berlin moves to summer time on 29 March 2026: 21:00 local is 20:00 UTC before, 19:00 after.
    before = next_deadline(datetime(2026, 3, 28, 12, 0, tzinfo=UTC), "Europe/Berlin", "21:00")
    after = next_deadline(before, "Europe/Berlin", "21:00")
    assert before == datetime(2026, 3, 28, 20, 0, tzinfo=UTC)
    assert after == datetime(2026, 3, 29, 19, 0, tzinfo=UTC)
    assert after - before == timedelta(hours=23)


def test_several_deadlines_a_day_and_strictly_after() -> None:
    moscow = "Europe/Moscow"
    nine = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)  # 09:00 in Moscow
    assert next_deadline(nine - timedelta(seconds=1), moscow, "09:00,21:00") == nine
    assert next_deadline(nine, moscow, "09:00,21:00") == nine + timedelta(hours=12)
    assert next_deadline(nine + timedelta(hours=12), moscow, "09:00,21:00") == nine + timedelta(
        days=1
    )


async def test_scheduler_resolves_at_the_deadline_and_reminds_before(table: Table) -> None:
    clock = table.clock
    await table.say(201, orders_text(table.state(), "left"))
    scheduler = DeadlineScheduler(table.service.run_due, clock, max_sleep=3600)
    stop = asyncio.Event()
    task = asyncio.create_task(scheduler.run(stop))
    try:
        await _until(lambda: clock.sleepers == 1)
        # Three hours before the deadline: reminders to those still without orders.
        await clock.set(FIRST_DEADLINE - timedelta(hours=3))
        await _until(lambda: bool(table.outbox(kind="reminder")) and clock.sleepers == 1)
        assert table.rounds()[0].status == "open"
        await clock.set(FIRST_DEADLINE)
        await _until(lambda: table.rounds()[0].status == "resolved")
        assert [r.number for r in table.rounds()] == [1, 2]
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
    reminded = sorted(r.destination for r in table.outbox(kind="reminder"))
    assert reminded == ["301"]  # the left captain ordered every player, 202's number 2 included
    assert "Соколов" in table.outbox(kind="reminder")[0].text


async def _until(condition: object, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        if loop.time() > end:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.01)


async def test_fake_clock_sleep_wakes_only_when_due() -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    sleeper = asyncio.create_task(clock.sleep(60))
    await _until(lambda: clock.sleepers == 1)
    await clock.advance(59)
    assert not sleeper.done()
    await clock.advance(1)
    await asyncio.wait_for(sleeper, 1)
