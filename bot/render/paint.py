"""Paint a :class:`~bot.render.scene.Scene` with Pillow (the PNG diagrams)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache

from PIL import Image, ImageDraw

from .scene import Circle, Line, Point, Polygon, RoundRect, Shape, Text
from .style import FIRE, FIRE_HATCH, font

__all__ = ["hatch", "paint"]


def paint(image: Image.Image, shapes: Iterable[Shape], hatch_step: int) -> None:
    """Paint ``shapes`` onto ``image`` in order; ``hatch_step`` spaces the fire hatch."""
    draw = ImageDraw.Draw(image)
    items = list(shapes)
    i = 0
    while i < len(items):
        shape = items[i]
        i += 1
        if isinstance(shape, Polygon) and shape.pattern == "fire":
            # A run of hatched cells goes through one mask: a mask is a full-size image.
            run = [shape]
            while i < len(items) and _is_hatched(items[i]):
                run.append(items[i])  # type: ignore[arg-type]
                i += 1
            mask = Image.new("L", image.size, 0)
            mdraw = ImageDraw.Draw(mask)
            for p in run:
                mdraw.polygon(p.points, fill=255)
            image.paste(hatch(image.size, hatch_step), (0, 0), mask)
            draw = ImageDraw.Draw(image)
            for p in run:
                if p.outline is not None:
                    draw.polygon(p.points, outline=p.outline, width=_w(p.width))
            continue
        if isinstance(shape, Polygon):
            draw.polygon(
                shape.points, fill=shape.fill, outline=shape.outline, width=_w(shape.width)
            )
        elif isinstance(shape, Circle):
            x, y = shape.centre
            r = shape.radius
            draw.ellipse(
                (x - r, y - r, x + r, y + r),
                fill=shape.fill,
                outline=shape.outline,
                width=_w(shape.width),
            )
        elif isinstance(shape, Line):
            _line(draw, shape)
        elif isinstance(shape, RoundRect):
            draw.rounded_rectangle(
                shape.box,
                radius=round(shape.corner),
                fill=shape.fill,
                outline=shape.outline,
                width=_w(shape.width),
            )
        elif isinstance(shape, Text):
            draw.text(
                shape.at,
                shape.text,
                font=font(shape.size, bold=shape.bold, mono=shape.mono),
                fill=shape.colour,
                anchor=shape.anchor,
                stroke_width=shape.stroke_width,
                stroke_fill=shape.stroke,
            )


def _is_hatched(shape: Shape) -> bool:
    return isinstance(shape, Polygon) and shape.pattern == "fire"


def _w(width: float) -> int:
    return max(0, round(width))


def _line(draw: ImageDraw.ImageDraw, shape: Line) -> None:
    width = _w(shape.width)
    if shape.dash is None:
        draw.line(
            shape.points,
            fill=shape.colour,
            width=width,
            joint="curve" if shape.round_joints else None,
        )
        return
    dash, gap = shape.dash
    for a, b in zip(shape.points, shape.points[1:], strict=False):
        for seg in _dashes(a, b, dash, gap):
            draw.line(seg, fill=shape.colour, width=width)


def _dashes(a: Point, b: Point, dash: float, gap: float) -> list[tuple[Point, Point]]:
    length = math.dist(a, b)
    if length == 0:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    out: list[tuple[Point, Point]] = []
    pos = 0.0
    while pos < length:
        end = min(length, pos + dash)
        out.append(((a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)))
        pos = end + gap
    return out


def hatch(size: tuple[int, int], step: int) -> Image.Image:
    """A full-size diagonal hatch in fire colour, pasted through a cell mask."""
    return _hatch(size, step)


@cache
def _hatch(size: tuple[int, int], step: int) -> Image.Image:
    image = Image.new("RGB", size, FIRE_HATCH)
    draw = ImageDraw.Draw(image)
    w, h = size
    for x in range(-h, w, step):
        draw.line((x, h, x + h, 0), fill=FIRE, width=max(2, step // 3))
    return image
