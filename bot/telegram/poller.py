"""Long polling that confirms an update to Telegram only after it is stored.

Telegram forgets an update once a ``getUpdates`` call names a higher offset.
PTB's own ``Updater`` raises the offset as soon as a batch is queued (and
once more when it stops), so an update fetched but not yet stored when the
process dies is lost.  :class:`UpdatePoller` drives ``getUpdates`` itself:

1. ``getUpdates(offset)`` — long polling, ``limit`` updates at most;
2. every update goes to the application's queue (the handlers run as before)
   and the poller waits until each one is **stored** (the handler tells the
   :class:`UpdateTracker`; an update no handler stores counts once it is done);
3. only then the next call names the offset after the batch.  An update whose
   storing failed keeps the offset at it: the batch is fetched again after a
   backoff (what was stored is recognised as a duplicate).  One that fails
   ``max_attempts`` times while others of its batch were stored is given up
   (logged), so a single poisoned update cannot stop the channel.

A cancelled ``getUpdates`` confirms nothing, so the poller may abandon one at
any time: :meth:`UpdatePoller.refresh` does that to start a fresh call at
once when the deadline watermark asks for it.

**Faults.** A 429 waits its ``retry_after``; a 5xx, a timeout or a dropped
connection waits a backoff (``backoff_initial`` doubling to ``backoff_max``)
and asks again with the same offset, so nothing is lost and nothing is read
twice. 409 Conflict means another process polls with this token (or a
webhook is set): the poller keeps trying, and when conflicts have gone on
for ``conflict_alert_after`` seconds the game masters are told, once per
episode (an episode ends after ``conflict_quiet`` seconds without one; the
other process's polls succeed between ours, so a success does not end it).

**Read until.** A call started at time *T* that returned fewer than ``limit``
updates has returned everything that reached Telegram before *T*; once all of
them are handled (not only stored: their orders are filed), the poller has
read the channel until *T* and says so through ``on_mark`` (the service's
deadline watermark).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from telegram import Update
from telegram.error import Conflict, InvalidToken, RetryAfter, TelegramError

from bot.logging import get_logger
from bot.service.kernel.ports import Clock, SystemClock

__all__ = ["UpdatePoller", "UpdateTracker"]

log = get_logger(__name__)


@dataclass
class _Tracked:
    stored: asyncio.Future[bool]
    handled: asyncio.Future[None]


class UpdateTracker:
    """Which fetched updates are stored (may be confirmed) and handled (filed)."""

    def __init__(self) -> None:
        self._items: dict[int, _Tracked] = {}

    def expect(self, update_id: int) -> _Tracked:
        loop = asyncio.get_running_loop()
        item = _Tracked(loop.create_future(), loop.create_future())
        self._items[update_id] = item
        return item

    def stored(self, update_id: int, ok: bool = True) -> None:
        """The handler stored the update (``ok``), or storing it failed."""
        item = self._items.get(update_id)
        if item is not None and not item.stored.done():
            item.stored.set_result(ok)

    def finished(self, update_id: int) -> None:
        """The update's handlers are done: one nobody stored needed no storing."""
        item = self._items.pop(update_id, None)
        if item is None:
            return
        if not item.stored.done():
            item.stored.set_result(True)
        if not item.handled.done():
            item.handled.set_result(None)

    def forget(self) -> None:
        """Stopping: whatever is still waiting is not confirmed (fetched again later)."""
        for item in self._items.values():
            for fut in (item.stored, item.handled):
                if not fut.done():
                    fut.cancel()
        self._items.clear()


@dataclass
class _Poll:
    started: datetime
    complete: bool  # fewer than ``limit`` updates: everything before ``started`` came
    handled: list[asyncio.Future[None]] = field(default_factory=list)


