"""Write a :class:`~bot.render.scene.Scene` as SVG (the web page's field).

The same shapes the PNG diagrams are painted from, written as elements:
layers become ``<g class="layer-…">``, a run of shapes of one cell, player or
ball becomes a ``<g data-cell=… data-role=… data-label=…>`` the page finds
taps by.  Fonts are named, never loaded: the page uses what the device has.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from engine.events import Event
from engine.ruleset import Ruleset
from engine.state import MatchState

from .board import board_for
from .field import field_scene, hatch_step
from .layout import Layout
from .position import position_scene
from .scene import Circle, Line, Point, Polygon, RoundRect, Shape, Text
from .style import BACKGROUND, FIRE, FIRE_HATCH, RGB

__all__ = ["FONT_FAMILY", "WEB_LAYOUT", "field_svg", "svg_document"]

FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
# The field alone (no header or panel: the page writes those as text).
WEB_LAYOUT = Layout(width=1280, header=0, panel=0)

_BASELINE = {"mm": "central", "lm": "central", "lt": "hanging"}
_TEXT_ANCHOR = {"mm": "middle", "lm": "start", "lt": "start"}


def field_svg(
    state: MatchState,
    ruleset: Ruleset,
    lang: str,
    *,
    tick_events: Sequence[Event] = (),
    previous: MatchState | None = None,
    gm_view: bool = False,
    layout: Layout = WEB_LAYOUT,
    element_id: str = "field",
) -> str:
    """The field with ``state`` on it as an SVG element (no legend or panel)."""
    layout = layout.for_board(board_for(ruleset))
    still = field_scene(layout, ruleset, lang)
    moving = position_scene(
        state, ruleset, layout, tick_events=tick_events, previous=previous, gm_view=gm_view
    )
    return svg_document(
        [*still.shapes, *moving.shapes],
        layout.width,
        layout.height,
        hatch=hatch_step(layout),
        element_id=element_id,
    )


def svg_document(
    shapes: Iterable[Shape],
    width: int,
    height: int,
    *,
    hatch: int,
    element_id: str = "field",
) -> str:
    """An ``<svg>`` element drawing ``shapes`` on a ``width`` × ``height`` view box."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(element_id)}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}" '
        f'role="img" preserveAspectRatio="xMidYMin meet">',
        _defs(hatch),
        f'<rect width="{width}" height="{height}" fill="{_rgb(BACKGROUND)}"/>',
    ]
    layer: str | None = None
    tag: tuple[int | None, str | None, str | None] | None = None
    for shape in shapes:
        if shape.layer != layer:
            if tag is not None:
                out.append("</g>")
                tag = None
            if layer is not None:
                out.append("</g>")
            layer = shape.layer
            out.append(f'<g class="layer-{escape(layer)}">')
        shape_tag = (shape.cell, shape.role, shape.label)
        if shape_tag != tag:
            if tag is not None:
                out.append("</g>")
                tag = None
            if shape_tag != (None, None, None):
                tag = shape_tag
                out.append(_group(*shape_tag))
        out.append(_element(shape))
    if tag is not None:
        out.append("</g>")
    if layer is not None:
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _defs(step: int) -> str:
    return (
        f'<defs><pattern id="fire-hatch" patternUnits="userSpaceOnUse" width="{step}" '
        f'height="{step}" patternTransform="rotate(45)">'
        f'<rect width="{step}" height="{step}" fill="{_rgb(FIRE_HATCH)}"/>'
        f'<rect width="{max(2, step // 3)}" height="{step}" fill="{_rgb(FIRE)}"/>'
        "</pattern></defs>"
    )


def _group(cell: int | None, role: str | None, label: str | None) -> str:
    attrs = []
    if cell is not None:
        attrs.append(f'data-cell="{cell}"')
    if role is not None:
        attrs.append(f'data-role="{escape(role)}"')
    if label is not None:
        attrs.append(f'data-label="{escape(label)}"')
    return f"<g {' '.join(attrs)}>"


def _element(shape: Shape) -> str:
    if isinstance(shape, Polygon):
        fill = "url(#fire-hatch)" if shape.pattern == "fire" else _paint(shape.fill)
        return f'<polygon points="{_points(shape.points)}" fill="{fill}"{_stroke(shape.outline, shape.width)}/>'
    if isinstance(shape, Circle):
        x, y = shape.centre
        # Pillow draws an outline inside the circle; SVG strokes on it.
        inset = shape.width / 2.0 if shape.outline is not None else 0.0
        return (
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(shape.radius - inset)}" '
            f'fill="{_paint(shape.fill)}"{_stroke(shape.outline, shape.width)}/>'
        )
    if isinstance(shape, Line):
        dash = (
            f' stroke-dasharray="{_n(shape.dash[0])} {_n(shape.dash[1])}"'
            if shape.dash is not None
            else ""
        )
        join = ' stroke-linejoin="round"' if shape.round_joints else ""
        return (
            f'<polyline points="{_points(shape.points)}" fill="none" stroke="{_rgb(shape.colour)}" '
            f'stroke-width="{_n(shape.width)}"{dash}{join}/>'
        )
    if isinstance(shape, RoundRect):
        x0, y0, x1, y1 = shape.box
        return (
            f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
            f'rx="{_n(shape.corner)}" fill="{_paint(shape.fill)}"'
            f"{_stroke(shape.outline, shape.width)}/>"
        )
    return _text(shape)


def _text(shape: Text) -> str:
    x, y = shape.at
    attrs = [
        f'x="{_n(x)}" y="{_n(y)}" font-size="{shape.size}" fill="{_rgb(shape.colour)}"',
        f'text-anchor="{_TEXT_ANCHOR[shape.anchor]}" dominant-baseline="{_BASELINE[shape.anchor]}"',
    ]
    if shape.bold:
        attrs.append('font-weight="bold"')
    if shape.mono:
        attrs.append('font-family="DejaVu Sans Mono, monospace"')
    if shape.stroke is not None and shape.stroke_width:
        # Pillow's stroke grows outwards by its width; SVG's is centred on the outline.
        attrs.append(
            f'stroke="{_rgb(shape.stroke)}" stroke-width="{shape.stroke_width * 2}" '
            'paint-order="stroke" stroke-linejoin="round"'
        )
    return f"<text {' '.join(attrs)}>{escape(shape.text)}</text>"


def _stroke(colour: RGB | None, width: float) -> str:
    if colour is None or width <= 0:
        return ""
    return f' stroke="{_rgb(colour)}" stroke-width="{_n(width)}"'


def _paint(colour: RGB | None) -> str:
    return "none" if colour is None else _rgb(colour)


def _rgb(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
