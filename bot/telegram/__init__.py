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

from bot.config import Config
from bot.service.api import Reply

from .channel import TelegramChannel
from .handlers import Receiver
from .pacing import FloodLimits
from .runner import TelegramRunner

__all__ = ["FloodLimits", "TelegramChannel", "TelegramRunner", "build_telegram"]


def build_telegram(
    config: Config,
    service: Receiver,
    *,
    on_reply: Callable[[Reply], object] | None = None,
) -> tuple[TelegramRunner, TelegramChannel]:
    """The bot (to start and stop) and its outbox channel, from the configuration."""
    runner = TelegramRunner(
        config.telegram,
        service,
        game_masters=config.game_masters.telegram_ids,
        on_reply=on_reply,
    )
    return runner, runner.channel
