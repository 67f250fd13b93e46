"""The playing field a ruleset chooses, behind one interface.

The classic edition plays on the 211-cell hex field of :mod:`engine.geometry`
(:class:`HexField` answers from it); the second edition (seed 001) on a grid
of squares (:class:`SquareField`), where a cell has eight neighbours and the
straight lines are the rows, the columns and the diagonals («по прямым и
диагоналям»).  Cells are numbered from 1, left to right and top to bottom, on
both.  A ruleset's ``field`` property gives its field; the steps and checks
that serve every edition ask it, the classic steps keep their precomputed hex
tables (:mod:`engine.resolution.geo`).
"""

from __future__ import annotations

from functools import cache
from typing import Final, Protocol

from . import geometry
from .geometry import HEX_DIRECTIONS, Direction, Side

__all__ = ["SQUARE_DIRECTIONS", "Field", "HexField", "SquareField", "field_of"]

# Clockwise from north; (d_row, d_col) of one step (rows grow downwards).
SQUARE_DIRECTIONS: Final[tuple[Direction, ...]] = (
    Direction.N,
    Direction.NE,
    Direction.E,
    Direction.SE,
    Direction.S,
    Direction.SW,
    Direction.W,
    Direction.NW,
)
SQUARE_STEP: Final[dict[Direction, tuple[int, int]]] = {
    Direction.N: (-1, 0),
    Direction.NE: (-1, 1),
    Direction.E: (0, 1),
    Direction.SE: (1, 1),
    Direction.S: (1, 0),
    Direction.SW: (1, -1),
    Direction.W: (0, -1),
    Direction.NW: (-1, -1),
}
# The four a dragon may face on squares («поворачивает в 4 направлениях»).
ORTHOGONAL: Final[tuple[Direction, ...]] = (Direction.N, Direction.E, Direction.S, Direction.W)


class Field(Protocol):
    """What every edition's steps and checks may ask of a field."""

    shape: str

    @property
    def cell_count(self) -> int: ...

    @property
    def directions(self) -> tuple[Direction, ...]:
        """The straight directions of this field."""
        ...

    @property
    def centre_cell(self) -> int: ...

    def is_cell(self, cell: int) -> bool: ...

    def step(self, cell: int, direction: Direction, count: int = 1) -> int | None:
        """The cell ``count`` straight steps away, or None off the field."""
        ...

    def neighbours(self, cell: int) -> tuple[int, ...]: ...

    def distance(self, a: int, b: int) -> int:
        """Cells a player needs to fly from a to b."""
        ...

    def half_of(self, cell: int) -> Side | None:
        """The half a cell lies in; None on the centre line."""
        ...

    def is_edge(self, cell: int) -> bool: ...

    def line_direction(self, a: int, b: int) -> Direction | None:
        """The straight direction from a that passes through b, or None when
        b is not on one of a's straight lines (or is a itself)."""
        ...


class HexField:
    """The classic 211-cell hex field (engine.geometry)."""

    shape = "hex"

    @property
    def cell_count(self) -> int:
        return geometry.CELL_COUNT

    @property
    def directions(self) -> tuple[Direction, ...]:
        return HEX_DIRECTIONS

    @property
    def centre_cell(self) -> int:
        return geometry.CENTRE_CELL

    def is_cell(self, cell: int) -> bool:
        return geometry.is_cell(cell)

    def step(self, cell: int, direction: Direction, count: int = 1) -> int | None:
        if direction not in HEX_DIRECTIONS:
            return None
        return geometry.step(cell, direction, count)

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return geometry.neighbours(cell)

    def distance(self, a: int, b: int) -> int:
        return geometry.distance(a, b)

    def half_of(self, cell: int) -> Side | None:
        return geometry.half_of(cell)

    def is_edge(self, cell: int) -> bool:
        return geometry.is_edge(cell)

    def line_direction(self, a: int, b: int) -> Direction | None:
        for d in HEX_DIRECTIONS:
            if b in geometry.line(a, d, geometry.CELL_COUNT):
                return d
        return None


