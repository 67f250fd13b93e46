"""The outbox worker's side of the service: claiming, marking, its workers' claims."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from ..kernel.api import DeliveryResult, OutboxItem
from ..kernel.context import Tx
from ..outbox import delivery
from ..runtime import workers
from .core import ServiceCore


class Deliveries(ServiceCore):
    # ------------------------------------------------------------ outbox
    async def pending_outbox(self, channel: str, limit: int = 20) -> list[OutboxItem]:
        """Claim up to ``limit`` due messages of ``channel`` for delivery (see
        :func:`bot.service.outbox.delivery.claim`)."""
        return await self._tx(partial(delivery.claim, channel=channel, limit=limit))

    async def take_over(self, worker_id: str, stale_after: timedelta) -> int:
        """Register this process as an outbox worker and take back the claims of
        workers that are gone (:mod:`bot.service.runtime.workers`); returns how many."""

        def run(tx: Tx) -> int:
            me = workers.register(tx.s, worker_id, tx.now)
            return workers.take_over_dead(tx.s, me, tx.now, stale_after)

        taken = await self._tx(run)
        self.owner = worker_id
        if taken:
            self._changed()
        return taken

    async def worker_seen(self, worker_id: str) -> None:
        await self._tx(lambda tx: workers.seen(tx.s, worker_id, tx.now))

    async def worker_gone(self, worker_id: str) -> None:
        """A clean stop: hand back this worker's claims."""
        if self.owner == worker_id:
            self.owner = None
        await self._tx(lambda tx: workers.release(tx.s, worker_id, tx.now))

    async def mark_sent(self, outbox_id: int) -> bool:
        """Record a delivery; False if it was already recorded (never twice)."""
        return await self._tx(partial(delivery.mark_sent, outbox_id=outbox_id))

    async def mark_part(self, outbox_id: int, part: str) -> bool:
        """Record one part of an item as delivered, in a transaction of its own
        (see :class:`bot.service.kernel.ports.PartLog`)."""
        return await self._tx(partial(delivery.mark_part, outbox_id=outbox_id, part=part))

    async def mark_failed(self, outbox_id: int, result: DeliveryResult) -> str:
        """Schedule a retry, or give up and tell the game masters; returns the new state."""
        return await self._tx(partial(delivery.mark_failed, outbox_id=outbox_id, result=result))
