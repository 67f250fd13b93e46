"""Pacing of what the bot sends, under Telegram's flood limits.

Telegram asks bots to stay below about one message a second in one chat
(short bursts are tolerated), twenty a minute in one group or channel and
thirty a second overall; beyond that it answers 429 with ``retry_after``.
:class:`FloodPacer` is a PTB rate limiter (``ApplicationBuilder().rate_limiter``)
that makes every sending request wait for a token of its chat, of its group
(negative ids and ``@channel`` names) and of the whole bot. An album counts as
one message per item. When a 429 comes back, every further request waits
``retry_after`` seconds; the error is raised again, so that the outbox worker
retries exactly the item that failed.
"""

from __future__ import annotations

import asyncio
import warnings
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

__all__ = ["FloodLimits", "FloodPacer", "TokenBucket", "retry_after_seconds"]

JSONDict = dict[str, Any]
_NOT_PACED = frozenset({"sendchataction", "getchat", "getchatmember", "getchatadministrators"})
_PACED_PREFIXES = ("send", "edit", "copy", "forward")
_MAX_BUCKETS = 2048


def retry_after_seconds(exc: RetryAfter) -> float:
    """The wait of a 429 in seconds, whichever type this PTB version gives."""
    with warnings.catch_warnings():
        # PTB 22 warns that the int form is going away; both forms are handled here.
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value: Any = exc.retry_after
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value)


@dataclass(frozen=True)
class FloodLimits:
    """Rates of the pacer; the defaults are Telegram's published limits."""

    overall_per_second: float = 30.0
    chat_per_second: float = 1.0
    chat_burst: int = 3
    group_per_minute: float = 20.0

    @classmethod
    def unlimited(cls) -> FloodLimits:
        """No pacing (benchmarks and tests that are not about pacing)."""
        return cls(overall_per_second=0, chat_per_second=0, chat_burst=0, group_per_minute=0)


class TokenBucket:
    """``rate`` tokens a second up to ``capacity``; waiters are served in order."""

    def __init__(
        self,
        rate: float,
        capacity: float,
        *,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.rate = rate
        self.capacity = max(capacity, 1.0)
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self._tokens: float | None = None  # full until first used
        self._stamp = 0.0
        self._lock = asyncio.Lock()

    def _refill(self) -> float:
        now = self._clock()
        if self._tokens is None:
            self._tokens = self.capacity
        else:
            self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        return self._tokens

    @property
    def idle(self) -> bool:
        """Full again: nobody waits and the bucket can be forgotten."""
        return not self._lock.locked() and (self._tokens is None or self._refill() >= self.capacity)

    async def acquire(self, cost: float = 1.0) -> None:
        cost = min(cost, self.capacity)  # an album larger than a burst still goes, slowly
        async with self._lock:
            while (tokens := self._refill()) < cost:
                await asyncio.sleep((cost - tokens) / self.rate)
            self._tokens = tokens - cost


class FloodPacer(BaseRateLimiter[int]):
    """PTB rate limiter: per-chat, per-group and overall token buckets, plus 429 holds."""

    def __init__(self, limits: FloodLimits | None = None) -> None:
        self.limits = limits or FloodLimits()
        self._overall: TokenBucket | None = None
        self._chats: OrderedDict[str, TokenBucket] = OrderedDict()
        self._groups: OrderedDict[str, TokenBucket] = OrderedDict()
        self._resume_at = 0.0
        self.holds = 0  # how many 429s were seen, for logs and tests

    async def initialize(self) -> None:
        if self.limits.overall_per_second > 0:
            self._overall = TokenBucket(
                self.limits.overall_per_second, self.limits.overall_per_second
            )

    async def shutdown(self) -> None:
        self._chats.clear()
        self._groups.clear()

    def hold(self, seconds: float) -> None:
        """Send nothing for ``seconds`` from now (Telegram's ``retry_after``)."""
        loop = asyncio.get_running_loop()
        self._resume_at = max(self._resume_at, loop.time() + seconds)
        self.holds += 1

    async def _wait_hold(self) -> None:
        loop = asyncio.get_running_loop()
        while (left := self._resume_at - loop.time()) > 0:
            await asyncio.sleep(left)

    @staticmethod
    def _bucket(
        table: OrderedDict[str, TokenBucket], key: str, rate: float, capacity: float
    ) -> TokenBucket:
        bucket = table.get(key)
        if bucket is None:
            if len(table) >= _MAX_BUCKETS:
                # Forget buckets that are full again: they hold no state worth keeping.
                for old in [k for k, b in table.items() if b.idle][: _MAX_BUCKETS // 2]:
                    del table[old]
            bucket = table[key] = TokenBucket(rate, capacity)
        table.move_to_end(key)
        return bucket

    async def _pace(self, chat_id: object, cost: float) -> None:
        limits = self.limits
        key = str(chat_id)
        is_group = key.startswith(("-", "@"))
        if limits.chat_per_second > 0:
            bucket = self._bucket(self._chats, key, limits.chat_per_second, limits.chat_burst)
            await bucket.acquire(cost)
        if is_group and limits.group_per_minute > 0:
            per_minute = limits.group_per_minute
            bucket = self._bucket(self._groups, key, per_minute / 60.0, per_minute)
            await bucket.acquire(cost)
        if self._overall is not None:
            await self._overall.acquire(cost)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        name = endpoint.lower()
        chat_id = data.get("chat_id")
        if chat_id is None or name in _NOT_PACED or not name.startswith(_PACED_PREFIXES):
            return await callback(*args, **kwargs)
        cost = 1.0
        media = data.get("media")
        if name == "sendmediagroup" and isinstance(media, list | tuple):
            cost = float(len(media))
        await self._wait_hold()
        await self._pace(chat_id, cost)
        await self._wait_hold()  # a 429 may have come while this one waited its turn
        try:
            return await callback(*args, **kwargs)
        except RetryAfter as exc:
            self.hold(retry_after_seconds(exc))
            raise
