"""Where things are drawn: cell centres, cell outlines and the picture's regions.

This is the one geometry of every field picture: the PNG diagrams
(:mod:`bot.render.diagram`) and the web page's SVG (:mod:`bot.render.svg`)
both place everything through a :class:`Layout`.  The hex field is drawn
with pointy-top hexagons: a cell's doubled coordinates (row, x) map straight
to pixels, half a hex width per x unit, three quarters of a hex height per
row.  A square board (:mod:`bot.render.board`) gets squares one hex width
wide, so every size given in hex radii fits it too.  Tests and other modules
find a cell on a picture through :data:`LAYOUT` (or a :class:`Layout` of their
own size) instead of guessing pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from .board import HEX_BOARD, Board

__all__ = ["LAYOUT", "Layout", "Point"]

Point = tuple[float, float]

_SQRT3 = math.sqrt(3.0)
LAYOUT_RADIUS = (1280 - 40) / 17.0 / _SQRT3  # the standard picture's hex radius


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of a field picture ``width`` pixels wide.

    ``radius`` is the hexagon's centre-to-corner distance; the classic field
    spans 17 hex widths, so the width fixes everything else.  ``header`` and
    ``panel`` (the text bands above and below the field) are given for the
    standard 1280-px picture and grow with the width (0 for the field alone).
    """

    width: int = 1280
    margin: int = 20
    header: int = 64
    panel: int = 330
    board: Board = HEX_BOARD
    radius: float = field(init=False)
    # header and panel as given (before scaling), for the same layout on another board
    given: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "given", (self.header, self.panel))
        hex_width = (self.width - 2 * self.margin) / self.board.widths
        object.__setattr__(self, "radius", hex_width / _SQRT3)
        object.__setattr__(self, "header", round(self.header * self.scale))
        object.__setattr__(self, "panel", round(self.panel * self.scale))

    @property
    def hex_width(self) -> float:
        return self.radius * _SQRT3

    @property
    def field_top(self) -> int:
        return self.header

    @property
    def field_height(self) -> int:
        rows = self.board.rows
        if self.board.shape == "square":
            return math.ceil(self.hex_width * rows) + 4
        # Row steps of 1.5 R plus a full hex height (2 R) for the end rows.
        return math.ceil(self.radius * (1.5 * (rows - 1) + 2.0)) + 4

    @property
    def panel_top(self) -> int:
        return self.field_top + self.field_height

    @property
    def height(self) -> int:
        return self.panel_top + self.panel

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def for_board(self, board: Board) -> Layout:
        """The same picture size on another board (self if it is this one)."""
        if board == self.board:
            return self
        return Layout(self.width, self.margin, *self.given, board=board)

    def centre(self, cell: int) -> Point:
        """Pixel centre of a cell (a ValueError for a cell not on the field)."""
        if not self.board.is_cell(cell):
            raise ValueError(f"cell {cell} is not on the field (1..{self.board.cell_count})")
        return self._centres[cell - 1]

    def _compute(self, row: int, x: int) -> Point:
        w = self.hex_width
        if self.board.shape == "square":
            return (self.margin + w / 2.0 + x * w, self.field_top + 2 + w / 2.0 + row * w)
        px = self.margin + w / 2.0 + x * w / 2.0
        py = self.field_top + 2 + self.radius + row * 1.5 * self.radius
        return (px, py)

    @cached_property
    def _centres(self) -> tuple[Point, ...]:
        return tuple(self._compute(*self.board.coord(c)) for c in self.board.cells)

    def hexagon(self, cell: int, scale: float = 1.0) -> list[Point]:
        """The corners of a cell's outline, clockwise from the top: six for a
        hexagon, four for a square (the name stays: most fields are hexes)."""
        cx, cy = self.centre(cell)
        if self.board.shape == "square":
            h = self.hex_width / 2.0 * scale
            return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
        r = self.radius * scale
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]

    def cell_at(self, px: float, py: float) -> int | None:
        """The cell whose outline contains the pixel, or None (nearest centre)."""
        best: int | None = None
        best_d = self.hex_width / 2.0
        if self.board.shape == "square":
            best_d *= math.sqrt(2.0)
        for cell in self.board.cells:
            cx, cy = self.centre(cell)
            d = math.hypot(px - cx, py - cy)
            if d <= best_d:
                best, best_d = cell, d
        if best is not None and self.board.shape == "square":
            cx, cy = self.centre(best)
            h = self.hex_width / 2.0
            if abs(px - cx) > h or abs(py - cy) > h:
                return None
        return best

    def content_centre(self, cell: int) -> Point:
        """Where a cell's players and balls are grouped: a little below the number."""
        cx, cy = self.centre(cell)
        return (cx, cy + self.radius * 0.14)

    @property
    def scale(self) -> float:
        """This picture's size against the standard 1280-px one."""
        return self.radius / LAYOUT_RADIUS

    def scaled(self, value: float) -> int:
        """A size given for the standard 1280-px picture, scaled to this one."""
        return max(1, round(value * self.scale))


LAYOUT = Layout()
