"""Database tables (sqlmodel): one code path for SQLite and PostgreSQL.

Times are stored as aware UTC datetimes (:class:`UTCDateTime` keeps SQLite,
which has no time zones, honest).  Positions, orders and events are stored in
the engine's own JSON form, so the engine stays the single authority on what
they mean.  The migration in ``storage/migrations`` must describe exactly
these tables; ``tests/storage/test_migrations.py`` compares them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Index, LargeBinary, Text, UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

__all__ = [
    "Blob",
    "ChannelMark",
    "EventRow",
    "Game",
    "GmAction",
    "InboundMessage",
    "Invitation",
    "Member",
    "Membership",
    "OrderRow",
    "OutboxAttachment",
    "OutboxRow",
    "Player",
    "Round",
    "Snapshot",
    "Team",
    "UTCDateTime",
    "Worker",
    "metadata",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on every database (SQLite keeps it naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTCDateTime column")
        value = value.astimezone(UTC)
        # SQLite compares the stored text, so it must be one uniform naive format.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _when(**kw: Any) -> Any:
    return Field(sa_type=UTCDateTime, **kw)


class Game(SQLModel, table=True):
    __tablename__ = "games"

    id: int | None = Field(default=None, primary_key=True)
    title: str = Field(default="", sa_type=Text)
    ruleset: str
    timezone: str
    deadlines: str  # "21:00" or several times a day: "09:00,21:00"
    lang: str = "ru"  # language of public reports and team chats
    status: str = "setup"  # setup | running | paused | ended
    players_per_team: int | None = None
    reserves_per_team: int | None = None
    channel_chat: str | None = None  # telegram chat of the public reports
    channel_thread: str | None = None
    current_round_id: int | None = None  # no FK: games and rounds point at each other
    setup_seed: str | None = None  # seed of the opening position, public once drawn
    created_at: datetime = _when(default_factory=utcnow)
    created_by: str = ""
    started_at: datetime | None = _when(default=None)
    ended_at: datetime | None = _when(default=None)
    end_reason: str | None = None
    # An order that reached the judge after its round's deadline: "refuse" (said
    # so, nothing filed) or "next_round" (filed for the next round, and said so).
    late_orders: str = "refuse"
    # The least time, in seconds, a round opened early (the start, a resolution
    # before the deadline, a rollback) has before its deadline; None: the
    # judge's setting (an hour).  A quick match runs on minutes.
    min_round_seconds: int | None = None


class Team(SQLModel, table=True):
    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("game_id", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    side: str  # left | right
    name: str
    chat: str | None = None  # linked telegram group of the team
    thread: str | None = None
    chat_lang: str | None = None  # language of the group (/lang there); None: the game's
    warnings: int = 0


class Player(SQLModel, table=True):
    """A piece on the field: what the opening position's rosters come from."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "side", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    side: str
    number: int
    name: str


class Member(SQLModel, table=True):
    """A person: how to reach him and how he wants to be spoken to."""

    __tablename__ = "members"

    id: int | None = Field(default=None, primary_key=True)
    name: str = ""
    telegram_user_id: int | None = Field(default=None, sa_type=BigInteger, unique=True)
    email: str | None = Field(default=None, unique=True)
    passphrase_hash: str | None = None
    lang: str = "ru"
    notify: str = "telegram"  # channel of private reports: telegram | email
    current_game_id: int | None = None
    timezone: str | None = None  # deadlines shown in this zone (/tz); None: the game's
    created_at: datetime = _when(default_factory=utcnow)


class Membership(SQLModel, table=True):
    """A member's role in one game and the pieces he may order."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("member_id", "game_id"),)

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="members.id", index=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    side: str | None = None  # None for a game master
    role: str  # captain | player | game_master
    players: str = ""  # shirt numbers he controls, "1,2"; a captain controls all
    created_at: datetime = _when(default_factory=utcnow)
    # Joined after his team's group was linked: he is not known to read it, so the
    # team's posts reach him privately too, until he is seen writing there.
    private_copies: bool = False


class Invitation(SQLModel, table=True):
    __tablename__ = "invitations"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(unique=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    side: str | None = None
    role: str
    players: str = ""
    # When set, only this address redeems it: by mail from it, or on Telegram with
    # the confirmation code mailed to it.
    email: str | None = None
    telegram_username: str | None = None  # when set, only this Telegram user (lower case)
    created_by: str = ""
    created_at: datetime = _when(default_factory=utcnow)
    expires_at: datetime | None = _when(default=None)
    revoked_at: datetime | None = _when(default=None)
    used_by: int | None = Field(default=None, foreign_key="members.id")
    used_at: datetime | None = _when(default=None)
    used_from: str | None = None  # who redeemed it: "telegram:<id>" or "email:<address>"
    # A Telegram redemption of an address-bound invitation: the hash of the code
    # mailed to the address, who asked for it, until when, how many wrong tries.
    confirm_hash: str | None = None
    confirm_for: str | None = None
    confirm_until: datetime | None = _when(default=None)
    confirm_tries: int = 0


class InboundMessage(SQLModel, table=True):
    """Every message as it arrived, before anything was made of it."""

    __tablename__ = "inbound"
    __table_args__ = (
        UniqueConstraint("channel", "external_id"),
        Index("ix_inbound_status", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    channel: str
    external_id: str
    sender: str
    chat: str | None = None
    subject: str | None = Field(default=None, sa_type=Text)
    text: str = Field(sa_type=Text)
    raw: bytes = Field(sa_type=LargeBinary)
    received_at: datetime = _when()
    edit_of: str | None = None
    authenticated: bool = True
    game_id: int | None = Field(default=None, index=True)
    member_id: int | None = None
    status: str = "received"  # then the Reply status, or "error"
    error: str | None = Field(default=None, sa_type=Text)
    # What the channel said besides the text (Inbound.meta, game_hint, reply_ref):
    # a message stored but not worked on (the process died) is worked on from these.
    meta: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    game_hint: str | None = None
    reply_ref: str | None = None
    stored_at: datetime | None = _when(default=None)  # when it reached our database


class Round(SQLModel, table=True):
    """One round of a game; a rolled-back round stays on record (``attempt``)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number", "attempt"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    number: int
    attempt: int = 1
    status: str = "open"  # open | resolved | rolled_back | void | cancelled
    opened_at: datetime = _when()
    deadline: datetime = _when()
    seed: str
    commitment: str
    ready: str = ""  # sides whose members all declared their orders final: "left,right"
    ready_members: list[int] = Field(default_factory=list, sa_type=JSON)
    reminded_at: datetime | None = _when(default=None)
    resolved_at: datetime | None = _when(default=None)
    orders: dict[str, Any] | None = Field(default=None, sa_type=JSON)  # what was resolved
    result_digest: str | None = None
    # The rules it was resolved under (docs/rules.md "Ruleset versions"), so
    # that it re-plays under them after a ruling changes.
    ruleset: str | None = None
    ruleset_version: int | None = None
    ruleset_digest: str | None = None
    # Per team, the short digest of the orders it was resolved with (published
    # with the results; the receipts of acknowledgements must match it).
    order_digests: dict[str, str] | None = Field(default=None, sa_type=JSON)


