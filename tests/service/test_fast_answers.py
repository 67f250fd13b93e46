"""The fast path of an answer: the message is committed before it is read,
the answer is queued already claimed and handed to the running outbox worker
at once, positions are parsed once per round, and nothing is lost when the
hand-over does not happen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from support.service_table import FIRST_DEADLINE, Table, make_table, orders_text, set_up_game

from bot.service import DeliveryResult, OutboxItem, OutboxWorker, PartLog
from bot.service.kernel.context import Tx
from bot.service.kernel.positions import PositionCache
from bot.service.rounds import resolve as rounds
from storage import repo
from storage.db import Database
from storage.models import InboundMessage, OrderRow, OutboxRow


class RecordingChannel:
    def __init__(self) -> None:
        self.name = "telegram"
        self.delivered: list[OutboxItem] = []

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        self.delivered.append(item)
        return DeliveryResult(ok=True)


async def _until(check: Callable[[], bool], steps: int = 500) -> None:
    for _ in range(steps):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never came true")


def _row(table: Table, outbox_id: int) -> OutboxRow:
    return table.rows(OutboxRow, OutboxRow.id == outbox_id)[0]


async def test_an_answer_is_handed_to_the_running_worker_at_once(table: Table) -> None:
    channel = RecordingChannel()
    # The worker's own loop sleeps on the fake clock, which never moves here:
    # whatever is delivered was handed over, not found by a pass of the loop.
    worker = OutboxWorker(table.service, {"telegram": channel}, table.clock, idle_sleep=3600)
    stop = asyncio.Event()
    running = asyncio.create_task(worker.run(stop))
    await _until(lambda: table.clock.sleepers > 0 and "telegram" in table.service.couriers)
    channel.delivered.clear()  # the set-up's messages, found by the loop's first pass
    woken: list[int] = []
    table.service.listeners.append(lambda: woken.append(1))

    # The right team's only member: nobody else is told of his orders (bot.service.orders.changes).
    reply = await table.say(301, orders_text(table.state(), "right"))
    assert reply.status == "ok" and len(reply.outbox_ids) == 1
    ack = reply.outbox_ids[0]
    await _until(lambda: _row(table, ack).state == "sent")
    assert [(i.id, i.kind, i.destination) for i in channel.delivered] == [(ack, "ack", "301")]
    assert channel.delivered[0].text == reply.text
    assert _row(table, ack).attempts == 1
    assert woken == []  # orders move no deadline and the answer is on its way: nobody woken

    command = await table.say(301, "/orders")  # a command may change what the loop must see
    await _until(lambda: len(channel.delivered) == 2)
    assert woken == [1] and channel.delivered[1].id == command.outbox_ids[0]

    stop.set()
    await table.clock.advance(3600)
    await running
    assert "telegram" not in table.service.couriers  # a stopped worker takes nothing more
    assert await worker.drain("telegram") == 0  # and nothing was left to deliver twice


async def test_an_answer_nobody_delivers_comes_back_when_its_lease_runs_out(
    table: Table,
) -> None:
    channel = RecordingChannel()
    worker = OutboxWorker(table.service, {"telegram": channel}, table.clock)
    await worker.drain("telegram")  # the set-up's messages
    handed: list[OutboxItem] = []
    table.service.couriers["telegram"] = handed.append  # the process dies before sending
    # The right team's only member: nobody else is told of his orders (bot.service.orders.changes).
    reply = await table.say(301, orders_text(table.state(), "right"))
    ack = reply.outbox_ids[0]
    assert [i.id for i in handed] == [ack]
    row = _row(table, ack)
    lease = table.service.settings.outbox_lease
    assert (row.state, row.attempts, row.next_try_at) == ("pending", 1, table.clock.now() + lease)
    # The message and its outcome are committed, whatever becomes of the answer.
    stored = max(table.rows(InboundMessage, InboundMessage.status == "ok"), key=lambda m: m.id or 0)
    assert (stored.sender, stored.game_id) == ("301", table.game_id)

    del table.service.couriers["telegram"]
    channel.delivered.clear()
    assert await worker.drain("telegram") == 0  # hidden while claimed
    await table.clock.advance(lease)
    assert await worker.drain("telegram") == 1
    assert [i.id for i in channel.delivered] == [ack]
    assert (_row(table, ack).state, _row(table, ack).attempts) == ("sent", 2)


async def test_answers_to_channels_without_a_courier_wait_for_the_worker(table: Table) -> None:
    table.service.couriers["email"] = lambda item: None  # only e-mail has one
    reply = await table.say(201, orders_text(table.state(), "left"))
    row = _row(table, reply.outbox_ids[0])
    assert (row.state, row.attempts, row.next_try_at) == ("pending", 0, table.clock.now())


async def test_a_position_is_parsed_once_per_round(table: Table) -> None:
    cache = table.service.positions
    text = orders_text(table.state(), "left", [2])
    first = await table.say(202, text)
    hits = cache.hits
    second = await table.say(202, text)
    assert (first.status, second.status) == ("ok", "ok")
    assert cache.hits > hits  # the second message did not read the snapshot again
    game = table.game()
    assert cache.get((game.current_round_id or 0, 0)) == table.state()

    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    after = table.state()
    assert after.round == 2
    reply = await table.say(202, orders_text(after, "left", [2]))
    assert reply.status == "ok" and "раунд 2" in reply.text.lower()
    assert cache.get((table.game().current_round_id or 0, 0)) == after


async def test_a_transaction_that_fails_leaves_nothing_in_the_position_cache(
    table: Table,
) -> None:
    table.service.positions = cache = PositionCache()
    key = (table.game().current_round_id or 0, 0)

    def read(tx: Tx) -> None:
        rnd = repo.round_by_id(tx.s, key[0])
        assert rnd is not None
        rounds.load_state(tx, rnd, 0)

    def read_then_fail(tx: Tx) -> None:
        read(tx)
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        await table.service._tx(read_then_fail)
    assert len(cache) == 0 and cache.get(key) is None
    await table.service._tx(read)
    assert cache.get(key) == table.state()


async def test_an_edit_and_a_repeat_keep_one_current_order_per_piece_and_tick(
    table: Table,
) -> None:
    state = table.state()
    text = orders_text(state, "left", [2])
    await table.say(202, text, external_id="202:1")
    await table.say(202, text)  # the same orders again supersede the first ones
    await table.say(202, text, edit_of="202:1", external_id="202:1:edit:9")
    rows = table.rows(OrderRow, OrderRow.game_id == table.game_id, OrderRow.number == 2)
    current = [(r.tick, r.side) for r in rows if r.current]
    assert sorted(current) == [(1, "left"), (2, "left"), (3, "left")]
    assert len(rows) == 9 and all(r.superseded_at is not None for r in rows if not r.current)


async def test_redeliveries_and_hand_over_on_both_databases(any_db: Database) -> None:
    table = make_table(any_db)
    await set_up_game(table)
    handed: list[OutboxItem] = []
    table.service.couriers["telegram"] = handed.append
    text = orders_text(table.state(), "left")
    first = await table.say(201, text, external_id="201:5")
    again = await table.say(201, text, external_id="201:5")
    assert (first.status, again.status) == ("ok", "duplicate")
    assert [i.id for i in handed] == list(first.outbox_ids)
    assert len(table.rows(InboundMessage, InboundMessage.external_id == "201:5")) == 1


async def test_an_order_message_reads_what_it_needs_once(any_db: Database) -> None:
    """The queries of an order message, exactly: its writer with his chosen game,
    his role in it and (SQLite) its open round, in one; the orders on file; whom
    the change concerns (plain rows), then the captain to be told in full and the
    teams.  PostgreSQL locks the game and reads the round after the lock, as
    before.  The position is read once per round (here: by the first message)."""
    from sqlalchemy import event

    table = make_table(any_db)
    await set_up_game(table)
    assert (await table.say(202, "/game DB-1")).status == "ok"  # his chosen game
    text = orders_text(table.state(), "left", [2])
    assert (await table.say(202, text)).status == "ok"  # the position is read here
    reads: list[str] = []

    def watch(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            reads.append(statement.split("FROM", 1)[1].split()[0])

    event.listen(any_db.engine, "before_cursor_execute", watch)
    try:
        reply = await table.say(202, text)  # the same orders again
    finally:
        event.remove(any_db.engine, "before_cursor_execute", watch)
    assert reply.status == "ok", reply.text
    locked = [] if any_db.is_sqlite else ["games", "rounds"]
    assert reads == ["members", *locked, "orders", "memberships", "memberships", "teams"]
    notices = table.rows(OutboxRow, OutboxRow.kind == "sheet_notice")
    assert [n.destination for n in notices] == ["201", "201"]  # the captain, each time
