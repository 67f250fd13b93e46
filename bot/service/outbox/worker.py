"""The outbox worker: delivers queued messages through the channels.

Guarantee: at least once, and never again once marked sent.  An item is
claimed in a transaction (one more attempt, hidden for the lease), handed to
its channel, then marked sent or failed.  If the process dies between the
delivery and the mark, the lease runs out and the item is delivered again;
channels that can deduplicate use ``OutboxItem.idempotency_key``.  Failures
are retried with exponential backoff (or the channel's ``retry_after``);
after ``outbox_max_attempts`` or a permanent failure the item is given up and
the game masters are told.

An item a channel sends in several requests (a long text, an album) has each
part the server accepted recorded on its row before the next is sent (the
channel's :class:`~bot.service.kernel.ports.PartLog`): a retry sends only the parts
not recorded, so a kill mid-delivery sends again at most the part in flight.

While it runs, the worker is the service's courier for its channels: the
answer to an inbound message is queued already claimed and handed to
:meth:`OutboxWorker.hand_over` as soon as its transaction commits, so it goes
out at once (paced by the channel) instead of at the next pass of the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from datetime import timedelta

from bot.logging import get_logger

from ..kernel.api import DeliveryResult, OutboxItem
from ..kernel.ports import Channel, Clock, OutboxStore, sleep_or_event
from ..runtime.workers import new_worker_id

__all__ = ["OutboxWorker"]

log = get_logger(__name__)


class OutboxWorker:
    def __init__(
        self,
        service: OutboxStore,
        channels: Mapping[str, Channel],
        clock: Clock,
        *,
        batch: int = 20,
        idle_sleep: float = 2.0,
        heartbeat: float = 30.0,
        worker_id: str | None = None,
        couriers: dict[str, Callable[[OutboxItem], None]] | None = None,
    ) -> None:
        self.service = service
        # Where the running worker offers itself as the courier of its channels:
        # the registry the composition root gave the service too.
        self.couriers = couriers if couriers is not None else service.couriers
        self.channels = dict(channels)
        self.clock = clock
        self.batch = batch
        self.idle_sleep = idle_sleep
        self._wake = asyncio.Event()
        self._express: set[asyncio.Task[None]] = set()
        self.worker_id = worker_id or new_worker_id()
        self.heartbeat = heartbeat
        self._registered = False

    async def take_over(self) -> int:
        """Register, and take back the claims of judge processes that are gone
        (a worker silent for three heartbeats counts as gone)."""
        taken = await self.service.take_over(self.worker_id, timedelta(seconds=3 * self.heartbeat))
        self._registered = True
        return taken

    async def _beat(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            # Real time, not the service's clock: it says the process is alive.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.heartbeat)
            if stop.is_set():
                return
            try:
                # Also the claims of a worker gone meanwhile (several processes on one
                # database: one was killed): taken back now, not when their lease ends.
                await self.service.take_over(self.worker_id, timedelta(seconds=3 * self.heartbeat))
            except Exception:
                log.exception("outbox worker heartbeat failed")

    def wake(self) -> None:
        """Something was queued: stop idling (hook it to ``GameService.listeners``)."""
        self._wake.set()

    def hand_over(self, item: OutboxItem) -> None:
        """Deliver an item the service has already claimed, at once, beside the loop."""
        channel = self.channels.get(item.channel)
        if channel is None:  # not ours: its lease runs out and it is delivered then
            return
        task = asyncio.create_task(self._deliver_express(channel, item))
        self._express.add(task)
        task.add_done_callback(self._express.discard)

    async def _deliver_express(self, channel: Channel, item: OutboxItem) -> None:
        try:
            result = await self.deliver_one(channel, item)
        except Exception:  # marking failed: the lease runs out and the loop retries
            log.exception("express delivery failed", channel=channel.name, outbox_id=item.id)
            return
        _batch_line(channel.name, [result], express=True)

    async def deliver_one(self, channel: Channel, item: OutboxItem) -> DeliveryResult:
        try:
            result = await channel.deliver(item, _RowParts(self.service, item.id))
        except Exception as exc:  # an adapter bug is a failed attempt, not a dead worker
            log.exception("channel failed to deliver", channel=channel.name, outbox_id=item.id)
            result = DeliveryResult(ok=False, reason=f"{type(exc).__name__}: {exc}")
        if result.ok:
            await self.service.mark_sent(item.id)
        else:
            state = await self.service.mark_failed(item.id, result)
            log.warning(
                "delivery failed",
                channel=channel.name,
                outbox_id=item.id,
                attempts=item.attempts,
                reason=result.reason,
                state=state,
            )
        return result

    async def drain(self, name: str) -> int:
        """Deliver what is due now on one channel; returns how many were tried."""
        channel = self.channels[name]
        tried = 0
        while True:
            items = await self.service.pending_outbox(name, self.batch)
            if not items:
                return tried
            results = await self._deliver_batch(channel, items)
            tried += len(results)
            _batch_line(name, results)

    async def _deliver_batch(
        self, channel: Channel, items: list[OutboxItem]
    ) -> list[DeliveryResult]:
        """Each destination's items in order, the destinations side by side: one
        chat waiting for its pacing (Telegram: about a message a second) holds
        no other, so a backlog goes out at the sum of the chats' rates."""
        queues: dict[str, list[OutboxItem]] = {}
        for item in items:
            queues.setdefault(item.destination, []).append(item)

        async def in_order(queue: list[OutboxItem]) -> list[DeliveryResult]:
            return [await self.deliver_one(channel, item) for item in queue]

        done = await asyncio.gather(*(in_order(q) for q in queues.values()), return_exceptions=True)
        for outcome in done:  # marking failed: raised once every destination is done
            if isinstance(outcome, BaseException):
                raise outcome
        return [r for outcome in done if not isinstance(outcome, BaseException) for r in outcome]

    async def run_channel(self, name: str, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                tried = await self.drain(name)
            except Exception:
                log.exception("outbox pass failed", channel=name)
                tried = 0
            if not tried and not self._wake.is_set():
                await sleep_or_event(self.clock, self.idle_sleep, self._wake, stop)
            self._wake.clear()

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """One delivery loop per channel until ``stop`` is set."""
        stop = stop or asyncio.Event()
        if not self.channels:  # nothing to deliver through: messages wait in the outbox
            log.warning("no channel configured: the outbox is not delivered")
            await stop.wait()
            return
        if not self._registered:
            await self.take_over()
        couriers = self.couriers
        for name in self.channels:
            couriers[name] = self.hand_over
        beat = asyncio.create_task(self._beat(stop))
        try:
            await asyncio.gather(*(self.run_channel(name, stop) for name in self.channels))
        finally:
            for name in self.channels:
                if couriers.get(name) == self.hand_over:
                    del couriers[name]
            await self._finish_express()
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
            with contextlib.suppress(Exception):
                await self.service.worker_gone(self.worker_id)
            self._registered = False

    async def _finish_express(self, grace: float = 2.0) -> None:
        """Let answers in flight arrive; cut the rest short (their lease brings them back)."""
        pending = set(self._express)
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)


class _RowParts:
    """The worker's :class:`~bot.service.kernel.ports.PartLog`: each part on the item's
    outbox row, in a transaction of its own."""

    def __init__(self, service: OutboxStore, outbox_id: int) -> None:
        self.service = service
        self.outbox_id = outbox_id

    async def sent(self, part: str) -> None:
        await self.service.mark_part(self.outbox_id, part)


def _batch_line(channel: str, results: list[DeliveryResult], *, express: bool = False) -> None:
    """One INFO line per delivery batch: how many went out, how many failed
    (each failure has its own WARNING line with the reason)."""
    sent = sum(1 for r in results if r.ok)
    log.info(
        "outbox batch delivered",
        channel=channel,
        sent=sent,
        failed=len(results) - sent,
        express=express,
    )