class UpdatePoller:
    """``getUpdates`` in a loop; run :meth:`run` as a task, cancel it to stop."""

    def __init__(
        self,
        bot: object,
        queue: asyncio.Queue[object],
        tracker: UpdateTracker,
        *,
        allowed_updates: Sequence[str],
        timeout: float = 10.0,
        limit: int = 100,
        clock: Clock | None = None,
        on_mark: Callable[[datetime], object] | None = None,
        on_conflict: Callable[[str], object] | None = None,
        backoff_initial: float = 1.0,
        backoff_max: float = 30.0,
        max_attempts: int = 5,
        conflict_alert_after: float = 60.0,
        conflict_quiet: float = 600.0,
    ) -> None:
        self._bot = bot
        self._queue = queue
        self._tracker = tracker
        self._allowed = list(allowed_updates)
        self._timeout = timeout
        self._limit = limit
        self._clock = clock or SystemClock()
        self._on_mark = on_mark
        self._on_conflict = on_conflict
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._max_attempts = max_attempts
        self._offset: int | None = None
        self._attempts: dict[int, int] = {}
        self._polls: deque[_Poll] = deque()
        self._fetching_since: datetime | None = None
        self._refresh = asyncio.Event()
        self._quick = False
        self._conflict_alert_after = conflict_alert_after
        self._conflict_quiet = conflict_quiet
        self._conflict_since: datetime | None = None  # first 409 of the episode
        self._conflict_last: datetime | None = None
        self._conflict_told = False
        self.read_until: datetime | None = None
        # Counters for tests and logs.
        self.calls = 0
        self.given_up = 0
        self.conflicts = 0
        self.failures = 0  # failed calls of any kind (429, 5xx, timeouts, 409)

    # ------------------------------------------------------------ control
    def refresh(self, after: datetime) -> None:
        """Abandon a ``getUpdates`` started before ``after`` and start a new one now."""
        since = self._fetching_since
        if since is None or since < after:
            self._quick = True  # the next call returns at once: nobody waits a long poll
        if since is not None and since < after:
            self._refresh.set()

    async def run(self) -> None:
        delay = self._backoff_initial
        try:
            while True:
                try:
                    retry = await self.poll_once()
                except InvalidToken:
                    raise
                except RetryAfter as exc:
                    self.failures += 1
                    wait = exc.retry_after
                    seconds = wait if isinstance(wait, int | float) else wait.total_seconds()
                    log.warning("telegram getUpdates: too many requests", retry_after=seconds)
                    await asyncio.sleep(seconds)
                    continue
                except Conflict as exc:
                    self.failures += 1
                    self._conflict(str(exc))
                    retry = True
                except (TelegramError, OSError) as exc:
                    self.failures += 1
                    log.warning("telegram getUpdates failed", error=repr(exc), delay=delay)
                    retry = True
                if retry:
                    await asyncio.sleep(delay * random.uniform(0.9, 1.1))
                    delay = min(self._backoff_max, delay * 2)
                else:
                    delay = self._backoff_initial
                    self._conflict_over()
        finally:
            self._tracker.forget()

    def _conflict(self, error: str) -> None:
        """409: another process polls with this token (or a webhook is set)."""
        now = self._clock.now()
        self.conflicts += 1
        last = self._conflict_last
        if last is None or (now - last).total_seconds() > self._conflict_quiet:
            self._conflict_since, self._conflict_told = now, False
        self._conflict_last = now
        since = self._conflict_since or now
        lasting = (now - since).total_seconds()
        log.warning(
            "telegram getUpdates conflict: another instance is polling", error=error,
            lasting=round(lasting, 1),
        )  # fmt: skip
        if not self._conflict_told and lasting >= self._conflict_alert_after:
            self._conflict_told = True
            log.error("telegram getUpdates conflict persists", error=error, since=since)
            if self._on_conflict is not None:
                self._on_conflict(error)  # once per episode, not every retry

    def _conflict_over(self) -> None:
        last = self._conflict_last
        if last is not None and (self._clock.now() - last).total_seconds() > self._conflict_quiet:
            log.info("telegram getUpdates conflict over", since=self._conflict_since)
            self._conflict_since = self._conflict_last = None
            self._conflict_told = False

    # ------------------------------------------------------------ one call
    async def poll_once(self) -> bool:
        """One ``getUpdates`` and its batch; True when it should be retried after a pause."""
        started = self._clock.now()
        updates = await self._fetch(started)
        if updates is None:  # abandoned by refresh(): nothing confirmed, go again
            return False
        tracked = [self._tracker.expect(u.update_id) for u in updates]
        for update in updates:
            await self._queue.put(update)
        results = [await item.stored for item in tracked]
        failed = [u.update_id for u, ok in zip(updates, results, strict=True) if not ok]
        give_up = self._give_up(failed, stored_any=len(failed) < len(updates))
        blocking = [uid for uid in failed if uid not in give_up]
        if updates:
            first_blocked = min(blocking) if blocking else None
            self._offset = first_blocked if first_blocked is not None else updates[-1].update_id + 1
        if not blocking:
            complete = len(updates) < self._limit
            self._polls.append(_Poll(started, complete, [t.handled for t in tracked]))
            for item in tracked:
                item.handled.add_done_callback(lambda _f: self._advance())
            self._advance()
        return bool(blocking)

    async def _fetch(self, started: datetime) -> list[Update] | None:
        self._refresh.clear()
        self._fetching_since = started
        timeout, self._quick = (0 if self._quick else int(self._timeout)), False
        call = asyncio.ensure_future(
            self._bot.get_updates(  # type: ignore[attr-defined]
                offset=self._offset,
                timeout=timeout,
                limit=self._limit,
                allowed_updates=self._allowed,
            )
        )
        refresh = asyncio.ensure_future(self._refresh.wait())
        try:
            await asyncio.wait({call, refresh}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._fetching_since = None
            refresh.cancel()
            if not call.done():
                call.cancel()
                with contextlib.suppress(asyncio.CancelledError, TelegramError, OSError):
                    await call
        self.calls += 1
        if call.cancelled():
            return None
        updates: list[Update] = list(call.result())
        return updates

    def _give_up(self, failed: list[int], *, stored_any: bool) -> set[int]:
        """Updates that keep failing while others are stored: skipped (logged)."""
        doomed = set()
        for uid in failed:
            self._attempts[uid] = self._attempts.get(uid, 0) + 1
            if stored_any and self._attempts[uid] >= self._max_attempts:
                doomed.add(uid)
                self.given_up += 1
                log.error("telegram update given up: storing it failed", update_id=uid)
                self._attempts.pop(uid, None)
        for uid in list(self._attempts):
            if uid not in failed:
                self._attempts.pop(uid, None)
        return doomed

    def _advance(self) -> None:
        """Move ``read_until`` to the newest complete poll whose updates, and every
        earlier one's, are all handled."""
        moved = None
        while self._polls and all(f.done() for f in self._polls[0].handled):
            poll = self._polls.popleft()
            if poll.complete:
                moved = poll.started
        if moved is not None and (self.read_until is None or moved > self.read_until):
            self.read_until = moved
            if self._on_mark is not None:
                self._on_mark(moved)
