"""What every service operation works with: one transaction and who asked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from engine.state import MatchState
from storage.models import Game, Member

from .api import OutboxItem
from .ports import Reporter
from .positions import PositionCache
from .settings import ServiceSettings

__all__ = ["Actor", "ServiceError", "Tx", "game_code", "parse_game_code"]


class ServiceError(Exception):
    """An operation refused for a reason the asker should read.

    ``key`` and ``params`` name an i18n text; ``status`` is the Reply status.
    """

    def __init__(self, key: str, status: str = "rejected", **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.params = params


@dataclass
class Tx:
    """One transaction of one operation."""

    s: Session
    settings: ServiceSettings
    now: datetime
    reporter: Reporter
    # Called (with the game id and round number) between the engine run and the
    # commit of a resolution; tests use it to kill the process at that point.
    after_engine: Callable[[int, int], None] | None = None
    queued: list[int] = field(default_factory=list)  # outbox ids written in this transaction
    # Positions already parsed (shared by the service's transactions), and the ones
    # this transaction read, added to the cache once it has committed.
    positions: PositionCache | None = None
    read_positions: dict[tuple[int, int], MatchState] = field(default_factory=dict)
    # Channels whose answers may be delivered at once by a courier (the outbox
    # worker): replies to them are queued already claimed and collected here.
    express: frozenset[str] = frozenset()
    claimed: list[OutboxItem] = field(default_factory=list)
    # An order message read and checked before this transaction began (an
    # ``ordering.OrderPlan``): used if nothing it relied on changed meanwhile.
    plan: Any = None
    # The worker process that claims outbox items in this transaction (Worker.id).
    owner: str | None = None
    # Where the answer to the message being worked on goes (channel, address):
    # an announcement made while answering skips it, its reader has the answer.
    answering: tuple[str, str] | None = None


@dataclass(frozen=True)
class Actor:
    """Who is asking: a member (if known), and whether he is a game master everywhere."""

    identity: str  # "telegram:123", "email:a@b.c", "cli", "system"
    member: Member | None = None
    global_gm: bool = False
    lang: str = "ru"

    @property
    def trusted(self) -> bool:
        """The local operator (command line, the service itself)."""
        return self.identity in ("cli", "system")


def game_code(game: Game | int | None) -> str:
    """The short name players see: "DB-12"."""
    number = game.id if isinstance(game, Game) else game
    return f"DB-{number}"


def parse_game_code(text: str | None) -> int | None:
    """ "DB-12", "db12", "#DB-12" or "12" → 12; anything else → None."""
    if not text:
        return None
    t = text.strip().lstrip("#[").rstrip("]").upper()
    if t.startswith("DB"):
        t = t[2:].lstrip("-_ ")
    return int(t) if t.isdigit() and len(t) < 10 else None
