"""Deadline schedules and the scheduler that resolves rounds when they fall due.

A game's schedule is one or more local wall-clock times a day ("21:00" or
"09:00,21:00") in its time zone; ``zoneinfo`` turns them into UTC instants, so
a deadline stays at 21:00 local across daylight-saving changes.  A fast game
(a live session, a rehearsal, the reliability trials) may instead have a
deadline every few minutes or seconds: "every 10m", "every 30s" ("каждые 10м"),
counted from midnight UTC.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.i18n import format_clock, t, tn
from bot.logging import get_logger

from ..kernel.ports import Clock, sleep_or_event

__all__ = [
    "DeadlineScheduler",
    "ScheduleError",
    "format_schedule",
    "next_deadline",
    "normalize_schedule",
    "parse_schedule",
    "parse_zone",
    "schedule_interval",
    "schedule_text",
]

log = get_logger(__name__)

_TIME = re.compile(r"([01]?\d|2[0-3])[:.]([0-5]\d)")


class ScheduleError(ValueError):
    """A deadline schedule or time zone that cannot be used; the message names it."""


def parse_schedule(text: str) -> tuple[time, ...]:
    """``"21:00"`` or ``"09:00, 21:00"`` → sorted distinct times of day."""
    parts = [p for p in re.split(r"[,\s;]+", text.strip()) if p]
    if not parts:
        raise ScheduleError("no deadline time given (expected HH:MM)")
    times = set()
    for part in parts:
        match = _TIME.fullmatch(part)
        if not match:
            raise ScheduleError(f"not a time of day: {part!r} (expected HH:MM, 00:00 to 23:59)")
        times.add(time(int(match[1]), int(match[2])))
    return tuple(sorted(times))


def format_schedule(times: tuple[time, ...]) -> str:
    return ",".join(t.strftime("%H:%M") for t in times)


_EVERY = re.compile(r"(?:every|каждые|каждую|каждый)\s*(\d+)\s*(s|sec|с|m|min|м|мин|h|ч)\.?", re.I)
_UNITS = {"s": 1, "sec": 1, "с": 1, "m": 60, "min": 60, "м": 60, "мин": 60, "h": 3600, "ч": 3600}
MIN_INTERVAL = timedelta(seconds=5)


def schedule_interval(text: str) -> timedelta | None:
    """The period of an "every 30s" schedule; None for a daily one."""
    match = _EVERY.fullmatch(text.strip())
    if match is None:
        return None
    step = timedelta(seconds=int(match[1]) * _UNITS[match[2].lower()])
    if step < MIN_INTERVAL or step > timedelta(days=1):
        raise ScheduleError("a deadline every 5 seconds at the least, once a day at the most")
    return step


def normalize_schedule(text: str) -> str:
    """The stored form of a schedule: ``"09:00,21:00"`` or ``"every 30s"``."""
    step = schedule_interval(text)
    if step is not None:
        return f"every {int(step.total_seconds())}s"
    return format_schedule(parse_schedule(text))


def schedule_text(stored: str, lang: str | None, *, clock: bool = False) -> str:
    """A stored schedule as its readers read it: a daily one as stored
    ("09:00,21:00"; ``clock``: in the reader's way of writing times, «21:00»,
    "9:00 PM"), a periodic one in words («каждые 10 минут», "every 10 minutes")."""
    step = schedule_interval(stored)
    if step is None:
        times = format_clock(parse_schedule(stored), lang) if clock else stored
        return t("schedule_daily", lang, times=times)  # "at 21:00" in English
    seconds = int(step.total_seconds())
    if seconds % 3600 == 0:
        return tn("schedule_every_hours", seconds // 3600, lang)
    if seconds % 60 == 0:
        return tn("schedule_every_minutes", seconds // 60, lang)
    return tn("schedule_every_seconds", seconds, lang)


def parse_zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"unknown time zone {name!r} (expected e.g. Europe/Moscow)") from None


def next_deadline(after: datetime, zone: str, schedule: str) -> datetime:
    """The first scheduled instant strictly after ``after`` (aware), in UTC."""
    step = schedule_interval(schedule)
    if step is not None:
        midnight = after.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        periods = (after - midnight) // step + 1
        return midnight + periods * step
    tz = parse_zone(zone)
    times = parse_schedule(schedule)
    local_day = after.astimezone(tz).date()
    for offset in range(3):  # today's times may all be gone; tomorrow's are not
        day = local_day + timedelta(days=offset)
        for clock in times:
            candidate = datetime.combine(day, clock, tzinfo=tz).astimezone(UTC)
            if candidate > after:
                return candidate
    raise AssertionError("unreachable: a daily schedule always has a next time")


class DeadlineScheduler:
    """Resolves due rounds and sends reminders, sleeping until the next thing to do.

    ``tick(now)`` does the work; it is the service's ``run_due``.  The loop
    wakes at the next deadline or reminder, at most ``max_sleep`` seconds
    later (so changes made by another process are noticed), or at once when
    :meth:`wake` is called.
    """

    def __init__(
        self,
        tick: Callable[[datetime], Awaitable[datetime | None]],
        clock: Clock,
        *,
        max_sleep: float = 60.0,
        error_pause: float = 30.0,
    ) -> None:
        self._tick = tick
        self._clock = clock
        self._max_sleep = max_sleep
        self._error_pause = error_pause
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    async def run_once(self) -> float:
        """Do what is due now; returns the seconds to sleep before the next round."""
        now = self._clock.now()
        try:
            upcoming = await self._tick(now)
        except Exception:
            log.exception("deadline scheduler pass failed")
            return self._error_pause
        if upcoming is None:
            return self._max_sleep
        return min(self._max_sleep, max(0.0, (upcoming - self._clock.now()).total_seconds()))

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        while not stop.is_set():
            pause = await self.run_once()
            if self._wake.is_set():  # something changed while we worked: look again
                self._wake.clear()
                continue
            await sleep_or_event(self._clock, pause, self._wake, stop)
            self._wake.clear()
