"""Reading the demo game's record back from the database: the position after
the last resolved round and the events, as an inspector of the SQLite file
would (read-only; the service writes)."""

from __future__ import annotations

import itertools

from engine.events import Event
from engine.state import MatchState
from storage import repo
from storage.db import Database

__all__ = ["all_events", "last_round_events", "position_after_last_round"]


def _last_round(db: Database, game_id: int) -> int | None:
    with db.transaction() as s:
        done = repo.resolved_rounds(s, game_id)
        return done[-1].id if done else None


def position_after_last_round(db: Database, game_id: int) -> MatchState | None:
    """The position after the last tick played of the game's last resolved round."""
    round_id = _last_round(db, game_id)
    if round_id is None:
        return None
    data = None
    with db.transaction() as s:
        for tick in itertools.count(0):
            snap = repo.snapshot(s, round_id, tick)
            if snap is None:
                break
            data = snap
    return MatchState.from_json(data) if data is not None else None


def last_round_events(db: Database, game_id: int) -> list[Event]:
    round_id = _last_round(db, game_id)
    if round_id is None:
        return []
    with db.transaction() as s:
        return [Event.from_json(e) for e in repo.events_of_round(s, round_id)]


def all_events(db: Database, game_id: int) -> list[Event]:
    """Every event of every resolved round, in order."""
    with db.transaction() as s:
        return [
            Event.from_json(e)
            for rnd in repo.resolved_rounds(s, game_id)
            if rnd.id is not None
            for e in repo.events_of_round(s, rnd.id)
        ]
