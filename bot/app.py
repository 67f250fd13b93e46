"""The composition root of ``dragonball serve``.

configuration → database (schema checked) → game service → channels →
tasks: the deadline scheduler, the outbox worker, and the channels that are
switched on (Telegram polling or webhook, IMAP reading).  The channel
adapters are imported only when enabled, so a judge without them still runs.

Several processes may serve one PostgreSQL database: the parts only one may
run at a time (a :class:`Part` with a ``role``: the Telegram poll, a
mailbox's reader, the reminders) run while this process leads that role
(:mod:`bot.service.runtime.leadership`).  On SQLite ``serve`` is one process, and a
second one on the same file refuses to start.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import signal
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

from bot.config import Config
from bot.logging import get_logger
from bot.service import (
    Channel,
    Clock,
    DeadlineScheduler,
    GameService,
    OutboxWorker,
    RenderReporter,
    ServiceSettings,
    SystemClock,
)
from bot.service.kernel.api import OutboxItem
from bot.service.runtime.leadership import Leadership, OnlyOneProcess, hold_sqlite
from bot.service.runtime.sharedmarks import SharedMarks
from bot.service.runtime.watermark import Watermarks
from bot.service.runtime.workers import new_worker_id
from storage.db import Database
from storage.schema import check_schema

__all__ = ["App", "AppError", "Part", "build_app", "catch_up", "serve"]

log = get_logger(__name__)


class AppError(RuntimeError):
    """The service cannot start as configured; the message says why."""


@dataclass(frozen=True)
class Part:
    """A channel's moving parts: started before serving, run as a task, stopped after."""

    name: str
    start: Callable[[], Coroutine[Any, Any, Any]] | None = None
    run: Callable[[], Coroutine[Any, Any, Any]] | None = None
    stop: Callable[[], Coroutine[Any, Any, Any]] | None = None
    # Only one process at a time may run it (PostgreSQL, several processes).
    role: str | None = None


@dataclass
class App:
    """The wired judge, not yet running."""

    config: Config
    db: Database
    service: GameService
    channels: dict[str, Channel]
    scheduler: DeadlineScheduler
    worker: OutboxWorker
    parts: list[Part] = field(default_factory=list)
    leadership: Leadership | None = None  # PostgreSQL: the roles' leader election


