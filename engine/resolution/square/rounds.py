"""001 steps 0 and 11: the start and the end of a tick."""

from __future__ import annotations

from ...events import Kind
from ..context import Tick
from ..finish import close_tick, record_warnings
from ..start import penalties
from .base import on_field, var_or

__all__ = ["sq_end", "sq_start"]


def sq_start(t: Tick) -> None:
    w = t.w
    if t.tick == 1:
        t.emit(0, Kind.ROUND_START, {})
        for d in w.dragons:
            if d.marks.get("daze_round", t.round) < t.round:
                del d.marks["daze_round"]  # 001: «до конца раунда»
    for p in w.players:
        p.prev = (p.cell, p.height)
        if (
            p.status == "hospital"
            and p.return_round == t.round
            and p.marks.get("return_tick") == t.tick
        ):
            p.status = "active"
            p.cell = p.marks.pop("return_cell")
            p.height = p.marks.pop("return_height")
            p.marks.pop("return_tick")
            p.return_round = None
            p.prev = (p.cell, p.height)
            t.emit(
                0,
                Kind.PLAYER_LAUNCH,
                {
                    "side": p.side,
                    "number": p.number,
                    "cell": p.cell,
                    "height": p.height,
                    "ordered": False,
                },
            )
    if _classic_penalties(t):
        penalties(t, lambda cell: on_field(t, cell))


def _classic_penalties(t: Tick) -> bool:
    """001 is silent on penalties: the classic §10 (version 1: accepted, and
    nothing happened)."""
    return bool(var_or(t, "penalties", "none") == "classic")


def sq_end(t: Tick) -> None:
    """001's end: 1. the yellow ball scored; 2. every player out of the game;
    3. every ball scored or burnt — and the classic last round."""
    close_tick(t, 11, _end_reason(t), record_warnings if _classic_penalties(t) else None)


def _end_reason(t: Tick) -> str | None:
    w = t.w
    if any(d.marks.get("asleep") for d in w.dragons):
        return "asleep"
    if all(b.status in ("swallowed", "burnt") for b in w.balls):
        return "all_balls"
    if w.players and all(p.status in ("out", "swallowed", "reserve") for p in w.players):
        return "all_players_out"
    return None
