"""Test doubles for the Telegram adapter's unit tests (the end-to-end tests use the real service)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from bot.service.api import Inbound, Reply

__all__ = ["RecordingService"]


class RecordingService:
    """Stands in for ``GameService.receive``: records each Inbound and answers "ok".

    ``delays`` makes the message with that text take so many seconds;
    ``fail_on`` makes the message with that text raise, like a broken database.
    """

    def __init__(
        self,
        *,
        game_id: int | None = 1,
        delays: Mapping[str, float] | None = None,
        fail_on: frozenset[str] = frozenset(),
    ) -> None:
        self.game_id = game_id
        self.delays = dict(delays or {})
        self.fail_on = fail_on
        self.started: list[str] = []
        self.received: list[Inbound] = []
        self.running = 0
        self.most_running = 0

    async def receive(self, msg: Inbound) -> Reply:
        self.started.append(msg.text)
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            if msg.text in self.fail_on:
                raise RuntimeError("database is gone")
            await asyncio.sleep(self.delays.get(msg.text, 0.0))
            self.received.append(msg)
            return Reply("ok", f"ok: {msg.text}", self.game_id)
        finally:
            self.running -= 1
