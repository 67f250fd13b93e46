"""Precomputed field look-ups for the hot paths of resolution and legality.

Built once at import from :mod:`engine.geometry`; everything is a tuple or a
cache so inner loops do an index, not a computation.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from ..geometry import (
    CELL_COUNT,
    CELLS,
    EDGE_CELLS,
    HALF_CELLS,
    HEX_DIRECTIONS,
    SIDES,
    STEP,
    Direction,
    Side,
    coord,
    step,
)
from ..orders import DragonMove
from ..problems import Code

__all__ = [
    "DIRECTIONS",
    "DIST",
    "NEXT",
    "danger_cells",
    "dragon_after",
    "dragon_cells_problem",
    "fire_cells",
    "mouth_of",
    "on_field_directions",
]

DIRECTIONS: Final[tuple[Direction, ...]] = HEX_DIRECTIONS

# NEXT[cell][direction] is the neighbouring cell, or 0 off the field.
NEXT: Final[tuple[tuple[int, ...], ...]] = ((0,) * 6,) + tuple(
    tuple(step(c, d) or 0 for d in DIRECTIONS) for c in CELLS
)


# DIST[a][b]: hex distance; row and column 0 are unused.
def _distances(a: int) -> tuple[int, ...]:
    r1, x1 = coord(a)
    out = [0]
    for b in CELLS:
        r2, x2 = coord(b)
        d_row = abs(r1 - r2)
        d_x = abs(x1 - x2)
        out.append(d_row + max(0, (d_x - d_row) // 2))
    return tuple(out)


DIST: Final[tuple[tuple[int, ...], ...]] = ((0,) * (CELL_COUNT + 1),) + tuple(
    _distances(a) for a in CELLS
)

_ON_FIELD_DIRS: Final[tuple[tuple[Direction, ...], ...]] = ((),) + tuple(
    tuple(d for d in DIRECTIONS if NEXT[c][d]) for c in CELLS
)

_HALF_SETS: Final[dict[Side, frozenset[int]]] = {
    side: frozenset(HALF_CELLS[side]) for side in SIDES
}

# Cells a dragon may occupy: its own half, off the centre line and the edge.
_DRAGON_CELLS: Final[dict[Side, frozenset[int]]] = {
    side: frozenset(HALF_CELLS[side]) - EDGE_CELLS for side in SIDES
}


def on_field_directions(cell: int) -> tuple[Direction, ...]:
    """The directions whose first step from ``cell`` stays on the field."""
    return _ON_FIELD_DIRS[cell]


@cache
def _body_tail(head: int, facing: Direction) -> tuple[int, int]:
    back = facing.opposite
    body = NEXT[head][back]
    tail = NEXT[body][back] if body else 0
    return body, tail


@cache
def mouth_of(head: int, facing: Direction) -> frozenset[int]:
    """The five cells next to the head (its neighbours less the body)."""
    body = _body_tail(head, facing)[0]
    return frozenset(c for c in NEXT[head] if c and c != body)


@cache
def danger_cells(head: int, facing: Direction) -> frozenset[int]:
    """Where an open mouth can swallow: the head cell and the five next to it."""
    return mouth_of(head, facing) | {head}


@cache
def _ring(cell: int, radius: int) -> tuple[int, ...]:
    row = DIST[cell]
    return tuple(c for c in CELLS if row[c] == radius)


@cache
def fire_cells(head: int, facing: Direction, depth: int) -> tuple[int, ...]:
    """:func:`engine.geometry.fire_cone`, the same cells in the same order,
    computed from the distance table."""
    row, x = coord(head)
    d_row, d_x = STEP[facing]
    out: list[int] = []
    for k in range(1, depth + 1):
        a_row, a_x = row + d_row * k, x + d_x * k
        for c in _ring(head, k):
            c_row, c_x = coord(c)
            dr = abs(c_row - a_row)
            if dr + max(0, (abs(c_x - a_x) - dr) // 2) <= k:
                out.append(c)
    return tuple(out)


def dragon_after(
    head: int, facing: Direction, move: DragonMove
) -> tuple[int, Direction, int, int] | None:
    """(head, facing, body, tail) after ``move``, or None if it leaves the field.

    Forward: one cell ahead.  Left/right: a 60° turn about the body (§2).
    """
    if move == "forward":
        head = NEXT[head][facing]
        if not head:
            return None
    elif move in ("left", "right"):
        body = _body_tail(head, facing)[0]
        if not body:
            return None
        facing = facing.turned(-1 if move == "left" else 1)
        head = NEXT[body][facing]
        if not head:
            return None
    body, tail = _body_tail(head, facing)
    if not body or not tail:
        return None
    return head, facing, body, tail


def dragon_cells_problem(side: Side, cells: tuple[int, ...]) -> Code | None:
    """Why a dragon of ``side`` may not lie on ``cells`` (§2), or None."""
    allowed = _DRAGON_CELLS[side]
    if all(c in allowed for c in cells):
        return None
    if any(not 1 <= c <= CELL_COUNT for c in cells):
        return Code.DRAGON_OFF_FIELD
    half = _HALF_SETS[side]
    if any(c not in half for c in cells):
        return Code.DRAGON_OFF_HALF
    return Code.DRAGON_EDGE
