"""Repository functions: every query the service makes, on a session it owns.

No game logic here (that is the service's), only how rows are found, locked
and written.  Functions take the session of the caller's transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, bindparam, event, func, insert, inspect, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import SessionTransaction
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key
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
    "add_order",
    "add_snapshot",
    "claim_outbox",
    "copy_pictures",
    "current_orders",
    "due_rounds",
    "enqueue",
    "events_of_round",
    "finish_inbound",
    "game_masters",
    "game_of_team_chat",
    "games_of_member",
    "get_game",
    "inbound_by_external",
    "insert_inbound",
    "invitation_by_code",
    "last_attempt",
    "last_snapshot_tick",
    "lock_game",
    "log_action",
    "member_by_email",
    "member_by_telegram",
    "membership",
    "membership_and_member",
    "membership_roles",
    "memberships",
    "next_deadline",
    "outbox_attachments",
    "played_rounds",
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


T = TypeVar("T")

# Statements of the hot path (every inbound message), built once: building and
# keying a statement costs about as much as running it on SQLite.
_MEMBER_BY_TELEGRAM = select(Member).where(Member.telegram_user_id == bindparam("user_id"))
_MEMBER_BY_EMAIL = select(Member).where(Member.email == bindparam("address"))
_MEMBERSHIP = select(Membership).where(
    Membership.member_id == bindparam("member_id"), Membership.game_id == bindparam("game_id")
)
_GAME_OF_TEAM_CHAT = (
    select(Game)
    .join(Team, col(Team.game_id) == Game.id)
    .where(Team.chat == bindparam("chat"))
    .order_by(col(Team.id).desc())
    .limit(1)
)
_CURRENT_ORDERS = (
    select(OrderRow)
    .where(
        OrderRow.game_id == bindparam("game_id"),
        OrderRow.round_number == bindparam("round_number"),
        col(OrderRow.current).is_(True),
    )
    .order_by(col(OrderRow.id))
)
_CURRENT_ORDERS_OF_SIDE = _CURRENT_ORDERS.where(OrderRow.side == bindparam("side"))
# Core, not ORM-enabled, updates of the hot path: the same SQL at about a quarter
# of the cost (the ORM's bulk-update path costs more than SQLite runs the
# statement).  Like the ORM statements they replace (``synchronize_session=False``)
# they leave the session's copies alone, and the session is flushed first, as
# the ORM's autoflush did.
_INBOUND = metadata.tables[InboundMessage.__tablename__]
_ORDER_ROWS = metadata.tables[OrderRow.__tablename__]
_SUPERSEDE = (
    update(_ORDER_ROWS)
    .where(_ORDER_ROWS.c.id.in_(bindparam("ids", expanding=True)))
    .values(current=False, superseded_at=bindparam("now"))
)
_FINISH_INBOUND = (
    update(_INBOUND)
    .where(_INBOUND.c.id == bindparam("inbound_id"))
    .values(
        status=bindparam("status"), game_id=bindparam("game_id"), member_id=bindparam("member_id")
    )
)
_CLAIM_INBOUND = (
    update(_INBOUND)
    .where(_INBOUND.c.id == bindparam("inbound_id"), _INBOUND.c.status == "received")
    .values(status="working")
)
_SNAPSHOT = select(Snapshot.state).where(
    Snapshot.round_id == bindparam("round_id"), Snapshot.tick == bindparam("tick")
)
_INSERT_INBOUND: dict[str, Any] = {}  # by dialect
_GAME = select(Game).where(Game.id == bindparam("id"))
_ROUND = select(Round).where(Round.id == bindparam("id"))
_OUTBOX = metadata.tables[OutboxRow.__tablename__]
_INSERT_OUTBOX = (
    insert(_OUTBOX)
    .values({c.name: bindparam(c.name) for c in _OUTBOX.columns if c.name != "id"})
    .returning(_OUTBOX.c.id)
)
_ORDERS = metadata.tables[OrderRow.__tablename__]
_INSERT_ORDER = (
    insert(_ORDERS)
    .values({c.name: bindparam(c.name) for c in _ORDERS.columns if c.name != "id"})
    .returning(_ORDERS.c.id)
)


# ---------------------------------------------------------------- games and people
def _by_id(s: Session, model: type[T], stmt: Any, row_id: int) -> T | None:
    """``s.get`` for the hot path: the session's copy if it has one, else one
    prepared query (``Session.get`` builds its query anew every time)."""
    held = s.identity_map.get(identity_key(model, row_id))
    if held is not None and not inspect(held).expired:
        return held
    found: T | None = s.exec(stmt, params={"id": row_id}).first()
    return found


def get_game(s: Session, game_id: int) -> Game | None:
    return _by_id(s, Game, _GAME, game_id)


def lock_game(s: Session, game_id: int, *, skip_locked: bool = False) -> Game | None:
    """The game row, locked until the transaction ends (PostgreSQL ``FOR UPDATE``;
    SQLite transactions are already exclusive).  Every write to a game's play
    takes this lock first, so resolution and new orders cannot interleave.
    ``skip_locked``: None at once if another transaction holds it."""
    if s.get_bind().dialect.name == "sqlite":
        # BEGIN IMMEDIATE made this transaction the only writer from its first
        # statement: a copy read earlier in it is current, no second query needed.
        return get_game(s, game_id)
    # populate_existing: the session may hold a copy read before the lock.
    stmt = (
        select(Game)
        .where(Game.id == game_id)
        .with_for_update(skip_locked=skip_locked)
        .execution_options(populate_existing=True)
    )
    return s.exec(stmt).first()


def teams(s: Session, game_id: int) -> dict[str, Team]:
    return {t.side: t for t in s.exec(select(Team).where(Team.game_id == game_id))}


def team_by_chat(s: Session, chat: str) -> Team | None:
    stmt = select(Team).where(Team.chat == chat).order_by(col(Team.id).desc())
    return s.exec(stmt).first()


def game_of_team_chat(s: Session, chat: str) -> Game | None:
    """The game of the newest team linked to ``chat`` (one query)."""
    return s.exec(_GAME_OF_TEAM_CHAT, params={"chat": chat}).first()


def game_by_channel(s: Session, chat: str) -> Game | None:
    """The newest game whose public channel is ``chat``."""
    stmt = select(Game).where(Game.channel_chat == chat).order_by(col(Game.id).desc())
    return s.exec(stmt).first()


def players(s: Session, game_id: int, side: str | None = None) -> list[Player]:
    stmt = select(Player).where(Player.game_id == game_id)
    if side is not None:
        stmt = stmt.where(Player.side == side)
    return list(s.exec(stmt.order_by(col(Player.side), col(Player.number))))


def member_by_telegram(s: Session, user_id: int, *, with_game: bool = False) -> Member | None:
    """The member with this Telegram id; ``with_game``: see :func:`_member_with_game`."""
    if with_game:
        return _member_with_game(s, "telegram", {"user_id": user_id})
    return s.exec(_MEMBER_BY_TELEGRAM, params={"user_id": user_id}).first()


def member_by_email(s: Session, address: str, *, with_game: bool = False) -> Member | None:
    """The member with this address; ``with_game``: see :func:`_member_with_game`."""
    params = {"address": address.strip().lower()}
    if with_game:
        return _member_with_game(s, "email", params)
    return s.exec(_MEMBER_BY_EMAIL, params=params).first()


_MEMBER_WITH_GAME: dict[tuple[str, bool], Any] = {}  # by (found by, with the round)
_HELD = "dragonball.held"  # Session.info key: rows read ahead, kept for the session's life


def _member_with_game(s: Session, by: str, params: dict[str, Any]) -> Member | None:
    """The member, and in the same query the game he chose (``current_game_id``),
    his membership in it and, on SQLite, its open round: what an order message
    reads next (the game, his role, the round) is then in the session already —
    one query instead of four.  The round only on SQLite, where the transaction
    is the only writer from its first statement (``BEGIN IMMEDIATE``); on
    PostgreSQL the round is read after the game's lock (:func:`lock_game`), as
    it always was."""
    with_round = s.get_bind().dialect.name == "sqlite"
    key = (by, with_round)
    stmt = _MEMBER_WITH_GAME.get(key)
    if stmt is None:
        where = (
            Member.telegram_user_id == bindparam("user_id")
            if by == "telegram"
            else Member.email == bindparam("address")
        )
        stmt = (
            select(Member, Game, Membership, *([Round] if with_round else []))
            .outerjoin(Game, col(Game.id) == Member.current_game_id)
            .outerjoin(
                Membership,
                (col(Membership.member_id) == Member.id)
                & (col(Membership.game_id) == Member.current_game_id),
            )
        )
        if with_round:
            stmt = stmt.outerjoin(Round, col(Round.id) == Game.current_round_id)
        stmt = _MEMBER_WITH_GAME[key] = stmt.where(where)
    found = s.exec(stmt, params=params).first()
    if found is None:
        return None
    member, game, ms = found[0], found[1], found[2]
    if game is not None and member.id is not None and game.id is not None:
        # as :func:`membership` keeps it (None: he has no role in that game)
        s.info.setdefault(_MEMBERSHIPS_SEEN, {})[(member.id, game.id)] = ms
        # The session holds its rows weakly: these are kept for the session's life,
        # so that get_game and round_by_id find them.
        s.info.setdefault(_HELD, []).append(found[1:])
    result: Member = member
    return result


_MEMBERSHIPS_SEEN = "dragonball.memberships"  # Session.info key: (member, game) → row or None


def membership(s: Session, member_id: int, game_id: int) -> Membership | None:
    """The member's role in the game.  Kept for the rest of the transaction: an
    order message asks four times (what its writer sees, what the chat sees,
    what he may order, who reads the answer).  The memo is dropped whenever a
    membership is added, changed or deleted in the session, and at the end of
    every transaction and rolled-back savepoint (:func:`_forget_memberships`)."""
    seen: dict[tuple[int, int], Membership | None] = s.info.setdefault(_MEMBERSHIPS_SEEN, {})
    key = (member_id, game_id)
    if key in seen and not _memberships_pending(s):
        held = seen[key]
        if held is None or not inspect(held).expired:
            return held
    params = {"member_id": member_id, "game_id": game_id}
    found: Membership | None = s.exec(_MEMBERSHIP, params=params).first()
    # anew: the query's autoflush may have dropped the memo
    s.info.setdefault(_MEMBERSHIPS_SEEN, {})[key] = found
    return found


def _memberships_pending(s: Session) -> bool:
    """A membership added, changed or deleted and not yet flushed: the query must
    run (its autoflush writes it first)."""
    return any(isinstance(o, Membership) for o in (*s.new, *s.dirty, *s.deleted))


@event.listens_for(Session, "after_flush")
def _forget_flushed(s: Session, _context: object) -> None:
    # Still the pre-flush lists here: a membership written now makes every memo stale.
    if _memberships_pending(s):
        s.info.pop(_MEMBERSHIPS_SEEN, None)


@event.listens_for(Session, "after_soft_rollback")  # also a savepoint's
def _forget_memberships(s: Session, *_args: object) -> None:
    s.info.pop(_MEMBERSHIPS_SEEN, None)


@event.listens_for(Session, "after_transaction_end")
def _forget_at_end(s: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the transaction, not a savepoint released
        s.info.pop(_MEMBERSHIPS_SEEN, None)


def memberships(s: Session, game_id: int) -> list[tuple[Membership, Member]]:
    stmt = (
        select(Membership, Member)
        .join(Member, col(Member.id) == Membership.member_id)
        .where(Membership.game_id == game_id)
        .order_by(col(Membership.id))
    )
    return [(m, p) for m, p in s.exec(stmt)]


_MEMBERSHIPS = metadata.tables[Membership.__tablename__]
_MEMBERSHIP_ROLES = (
    sa_select(
        _MEMBERSHIPS.c.id, _MEMBERSHIPS.c.member_id, _MEMBERSHIPS.c.side, _MEMBERSHIPS.c.role,
        _MEMBERSHIPS.c.players,
    )
    .where(_MEMBERSHIPS.c.game_id == bindparam("game_id"))
    .order_by(_MEMBERSHIPS.c.id)
)  # fmt: skip
_MEMBERSHIP_AND_MEMBER = (
    select(Membership, Member)
    .join(Member, col(Member.id) == Membership.member_id)
    .where(Membership.id == bindparam("id"))
)


def membership_roles(s: Session, game_id: int) -> list[Any]:
    """(id, member_id, side, role, players) of every membership of the game, in
    :func:`memberships`' order, as plain rows: for a filter that needs the full
    rows (:func:`membership_and_member`) of only a few (every order message asks
    whom its change concerns)."""
    return list(s.execute(_MEMBERSHIP_ROLES, {"game_id": game_id}))


def membership_and_member(s: Session, membership_id: int) -> tuple[Membership, Member] | None:
    """A membership with its member, in one query (kept as :func:`membership` keeps it)."""
    found = s.exec(_MEMBERSHIP_AND_MEMBER, params={"id": membership_id}).first()
    if found is None:
        return None
    ms, member = found[0], found[1]
    s.info.setdefault(_MEMBERSHIPS_SEEN, {})[(ms.member_id, ms.game_id)] = ms
    return ms, member


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


def invitations(s: Session, game_id: int) -> list[Invitation]:
    stmt = select(Invitation).where(Invitation.game_id == game_id).order_by(col(Invitation.id))
    return list(s.exec(stmt))


def invitation_by_code(s: Session, code: str) -> Invitation | None:
    return s.exec(select(Invitation).where(Invitation.code == code)).first()


def insert_inbound(conn: Connection, values: dict[str, Any]) -> int | None:
    """Store a received message in one statement; None if (channel, external id)
    is already there — a redelivery, or a twin delivery racing this one."""
    dialect = conn.dialect.name
    stmt = _INSERT_INBOUND.get(dialect)
    if stmt is None:
        table = metadata.tables[InboundMessage.__tablename__]
        ins = postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)
        stmt = _INSERT_INBOUND[dialect] = (
            ins.values({**{c: bindparam(c) for c in _INBOUND_FIELDS}, "status": "received"})
            .on_conflict_do_nothing(index_elements=["channel", "external_id"])
            .returning(table.c.id)
        )
    found: int | None = conn.execute(stmt, {c: values.get(c) for c in _INBOUND_FIELDS}).scalar()
    return found


_INBOUND_FIELDS = (
    "channel", "external_id", "sender", "chat", "subject", "text", "raw", "received_at",
    "edit_of", "authenticated", "meta", "game_hint", "reply_ref", "stored_at",
)  # fmt: skip


def claim_inbound(s: Session, inbound_id: int) -> bool:
    """Take a stored message to work on it, in the transaction that records the
    outcome: False when another transaction has done so (it is done, or being
    done: on PostgreSQL this waits for that one).  A rolled-back transaction
    leaves the message to be worked on again."""
    s.flush()
    result = s.connection().execute(_CLAIM_INBOUND, {"inbound_id": inbound_id})
    return bool(result.rowcount)


def unprocessed_inbound(
    s: Session, *, received_before: datetime | None = None, stored_before: datetime | None = None,
    limit: int = 100,
) -> list[InboundMessage]:  # fmt: skip
    """Stored messages nobody has worked on (a process died, or the database failed
    between the two steps), oldest first: those that reached their channel before
    ``received_before`` or our database before ``stored_before``."""
    stmt = select(InboundMessage).where(InboundMessage.status == "received")
    when = []
    if received_before is not None:
        when.append(col(InboundMessage.received_at) < received_before)
    if stored_before is not None:
        when.append(col(InboundMessage.stored_at) < stored_before)
    if when:
        stmt = stmt.where(or_(*when))
    return list(s.exec(stmt.order_by(col(InboundMessage.id)).limit(limit)))


def finish_inbound(
    s: Session, inbound_id: int, *, status: str, game_id: int | None, member_id: int | None
) -> None:
    """Record what became of a stored message (no need to load it first)."""
    params = {"inbound_id": inbound_id, "status": status, "game_id": game_id}
    s.flush()
    s.connection().execute(_FINISH_INBOUND, {**params, "member_id": member_id})


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
    return None if round_id is None else _by_id(s, Round, _ROUND, round_id)


def resolved_round(s: Session, game_id: int, number: int) -> Round | None:
    stmt = select(Round).where(
        Round.game_id == game_id, Round.number == number, Round.status == "resolved"
    )
    return s.exec(stmt).first()


def played_rounds(s: Session, game_id: int) -> list[Round]:
    """Every round played, including attempts a game master rolled back."""
    stmt = select(Round).where(
        Round.game_id == game_id, col(Round.status).in_(("resolved", "rolled_back"))
    )
    return list(s.exec(stmt.order_by(col(Round.number), col(Round.attempt))))


def last_attempt(s: Session, game_id: int, number: int) -> int:
    """The highest attempt of round ``number`` so far (0: never opened)."""
    stmt = select(func.max(Round.attempt)).where(Round.game_id == game_id, Round.number == number)
    return s.exec(stmt).first() or 0


def resolved_rounds(s: Session, game_id: int) -> list[Round]:
    stmt = select(Round).where(Round.game_id == game_id, Round.status == "resolved")
    return list(s.exec(stmt.order_by(col(Round.number))))


def due_rounds(s: Session, now: datetime) -> list[tuple[int, int, datetime]]:
    """(game id, round id, deadline) of open rounds of running games that are due:
    the deadline has passed or both teams said they are ready.  Oldest first."""
    stmt = (
        select(Round.game_id, Round.id, Round.deadline)
        .join(Game, col(Game.current_round_id) == Round.id)
        .where(Game.status == "running", Round.status == "open")
        .where((col(Round.deadline) <= now) | (Round.ready == "left,right"))
        .order_by(col(Round.deadline), col(Round.id))
    )
    return [(g, r, d) for g, r, d in s.exec(stmt) if r is not None]


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
    state = s.exec(_SNAPSHOT, params={"round_id": round_id, "tick": tick}).first()
    return None if state is None else dict(state)


def last_snapshot_tick(s: Session, round_id: int) -> int:
    """The last tick of the round with a stored position (0: none played yet)."""
    stmt = select(func.max(Snapshot.tick)).where(Snapshot.round_id == round_id)
    return s.exec(stmt).first() or 0


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
    params: dict[str, Any] = {"game_id": game_id, "round_number": round_number}
    if side is None:
        return list(s.exec(_CURRENT_ORDERS, params=params))
    return list(s.exec(_CURRENT_ORDERS_OF_SIDE, params={**params, "side": side}))


def add_order(s: Session, row: OrderRow) -> int:
    """File an order row in one prepared INSERT (every order message passes
    here); ``row`` gets its id but is not added to the session."""
    values = {c.name: getattr(row, c.name) for c in _ORDERS.columns if c.name != "id"}
    order_id: int = s.connection().execute(_INSERT_ORDER, values).scalar_one()
    row.id = order_id
    return order_id


def supersede(s: Session, rows: Iterable[OrderRow], now: datetime) -> int:
    """Mark orders as no longer current (they stay on record)."""
    doomed = [r for r in rows if r.current and r.id is not None]
    if doomed:
        s.flush()
        s.connection().execute(_SUPERSEDE, {"ids": [r.id for r in doomed], "now": now})
        # The rows in hand now say what the database says, without a re-read.
        for row in doomed:
            set_committed_value(row, "current", False)
            set_committed_value(row, "superseded_at", now)
    return len(doomed)


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
    """Queue a message with its (filename, content type, bytes) attachments.

    One prepared INSERT, not the ORM's unit of work (every answer passes here):
    ``row`` gets its id but is not added to the session."""
    values = {c.name: getattr(row, c.name) for c in _OUTBOX.columns if c.name != "id"}
    outbox_id: int = s.connection().execute(_INSERT_OUTBOX, values).scalar_one()
    row.id = outbox_id
    add_attachments(s, outbox_id, attachments)
    return outbox_id


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
    s: Session, channel: str, now: datetime, limit: int, lease_until: datetime,
    *, owner: str | None = None,
) -> list[OutboxRow]:  # fmt: skip
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
        row.claimed_by = owner
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
