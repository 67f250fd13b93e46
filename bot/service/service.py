"""The game service: what every channel calls.  No Telegram or e-mail here.

Each public coroutine runs one database transaction in a worker thread
(SQLAlchemy sessions are synchronous), so the event loop never blocks on
the database or the engine.
"""

from __future__ import annotations

from .facade.deliveries import Deliveries
from .facade.due import DueRounds
from .facade.masters import GameMasters

__all__ = ["GameService"]


class GameService(DueRounds, GameMasters, Deliveries):
    """The transport-free core of the judge.

    ``by`` in the game-master methods names who acts: ``"telegram:<user id>"``,
    ``"email:<address>"``, or ``"cli"`` (the local operator, always allowed).
    """