def _adapter(module: str, what: str) -> Any:
    """Import an adapter module, or explain which part of the judge is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise AppError(
            f"{what} is enabled in the configuration, but {module} cannot be loaded: {exc}"
        ) from exc


def build_app(config: Config, *, clock: Clock | None = None) -> App:
    """Wire everything up without starting anything; raises ``SchemaOutOfDate``
    (a :class:`~storage.db.DatabaseError`) on a database not at the newest schema."""
    clock = clock or SystemClock()
    db = Database(config.database.url)
    try:
        check_schema(db)
    except Exception:
        db.dispose()
        raise
    settings = ServiceSettings.from_config(config)
    # Built first and given to all that use them: nothing is set on an object
    # after it is built. PostgreSQL: several processes, with leaders for the roles,
    # the reminders one of them, and the channel marks of readers elsewhere.
    watermarks = Watermarks(grace=settings.deadline_grace)
    couriers: dict[str, Callable[[OutboxItem], None]] = {}
    worker_id = new_worker_id()
    leadership = shared_marks = None
    if not db.is_sqlite:
        leadership = Leadership(
            config.database.url, schema=db.schema,
            interval=config.database.leader_interval_seconds,
        )  # fmt: skip
        shared_marks = SharedMarks(
            db, watermarks, worker_id,
            recheck=timedelta(seconds=config.database.leader_interval_seconds),
        )  # fmt: skip

    def changed() -> None:
        # Something was queued or a deadline moved: wake the scheduler and the
        # worker (built below, from the service).
        scheduler.wake()
        worker.wake()

    service = GameService(
        db, settings, reporter=RenderReporter(), clock=clock, listeners=(changed,),
        couriers=couriers, watermarks=watermarks, shared_marks=shared_marks,
        reminding=partial(leadership.holds, "reminders") if leadership is not None else None,
    )  # fmt: skip
    channels: dict[str, Channel] = {}
    parts: list[Part] = []
    if config.telegram.enabled:
        telegram = _adapter("bot.telegram", "telegram")
        runner, channel = telegram.build_telegram(config, service)
        channels["telegram"] = channel
        if config.telegram.mode == "webhook":  # every process takes what it is sent
            parts.append(Part("telegram", start=runner.start, stop=runner.stop))
        else:
            parts.append(
                Part(
                    "telegram", start=partial(runner.start, poll=False), run=runner.poll,
                    stop=runner.stop, role="telegram",
                )
            )  # fmt: skip
    if config.smtp.enabled:
        email = _adapter("bot.mail.smtp", "smtp").EmailChannel(config.smtp)
        channels["email"] = email
        parts.append(Part("smtp", stop=email.close))
    if config.imap.enabled:
        imap = _adapter("bot.mail.imap", "imap")
        mail = _adapter("bot.mail.adapter", "imap")
        adapter = mail.MailAdapter(service, mail.MailPolicy.from_config(config.mail))
        reader = imap.ImapInbound(
            config.imap, adapter.handle, max_message_bytes=config.mail.max_message_bytes,
            on_mark=lambda until: watermarks.advance("email", until), now=clock.now,
            kept=adapter.kept_copy,
        )  # fmt: skip
        watermarks.expect("email", reader.refresh)
        imap_config = config.imap
        mailbox = f"imap:{imap_config.username}@{imap_config.host}:{imap_config.port}/{imap_config.mailbox}"
        parts.append(Part("imap", run=reader.run, stop=reader.close, role=mailbox))
    if config.web.enabled:
        parts.append(_adapter("bot.web", "web").web_part(config, service))
    scheduler = DeadlineScheduler(service.run_due, clock)
    worker = OutboxWorker(service, channels, clock, worker_id=worker_id, couriers=couriers)
    if leadership is not None:

        def took(_role: str, held: bool) -> None:
            if held:  # a new leader: whatever is due (a reminder) is looked at now
                scheduler.wake()

        leadership.listeners.append(took)
        # The reminders' role has no loop of its own: the scheduler asks whether it is held.
        parts.append(Part("reminders", run=_forever, role="reminders"))
    return App(config, db, service, channels, scheduler, worker, parts, leadership)


async def _forever() -> None:
    """The reminders' role has no loop of its own: the scheduler asks whether it is held."""
    await asyncio.Event().wait()


async def catch_up(app: App) -> None:
    """Before the channels and the deadlines start: take back the outbox claims of
    judge processes that are gone, and work on messages they stored but never
    worked on.  Overdue rounds wait for the channels' backlog (the watermark
    counts from now), so every order that reached us in time counts."""
    service = app.service
    service.watermarks.started_at = service.clock.now()
    taken = await app.worker.take_over()
    recovered = await service.recover()
    if taken or recovered:
        log.info("caught up after a restart", outbox_claims=taken, messages=recovered)


async def serve(app: App, stop: asyncio.Event | None = None) -> None:
    """Run until ``stop`` is set, SIGINT/SIGTERM arrives or a task fails."""
    stop = stop or asyncio.Event()
    only = contextlib.ExitStack()
    if app.db.is_sqlite:
        try:
            only.enter_context(hold_sqlite(app.db.url))
        except OnlyOneProcess as exc:
            app.db.dispose()
            raise AppError(str(exc)) from None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    started: list[Part] = []
    tasks: list[asyncio.Task[Any]] = []
    try:
        await catch_up(app)
        for part in app.parts:
            if part.start is not None:
                await part.start()
            started.append(part)
        tasks = [
            asyncio.create_task(app.scheduler.run(stop), name="deadlines"),
            asyncio.create_task(app.worker.run(stop), name="outbox"),
        ]
        tasks += [asyncio.create_task(_run(app, p), name=p.name) for p in app.parts if p.run]
        log.info("judge serving", channels=sorted(app.channels), database=app.db.display_url)
        stopped = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait([stopped, *tasks], return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        for task in done:
            if task is not stopped and not stop.is_set():
                raise AppError(f"the {task.get_name()} task ended: {task.exception()!r}")
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for part in reversed(started):
            if part.stop is not None:
                try:
                    await part.stop()
                except Exception:
                    log.exception("stopping a channel failed", part=part.name)
        app.db.dispose()
        only.close()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        log.info("judge stopped")


def _run(app: App, part: Part) -> Coroutine[Any, Any, Any]:
    """A part's task: its loop, or, for a role, its loop while this process leads."""
    assert part.run is not None
    if part.role is None or app.leadership is None:
        return part.run()
    return app.leadership.lead(part.role, part.run)
