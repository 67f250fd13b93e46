"""Pacing under Telegram's flood limits (order and lower bounds only, no speed claims)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.telegram.pacing import FloodLimits, FloodPacer, TokenBucket, retry_after_seconds


class Recorder:
    """A fake request callback: records when each request went out."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, object, float]] = []
        self.fail_with: list[Exception] = []

    def callback(self, endpoint: str, chat: object) -> Any:
        async def send() -> dict[str, Any]:
            self.sent.append((endpoint, chat, asyncio.get_running_loop().time()))
            if self.fail_with:
                raise self.fail_with.pop(0)
            return {"ok": True}

        return send


async def request(
    pacer: FloodPacer, rec: Recorder, endpoint: str, chat: object, **data: Any
) -> Any:
    return await pacer.process_request(
        rec.callback(endpoint, chat), (), {}, endpoint, {"chat_id": chat, **data}, None
    )


async def test_bucket_gives_a_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=20.0, capacity=3)
    loop = asyncio.get_running_loop()
    start = loop.time()
    stamps = []
    for _ in range(6):
        await bucket.acquire()
        stamps.append(loop.time() - start)
    assert stamps[2] < 0.1  # the burst goes at once
    # Three more tokens at 20 a second take at least 0.15 s.
    assert stamps[5] >= 0.14


async def test_one_chat_is_paced_another_is_not_held_up() -> None:
    pacer = FloodPacer(
        FloodLimits(overall_per_second=1000, chat_per_second=10, chat_burst=1, group_per_minute=0)
    )
    await pacer.initialize()
    rec = Recorder()
    loop = asyncio.get_running_loop()
    start = loop.time()
    await asyncio.gather(
        *(request(pacer, rec, "sendMessage", 1) for _ in range(4)),
        request(pacer, rec, "sendMessage", 2),
    )
    times = {chat: [t - start for e, c, t in rec.sent if c == chat] for chat in (1, 2)}
    assert times[1][-1] >= 0.29  # 4 messages at 10 a second, no burst
    assert times[2][0] < times[1][1]  # the other chat did not queue behind chat 1


async def test_group_limit_and_album_cost() -> None:
    pacer = FloodPacer(
        FloodLimits(overall_per_second=0, chat_per_second=0, chat_burst=0, group_per_minute=600)
    )
    await pacer.initialize()
    rec = Recorder()
    loop = asyncio.get_running_loop()
    start = loop.time()
    # 600 a minute = 10 a second, burst 600: an album of 10 counts as 10 messages.
    for _ in range(60):
        await request(pacer, rec, "sendMediaGroup", -100, media=list(range(10)))
    await request(pacer, rec, "sendMessage", -100)
    assert rec.sent[-1][2] - start >= 0.09


async def test_reading_requests_are_not_paced() -> None:
    pacer = FloodPacer(
        FloodLimits(overall_per_second=1, chat_per_second=1, chat_burst=1, group_per_minute=1)
    )
    await pacer.initialize()
    rec = Recorder()
    loop = asyncio.get_running_loop()
    start = loop.time()
    for endpoint in ("getChat", "sendChatAction", "getChat", "sendChatAction"):
        await request(pacer, rec, endpoint, 5)
    await pacer.process_request(rec.callback("getUpdates", None), (), {}, "getUpdates", {}, None)
    assert loop.time() - start < 0.5
    assert len(rec.sent) == 5


async def test_429_holds_every_request_for_retry_after() -> None:
    pacer = FloodPacer(FloodLimits.unlimited())
    await pacer.initialize()
    rec = Recorder()
    rec.fail_with = [RetryAfter(timedelta(seconds=0.3))]
    loop = asyncio.get_running_loop()
    with pytest.raises(RetryAfter):
        await request(pacer, rec, "sendMessage", 1)
    failed_at = rec.sent[0][2]
    await request(pacer, rec, "sendMessage", 2)  # another chat waits as well
    assert rec.sent[1][2] - failed_at >= 0.29
    assert pacer.holds == 1
    assert loop.time() - failed_at < 5


def test_retry_after_in_seconds_from_either_form() -> None:
    assert retry_after_seconds(RetryAfter(7)) == 7.0
    assert retry_after_seconds(RetryAfter(timedelta(seconds=1.5))) == 1.5
