"""The deadline watermark, catch-up after downtime, and late orders said plainly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.service_table import FIRST_DEADLINE, GM, Table, orders_text

from bot.service.inbound import receive as inbound
from bot.service.kernel.api import Inbound
from bot.service.runtime.deadlines import (
    ScheduleError,
    next_deadline,
    normalize_schedule,
    schedule_interval,
)
from storage.models import OrderRow, Round

SECOND = timedelta(seconds=1)


def _left_orders(rnd: Round) -> list[dict[str, object]]:
    assert rnd.orders is not None
    return [p for p in rnd.orders["players"] if p["side"] == "left"]


async def test_a_round_waits_until_the_channel_has_been_read_past_its_deadline(
    table: Table,
) -> None:
    marks = table.service.watermarks
    asked: list[datetime] = []
    marks.expect("telegram", asked.append)
    marks.advance("telegram", FIRST_DEADLINE - 5 * SECOND)
    await table.clock.set(FIRST_DEADLINE + 5 * SECOND)
    assert await table.service.resolve_due() == []
    assert asked == [FIRST_DEADLINE + marks.margin]  # the poller is asked to look now
    assert table.service.waiting_until == FIRST_DEADLINE + marks.grace
    # The poller now reads an order Telegram stamped a second before the deadline.
    state = table.state()
    reply = await table.say(201, orders_text(state, "left"), received_at=FIRST_DEADLINE - SECOND)
    assert reply.status == "ok" and "Раунд 1" in reply.text, reply.text
    marks.advance("telegram", FIRST_DEADLINE + 4 * SECOND)
    [done] = await table.service.resolve_due()
    assert done.round_number == 1
    first = next(r for r in table.rounds() if r.number == 1)
    assert len(_left_orders(first)) == 3 * len(
        [p for p in state.team_players("left") if p.on_field]
    )
    assert not [r for r in table.outbox(kind="gm_alert") if "не был прочитан" in r.text]


async def test_past_the_grace_the_round_is_resolved_and_the_game_masters_told(
    table: Table,
) -> None:
    table.service.watermarks.expect("email")
    await table.clock.set(FIRST_DEADLINE + table.service.watermarks.grace + SECOND)
    [done] = await table.service.resolve_due()
    assert done.round_number == 1
    [alert] = [r for r in table.outbox(kind="gm_alert") if "email" in r.text]
    assert "Раунд 1" in alert.text and "не был прочитан" in alert.text


async def test_after_downtime_orders_sent_before_the_deadline_count_in_their_round(
    table: Table,
) -> None:
    """Down at the deadline, restarted an hour later: the backlog is read first."""
    marks = table.service.watermarks
    marks.expect("telegram")
    restart = FIRST_DEADLINE + timedelta(hours=1)
    await table.clock.set(restart)
    marks.started_at = restart  # catch_up() says when this process started
    assert await table.service.resolve_due() == []  # the grace counts from the start
    # Left behind by the dead process: stored, never worked on.
    state = table.state()
    text = orders_text(state, "left", [1])
    stored = Inbound(
        "telegram", "201:9001", "201", text, text.encode(), FIRST_DEADLINE - SECOND, chat="201"
    )
    with table.db.connection() as conn:
        inbound.store(conn, stored, FIRST_DEADLINE - SECOND)
    # The backlog in Telegram, read now.
    late_read = orders_text(state, "left", [2])
    reply = await table.say(202, late_read, received_at=FIRST_DEADLINE - SECOND)
    assert reply.status == "ok" and "Раунд 1" in reply.text
    marks.advance("telegram", restart + SECOND)
    resolved = await table.service.resolve_due()
    assert [r.round_number for r in resolved][:1] == [1]
    first = next(r for r in table.rounds() if r.number == 1)
    assert {p["number"] for p in _left_orders(first)} == {1, 2}


async def test_a_late_order_is_refused_plainly_never_moved_silently(table: Table) -> None:
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    state = table.state()  # round 2's position
    sent = FIRST_DEADLINE - 10 * SECOND  # reached us in time, read after the results
    reply = await table.say(201, orders_text(state, "left"), received_at=sent)
    assert reply.status == "rejected"
    assert "после срока раунда 1" in reply.text and "раунд 1 уже разыгран" in reply.text
    assert "Приказы на раунд 2 принимаются до" in reply.text
    assert table.rows(OrderRow, OrderRow.round_number == 2) == []
    # Headed with the round it is for: filed there.
    headed = await table.say(201, "Раунд 2\n" + orders_text(state, "left"), received_at=sent)
    assert headed.status == "ok" and "Раунд 2" in headed.text, headed.text
    assert table.rows(OrderRow, OrderRow.round_number == 2)


async def test_a_message_stamped_in_the_second_its_round_opened_counts_there(table: Table) -> None:
    # Telegram stamps whole seconds; the round opened half a second into one.
    opened = FIRST_DEADLINE + SECOND / 2
    await table.clock.set(opened)
    await table.service.resolve_due()
    assert next(r for r in table.rounds() if r.number == 2).opened_at.microsecond
    reply = await table.say(
        201, orders_text(table.state(), "left"), received_at=opened.replace(microsecond=0)
    )
    assert reply.status == "ok" and "Раунд 2" in reply.text, reply.text
    assert table.rows(OrderRow, OrderRow.round_number == 2)


async def test_a_game_may_file_late_orders_for_the_next_round_and_says_so(table: Table) -> None:
    assert (await table.say(GM, "/lateorders next")).status == "ok"
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    state = table.state()
    reply = await table.say(301, orders_text(state, "right"), received_at=FIRST_DEADLINE - SECOND)
    assert reply.status == "ok"
    assert "опоздавшие приказы идут в следующий раунд — в раунд 2" in reply.text
    assert table.rows(OrderRow, OrderRow.round_number == 2)


async def test_after_the_deadline_before_the_results_the_answer_names_both_rounds(
    table: Table,
) -> None:
    await table.clock.set(FIRST_DEADLINE + SECOND)
    reply = await table.say(201, orders_text(table.state(), "left"))
    assert reply.status == "rejected"
    assert "раунд 1 истёк" in reply.text and "Приказы на раунд 2 — после итогов, до" in reply.text


def test_a_fast_schedule_counts_periods_from_midnight_utc() -> None:
    assert normalize_schedule("every 30s") == "every 30s"
    assert normalize_schedule("каждые 2 мин") == "every 120s"
    assert schedule_interval("21:00") is None
    after = datetime(2026, 3, 2, 12, 0, 10, tzinfo=UTC)
    assert next_deadline(after, "Europe/Moscow", "every 30s") == after + 20 * SECOND
    assert next_deadline(after + 20 * SECOND, "UTC", "every 30s") == after + 50 * SECOND
    with pytest.raises(ScheduleError):
        normalize_schedule("every 1s")
