"""Waking the outbox worker as soon as an answer is queued.

The outbox worker sleeps ``idle_sleep`` seconds when it finds nothing to
deliver. An answer to a player should not wait for that: give the worker a
:class:`WakeableClock` and call :meth:`WakeableClock.wake` (the Telegram
runner's ``on_reply`` hook) whenever the service queued something; the
worker's sleep ends at once and it delivers. ::

    clock = WakeableClock(SystemClock())
    worker = OutboxWorker(service, channels, clock)
    runner, channel = build_telegram(config, service, on_reply=lambda reply: clock.wake())
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Protocol

__all__ = ["WakeableClock"]


class _Clock(Protocol):
    def now(self) -> datetime: ...

    async def sleep(self, seconds: float) -> None: ...


class WakeableClock:
    """A clock whose ``sleep`` ends early when somebody calls :meth:`wake`.

    A wake that comes while nobody sleeps is kept for the next ``sleep``, so
    an answer queued while the worker is busy is not left for a whole sleep.
    """

    def __init__(self, inner: _Clock) -> None:
        self._inner = inner
        self._event = asyncio.Event()
        self._pending = False
        self.wakes = 0

    def now(self) -> datetime:
        return self._inner.now()

    def wake(self, *_: object) -> None:
        """End the current sleeps (or the next one); extra arguments are ignored."""
        self.wakes += 1
        self._pending = True
        self._event.set()

    async def sleep(self, seconds: float) -> None:
        if self._pending:
            self._pending = False
            self._event.clear()
            return
        event = self._event
        sleeper = asyncio.ensure_future(self._inner.sleep(seconds))
        waker = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()
        if event.is_set():
            self._pending = False
            event.clear()
