"""Repository functions: every query the service makes, on a session it owns.

No game logic here (that is the service's), only how rows are found, locked
and written.  Functions take the session of the caller's transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, update
from sqlmodel import Session, col, select

from .models import (
    Blob,
    EventRow,
    Game,
    GmAction,
    InboundMessage,
    Invitation,
    Member,
    Membership,
    OrderRow,
    OutboxAttachment,
    OutboxRow,
    Player,
    Round,
    Snapshot,
    Team,
    metadata,
)

__all__ = [
    "actions_since",
    "add_attachments",
    "add_events",
    "add_snapshot",
    "claim_outbox",
    "copy_pictures",
    "current_orders",
    "due_rounds",
    "enqueue",
    "events_of_round",
    "game_masters",
    "games_of_member",
    "get_game",
    "inbound_by_external",
    "invitation_by_code",
    "last_attempt",
    "lock_game",
    "log_action",
    "member_by_email",
    "member_by_telegram",
    "membership",
    "memberships",
    "next_deadline",
    "outbox_attachments",
    "players",
    "reminder_rounds",
    "resolved_round",
    "resolved_rounds",
    "round_by_id",
    "snapshot",
    "supersede",
    "team_by_chat",
    "teams",
    "unreminded_deadlines",
]


# ---------------------------------------------------------------- games and people
def get_game(s: Session, game_id: int) -> Game | None:
    return s.get(Game, game_id)


def lock_game(s: Session, game_id: int) -> Game | None:
    """The game row, locked until the transaction ends (PostgreSQL ``FOR UPDATE``;
    SQLite transactions are already exclusive).  Every write to a game's play
    takes this lock first, so resolution and new orders cannot interleave."""
    # populate_existing: the session may hold a copy read before the lock.
    stmt = (
        select(Game)
        .where(Game.id == game_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return s.exec(stmt).first()


def teams(s: Session, game_id: int) -> dict[str, Team]:
    return {t.side: t for t in s.exec(select(Team).where(Team.game_id == game_id))}


def team_by_chat(s: Session, chat: str) -> Team | None:
    stmt = select(Team).where(Team.chat == chat).order_by(col(Team.id).desc())
    return s.exec(stmt).first()


def players(s: Session, game_id: int, side: str | None = None) -> list[Player]:
    stmt = select(Player).where(Player.game_id == game_id)
    if side is not None:
        stmt = stmt.where(Player.side == side)
    return list(s.exec(stmt.order_by(col(Player.side), col(Player.number))))


def member_by_telegram(s: Session, user_id: int) -> Member | None:
    return s.exec(select(Member).where(Member.telegram_user_id == user_id)).first()


def member_by_email(s: Session, address: str) -> Member | None:
    return s.exec(select(Member).where(Member.email == address.strip().lower())).first()


def membership(s: Session, member_id: int, game_id: int) -> Membership | None:
    stmt = select(Membership).where(
        Membership.member_id == member_id, Membership.game_id == game_id
    )
    return s.exec(stmt).first()


def memberships(s: Session, game_id: int) -> list[tuple[Membership, Member]]:
    stmt = (
        select(Membership, Member)
        .join(Member, col(Member.id) == Membership.member_id)
        .where(Membership.game_id == game_id)
        .order_by(col(Membership.id))
    )
    return [(m, p) for m, p in s.exec(stmt)]


def game_masters(s: Session, game_id: int) -> list[Member]:
    return [p for m, p in memberships(s, game_id) if m.role == "game_master"]


def games_of_member(s: Session, member_id: int) -> list[tuple[Game, Membership]]:
    stmt = (
        select(Game, Membership)
        .join(Membership, col(Membership.game_id) == Game.id)
        .where(Membership.member_id == member_id)
        .order_by(col(Game.id))
    )
    return [(g, m) for g, m in s.exec(stmt)]


def invitation_by_code(s: Session, code: str) -> Invitation | None:
    return s.exec(select(Invitation).where(Invitation.code == code)).first()


def inbound_by_external(s: Session, channel: str, external_id: str) -> InboundMessage | None:
    stmt = select(InboundMessage).where(
        InboundMessage.channel == channel, InboundMessage.external_id == external_id
    )
    return s.exec(stmt).first()


def actions_since(
    s: Session, action: str, since: datetime, *, game_id: int | None = None
) -> list[GmAction]:
    """Entries ``action`` of the referee's log since ``since`` (of one game if given)."""
    stmt = select(GmAction).where(GmAction.action == action, col(GmAction.created_at) >= since)
    if game_id is not None:
        stmt = stmt.where(GmAction.game_id == game_id)
    return list(s.exec(stmt))


