"""What every part of :class:`~bot.service.GameService` stands on: its state and one transaction per call."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from sqlmodel import Session

from storage.db import Database

from ..inbound import receive as inbound
from ..kernel import audience
from ..kernel.api import Inbound, OutboxItem, Reply
from ..kernel.context import Actor, ServiceError, Tx
from ..kernel.i18n import t
from ..kernel.outcome import Outcome
from ..kernel.ports import Clock, Reporter, SystemClock
from ..kernel.positions import PositionCache
from ..kernel.settings import ServiceSettings
from ..runtime.sharedmarks import SharedMarks
from ..runtime.watermark import Watermarks

T = TypeVar("T")


class ServiceCore:
    """The service's state (given at construction) and its transactions."""

    def __init__(
        self,
        db: Database,
        settings: ServiceSettings | None = None,
        *,
        reporter: Reporter,
        clock: Clock | None = None,
        after_engine: Callable[[int, int], None] | None = None,
        listeners: Sequence[Callable[[], None]] = (),
        couriers: dict[str, Callable[[OutboxItem], None]] | None = None,
        watermarks: Watermarks | None = None,
        shared_marks: SharedMarks | None = None,
        reminding: Callable[[], bool] | None = None,
    ) -> None:
        self.db = db
        self.settings = settings or ServiceSettings()
        self.clock: Clock = clock or SystemClock()
        self.reporter = reporter
        self.after_engine = after_engine
        # Called after an operation that queued messages or may have moved a
        # deadline: the composition root wakes the outbox worker and the scheduler.
        self.listeners: list[Callable[[], None]] = list(listeners)
        # Channel name → who delivers an answer at once (the running outbox worker
        # registers itself in the registry the composition root gives both): the
        # answer to a message is queued already claimed and handed over, instead
        # of waiting for the worker to find it.
        self.couriers: dict[str, Callable[[OutboxItem], None]] = (
            couriers if couriers is not None else {}
        )
        self.positions = PositionCache()
        # This process as the owner of its outbox claims (set by the running worker).
        self.owner: str | None = None
        # How far each channel has been read (the composition root says which
        # channels take messages); a due round waits for them, at most the grace.
        self.watermarks = watermarks or Watermarks(grace=self.settings.deadline_grace)
        self.watermarks.listeners.append(self._changed)
        self.waiting_until: datetime | None = None
        # Several processes on PostgreSQL (bot/app.py gives these): the marks of
        # channels read by another process, and whether this one sends the
        # reminders (a leader's role, bot/service/runtime/leadership.py).
        self.shared_marks = shared_marks
        self.reminding: Callable[[], bool] = reminding or (lambda: True)

    def learn_bot_username(self, username: str) -> None:
        """The Telegram bot's @username, once it is known: invitations link to it."""
        self.settings = replace(self.settings, telegram_bot=username.lstrip("@") or None)

    # ------------------------------------------------------------ plumbing
    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    def _new_tx(self, s: Session, now: datetime | None = None) -> Tx:
        return Tx(
            s, self.settings, now or self.clock.now(), self.reporter, self.after_engine,
            positions=self.positions, owner=self.owner,
        )  # fmt: skip

    def _tx_sync(self, fn: Callable[[Tx], T], now: datetime | None) -> T:
        with self.db.transaction() as s:
            tx = self._new_tx(s, now)
            result = fn(tx)
        self.positions.add(tx.read_positions)  # committed: what it read is true for good
        return result

    async def _tx(self, fn: Callable[[Tx], T], now: datetime | None = None) -> T:
        return await asyncio.to_thread(self._tx_sync, fn, now)

    async def read(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` in a transaction of its own (the web page's questions)."""
        return await self._tx(fn)

    def _actor(self, tx: Tx, by: str) -> Actor:
        channel, _, sender = by.partition(":")
        if by in ("cli", "system"):
            return Actor(identity=by, lang=self.settings.lang)
        msg = Inbound(channel, "", sender, "", b"", tx.now)
        return inbound.identify(tx, msg)

    def _reply(self, tx: Tx, actor: Actor, outcome: Outcome) -> Reply:
        return Reply(
            outcome.status,
            audience.answer_text(outcome, actor.lang),
            outcome.game_id,
            tuple(tx.queued),
            dict(outcome.data),
        )

    async def _gm(self, by: str, op: Callable[[Tx, Actor], Outcome]) -> Reply:
        def run(tx: Tx) -> Reply:
            actor = self._actor(tx, by)
            outcome = op(tx, actor)
            return self._reply(tx, actor, outcome)

        try:
            reply = await self._tx(run)
        except ServiceError as err:
            lang = self.settings.lang
            return Reply(err.status, t(err.key, lang, **err.params))
        self._changed()
        return reply
