"""Running the bot inside the service's own event loop.

:class:`TelegramRunner` builds the PTB ``Application`` from the configuration
(token, optional local Bot API server, our pacing and our ordered update
processor) and runs it as one task among the service's others: ``start()``
initializes it, registers the command menus, starts it and starts long
polling (or the webhook server when ``telegram.mode = "webhook"``);
``stop()`` undoes all that. ``run_polling`` is not used: it would own the
process and its signals, and PTB's ``Updater`` confirms updates to Telegram
before they are stored; long polling is :class:`~bot.telegram.poller.UpdatePoller`
(an update is confirmed only once stored).

The bot token never reaches a log: the URLs httpx and PTB log carry it, so a
filter scrubs it from their records for as long as the runner runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
from collections.abc import Callable, Sequence
from datetime import datetime
from urllib.parse import urlsplit

from telegram import Update
from telegram.ext import Application, ApplicationBuilder, ExtBot

from bot.config import TelegramConfig
from bot.logging import REDACTED, get_logger
from bot.service.kernel.api import Reply
from bot.service.kernel.ports import Clock

from .channel import Diagrams, TelegramChannel
from .commands import register_commands, register_menu_button
from .handlers import Receiver, UpdateHandlers
from .ordering import GameIndex, OrderedUpdateProcessor
from .pacing import FloodLimits, FloodPacer
from .poller import UpdatePoller, UpdateTracker

__all__ = [
    "ALLOWED_UPDATES", "TelegramRunner", "TokenFilter", "file_url_for", "webhook_secret",
]  # fmt: skip

log = get_logger(__name__)

# Opt in to PTB's timedelta time periods; without it PTB 22 warns on every 429.
os.environ.setdefault("PTB_TIMEDELTA", "1")

ALLOWED_UPDATES = ("message", "edited_message", "my_chat_member")
_LOGGER_PREFIXES = ("telegram", "httpx", "httpcore", "tornado", "apscheduler")


class TokenFilter(logging.Filter):
    """Replaces the token in a record's message (and traceback) before any handler sees it."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            text = str(record.msg)
        if self.token in text:
            record.msg = text.replace(self.token, REDACTED)
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            formatted = logging.Formatter().formatException(record.exc_info)
            if self.token in formatted:
                record.exc_text = formatted.replace(self.token, REDACTED)
                record.exc_info = None
        return True

    def attach(self) -> list[logging.Logger]:
        """Attach to every logger of the libraries that may print URLs."""
        loggers = [
            logging.getLogger(name)
            for name in [*logging.root.manager.loggerDict, *_LOGGER_PREFIXES]
            if name.split(".")[0] in _LOGGER_PREFIXES
        ]
        for logger in loggers:
            logger.addFilter(self)
        return loggers


def webhook_secret(token: str) -> str:
    """The webhook's secret token, derived from the bot token (so every process
    has the same one, and it says nothing about the token)."""
    return hmac.new(token.encode(), b"dragonball webhook", hashlib.sha256).hexdigest()


def file_url_for(base_url: str) -> str | None:
    """The file URL of a local Bot API server given as ``http://host:port/bot``."""
    stripped = base_url.rstrip("/")
    if stripped.endswith("/bot"):
        return stripped[: -len("/bot")] + "/file/bot"
    return None


