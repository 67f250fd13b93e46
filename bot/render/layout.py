"""Where things are drawn: cell centres, hex outlines and the picture's regions.

The field is drawn with pointy-top hexagons.  A cell's doubled coordinates
(row, x) map straight to pixels: half a hex width per x unit, three quarters
of a hex height per row.  Tests and other modules find a cell on a picture
through :data:`LAYOUT` (or a :class:`Layout` of their own size) instead of
guessing pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from engine import geometry

__all__ = ["LAYOUT", "Layout", "Point"]

Point = tuple[float, float]

_SQRT3 = math.sqrt(3.0)
LAYOUT_RADIUS = (1280 - 40) / 17.0 / _SQRT3  # the standard picture's hex radius


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of a field picture ``width`` pixels wide.

    ``radius`` is the hexagon's centre-to-corner distance; the field spans
    17 hex widths, so the width fixes everything else.  ``header`` and
    ``panel`` (the text bands above and below the field) are given for the
    standard 1280-px picture and grow with the width.
    """

    width: int = 1280
    margin: int = 20
    header: int = 64
    panel: int = 330
    radius: float = field(init=False)

    def __post_init__(self) -> None:
        hex_width = (self.width - 2 * self.margin) / 17.0
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
        # 12 row steps of 1.5 R plus a full hex height (2 R) for the end rows.
        return math.ceil(self.radius * 20.0) + 4

    @property
    def panel_top(self) -> int:
        return self.field_top + self.field_height

    @property
    def height(self) -> int:
        return self.panel_top + self.panel

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def centre(self, cell: int) -> Point:
        """Pixel centre of a cell (a ValueError for a cell not on the field)."""
        if not geometry.is_cell(cell):
            raise ValueError(f"cell {cell} is not on the field (1..{geometry.CELL_COUNT})")
        return self._centres[cell - 1]

    def _compute(self, row: int, x: int) -> Point:
        px = self.margin + self.hex_width / 2.0 + x * self.hex_width / 2.0
        py = self.field_top + 2 + self.radius + row * 1.5 * self.radius
        return (px, py)

    @cached_property
    def _centres(self) -> tuple[Point, ...]:
        return tuple(self._compute(*geometry.coord(c)) for c in geometry.CELLS)

    def hexagon(self, cell: int, scale: float = 1.0) -> list[Point]:
        """The six corners of a cell's hexagon, clockwise from the top."""
        cx, cy = self.centre(cell)
        r = self.radius * scale
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]

    def cell_at(self, px: float, py: float) -> int | None:
        """The cell whose hexagon contains the pixel, or None (nearest centre)."""
        best: int | None = None
        best_d = self.hex_width / 2.0
        for cell in geometry.CELLS:
            cx, cy = self.centre(cell)
            d = math.hypot(px - cx, py - cy)
            if d <= best_d:
                best, best_d = cell, d
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
