"""The Telegram channel of the judge: players, team groups, the game channel, game masters.

The composition root calls :func:`build_telegram` once, starts the runner
next to its other tasks, and gives the channel to the outbox worker::

    runner, channel = build_telegram(config, service)
    worker = OutboxWorker(service, {"telegram": channel, ...}, clock)
    service.listeners.append(worker.wake)   # answers go out at once
    await runner.start()           # polling (or webhook) in this event loop
    ...                            # worker.run(stop) beside the other tasks
    await runner.stop()

(``bot/app.py`` does exactly this.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from bot.config import Config
from bot.service.kernel.api import Reply
from bot.service.runtime.watermark import Watermarks

from .channel import TelegramChannel
from .handlers import Receiver
from .inbound import CHANNEL
from .pacing import FloodLimits
from .runner import TelegramRunner

__all__ = [
    "FloodLimits", "LearnsBotName", "TelegramChannel", "TelegramRunner", "build_telegram",
    "conflict_alert",
]  # fmt: skip


@runtime_checkable
class LearnsBotName(Protocol):
    """A service that wants the bot's @username (the game service: invitation links)."""

    def learn_bot_username(self, username: str) -> None: ...


@runtime_checkable
class WaitsForChannels(Protocol):
    """A service whose rounds wait for the channels to be read (the deadline watermark)."""

    @property
    def watermarks(self) -> Watermarks: ...

    async def alert_game_masters(
        self, key: str, game_id: int | None = None, **params: object
    ) -> tuple[int, ...]: ...


def build_telegram(
    config: Config,
    service: Receiver,
    *,
    on_reply: Callable[[Reply], object] | None = None,
) -> tuple[TelegramRunner, TelegramChannel]:
    """The bot (to start and stop) and its outbox channel, from the configuration.
    A service that :class:`LearnsBotName` is told the bot's @username at start."""
    marks = service.watermarks if isinstance(service, WaitsForChannels) else None
    web = config.web
    runner = TelegramRunner(
        config.telegram,
        service,
        game_masters=config.game_masters.telegram_ids,
        on_reply=on_reply,
        on_username=service.learn_bot_username if isinstance(service, LearnsBotName) else None,
        on_mark=(lambda until: marks.advance(CHANNEL, until)) if marks is not None else None,
        on_conflict=conflict_alert(service) if isinstance(service, WaitsForChannels) else None,
        clock=getattr(service, "clock", None),
        page_url=f"{web.public_url.rstrip('/')}/app" if web.enabled and web.public_url else None,
    )
    if marks is not None and config.telegram.mode != "webhook":
        marks.expect(CHANNEL, runner.poller.refresh)
    return runner, runner.channel


def conflict_alert(service: WaitsForChannels) -> Callable[[str], object]:
    """409 from getUpdates for a while: another judge polls with this token.
    The poller calls it once per episode (bot/telegram/poller.py)."""
    pending: set[asyncio.Task[object]] = set()  # kept until done: a loose task may vanish

    def alert(error: str) -> None:
        task = asyncio.get_running_loop().create_task(
            service.alert_game_masters("gm_alert_telegram_conflict", error=error)
        )
        pending.add(task)
        task.add_done_callback(pending.discard)

    return alert
