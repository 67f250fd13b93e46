"""What the service needs from the outside world: channels, a clock and a reporter
(texts and pictures, drawn by :mod:`bot.render` through
:class:`bot.service.rounds.reports.RenderReporter`); and what it gives a channel
in return: a log of the parts of a message it delivered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from bot.render.material import RoundMaterial
from engine.events import Event
from engine.odds import OrderOdds
from engine.ruleset import Ruleset
from engine.state import MatchState

from .api import DeliveryResult, OutboxItem

__all__ = [
    "Channel",
    "Clock",
    "FakeClock",
    "OutboxStore",
    "PartLog",
    "Report",
    "Reporter",
    "SystemClock",
    "sleep_or_event",
]


class PartLog(Protocol):
    """Where a channel that sends an item in several requests (a long text, an
    album) notes each one the server accepted, durably, before it sends the next:
    a judge killed mid-delivery then sends again only the part in flight
    (``OutboxItem.parts_sent`` lists the parts noted before)."""

    async def sent(self, part: str) -> None: ...


@runtime_checkable
class Channel(Protocol):
    """A way to deliver outbox items ("telegram", "email").  ``parts``: the outbox
    worker's log of the parts delivered (None: nothing is remembered)."""

    name: str

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult: ...


class Clock(Protocol):
    def now(self) -> datetime: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real time (aware UTC) and asyncio's sleep."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock tests move by hand; ``sleep`` returns once the clock has moved far enough."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("FakeClock needs an aware datetime")
        self._now = start.astimezone(UTC)
        self._changed = asyncio.Condition()
        self.sleepers = 0  # how many tasks are waiting in sleep(), for tests to sync on

    def now(self) -> datetime:
        return self._now

    async def sleep(self, seconds: float) -> None:
        until = self._now + timedelta(seconds=max(0.0, seconds))
        async with self._changed:
            self.sleepers += 1
            try:
                await self._changed.wait_for(lambda: self._now >= until)
            finally:
                self.sleepers -= 1

    async def advance(self, delta: timedelta | float) -> None:
        """Move the clock forward and wake the sleepers that are due."""
        step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        if step < timedelta(0):
            raise ValueError("time does not go backwards")
        async with self._changed:
            self._now += step
            self._changed.notify_all()
        await asyncio.sleep(0)  # let the woken tasks run

    async def set(self, when: datetime) -> None:
        await self.advance(when.astimezone(UTC) - self._now)


async def sleep_or_event(clock: Clock, seconds: float, *events: asyncio.Event) -> None:
    """Sleep on ``clock`` until the time is up or one of ``events`` is set."""
    waits: list[asyncio.Future[Any]] = [asyncio.ensure_future(clock.sleep(seconds))]
    waits += [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waits:
            task.cancel()


@dataclass(frozen=True)
class Report:
    """A round's report for one audience and language, ``footer`` included:
    ``text`` for chats; for mail ``html`` (diagrams referenced as
    ``cid:<filename>``, the files of :meth:`Reporter.diagrams` with
    ``mail=True``) and ``mail_text``, its plain-text alternative with the
    text diagram of the field."""

    text: str
    html: str | None = None
    mail_text: str | None = None


class Reporter(Protocol):
    def round_report(
        self, material: RoundMaterial, *, audience: str, lang: str, footer: str = ""
    ) -> Report: ...

    def diagrams(
        self, material: RoundMaterial, *, gm_view: bool, lang: str, mail: bool = False
    ) -> Sequence[tuple[str, str, bytes]]:
        """(filename, content type, data): a picture per tick and one of the round;
        ``mail``: the smaller set a results mail shows inline."""
        ...

    def position(
        self, state: MatchState, ruleset: Ruleset, *, gm_view: bool, lang: str
    ) -> Sequence[tuple[str, str, bytes]]:
        """(filename, content type, data): a still picture of one position."""
        ...

    def summary(
        self, events: Sequence[Event], final: MatchState, ruleset: Ruleset, *, lang: str
    ) -> str:
        """The match summary (goals, each player's numbers) from every round's events."""
        ...

    def odds_lines(
        self, odds: Sequence[OrderOdds], *, state: MatchState, ruleset: Ruleset, lang: str
    ) -> list[str]:
        """``/odds``: each order of a sheet with its chances, a line each."""
        ...

    def field_picture(self, ruleset: Ruleset, lang: str) -> bytes:
        """The empty field of an edition (PNG), sent with its rule book."""
        ...

    def replay_pages(
        self, materials: Sequence[RoundMaterial], lang: str, title: str
    ) -> dict[str, str]:
        """A game's replay: file name → HTML page."""
        ...

    def replay_file(self, number: int) -> str:
        """The file name of round ``number``'s replay page."""
        ...


class OutboxStore(Protocol):
    """What the outbox worker needs of the service (:class:`~bot.service.GameService`)."""

    # Channel name → who delivers an answer at once (the running worker registers itself).
    couriers: dict[str, Callable[[OutboxItem], None]]

    async def take_over(self, worker_id: str, stale_after: timedelta) -> int: ...

    async def pending_outbox(self, channel: str, limit: int = 20) -> list[OutboxItem]: ...

    async def mark_sent(self, outbox_id: int) -> bool: ...

    async def mark_part(self, outbox_id: int, part: str) -> bool: ...

    async def mark_failed(self, outbox_id: int, result: DeliveryResult) -> str: ...

    async def worker_gone(self, worker_id: str) -> None: ...
