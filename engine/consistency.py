"""Is a state document a possible position?  What the resolver assumes.

:meth:`MatchState.from_json` checks the shape of a document; this checks its
meaning against a ruleset (cells on the field, balls where their status
says, dragons on their half, ...).  Boundaries that accept states from
outside (the CLI, the database) call :func:`state_problems` before resolving.
"""

from __future__ import annotations

from .field import SquareField
from .resolution.geo import dragon_after, dragon_cells_problem
from .ruleset import Ruleset
from .square_dragon import dragon_cells
from .state import MatchState, effect_names

__all__ = ["state_problems"]

_EFFECTS = ("daze", "sneeze")


def state_problems(state: MatchState, ruleset: Ruleset) -> list[str]:
    """Every inconsistency found, as English sentences (empty: all is well)."""
    out: list[str] = []
    field = ruleset.field
    CELL_COUNT = field.cell_count
    if state.ruleset != ruleset.name:
        out.append(f"the state is for ruleset {state.ruleset!r}, not {ruleset.name!r}")
    if state.round < 1 or not 0 <= state.tick <= ruleset.ticks_per_round:
        out.append(f"round {state.round}, tick {state.tick} is not a moment of a match")
    heights = ruleset.heights
    names = [b.name for b in state.balls]
    if sorted(names) != sorted(ruleset.ball_order):
        out.append(f"the balls are {names}, not {list(ruleset.ball_order)}")
    for p in state.players:
        who = f"player {p.side} {p.number}"
        if p.status == "active":
            if p.cell is None or not 1 <= p.cell <= CELL_COUNT:
                out.append(f"{who} is active on no cell of the field ({p.cell})")
            if p.height not in heights:
                out.append(f"{who} flies at height {p.height}")
        elif p.balls:
            out.append(f"{who} holds balls while {p.status}")
        if len(p.balls) > ruleset.catch.max_balls_held:
            out.append(f"{who} holds {len(p.balls)} balls")
        for name in p.balls:
            ball = next((b for b in state.balls if b.name == name), None)
            if ball is None or ball.status != "held" or ball.holder != p.ref:
                out.append(f"{who} holds the {name} ball, but the ball says otherwise")
    for b in state.balls:
        if b.status == "held":
            holder = None if b.holder is None else state.find_player(b.holder.side, b.holder.number)
            if holder is None or b.name not in holder.balls:
                out.append(f"the {b.name} ball is held by nobody who holds it")
        elif b.status in ("free", "vanished"):
            if b.cell is None or not 1 <= b.cell <= CELL_COUNT or b.height not in heights:
                out.append(f"the {b.name} ball is {b.status} at no place ({b.cell}, {b.height})")
        elif b.status == "swallowed" and b.swallowed_by is None:
            out.append(f"the {b.name} ball is swallowed by no dragon")
        if b.pass_to is not None:
            cell, height = b.pass_to
            if b.status != "free" or not 1 <= cell <= CELL_COUNT or height not in heights:
                out.append(f"the {b.name} ball is in the air to no place ({cell}, {height})")
    for d in state.dragons:
        if isinstance(field, SquareField):
            ok = field.is_cell(d.head) and (
                dragon_cells(field, d.head, d.facing, d.mark("turn") or 0, d.mark("turn_step") or 0)
                is not None
            )
        else:
            cells = dragon_after(d.head, d.facing, "stay") if 1 <= d.head <= CELL_COUNT else None
            ok = cells is not None and not dragon_cells_problem(
                d.side, (cells[0], cells[2], cells[3])
            )
        if not ok:
            out.append(f"the {d.side} dragon cannot lie at {d.head} facing {d.facing.name}")
        if d.height not in heights:
            out.append(f"the {d.side} dragon flies at height {d.height}")
        if any(e not in _EFFECTS for e in effect_names(d.effect)):
            out.append(f"the {d.side} dragon has an unknown lasting effect {d.effect!r}")
        effects = {b.effect for b in ruleset.balls.values()}
        if any(e not in effects for entry in d.pending_effects for e in effect_names(entry)):
            out.append(f"the {d.side} dragon has unknown pending effects {d.pending_effects}")
        if min(d.short_left, d.volleys_left, d.open_ticks) < 0:
            out.append(f"the {d.side} dragon has a negative fire budget or breath count")
        for ref in d.swallowed_players:
            if state.find_player(ref.side, ref.number) is None:
                out.append(f"the {d.side} dragon swallowed an unknown player {ref.number}")
    return out