class SquareField:
    """A ``rows`` × ``columns`` grid of squares, numbered row by row from 1.

    Distance is the king's: a player flies to any of the eight neighbours in
    a tick.  The centre line is the middle column (an odd number of columns)
    or none (an even number: the halves meet between two columns).
    """

    shape = "square"

    def __init__(self, rows: int, columns: int) -> None:
        self.rows = rows
        self.columns = columns

    @property
    def cell_count(self) -> int:
        return self.rows * self.columns

    @property
    def directions(self) -> tuple[Direction, ...]:
        return SQUARE_DIRECTIONS

    @property
    def centre_cell(self) -> int:
        return self.cell_at(self.rows // 2, self.columns // 2) or 1

    def coord(self, cell: int) -> tuple[int, int]:
        """(row, column) from 0."""
        return divmod(cell - 1, self.columns)

    def cell_at(self, row: int, col: int) -> int | None:
        if 0 <= row < self.rows and 0 <= col < self.columns:
            return row * self.columns + col + 1
        return None

    def is_cell(self, cell: int) -> bool:
        return 1 <= cell <= self.cell_count

    def step(self, cell: int, direction: Direction, count: int = 1) -> int | None:
        row, col = self.coord(cell)
        d_row, d_col = SQUARE_STEP[direction]
        return self.cell_at(row + d_row * count, col + d_col * count)

    def neighbours(self, cell: int) -> tuple[int, ...]:
        found = (self.step(cell, d) for d in SQUARE_DIRECTIONS)
        return tuple(c for c in found if c is not None)

    def distance(self, a: int, b: int) -> int:
        r1, c1 = self.coord(a)
        r2, c2 = self.coord(b)
        return max(abs(r1 - r2), abs(c1 - c2))

    def half_of(self, cell: int) -> Side | None:
        col = self.coord(cell)[1]
        twice = 2 * col + 1  # the column's middle, in half columns
        if twice < self.columns:
            return "left"
        if twice > self.columns:
            return "right"
        return None

    def is_edge(self, cell: int) -> bool:
        row, col = self.coord(cell)
        return row in (0, self.rows - 1) or col in (0, self.columns - 1)

    def line_direction(self, a: int, b: int) -> Direction | None:
        if a == b:
            return None
        r1, c1 = self.coord(a)
        r2, c2 = self.coord(b)
        dr, dc = r2 - r1, c2 - c1
        if dr != 0 and dc != 0 and abs(dr) != abs(dc):
            return None
        unit = ((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))
        for d, s in SQUARE_STEP.items():
            if s == unit:
                return d
        return None  # pragma: no cover - every unit step is a direction

    def towards(self, a: int, b: int) -> Direction | None:
        """The one-cell step from a that brings it closest to b."""
        if a == b:
            return None
        r1, c1 = self.coord(a)
        r2, c2 = self.coord(b)
        unit = ((r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1))
        for d, s in SQUARE_STEP.items():
            if s == unit:
                return d
        return None  # pragma: no cover

    def turned(self, direction: Direction, quarter_turns: int) -> Direction:
        """``direction`` turned clockwise by ``quarter_turns`` × 90°."""
        i = SQUARE_DIRECTIONS.index(direction)
        return SQUARE_DIRECTIONS[(i + 2 * quarter_turns) % 8]

    def opposite(self, direction: Direction) -> Direction:
        return self.turned(direction, 2)


_HEX: Final = HexField()


@cache
def _square(rows: int, columns: int) -> SquareField:
    return SquareField(rows, columns)


def field_of(shape: str, rows: int, columns: int) -> HexField | SquareField:
    """The field of a ruleset's ``[field]`` table."""
    if shape == "square":
        return _square(rows, columns)
    return _HEX


def dragon_cells_of(
    ruleset_field: HexField | SquareField, dragon: object
) -> tuple[int, ...] | None:
    """(head, body, tail) of a dragon state on its field, or None off it: for
    readers outside the resolver (diagrams, reports) that draw any edition."""
    from .state import DragonState

    assert isinstance(dragon, DragonState)
    if not ruleset_field.is_cell(dragon.head):
        return None
    if isinstance(ruleset_field, SquareField):
        from .square_dragon import dragon_cells

        return dragon_cells(
            ruleset_field,
            dragon.head,
            dragon.facing,
            dragon.mark("turn") or 0,
            dragon.mark("turn_step") or 0,
        )
    return geometry.dragon_cells(dragon.head, dragon.facing)


def mouth_cells_of(ruleset_field: HexField | SquareField, dragon: object) -> tuple[int, ...]:
    """The cells next to a dragon's head but its body (where it swallows or,
    on squares, where a shot at its head is thrown from)."""
    cells = dragon_cells_of(ruleset_field, dragon)
    if cells is None:
        return ()
    return tuple(c for c in ruleset_field.neighbours(cells[0]) if c not in cells[1:])
