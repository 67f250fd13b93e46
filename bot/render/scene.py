"""A field picture as a list of shapes, drawn once and painted twice.

The diagram code (:mod:`bot.render.field`, :mod:`bot.render.diagram`,
:mod:`bot.render.draw`) never calls Pillow: it adds polygons, circles, lines
and texts to a :class:`Scene`, placed by the :class:`~bot.render.layout.Layout`
and coloured by :mod:`bot.render.style`.  :mod:`bot.render.paint` paints a scene
into a PNG, :mod:`bot.render.svg` writes it as SVG for the web page — the
same drawing, so the two can never disagree.

A shape may carry a ``cell`` and a ``role`` (``"cell"``, ``"player"``,
``"ball"``, …): the SVG writes them as ``data-`` attributes the page uses to
find what was tapped; the PNG ignores them.  Shapes are grouped in named
*layers* in drawing order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "Anchor",
    "Circle",
    "Line",
    "Polygon",
    "RoundRect",
    "Scene",
    "Shape",
    "Text",
]

RGB = tuple[int, int, int]
Point = tuple[float, float]
# Pillow's anchors: "mm" middle of the glyph box, "lm" left-middle, "lt" left-top.
Anchor = Literal["mm", "lm", "lt"]


@dataclass(frozen=True, slots=True)
class _Tagged:
    layer: str
    cell: int | None
    role: str | None
    label: str | None  # who or what it is, for the page (a player "L7", a ball "red")


@dataclass(frozen=True, slots=True)
class Polygon(_Tagged):
    points: tuple[Point, ...]
    fill: RGB | None
    outline: RGB | None
    width: float
    pattern: Literal["fire"] | None = None  # a hatch instead of the fill


@dataclass(frozen=True, slots=True)
class Circle(_Tagged):
    centre: Point
    radius: float
    fill: RGB | None
    outline: RGB | None
    width: float


@dataclass(frozen=True, slots=True)
class Line(_Tagged):
    points: tuple[Point, ...]
    colour: RGB
    width: float
    dash: tuple[float, float] | None = None  # (dash, gap) lengths
    round_joints: bool = False


@dataclass(frozen=True, slots=True)
class RoundRect(_Tagged):
    box: tuple[float, float, float, float]
    corner: float
    fill: RGB | None
    outline: RGB | None
    width: float


@dataclass(frozen=True, slots=True)
class Text(_Tagged):
    at: Point
    text: str
    size: int
    colour: RGB
    bold: bool = False
    mono: bool = False
    anchor: Anchor = "mm"
    stroke: RGB | None = None
    stroke_width: int = 0


Shape = Polygon | Circle | Line | RoundRect | Text


@dataclass
class Scene:
    """Shapes in drawing order; ``with scene.tagged(...)`` tags what is added."""

    shapes: list[Shape] = field(default_factory=list)
    _layer: str = "field"
    _cell: int | None = None
    _role: str | None = None
    _label: str | None = None

    @contextmanager
    def layer(self, name: str) -> Iterator[None]:
        saved = self._layer
        self._layer = name
        try:
            yield
        finally:
            self._layer = saved

    @contextmanager
    def tagged(
        self, *, cell: int | None = None, role: str | None = None, label: str | None = None
    ) -> Iterator[None]:
        saved = (self._cell, self._role, self._label)
        self._cell, self._role, self._label = cell, role, label
        try:
            yield
        finally:
            self._cell, self._role, self._label = saved

    def _tags(self) -> tuple[str, int | None, str | None, str | None]:
        return (self._layer, self._cell, self._role, self._label)

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
        pattern: Literal["fire"] | None = None,
    ) -> None:
        self.shapes.append(Polygon(*self._tags(), tuple(points), fill, outline, width, pattern))

    def circle(
        self,
        centre: Point,
        radius: float,
        *,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        self.shapes.append(Circle(*self._tags(), centre, radius, fill, outline, width))

    def line(
        self,
        points: Sequence[Point],
        colour: RGB,
        width: float,
        *,
        dash: tuple[float, float] | None = None,
        round_joints: bool = False,
    ) -> None:
        self.shapes.append(Line(*self._tags(), tuple(points), colour, width, dash, round_joints))

    def round_rect(
        self,
        box: tuple[float, float, float, float],
        corner: float,
        *,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        self.shapes.append(RoundRect(*self._tags(), box, corner, fill, outline, width))

    def text(
        self,
        at: Point,
        text: str,
        size: int,
        colour: RGB,
        *,
        bold: bool = False,
        mono: bool = False,
        anchor: Anchor = "mm",
        stroke: RGB | None = None,
        stroke_width: int = 0,
    ) -> None:
        self.shapes.append(
            Text(
                *self._tags(),
                at,
                text,
                size,
                colour,
                bold,
                mono,
                anchor,
                stroke,
                stroke_width if stroke else 0,
            )
        )

    def extend(self, other: Scene) -> None:
        self.shapes.extend(other.shapes)
