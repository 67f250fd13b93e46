"""The deadline watermark: how far each inbound channel has been read.

A round is resolved only when every channel that takes messages has read
everything that reached it before the deadline: the Telegram poller has
completed (and handled) a ``getUpdates`` started after it, the mail reader a
mailbox search started after it (IDLE alone proves nothing).  The readers say
how far they got with :meth:`Watermarks.advance`; the resolver asks
:meth:`Watermarks.lagging` and, while a channel lags, asks it to look again
(:meth:`Watermarks.ask`) and waits — at most ``grace`` after the deadline, or
after this process started when that was later (a judge restarted after a
long outage first reads its backlog).  Past the grace the round is resolved
anyway and the game masters are told which channel lagged.

``margin`` covers the difference between the channel's clock (the message's
time stamp) and ours: a channel counts as read until ``deadline + margin``.
The marks live in this process, beside the readers that set them; with
several judge processes on PostgreSQL the reader of a channel runs in one of
them (:mod:`bot.service.runtime.leadership`), which publishes its marks through
``publishers`` and the others :meth:`Watermarks.merge` them
(:mod:`bot.service.runtime.sharedmarks`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.logging import get_logger

__all__ = ["Watermarks"]

log = get_logger(__name__)


class Watermarks:
    """Per channel: everything that reached it before ``read_until`` is worked on."""

    def __init__(
        self,
        *,
        grace: timedelta = timedelta(minutes=2),
        margin: timedelta = timedelta(seconds=1),
        started_at: datetime | None = None,
    ) -> None:
        self.grace = grace
        self.margin = margin
        self.started_at = started_at
        self._marks: dict[str, datetime | None] = {}
        self._refresh: dict[str, Callable[[datetime], object]] = {}
        self._wanted: datetime | None = None
        # Called when a mark reaches a time the resolver waits for (it wakes the scheduler).
        self.listeners: list[Callable[[], None]] = []
        # Told (channel, until) when a reader of this process moves a mark.
        self.publishers: list[Callable[[str, datetime], None]] = []

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(self._marks)

    def expect(
        self, channel: str, refresh: Callable[[datetime], object] | None = None, *,
        started_at: datetime | None = None,
    ) -> None:  # fmt: skip
        """``channel`` takes messages: rounds wait for it; ``refresh(t)`` asks its
        reader to look again now if it last looked before ``t``."""
        self._marks.setdefault(channel, None)
        if refresh is not None:
            self._refresh[channel] = refresh
        if started_at is not None and self.started_at is None:
            self.started_at = started_at

    def advance(self, channel: str, until: datetime) -> None:
        """The reader of ``channel`` has worked on everything that reached it before ``until``."""
        if self._move(channel, until):
            for publish in self.publishers:
                publish(channel, until)

    def merge(self, channel: str, until: datetime) -> None:
        """Another process's reader of ``channel`` has read it until ``until``."""
        self._move(channel, until)

    def _move(self, channel: str, until: datetime) -> bool:
        if channel not in self._marks:
            return False
        current = self._marks[channel]
        if current is not None and until <= current:
            return False
        self._marks[channel] = until
        wanted = self._wanted
        if wanted is not None and until >= wanted:
            self._wanted = None
            for listener in self.listeners:
                listener()
        return True

    def read_until(self, channel: str) -> datetime | None:
        return self._marks.get(channel)

    def lagging(self, deadline: datetime) -> list[str]:
        """Channels not yet read until ``deadline`` (plus the margin)."""
        need = deadline + self.margin
        return [c for c, mark in self._marks.items() if mark is None or mark < need]

    def give_up_at(self, deadline: datetime) -> datetime:
        """When a round with this deadline is resolved even though a channel lags."""
        base = deadline if self.started_at is None else max(deadline, self.started_at)
        return base + self.grace

    def ask(self, channels: list[str], deadline: datetime) -> None:
        """The resolver waits for ``channels`` to be read until ``deadline``."""
        need = deadline + self.margin
        self._wanted = need if self._wanted is None else min(self._wanted, need)
        for channel in channels:
            refresh = self._refresh.get(channel)
            if refresh is not None:
                try:
                    refresh(need)
                except Exception:  # a reader's trouble must not stop the resolver
                    log.exception("asking a channel to read again failed", channel=channel)
