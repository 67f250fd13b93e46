"""A message sent in several parts (a long report, its album), the judge killed
mid-delivery: the next judge sends again only the part that was in flight.

The real outbox worker and game service on SQLite (migrated), the real PTB
client, the local Bot API server; the kill is the delivery cut off where it
stands (nothing after it runs: no mark, no record), the next judge a new
worker and channel with nothing in memory, after the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image
from support.fake_telegram import FakeChat, FakeTelegram, Serve, Stall
from support.service_table import Table, make_table
from telegram import Bot

from bot.service import OutboxWorker
from bot.service.kernel import notify
from bot.service.kernel.context import Tx
from bot.service.kernel.notify import Destination
from bot.telegram.channel import TelegramChannel
from bot.telegram.textsplit import split_text
from storage.models import OutboxRow
from storage.testing import temporary_database

REPORT = "\n".join(f"Такт {i % 3 + 1}: строка отчёта номер {i}" for i in range(500))
TEXT_PARTS = len(split_text(REPORT))  # 4 messages, then the album


def png(n: int) -> tuple[str, str, bytes]:
    buffer = io.BytesIO()
    Image.new("RGB", (30 + n, 20), (0, 90, 0)).save(buffer, format="PNG")
    return (f"tick{n}.png", "image/png", buffer.getvalue())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with temporary_database("sqlite", tmp_path, migrate=True) as db:
        yield make_table(db)


async def _queue_report(table: Table, chat: FakeChat) -> int:
    def add(tx: Tx) -> int:
        dest = Destination("telegram", str(chat.id), "ru")
        return notify.queue(tx, dest, "results", REPORT, attachments=[png(1), png(2)])

    return await table.service._tx(add)


def _row(table: Table, outbox_id: int) -> OutboxRow:
    return table.rows(OutboxRow, OutboxRow.id == outbox_id)[0]


async def _killed_while(
    table: Table, tg: FakeTelegram, bot: Bot, in_flight: Callable[[], bool]
) -> None:
    """One judge claims the report and delivers it until ``in_flight()`` holds,
    then dies there."""
    channel = TelegramChannel(bot)
    worker = OutboxWorker(table.service, {"telegram": channel}, table.clock)
    (item,) = await table.service.pending_outbox("telegram", 10)
    delivering = asyncio.create_task(worker.deliver_one(channel, item))
    await tg.wait_for(in_flight, 30.0)
    delivering.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await delivering


async def _next_judge(table: Table, bot: Bot) -> None:
    await table.clock.advance(table.service.settings.outbox_lease)
    worker = OutboxWorker(table.service, {"telegram": TelegramChannel(bot)}, table.clock)
    assert await worker.drain("telegram") == 1


async def test_killed_while_a_text_part_is_in_flight(
    tg: FakeTelegram, bot: Bot, table: Table
) -> None:
    chat = tg.channel("Драконбол")
    outbox_id = await _queue_report(table, chat)
    # Telegram takes the second text part but its answer never comes back:
    # the judge dies with that part in flight.
    tg.fail_next_with("sendMessage", Serve())
    tg.fail_next_with("sendMessage", Stall(accept=True))
    await _killed_while(table, tg, bot, lambda: len(tg.texts(chat)) == 2)
    row = _row(table, outbox_id)
    assert (row.state, row.parts_sent) == ("pending", ["text0"])

    await _next_judge(table, bot)
    texts = tg.texts(chat)
    assert len(texts) == TEXT_PARTS + 1  # the one in flight twice, the others once
    assert texts[1] == texts[2]
    assert "\n".join([texts[0], *texts[2:]]) == REPORT
    album = [s for s in tg.sent_to(chat) if s.method == "sendMediaGroup"]
    assert [s.file.filename for s in album if s.file] == ["tick1.png", "tick2.png"]
    row = _row(table, outbox_id)
    assert row.state == "sent"


async def test_killed_while_the_album_is_in_flight(
    tg: FakeTelegram, bot: Bot, table: Table
) -> None:
    chat = tg.channel("Драконбол")
    outbox_id = await _queue_report(table, chat)
    tg.fail_next_with("sendMediaGroup", Stall(accept=True))
    in_flight = lambda: any(s.method == "sendMediaGroup" for s in tg.sent_to(chat))  # noqa: E731
    await _killed_while(table, tg, bot, in_flight)
    assert _row(table, outbox_id).parts_sent == [f"text{i}" for i in range(TEXT_PARTS)]

    await _next_judge(table, bot)
    assert "\n".join(tg.texts(chat)) == REPORT  # every text part once
    album = [s.file.filename for s in tg.sent_to(chat) if s.method == "sendMediaGroup" and s.file]
    assert album == ["tick1.png", "tick2.png"] * 2  # the album in flight, twice
    assert _row(table, outbox_id).state == "sent"