class OrderRow(SQLModel, table=True):
    """One order for one piece and tick; a newer one supersedes it."""

    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_current", "game_id", "round_number", "current"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    round_number: int
    side: str
    unit: str  # player | dragon | substitution | penalty
    number: int = 0  # player's shirt (substitution: the one going off)
    tick: int = 0
    text: str = Field(default="", sa_type=Text)  # canonical, as the order sheet prints it
    data: dict[str, Any] = Field(sa_type=JSON)  # engine JSON of this one order
    message_id: int | None = Field(default=None, foreign_key="inbound.id")
    member_id: int | None = None
    author: str = ""  # who gave it: "telegram:123", "gm:cli", ...
    current: bool = True
    created_at: datetime = _when(default_factory=utcnow)
    superseded_at: datetime | None = _when(default=None)


class Snapshot(SQLModel, table=True):
    """The position after ``tick`` ticks of a round (tick 0: before it)."""

    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("round_id", "tick"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    round_id: int = Field(foreign_key="rounds.id")
    tick: int
    state: dict[str, Any] = Field(sa_type=JSON)


class EventRow(SQLModel, table=True):
    __tablename__ = "events"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    round_id: int = Field(foreign_key="rounds.id", index=True)
    seq: int
    tick: int
    kind: str
    data: dict[str, Any] = Field(sa_type=JSON)  # Event.to_json()


class OutboxRow(SQLModel, table=True):
    """A message to deliver; a row survives restarts until it is sent or given up."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "channel", "state", "next_try_at"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, index=True)
    channel: str
    destination: str
    kind: str
    text: str = Field(sa_type=Text)
    subject: str | None = Field(default=None, sa_type=Text)
    html: str | None = Field(default=None, sa_type=Text)
    reply_ref: str | None = None
    thread_id: str | None = None
    buttons: list[Any] = Field(default_factory=list, sa_type=JSON)
    # Diagrams drawn when the item is first claimed, not when it is queued
    # (drawing a round takes far longer than resolving it): "<round id>/<view>/<lang>".
    pictures: str | None = Field(default=None, index=True)
    state: str = "pending"  # pending | sent | failed
    attempts: int = 0
    next_try_at: datetime = _when(default_factory=utcnow)
    created_at: datetime = _when(default_factory=utcnow)
    sent_at: datetime | None = _when(default=None)
    failed_at: datetime | None = _when(default=None)
    last_error: str | None = Field(default=None, sa_type=Text)
    # The worker holding the claim (Worker.id): a restarted judge takes back the
    # claims of a worker that is gone at once, instead of waiting for the lease.
    claimed_by: str | None = None
    # The parts of a message sent in several (a long text, an album) that the
    # channel already delivered, by its labels: a retry sends only the others.
    parts_sent: list[str] | None = Field(default=None, sa_type=JSON)


class Worker(SQLModel, table=True):
    """A running judge process (its outbox claims name it)."""

    __tablename__ = "workers"

    id: str = Field(primary_key=True)  # "<host>:<pid>:<random>"
    host: str
    pid: int
    started_at: datetime = _when()
    seen_at: datetime = _when()


class ChannelMark(SQLModel, table=True):
    """How far the reader of an inbound channel has read (the deadline watermark),
    published for the judge processes that do not run that reader."""

    __tablename__ = "channel_marks"

    channel: str = Field(primary_key=True)
    read_until: datetime = _when()
    by: str = ""  # the worker id of the process whose reader set it


class Blob(SQLModel, table=True):
    """Attachment bytes, stored once however many messages carry them."""

    __tablename__ = "blobs"

    id: int | None = Field(default=None, primary_key=True)
    sha256: str = Field(unique=True)
    data: bytes = Field(sa_type=LargeBinary)


class OutboxAttachment(SQLModel, table=True):
    __tablename__ = "outbox_attachments"

    id: int | None = Field(default=None, primary_key=True)
    outbox_id: int = Field(foreign_key="outbox.id", index=True)
    position: int
    filename: str
    content_type: str
    blob_id: int = Field(foreign_key="blobs.id")


class GmAction(SQLModel, table=True):
    """The referee's log: every game-master action, who and when."""

    __tablename__ = "gm_actions"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, index=True)
    actor: str
    action: str
    args: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = _when(default_factory=utcnow)


metadata = SQLModel.metadata
