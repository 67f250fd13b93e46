"""Test doubles for the Telegram adapter's unit tests (the end-to-end tests use the real service)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from bot.service.kernel.api import Inbound, Reply

__all__ = ["RecordingService"]


class RecordingService:
    """Stands in for ``GameService.receive``: records each Inbound and answers "ok".

    ``delays`` makes the message with that text take so many seconds;
    ``fail_on`` makes the message with that text raise after it was stored (a bug
    while working on it); ``unstored`` before (a database that is gone), for the
    first ``unstored_times`` deliveries.
    """

    def __init__(
        self,
        *,
        game_id: int | None = 1,
        delays: Mapping[str, float] | None = None,
        fail_on: frozenset[str] = frozenset(),
        unstored: frozenset[str] = frozenset(),
        unstored_times: int = 1_000_000,
    ) -> None:
        self.unstored = unstored
        self.unstored_left = {text: unstored_times for text in unstored}
        self.game_id = game_id
        self.delays = dict(delays or {})
        self.fail_on = fail_on
        self.started: list[str] = []
        self.received: list[Inbound] = []
        self.running = 0
        self.most_running = 0

    async def receive(
        self, msg: Inbound, *, on_stored: Callable[[], object] | None = None
    ) -> Reply:
        self.started.append(msg.text)
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            if self.unstored_left.get(msg.text, 0) > 0:
                self.unstored_left[msg.text] -= 1
                raise RuntimeError("database is gone")
            if on_stored is not None:
                on_stored()
            if msg.text in self.fail_on:
                raise RuntimeError("database is gone")
            await asyncio.sleep(self.delays.get(msg.text, 0.0))
            self.received.append(msg)
            return Reply("ok", f"ok: {msg.text}", self.game_id)
        finally:
            self.running -= 1
