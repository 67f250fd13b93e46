"""Judge processes and their outbox claims.

Every running outbox worker has a row in ``workers`` (``<host>:<pid>:<random>``)
and names it in each claim it takes (``outbox.claimed_by``).  A judge that
starts takes back at once the claims of workers that are gone — on this host,
a process id that no longer runs (or is its own: a restarted container often
gets the same one); anywhere, a worker silent for ``stale_after`` — instead of
waiting for their lease (5 minutes) to run out.  A worker that stops cleanly
hands its claims back itself.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, case, delete, update
from sqlmodel import Session, col, select

from bot.logging import get_logger
from storage.models import OutboxRow, Worker

__all__ = ["new_worker_id", "register", "release", "seen", "take_over_dead"]

log = get_logger(__name__)


def new_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it runs
        return True
    return True


def _gone(worker: Worker, me: Worker, stale_after: timedelta, now: datetime) -> bool:
    if worker.id == me.id:
        return False
    if worker.host == me.host and (worker.pid == me.pid or not _alive(worker.pid)):
        return True
    return worker.seen_at < now - stale_after


def register(s: Session, worker_id: str, now: datetime) -> Worker:
    """This worker's row, seen now; made at its first call (``started_at`` is
    kept at the heartbeats after: they call this again to take over the dead)."""
    me = s.get(Worker, worker_id)
    if me is None:
        host, pid, _ = worker_id.rsplit(":", 2)
        me = Worker(id=worker_id, host=host, pid=int(pid), started_at=now, seen_at=now)
    me.seen_at = now
    s.add(me)
    return me


def _uncounted() -> ColumnElement[int]:
    """The attempt of a claim taken back, returned (never below none)."""
    attempts = col(OutboxRow.attempts)
    return case((attempts > 0, attempts - 1), else_=0)


def take_over_dead(s: Session, me: Worker, now: datetime, stale_after: timedelta) -> int:
    """Give the claims of gone workers back to the queue, due now; returns how many.

    Also the claims nobody holds any more: those of a worker whose row a clean
    stop removed (a claim made while it was stopping), and, when no other worker
    is alive as it starts, those made without an owner (a process stopping or
    not yet registered); they would otherwise wait out their lease (minutes).
    Only at the start: at a heartbeat such a row is a failed one in its back-off."""
    rows = list(s.exec(select(Worker)))
    dead = [w.id for w in rows if _gone(w, me, stale_after, now)]
    known = [w.id for w in rows]
    starting = me.started_at == me.seen_at  # register() made its row just now
    alone = starting and all(w.id == me.id or w.id in dead for w in rows)
    pending = col(OutboxRow.state) == "pending"
    later = col(OutboxRow.next_try_at) > now
    owner = col(OutboxRow.claimed_by)
    given_back: list[ColumnElement[bool]] = [owner.in_(dead)] if dead else []
    given_back.append(owner.is_not(None) & owner.not_in(known) & later)
    taken = 0
    for where in given_back:
        result = s.execute(
            update(OutboxRow)
            .where(pending, where)
            .values(next_try_at=now, claimed_by=None, attempts=_uncounted())
        )
        taken += int(getattr(result, "rowcount", 0) or 0)
    if alone:
        # Its attempt is kept: such a row may also be a failed one waiting out
        # its back-off, which a restart may as well try again at once.
        result = s.execute(
            update(OutboxRow)
            .where(pending, owner.is_(None), col(OutboxRow.attempts) > 0, later)
            .values(next_try_at=now)
        )
        taken += int(getattr(result, "rowcount", 0) or 0)
    if dead:
        s.execute(delete(Worker).where(col(Worker.id).in_(dead)))
    if taken:
        log.info("outbox claims of gone workers taken back", workers=dead, items=taken)
    return taken


def seen(s: Session, worker_id: str, now: datetime) -> None:
    s.execute(update(Worker).where(col(Worker.id) == worker_id).values(seen_at=now))


def release(s: Session, worker_id: str, now: datetime) -> None:
    """A clean stop: its undelivered claims are due again at once, its row goes."""
    s.execute(
        update(OutboxRow)
        .where(col(OutboxRow.state) == "pending", col(OutboxRow.claimed_by) == worker_id)
        .values(next_try_at=now, claimed_by=None, attempts=_uncounted())
    )
    s.execute(delete(Worker).where(col(Worker.id) == worker_id))