def log_action(
    s: Session, game_id: int | None, actor: str, action: str, args: dict[str, Any], now: datetime
) -> None:
    s.add(GmAction(game_id=game_id, actor=actor, action=action, args=args, created_at=now))


# ---------------------------------------------------------------- rounds and play
def round_by_id(s: Session, round_id: int | None) -> Round | None:
    return None if round_id is None else s.get(Round, round_id)


def resolved_round(s: Session, game_id: int, number: int) -> Round | None:
    stmt = select(Round).where(
        Round.game_id == game_id, Round.number == number, Round.status == "resolved"
    )
    return s.exec(stmt).first()


def last_attempt(s: Session, game_id: int, number: int) -> int:
    """The highest attempt of round ``number`` so far (0: never opened)."""
    stmt = select(func.max(Round.attempt)).where(Round.game_id == game_id, Round.number == number)
    return s.exec(stmt).first() or 0


def resolved_rounds(s: Session, game_id: int) -> list[Round]:
    stmt = select(Round).where(Round.game_id == game_id, Round.status == "resolved")
    return list(s.exec(stmt.order_by(col(Round.number))))


def due_rounds(s: Session, now: datetime) -> list[tuple[int, int]]:
    """(game id, round id) of open rounds of running games that are due: the
    deadline has passed or both teams said they are ready.  Oldest first."""
    stmt = (
        select(Round.game_id, Round.id)
        .join(Game, col(Game.current_round_id) == Round.id)
        .where(Game.status == "running", Round.status == "open")
        .where((col(Round.deadline) <= now) | (Round.ready == "left,right"))
        .order_by(col(Round.deadline), col(Round.id))
    )
    return [(g, r) for g, r in s.exec(stmt) if r is not None]


def reminder_rounds(s: Session, remind_from: datetime) -> list[tuple[int, int]]:
    """Open rounds of running games whose deadline is before ``remind_from``
    (now + the reminder lead) and that have had no reminder yet."""
    stmt = (
        select(Round.game_id, Round.id)
        .join(Game, col(Game.current_round_id) == Round.id)
        .where(Game.status == "running", Round.status == "open")
        .where(col(Round.reminded_at).is_(None), col(Round.deadline) <= remind_from)
    )
    return [(g, r) for g, r in s.exec(stmt) if r is not None]


def unreminded_deadlines(s: Session) -> list[tuple[int, datetime]]:
    """(round id, deadline) of open rounds of running games not yet reminded."""
    stmt = (
        select(Round.id, Round.deadline)
        .join(Game, col(Game.current_round_id) == Round.id)
        .where(Game.status == "running", Round.status == "open", col(Round.reminded_at).is_(None))
    )
    return [(r, d) for r, d in s.exec(stmt) if r is not None]


def next_deadline(s: Session) -> datetime | None:
    stmt = (
        select(func.min(Round.deadline))
        .join(Game, col(Game.current_round_id) == Round.id)
        .where(Game.status == "running", Round.status == "open")
    )
    return s.exec(stmt).first()


def snapshot(s: Session, round_id: int, tick: int) -> dict[str, Any] | None:
    stmt = select(Snapshot).where(Snapshot.round_id == round_id, Snapshot.tick == tick)
    row = s.exec(stmt).first()
    return None if row is None else row.state


def add_snapshot(s: Session, game_id: int, round_id: int, tick: int, state: dict[str, Any]) -> None:
    s.add(Snapshot(game_id=game_id, round_id=round_id, tick=tick, state=state))


def add_events(s: Session, game_id: int, round_id: int, events: Sequence[dict[str, Any]]) -> None:
    """Insert a round's events in one statement (executemany)."""
    if not events:
        return
    rows = [
        {
            "game_id": game_id,
            "round_id": round_id,
            "seq": i,
            "tick": int(e.get("tick", 0)),
            "kind": str(e["kind"]),
            "data": e,
        }
        for i, e in enumerate(events)
    ]
    # Core, not the ORM's bulk path: a round has a few hundred events.
    s.connection().execute(insert(metadata.tables[EventRow.__tablename__]), rows)


def events_of_round(s: Session, round_id: int) -> list[dict[str, Any]]:
    stmt = select(EventRow).where(EventRow.round_id == round_id).order_by(col(EventRow.seq))
    return [row.data for row in s.exec(stmt)]