class TelegramRunner:
    """The bot as a start/stop-able part of the service."""

    def __init__(
        self,
        config: TelegramConfig,
        service: Receiver,
        *,
        game_masters: Sequence[int] = (),
        limits: FloodLimits | None = None,
        max_concurrent_updates: int = 32,
        poll_timeout: float = 10.0,
        diagrams: Diagrams = "album",
        on_reply: Callable[[Reply], object] | None = None,
        on_username: Callable[[str], object] | None = None,
        on_mark: Callable[[datetime], object] | None = None,
        on_conflict: Callable[[str], object] | None = None,
        clock: Clock | None = None,
        read_timeout: float = 5.0,
        poll_read_timeout: float = 5.0,
        poll_backoff: tuple[float, float] = (1.0, 30.0),
        conflict_alert_after: float = 60.0,
        page_url: str | None = None,
    ) -> None:
        if config.token is None or not config.token.get_secret_value().strip():
            raise ValueError("telegram.token is required to run the bot")
        self.config = config
        self._token = config.token.get_secret_value().strip()
        self.game_masters = tuple(game_masters)
        self.page_url = page_url  # the ordering page (Mini App), when served
        self.poll_timeout = poll_timeout
        # Told the bot's @username once getMe gave it (the service's invitation links).
        self.on_username = on_username
        # Before the Bot exists: it logs its URLs (token inside) when it is built.
        self._filter = TokenFilter(self._token)
        self._filtered = self._filter.attach()
        self.index = GameIndex()
        self.pacer = FloodPacer(limits)
        self.tracker = UpdateTracker()
        self.processor = OrderedUpdateProcessor(
            self.index.update_keys,
            max_concurrent_updates,
            on_done=lambda u: self.tracker.finished(u.update_id) if isinstance(u, Update) else None,
        )
        builder = (
            ApplicationBuilder()
            .token(self._token)
            .rate_limiter(self.pacer)
            .update_queue(self.processor.queue)
            .concurrent_updates(self.processor)
            .job_queue(None)
            # How long an answer may take (PTB's default, 5 s): past it the request
            # counts as failed (a message may still have gone: docs/telegram.md §8);
            # getUpdates waits its long poll on top of poll_read_timeout.
            .read_timeout(read_timeout)
            .get_updates_read_timeout(poll_read_timeout)
        )
        if config.mode != "webhook":
            builder = builder.updater(None)  # our poller, not PTB's (see the module doc)
        if config.base_url:
            builder = builder.base_url(config.base_url)
            file_url = file_url_for(config.base_url)
            if file_url is not None:
                builder = builder.base_file_url(file_url)
        self.application: Application = builder.build()  # type: ignore[type-arg]
        self.handlers = UpdateHandlers(service, self.index, on_reply=on_reply, tracker=self.tracker)
        self.handlers.install(self.application)
        self.channel = TelegramChannel(self.application.bot, diagrams=diagrams)
        # The same in every judge process behind a load balancer: each one sets
        # the webhook at start, and Telegram keeps only the last secret.
        self._webhook_secret = webhook_secret(self._token)
        self.poller = UpdatePoller(
            self.application.bot,
            self.application.update_queue,
            self.tracker,
            allowed_updates=ALLOWED_UPDATES,
            timeout=poll_timeout,
            clock=clock,
            on_mark=on_mark,
            on_conflict=on_conflict,
            backoff_initial=poll_backoff[0],
            backoff_max=poll_backoff[1],
            conflict_alert_after=conflict_alert_after,
        )
        self._polling: asyncio.Task[None] | None = None

    @property
    def bot(self) -> ExtBot:  # type: ignore[type-arg]
        bot: ExtBot = self.application.bot  # type: ignore[type-arg]
        return bot

    @property
    def username(self) -> str | None:
        """The bot's @username (known once started), for t.me invitation links."""
        try:
            name: str = self.application.bot.username
        except RuntimeError:  # not initialized yet
            return None
        return name

    @property
    def running(self) -> bool:
        return self.application.running

    async def start(self, *, poll: bool = True) -> None:
        """Start the bot; in polling mode also the long poll, unless ``poll`` is
        False (the composition root runs :meth:`poll` while this process leads
        the ``telegram`` role, bot/service/runtime/leadership.py)."""
        self._filtered = self._filter.attach()  # loggers created since __init__ too
        await self.application.initialize()
        if self.on_username is not None and self.username:
            self.on_username(self.username)
        try:
            await register_commands(self.application.bot, self.game_masters)
            await register_menu_button(self.application.bot, self.page_url)
            await self.application.start()
            if self.config.mode == "webhook":
                updater = self.application.updater
                assert updater is not None and self.config.webhook_url is not None
                await updater.start_webhook(
                    listen=self.config.webhook_listen,
                    port=self.config.webhook_port,
                    url_path=urlsplit(self.config.webhook_url).path.lstrip("/"),
                    webhook_url=self.config.webhook_url,
                    secret_token=self._webhook_secret,
                    allowed_updates=list(ALLOWED_UPDATES),
                )
            else:
                await self.bot.delete_webhook()  # getUpdates answers 409 while one is set
                if poll:
                    self._polling = asyncio.create_task(self.poll(), name="telegram-polling")
        except BaseException:
            await self.stop()
            raise
        log.info("telegram bot started", username=self.username, mode=self.config.mode)

    async def poll(self) -> None:
        """Long polling until cancelled (one process at a time: the leader's work)."""
        try:
            await self.poller.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("telegram polling stopped")
            raise

    async def stop(self) -> None:
        polling, self._polling = self._polling, None
        if polling is not None:
            polling.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await polling
        application = self.application
        updater = application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if application.running:
            await application.stop()
        await application.shutdown()
        for logger in self._filtered:
            logger.removeFilter(self._filter)
        self._filtered = []
        log.info("telegram bot stopped")
