"""Positions already read, so an order does not parse the same snapshot again.

A snapshot row (round id, tick) is written once and never changed: a
resolution adds the rows of later ticks, a rollback opens a round with a new
id.  So a position read from a *committed* snapshot stays true for good, and
the cache needs no invalidation; it only forgets the least recently used
entries.  Entries are added when the transaction that read them commits (a
transaction that rolls back may have read rows of its own that never come
to be, and SQLite may hand their ids out again).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from engine.state import MatchState

__all__ = ["PositionCache"]

Key = tuple[int, int]  # (round id, tick)


class PositionCache:
    """A bounded, thread-safe map (round id, tick) → position."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[Key, MatchState] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Key) -> MatchState | None:
        with self._lock:
            state = self._items.get(key)
            if state is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return state

    def add(self, entries: dict[Key, MatchState]) -> None:
        """Remember positions read by a transaction that has committed."""
        with self._lock:
            for key, state in entries.items():
                self._items[key] = state
                self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
