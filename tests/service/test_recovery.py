"""Messages stored but never worked on are worked on later, once; long order
messages are read and checked outside the write transaction (no lock while
parsing), short ones under it (cheaper than a transaction more)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import event
from support.service_table import Table, make_table, orders_text, set_up_game

from bot.service import Inbound
from bot.service.facade import messages as service_module
from bot.service.inbound import receive as inbound
from bot.service.orders import submit as ordering
from storage.models import InboundMessage, OrderRow
from storage.testing import temporary_database


def _message(table: Table, user: int, text: str, n: int) -> Inbound:
    return Inbound(
        channel="telegram", external_id=f"{user}:crash{n}", sender=str(user), text=text,
        raw=text.encode(), received_at=table.clock.now(), chat=str(user),
        meta={"chat_type": "private", "language_code": "ru"}, reply_ref="77",
    )  # fmt: skip


async def test_a_message_stored_before_a_crash_is_worked_on_once(table: Table) -> None:
    orders = orders_text(table.state(), "left")
    msg = _message(table, 201, orders, 1)
    with table.db.connection() as conn:  # the first step only: then the process died
        inbound_id = inbound.store(conn, msg, table.clock.now())
    assert inbound_id is not None
    [row] = table.rows(InboundMessage, InboundMessage.id == inbound_id)
    assert row.status == "received" and row.meta == dict(msg.meta) and row.reply_ref == "77"

    assert await table.service.recover() == 1
    assert await table.service.recover() == 0  # never twice
    [row] = table.rows(InboundMessage, InboundMessage.id == inbound_id)
    assert row.status == "ok"
    filed = table.rows(OrderRow, OrderRow.message_id == inbound_id)
    assert filed and all(r.current for r in filed)
    [answer] = [r for r in table.outbox(kind="ack") if r.reply_ref == "77"]
    assert answer.destination == "201" and "Раунд 1" in answer.text


async def test_a_second_worker_finds_the_message_taken(table: Table) -> None:
    msg = _message(table, 201, "/status", 2)
    with table.db.connection() as conn:
        inbound_id = inbound.store(conn, msg, table.clock.now())
    assert inbound_id is not None
    first, _, _ = table.service._work(msg, inbound_id, frozenset())
    second, _, _ = table.service._work(msg, inbound_id, frozenset())
    assert first.status == "ok" and second.status == "duplicate"
    assert len([r for r in table.outbox() if r.reply_ref == "77"]) == 1


async def test_a_recovered_passphrase_command_asks_to_send_it_again(table: Table) -> None:
    msg = _message(table, 201, "/passphrase тайное слово", 3)
    with table.db.connection() as conn:
        inbound.store(conn, msg, table.clock.now())
    assert await table.service.recover() == 1
    [answer] = [r for r in table.outbox() if r.reply_ref == "77"]
    assert "ещё раз" in answer.text
    [row] = table.rows(InboundMessage, InboundMessage.external_id == msg.external_id)
    assert row.status == "refused" and "тайное" not in row.text


@pytest.fixture
def planned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every order message read before the write transaction, however short."""
    monkeypatch.setattr(service_module, "PLAN_MIN_CHARS", 0)


