"""End of a tick and of a round: the end conditions of §1."""

from __future__ import annotations

from collections.abc import Callable

from ..events import Kind
from .context import Tick

__all__ = ["close_tick", "end_of_tick", "record_warnings"]


def end_of_tick(t: Tick) -> None:
    """Checks 1, 2 and 4 of §1 after every tick and the round limit after the
    round's last tick; moves the state on to the next round."""
    close_tick(t, 7, _ended(t), record_warnings)


def close_tick(
    t: Tick, step: int, reason: str | None, at_round_end: Callable[[Tick, int], None] | None = None
) -> None:
    """The end of a tick in any edition: ``reason`` (the edition's end
    condition that holds, or None) ends the match; else the round's last tick
    ends the round (``at_round_end`` first) and the last round the match."""
    w = t.w
    w.tick = t.tick
    if reason is None and t.tick >= t.rules.ticks_per_round:
        if at_round_end is not None:
            at_round_end(t, step)
        t.emit(step, Kind.ROUND_END, {})
        if w.round >= t.rules.max_rounds:
            reason = "max_rounds"
        else:
            w.round += 1
            w.tick = 0
    if reason is not None:
        w.status = "ended"
        w.end_reason = reason
        score = {"left": w.teams["left"].score, "right": w.teams["right"].score}
        t.emit(step, Kind.MATCH_END, {"reason": reason, "score": score})


def _ended(t: Tick) -> str | None:
    w = t.w
    in_play = 0
    any_in_play = False
    for b in w.balls:
        if b.status != "swallowed" and b.status != "burnt":
            any_in_play = True
            in_play += b.value
    if not any_in_play:
        return "all_balls"
    field_only = t.rules.team_swallowed == "field"
    for side in ("left", "right"):
        # A reserve cannot come on for a swallowed player (§8): with "field" he
        # does not keep a team that has nobody left on the field in the match.
        team = [
            p for p in w.players if p.side == side and not (field_only and p.status == "reserve")
        ]
        if team and all(p.status == "swallowed" for p in team):
            return "team_swallowed"
    if t.rules.end_when_decided:
        lead = abs(w.teams["left"].score - w.teams["right"].score)
        if lead > in_play:
            return "decided"
    return None


def record_warnings(t: Tick, step: int) -> None:
    """§10: the game master's warnings of this round are recorded when it
    ends, so a penalty in the next round finds them (and none in this one)."""
    for warning in t.orders.warnings:
        team = t.w.teams.get(warning.side)
        if team is None:
            continue
        team.warnings += 1
        team.warned_round = t.round
        t.emit(step, Kind.WARNING, {"side": warning.side, "count": team.warnings})
