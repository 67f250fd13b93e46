"""The deadline watermark shared by several judge processes (PostgreSQL).

A channel's reader runs in one process only (its leader,
:mod:`bot.service.runtime.leadership`), but every process resolves rounds, and a
round waits until every channel has been read past its deadline
(:mod:`bot.service.runtime.watermark`).  So the reader's process publishes its marks
in ``channel_marks`` and the others merge them in when a round waits.

Publishing never holds up the reader: marks are written by one background
task, the newest per channel, one write at a time (a write only moves a mark
forward).  A process that waits for a mark read elsewhere looks again every
``recheck`` seconds (the leader's own resolver asks its reader to read at
the deadline, so the mark comes without being asked from here).
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from sqlalchemy.dialects import postgresql
from sqlmodel import select

from bot.logging import get_logger
from storage.db import Database
from storage.models import ChannelMark, metadata

from .watermark import Watermarks

__all__ = ["SharedMarks"]

log = get_logger(__name__)

_TABLE = metadata.tables[ChannelMark.__tablename__]


class SharedMarks:
    def __init__(
        self,
        db: Database,
        marks: Watermarks,
        owner: str,
        *,
        recheck: timedelta = timedelta(seconds=1),
    ) -> None:
        self.db = db
        self.marks = marks
        self.owner = owner
        self.recheck = recheck
        self._pending: dict[str, datetime] = {}
        self._writer: asyncio.Task[None] | None = None
        marks.publishers.append(self.publish)

    def publish(self, channel: str, until: datetime) -> None:
        """A reader of this process read ``channel`` until ``until`` (the newest wins)."""
        self._pending[channel] = until
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            try:
                await asyncio.to_thread(self._store, batch)
            except Exception:  # the next mark tries again; a waiting round has its grace
                log.exception("publishing the channel marks failed", channels=sorted(batch))
                return

    def _store(self, batch: dict[str, datetime]) -> None:
        with self.db.connection() as conn:
            for channel, until in batch.items():
                stmt = postgresql.insert(_TABLE).values(
                    channel=channel, read_until=until, by=self.owner
                )
                conn.execute(
                    stmt.on_conflict_do_update(
                        index_elements=["channel"],
                        set_={"read_until": until, "by": self.owner},
                        where=_TABLE.c.read_until < until,
                    )
                )

    async def flush(self) -> None:
        """Until what was published is written (tests, a clean stop)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def load(self) -> None:
        """Merge the marks the other processes' readers published."""
        rows = await asyncio.to_thread(self._read)
        for channel, until in rows:
            self.marks.merge(channel, until)

    def _read(self) -> list[tuple[str, datetime]]:
        with self.db.reading() as s:
            return [(c, u) for c, u in s.exec(select(ChannelMark.channel, ChannelMark.read_until))]