def _watch_the_lock(table: Table, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the write lock was free at each parse of an order message."""
    path = table.db.engine.url.database
    assert path is not None
    free: list[bool] = []
    real = ordering.parse_message

    def watched(*args: object, **kw: object) -> object:
        probe = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")  # fails at once if a writer holds the lock
            probe.execute("ROLLBACK")
            free.append(True)
        except sqlite3.OperationalError:
            free.append(False)
        finally:
            probe.close()
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ordering, "parse_message", watched)
    return free


async def test_orders_are_parsed_while_nobody_holds_the_write_lock(
    table: Table, monkeypatch: pytest.MonkeyPatch, planned: None
) -> None:
    free = _watch_the_lock(table, monkeypatch)
    reply = await table.say(201, orders_text(table.state(), "left"))
    assert reply.status == "ok", reply.text
    assert free == [True]  # parsed once, outside the write transaction


async def test_a_short_message_is_parsed_once_under_the_lock(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = orders_text(table.state(), "left")
    assert len(text) < service_module.PLAN_MIN_CHARS
    free = _watch_the_lock(table, monkeypatch)
    reply = await table.say(201, text)
    assert reply.status == "ok", reply.text
    assert free == [False]  # parsed once, in the write transaction: no planning one


async def test_a_long_message_is_parsed_outside_the_lock(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = orders_text(table.state(), "left")
    text += "\n" + "-- комментарий капитана\n" * (service_module.PLAN_MIN_CHARS // 20)
    free = _watch_the_lock(table, monkeypatch)
    reply = await table.say(201, text)
    assert reply.status == "ok", reply.text
    assert free == [True]


async def test_a_plan_made_stale_by_newer_orders_is_read_again(
    table: Table, monkeypatch: pytest.MonkeyPatch, planned: None
) -> None:
    state = table.state()
    first = _message(table, 201, orders_text(state, "left", [1]), 4)
    stale = table.service._plan(first)  # read now ...
    assert isinstance(stale, ordering.OrderPlan)
    # ... while the other captain's player files orders for number 2 meanwhile.
    assert (await table.say(202, orders_text(state, "left", [2]))).status == "ok"
    parses: list[int] = []
    real = ordering.parse_message
    monkeypatch.setattr(
        ordering, "parse_message", lambda *a, **k: parses.append(1) or real(*a, **k)
    )
    monkeypatch.setattr(table.service, "_plan", lambda msg: stale)
    reply = await table.service.receive(first)
    assert reply.status == "ok"
    assert parses == [1]  # the plan did not fit (orders on file changed): read again
    rows = table.rows(OrderRow, OrderRow.current == True)  # noqa: E712
    assert {r.number for r in rows if r.unit == "player" and r.side == "left"} >= {1, 2}


async def test_a_fitting_plan_is_used_as_is(
    table: Table, monkeypatch: pytest.MonkeyPatch, planned: None
) -> None:
    msg = _message(table, 201, orders_text(table.state(), "left"), 5)
    plan = table.service._plan(msg)
    assert isinstance(plan, ordering.OrderPlan)
    parses: list[int] = []
    real = ordering.parse_message
    monkeypatch.setattr(
        ordering, "parse_message", lambda *a, **k: parses.append(1) or real(*a, **k)
    )
    monkeypatch.setattr(table.service, "_plan", lambda m: plan)
    assert (await table.service.receive(replace(msg))).status == "ok"
    assert parses == []
    assert table.outbox(kind="ack")


async def test_on_postgresql_only_the_work_on_orders_skips_the_wait_for_the_disk(
    tmp_path: Path,
) -> None:
    """The stored message is committed durably; the work on an order message is
    not waited for on disk (it is done again from the stored message if the
    database server crashes and loses it); a command's always is."""
    with temporary_database("postgresql", tmp_path) as db:
        table = make_table(db)
        await set_up_game(table)
        relaxed: list[bool] = []

        def watch(conn: object, _cursor: object, statement: str, *_: object) -> None:
            if statement.startswith("INSERT INTO inbound"):
                relaxed.append(False)
            elif "synchronous_commit" in statement:
                relaxed[-1] = True

        event.listen(db.engine, "before_cursor_execute", watch)
        try:
            assert (await table.say(201, orders_text(table.state(), "left"))).status == "ok"
            assert (await table.say(201, "/status")).status == "ok"
        finally:
            event.remove(db.engine, "before_cursor_execute", watch)
        assert relaxed == [True, False]
        # what a lost commit leaves behind is what the first test recovers from
        [row] = table.rows(InboundMessage, InboundMessage.text == "/status")
        assert row.status == "ok"
