"""The board a picture is drawn on: which cells there are and where they sit.

Both the PNG diagrams and the web page's SVG take their cells from a
:class:`Board`, so a field of another shape is drawn by both without a second
drawing.  The classic field is the 211-cell hex board of ``engine.geometry``;
a ruleset whose ``field_shape`` is ``"square"`` plays on a grid of
``field_rows`` × ``field_columns`` squares numbered left to right, top to
bottom (:func:`board_for`).

Cell positions are given in *grid units*: for hexes the doubled coordinates
(row, x) of ``engine.geometry`` (half a hex width per x unit); for squares
(row, column).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypeGuard

from engine import geometry
from engine.geometry import Side
from engine.ruleset import Ruleset

__all__ = ["HEX_BOARD", "Board", "Shape", "board_for"]

Shape = Literal["hex", "square"]


@dataclass(frozen=True, slots=True)
class Board:
    """The cells of a field, their grid positions, halves and edges."""

    shape: Shape
    coords: tuple[tuple[int, int], ...]  # cell n is coords[n - 1]
    halves: tuple[Side | None, ...]
    edge: frozenset[int]
    centre_line: tuple[int, ...]

    @property
    def cells(self) -> range:
        return range(1, len(self.coords) + 1)

    @property
    def cell_count(self) -> int:
        return len(self.coords)

    def is_cell(self, cell: Any) -> TypeGuard[int]:
        return (
            isinstance(cell, int) and not isinstance(cell, bool) and 1 <= cell <= len(self.coords)
        )

    def coord(self, cell: int) -> tuple[int, int]:
        return self.coords[cell - 1]

    def half_of(self, cell: int) -> Side | None:
        return self.halves[cell - 1]

    def is_edge(self, cell: int) -> bool:
        return cell in self.edge

    @property
    def rows(self) -> int:
        return max(r for r, _ in self.coords) + 1

    @property
    def span(self) -> int:
        """Width of the board in grid units (the largest x or column, plus one)."""
        return max(x for _, x in self.coords) + 1

    @property
    def widths(self) -> float:
        """Width of the board in cell widths."""
        return (self.span + 1) / 2.0 if self.shape == "hex" else float(self.span)

    @staticmethod
    def square(rows: int, columns: int) -> Board:
        """A ``rows`` × ``columns`` grid of squares, numbered row by row.

        Halves split the columns; an odd number of columns has a middle column
        that belongs to neither half and is the centre line.
        """
        if rows < 2 or columns < 2:
            raise ValueError(f"a square field needs at least 2×2 cells, not {rows}×{columns}")
        coords = tuple((r, c) for r in range(rows) for c in range(columns))
        middle = (columns - 1) / 2.0

        def half(c: int) -> Side | None:
            return "left" if c < middle else "right" if c > middle else None

        edge = frozenset(
            n + 1 for n, (r, c) in enumerate(coords) if r in (0, rows - 1) or c in (0, columns - 1)
        )
        centre = tuple(n + 1 for n, (_, c) in enumerate(coords) if c == middle)
        return Board("square", coords, tuple(half(c) for _, c in coords), edge, centre)


HEX_BOARD = Board(
    "hex",
    tuple(geometry.coord(c) for c in geometry.CELLS),
    tuple(geometry.half_of(c) for c in geometry.CELLS),
    geometry.EDGE_CELLS,
    geometry.CENTRE_LINE,
)


def board_for(ruleset: Ruleset | None) -> Board:
    """The board ``ruleset`` plays on (the hex board without a ruleset)."""
    if ruleset is None or ruleset.field_shape == "hex":
        return HEX_BOARD
    return _square(ruleset.field_rows, ruleset.field_columns)


@cache
def _square(rows: int, columns: int) -> Board:
    return Board.square(rows, columns)
