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

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from bot.config import Config
from bot.service.api import Reply

from .channel import TelegramChannel
from .handlers import Receiver
from .pacing import FloodLimits
from .runner import TelegramRunner

__all__ = ["FloodLimits", "LearnsBotName", "TelegramChannel", "TelegramRunner", "build_telegram"]


@runtime_checkable
class LearnsBotName(Protocol):
    """A service that wants the bot's @username (the game service: invitation links)."""

    def learn_bot_username(self, username: str) -> None: ...


def build_telegram(
    config: Config,
    service: Receiver,
    *,
    on_reply: Callable[[Reply], object] | None = None,
) -> tuple[TelegramRunner, TelegramChannel]:
    """The bot (to start and stop) and its outbox channel, from the configuration.
    A service that :class:`LearnsBotName` is told the bot's @username at start."""
    runner = TelegramRunner(
        config.telegram,
        service,
        game_masters=config.game_masters.telegram_ids,
        on_reply=on_reply,
        on_username=service.learn_bot_username if isinstance(service, LearnsBotName) else None,
    )
    return runner, runner.channel
