"""The whole life of a round with a fake clock: set-up, orders, deadline, results."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import col
from support.service_table import FIRST_DEADLINE, GM, Table, orders_text

from storage.models import EventRow, GmAction, OrderRow, Snapshot


async def test_round_from_orders_to_outbox(table: Table) -> None:
    state = table.state()
    assert [r.number for r in table.rounds()] == [1]
    assert table.rounds()[0].deadline == FIRST_DEADLINE

    # The left captain orders his whole team; the player 202 tries to order
    # number 1 as well, whom he does not control; the right captain orders his team.
    ok = await table.say(201, orders_text(state, "left"))
    assert ok.status == "ok", ok.text
    bad = await table.say(202, orders_text(state, "left", [1, 2]))
    assert bad.status == "partial", bad.text
    right = await table.say(301, orders_text(state, "right"))
    assert right.status == "ok", right.text
    assert bad.outbox_ids and table.outbox(id=bad.outbox_ids[0])[0].destination == "202"

    current = table.rows(OrderRow, col(OrderRow.current).is_(True))
    assert len(current) == 2 * 7 * 3  # every player of both teams, three ticks
    # Player 202's order for his own number 2 superseded the captain's, which stays on record.
    superseded = table.rows(OrderRow, col(OrderRow.current).is_(False))
    assert {(r.side, r.number) for r in superseded} == {("left", 2)}

    # Nothing happens before the deadline.
    assert await table.service.resolve_due(FIRST_DEADLINE - timedelta(seconds=1)) == []
    await table.clock.set(FIRST_DEADLINE)
    done = await table.service.resolve_due()
    assert [(r.round_number, r.next_round) for r in done] == [(1, 2)]
    assert await table.service.resolve_due() == []  # exactly once

    first, second = table.rounds()
    assert (first.status, second.status) == ("resolved", "open")
    assert second.deadline == FIRST_DEADLINE + timedelta(days=1)
    assert second.commitment != first.commitment and first.seed not in second.commitment
    ticks = sorted(s.tick for s in table.rows(Snapshot, Snapshot.round_id == first.id))
    assert ticks == [0, 1, 2, 3]
    assert table.rows(EventRow, EventRow.round_id == first.id)

    results = table.outbox(kind="results")
    # Both captains and the player by private chat, the configured game master.
    assert sorted(r.destination for r in results) == ["100", "201", "202", "301"]
    assert all(first.seed in r.text and (first.result_digest or "") in r.text for r in results)
    opened = table.outbox(kind="round_open")
    assert sorted(r.destination for r in opened if second.commitment in r.text) == [
        "100",
        "201",
        "202",
        "301",
    ]
    assert all(second.seed not in r.text for r in table.outbox())  # the new seed stays secret


async def test_every_game_master_action_is_logged_and_announced(table: Table) -> None:
    actions = [a.action for a in table.rows(GmAction, GmAction.game_id == table.game_id)]
    assert actions == ["create_game", "add_team", "add_team", "invite", "invite", "invite", "start"]
    before = len(table.outbox(kind="announce"))
    reply = await table.say(GM, "/warn left держат мячи третий раунд")
    assert reply.status == "ok", reply.text
    warned = table.outbox(kind="announce")[before:]
    # The master who warned reads his answer; everybody else one copy.
    assert sorted(r.destination for r in warned) == ["201", "202", "301"]
    assert all("держат мячи" in r.text for r in warned)


async def test_a_member_is_not_a_game_master(table: Table) -> None:
    reply = await table.say(201, "/pause")
    assert reply.status == "refused"
    assert table.game().status == "running"
    assert (await table.say(GM, "/pause шторм")).status == "ok"
    assert table.game().status == "paused"


async def test_when_everybody_is_ready_the_round_is_resolved_early(table: Table) -> None:
    state = table.state()
    await table.say(201, orders_text(state, "left"))
    await table.say(301, orders_text(state, "right"))
    assert "ждёт остальных" in (await table.say(201, "/ready")).text  # 202 has not said so
    assert (await table.say(202, "/ready")).text.startswith("Команда «Саламандры» готова")
    assert (await table.say(202, "/wait")).status == "ok"
    assert await table.service.resolve_due() == []
    await table.say(202, "/ready")
    assert await table.service.resolve_due() == []  # the right team is not ready yet
    await table.say(301, "/ready")
    done = await table.service.resolve_due()  # three hours before the deadline
    assert [r.round_number for r in done] == [1]
    second = table.rounds()[1]
    # The next round keeps the daily schedule: today's 21:00 is still an hour away and more.
    assert second.deadline == FIRST_DEADLINE and second.ready == "" and second.ready_members == []
