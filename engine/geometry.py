"""The Dragonball field: a 211-cell hex grid and its geometry.

Cells are numbered 1..211 left to right, top to bottom, in 13 rows of
15, 16, 17, 16, 17, ... , 16, 15 cells (see docs/rules.md, §2).  Internally a
cell is also addressed by *doubled coordinates* (row, x): 17-cell rows use
x = 0, 2, ..., 32; 16-cell rows x = 1, 3, ..., 31; 15-cell rows x = 2, ..., 30.
Cell numbers are the public coordinates players write; everything here is
derived once at import and then read only.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final, Literal

Side = Literal["left", "right"]
SIDES: Final[tuple[Side, Side]] = ("left", "right")

ROW_LENGTHS: Final = (15, 16, 17, 16, 17, 16, 17, 16, 17, 16, 17, 16, 15)
CELL_COUNT: Final = sum(ROW_LENGTHS)
CENTRE_X: Final = 16
CENTRE_CELL: Final = 106
HEIGHTS: Final = (1, 2, 3)


class Direction(IntEnum):
    """The straight directions.  On the hex field the six of ``HEX_DIRECTIONS``,
    clockwise from east (rows grow downwards); a square field (engine.field)
    adds north and south to make its eight (``SQUARE_DIRECTIONS``).  The hex
    values 0–5 index the hex tables, so N and S come after them."""

    E = 0
    SE = 1
    SW = 2
    W = 3
    NW = 4
    NE = 5
    N = 6
    S = 7

    def turned(self, steps: int) -> Direction:
        """On the hex field: turned clockwise by ``steps`` × 60°."""
        return Direction((self.value + steps) % 6)

    @property
    def opposite(self) -> Direction:
        """On the hex field: the direction 180° away."""
        return self.turned(3)


HEX_DIRECTIONS: Final[tuple[Direction, ...]] = tuple(d for d in Direction if d.value < 6)


# (d_row, d_x) of one step in each direction, in doubled coordinates.
STEP: Final[dict[Direction, tuple[int, int]]] = {
    Direction.E: (0, 2),
    Direction.SE: (1, 1),
    Direction.SW: (1, -1),
    Direction.W: (0, -2),
    Direction.NW: (-1, -1),
    Direction.NE: (-1, 1),
}


def _build() -> tuple[dict[int, tuple[int, int]], dict[tuple[int, int], int]]:
    to_coord: dict[int, tuple[int, int]] = {}
    to_cell: dict[tuple[int, int], int] = {}
    number = 1
    for row, length in enumerate(ROW_LENGTHS):
        first_x = 17 - length  # 17 → 0, 16 → 1, 15 → 2
        for i in range(length):
            coord = (row, first_x + 2 * i)
            to_coord[number] = coord
            to_cell[coord] = number
            number += 1
    return to_coord, to_cell


_COORD, _CELL = _build()
CELLS: Final[tuple[int, ...]] = tuple(range(1, CELL_COUNT + 1))


def is_cell(cell: int) -> bool:
    return 1 <= cell <= CELL_COUNT


def coord(cell: int) -> tuple[int, int]:
    """Doubled coordinates (row, x) of a cell."""
    return _COORD[cell]


def cell_at(row: int, x: int) -> int | None:
    """The cell at doubled coordinates, or None off the field."""
    return _CELL.get((row, x))


def step(cell: int, direction: Direction, count: int = 1) -> int | None:
    """The cell ``count`` straight steps away, or None if that leaves the field."""
    row, x = _COORD[cell]
    d_row, d_x = STEP[direction]
    return _CELL.get((row + d_row * count, x + d_x * count))


def _neighbours(cell: int) -> tuple[int, ...]:
    found = (step(cell, d) for d in HEX_DIRECTIONS)
    return tuple(c for c in found if c is not None)


NEIGHBOURS: Final[dict[int, tuple[int, ...]]] = {c: _neighbours(c) for c in CELLS}


def neighbours(cell: int) -> tuple[int, ...]:
    return NEIGHBOURS[cell]


def distance(a: int, b: int) -> int:
    """Hex distance in cells."""
    r1, x1 = _COORD[a]
    r2, x2 = _COORD[b]
    d_row = abs(r1 - r2)
    d_x = abs(x1 - x2)
    return d_row + max(0, (d_x - d_row) // 2)


def direction_between(a: int, b: int) -> Direction | None:
    """The straight direction closest to the line a → b (None when a == b).

    Ties are broken towards the lower direction number so the answer is
    deterministic; the engine uses it for the direction a passed ball keeps.
    """
    if a == b:
        return None
    r1, x1 = _COORD[a]
    r2, x2 = _COORD[b]
    # Cartesian: a doubled-x unit is half a hex width; a row is sqrt(3)/2 widths.
    vx = (x2 - x1) / 2.0
    vy = (r2 - r1) * 0.8660254037844386
    best: Direction | None = None
    best_score = float("-inf")
    for d in HEX_DIRECTIONS:
        d_row, d_x = STEP[d]
        ux = d_x / 2.0
        uy = d_row * 0.8660254037844386
        score = vx * ux + vy * uy
        if score > best_score + 1e-9:
            best, best_score = d, score
    return best


def line(cell: int, direction: Direction, length: int) -> tuple[int, ...]:
    """Up to ``length`` cells straight ahead of ``cell`` (stops at the edge)."""
    out: list[int] = []
    current: int | None = cell
    for _ in range(length):
        current = step(current, direction) if current is not None else None
        if current is None:
            break
        out.append(current)
    return tuple(out)


def half_of(cell: int) -> Side | None:
    """Which half a cell lies in; None for the centre line."""
    x = _COORD[cell][1]
    if x < CENTRE_X:
        return "left"
    if x > CENTRE_X:
        return "right"
    return None


CENTRE_LINE: Final[tuple[int, ...]] = tuple(c for c in CELLS if _COORD[c][1] == CENTRE_X)
EDGE_CELLS: Final[frozenset[int]] = frozenset(c for c in CELLS if len(NEIGHBOURS[c]) < 6)
HALF_CELLS: Final[dict[Side, tuple[int, ...]]] = {
    side: tuple(c for c in CELLS if half_of(c) == side) for side in SIDES
}


def is_edge(cell: int) -> bool:
    return cell in EDGE_CELLS


def ring(cell: int, radius: int) -> tuple[int, ...]:
    """Cells at exactly ``radius`` from ``cell`` that are on the field."""
    return tuple(c for c in CELLS if distance(cell, c) == radius)


def fire_cone(head: int, facing: Direction, depth: int) -> tuple[int, ...]:
    """The 120° cone of fire ahead of a dragon's head, ``depth`` cells deep.

    At distance k the cone holds the 2k + 1 ring cells within k of the cell
    k steps straight ahead: 3 + 5 = 8 cells for a short flame (depth 2) and
    3 + 5 + 7 = 15 for a volley (depth 3), fewer where the field ends.
    """
    out: list[int] = []
    row, x = _COORD[head]
    d_row, d_x = STEP[facing]
    for k in range(1, depth + 1):
        # The point k steps ahead may be off the field; compare by coordinates.
        ahead = (row + d_row * k, x + d_x * k)
        for c in ring(head, k):
            if _coord_distance(_COORD[c], ahead) <= k:
                out.append(c)
    return tuple(out)


def _coord_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    d_row = abs(a[0] - b[0])
    d_x = abs(a[1] - b[1])
    return d_row + max(0, (d_x - d_row) // 2)


def dragon_cells(head: int, facing: Direction) -> tuple[int, int, int] | None:
    """(head, body, tail) of a dragon whose head is at ``head``, or None off-field."""
    body = step(head, facing.opposite)
    tail = step(head, facing.opposite, 2)
    if body is None or tail is None:
        return None
    return head, body, tail


def mouth_cells(head: int, facing: Direction) -> tuple[int, ...]:
    """The five cells next to the head (its neighbours less the body)."""
    body = step(head, facing.opposite)
    return tuple(c for c in NEIGHBOURS[head] if c != body)


def cells_sorted(cells: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(set(cells)))
