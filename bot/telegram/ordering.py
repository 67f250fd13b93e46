"""Updates of one game are processed one at a time, in the order they arrived.

The application takes updates from its queue one by one, in arrival order,
and runs each in its own task. :class:`OrderedUpdateQueue` takes a ticket for
the update's keys (its sender, its chat and, once known, its game) as the
update leaves the queue, so tickets are taken in arrival order;
:class:`OrderedUpdateProcessor` then lets an update run once every earlier
update sharing one of its keys is done. Updates of different games
still run side by side (up to ``max_concurrent_updates``).

The game of a sender or chat is learned from the service's replies
(:class:`GameIndex`); a sender's first message is ordered by sender and chat.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

__all__ = [
    "GameIndex",
    "KeyedSequencer",
    "OrderedUpdateProcessor",
    "OrderedUpdateQueue",
    "Ticket",
]

_MAX_REMEMBERED = 100_000
_PTB_SLOTS = 4096


class Ticket:
    """A place in line for some keys; ``async with`` waits for the turn, then holds it."""

    __slots__ = ("_before", "_done", "_keys", "_owner")

    def __init__(
        self,
        owner: KeyedSequencer,
        keys: tuple[str, ...],
        before: tuple[asyncio.Future[None], ...],
        done: asyncio.Future[None],
    ) -> None:
        self._owner = owner
        self._keys = keys
        self._before = before
        self._done = done

    async def __aenter__(self) -> Ticket:
        try:
            for earlier in self._before:
                # shield: being cancelled here must not cancel the earlier update's marker.
                await asyncio.shield(earlier)
        except BaseException:
            self.release()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        if not self._done.done():
            self._done.set_result(None)
        self._owner._forget(self._keys, self._done)


class KeyedSequencer:
    """FIFO order among jobs that share any key; no order among the others."""

    def __init__(self) -> None:
        self._tails: dict[str, asyncio.Future[None]] = {}

    def ticket(self, keys: Iterable[str]) -> Ticket:
        """Take a place in line now (synchronously: the call order is the order kept)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        unique = tuple(dict.fromkeys(keys))
        before: dict[int, asyncio.Future[None]] = {}
        for key in unique:
            tail = self._tails.get(key)
            if tail is not None and not tail.done():
                before[id(tail)] = tail
            self._tails[key] = done
        return Ticket(self, unique, tuple(before.values()), done)

    def _forget(self, keys: tuple[str, ...], done: asyncio.Future[None]) -> None:
        for key in keys:
            if self._tails.get(key) is done:
                del self._tails[key]

    @property
    def busy_keys(self) -> int:
        """Keys with a job in line or running (0 when idle)."""
        return len(self._tails)


class GameIndex:
    """Which game a Telegram user or chat last wrote about (learned from replies)."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, int] = OrderedDict()

    def learn(self, user_id: int | None, chat_id: int | None, game_id: int | None) -> None:
        if game_id is None:
            return
        for key in (f"u:{user_id}" if user_id else None, f"c:{chat_id}" if chat_id else None):
            if key is not None:
                self._games[key] = game_id
                self._games.move_to_end(key)
        while len(self._games) > _MAX_REMEMBERED:
            self._games.popitem(last=False)

    def keys(self, user_id: int | None, chat_id: int | None) -> list[str]:
        """Sequencing keys of an update from ``user_id`` in ``chat_id``."""
        keys = []
        for key in (f"u:{user_id}" if user_id else None, f"c:{chat_id}" if chat_id else None):
            if key is not None:
                keys.append(key)
                game = self._games.get(key)
                if game is not None:
                    keys.append(f"g:{game}")
        return keys or ["other"]

    def update_keys(self, update: object) -> list[str]:
        if not isinstance(update, Update):
            return ["other"]
        user = update.effective_user
        chat = update.effective_chat
        return self.keys(user.id if user else None, chat.id if chat else None)


class OrderedUpdateQueue(asyncio.Queue[object]):
    """PTB's update queue that takes each update's ticket as the application dequeues it.

    The application reads this queue from one task, strictly in arrival order,
    so tickets are taken in that order however the update tasks are scheduled.
    """

    def __init__(self, processor: OrderedUpdateProcessor) -> None:
        super().__init__()
        self._processor = processor

    def get_nowait(self) -> object:
        item = super().get_nowait()  # asyncio.Queue.get() ends here too
        self._processor.admit(item)
        return item


class OrderedUpdateProcessor(BaseUpdateProcessor):
    """PTB update processor: concurrent across keys, in arrival order within a key.

    Give the application both this processor and :attr:`queue`
    (``ApplicationBuilder().update_queue(p.queue).concurrent_updates(p)``).
    """

    def __init__(
        self,
        key_of: Callable[[object], Iterable[str]],
        max_concurrent_updates: int = 32,
        *,
        on_done: Callable[[object], object] | None = None,
    ) -> None:
        # PTB's own limit is taken before our turn comes: keep it out of the way and
        # limit only the updates whose turn it is (else waiters could hold every slot).
        super().__init__(_PTB_SLOTS)
        self._key_of = key_of
        self._sequencer = KeyedSequencer()
        self._slots = asyncio.Semaphore(max_concurrent_updates)
        self._admitted: dict[int, tuple[object, Ticket]] = {}
        self._on_done = on_done  # the poller's tracker: this update is handled
        self.queue = OrderedUpdateQueue(self)

    @property
    def sequencer(self) -> KeyedSequencer:
        return self._sequencer

    def admit(self, update: object) -> None:
        """Take ``update``'s place in line (called in arrival order)."""
        if isinstance(update, Update):
            ticket = self._sequencer.ticket(self._key_of(update))
            self._admitted[id(update)] = (update, ticket)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        admitted = self._admitted.pop(id(update), None)
        ticket = admitted[1] if admitted else self._sequencer.ticket(self._key_of(update))
        try:
            async with ticket, self._slots:
                await coroutine
        finally:
            if (
                inspect.iscoroutine(coroutine)
                and inspect.getcoroutinestate(coroutine) == "CORO_CREATED"
            ):
                coroutine.close()  # cancelled while waiting its turn: never started
            elif self._on_done is not None:
                self._on_done(update)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Release the places of updates dropped at shutdown."""
        for _, ticket in self._admitted.values():
            ticket.release()
        self._admitted.clear()