def current_orders(
    s: Session, game_id: int, round_number: int, side: str | None = None
) -> list[OrderRow]:
    stmt = select(OrderRow).where(
        OrderRow.game_id == game_id,
        OrderRow.round_number == round_number,
        col(OrderRow.current).is_(True),
    )
    if side is not None:
        stmt = stmt.where(OrderRow.side == side)
    return list(s.exec(stmt.order_by(col(OrderRow.id))))


def supersede(s: Session, rows: Iterable[OrderRow], now: datetime) -> int:
    """Mark orders as no longer current (they stay on record)."""
    ids = [r.id for r in rows if r.current]
    if ids:
        s.execute(
            update(OrderRow)
            .where(col(OrderRow.id).in_(ids))
            .values(current=False, superseded_at=now)
            .execution_options(synchronize_session="fetch")
        )
    return len(ids)


# ---------------------------------------------------------------- outbox
def _blob_id(s: Session, data: bytes) -> int:
    digest = hashlib.sha256(data).hexdigest()
    found = s.exec(select(Blob.id).where(Blob.sha256 == digest)).first()
    if found is not None:
        return found
    blob = Blob(sha256=digest, data=data)
    s.add(blob)
    s.flush()
    assert blob.id is not None
    return blob.id


def enqueue(s: Session, row: OutboxRow, attachments: Sequence[tuple[str, str, bytes]] = ()) -> int:
    """Queue a message with its (filename, content type, bytes) attachments."""
    s.add(row)
    s.flush()
    assert row.id is not None
    add_attachments(s, row.id, attachments)
    return row.id


def add_attachments(
    s: Session, outbox_id: int, attachments: Sequence[tuple[str, str, bytes]]
) -> None:
    for position, (filename, content_type, data) in enumerate(attachments):
        s.add(
            OutboxAttachment(
                outbox_id=outbox_id,
                position=position,
                filename=filename,
                content_type=content_type,
                blob_id=_blob_id(s, data),
            )
        )
    s.flush()


def copy_pictures(s: Session, outbox_id: int, pictures: str) -> bool:
    """Give an item the diagrams another item with the same ``pictures`` already
    has (they are drawn once); False if none has them yet."""
    first = s.exec(
        select(OutboxAttachment.outbox_id)
        .join(OutboxRow, col(OutboxRow.id) == OutboxAttachment.outbox_id)
        .where(OutboxRow.pictures == pictures, OutboxAttachment.outbox_id != outbox_id)
        .limit(1)
    ).first()
    if first is None:
        return False
    stmt = select(OutboxAttachment).where(OutboxAttachment.outbox_id == first)
    for att in s.exec(stmt.order_by(col(OutboxAttachment.position))).all():
        s.add(
            OutboxAttachment(
                outbox_id=outbox_id,
                position=att.position,
                filename=att.filename,
                content_type=att.content_type,
                blob_id=att.blob_id,
            )
        )
    s.flush()
    return True


def claim_outbox(
    s: Session, channel: str, now: datetime, limit: int, lease_until: datetime
) -> list[OutboxRow]:
    """Take up to ``limit`` due items of ``channel``: each gets one more attempt
    and is hidden until ``lease_until`` (so a worker that dies mid-delivery
    leaves it to be retried, and two workers never take the same item)."""
    stmt = (
        select(OutboxRow)
        .where(OutboxRow.channel == channel, OutboxRow.state == "pending")
        .where(col(OutboxRow.next_try_at) <= now)
        .order_by(col(OutboxRow.next_try_at), col(OutboxRow.id))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = list(s.exec(stmt))
    for row in rows:
        row.attempts += 1
        row.next_try_at = lease_until
        s.add(row)
    s.flush()
    return rows


def outbox_attachments(
    s: Session, outbox_ids: Sequence[int]
) -> dict[int, list[tuple[str, str, bytes]]]:
    if not outbox_ids:
        return {}
    stmt = (
        select(OutboxAttachment, Blob.data)
        .join(Blob, col(Blob.id) == OutboxAttachment.blob_id)
        .where(col(OutboxAttachment.outbox_id).in_(outbox_ids))
        .order_by(col(OutboxAttachment.outbox_id), col(OutboxAttachment.position))
    )
    out: dict[int, list[tuple[str, str, bytes]]] = {}
    for att, data in s.exec(stmt):
        out.setdefault(att.outbox_id, []).append((att.filename, att.content_type, data))
    return out
