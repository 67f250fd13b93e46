"""Drawing primitives shared by the field picture and its legend."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

from .layout import Point
from .style import BALL_COLOURS, BALL_TEXT, INK, RGB, Font, font

__all__ = [
    "arrow",
    "ball_marker",
    "centred_text",
    "cross",
    "dashed_line",
    "height_badge",
    "player_disc",
    "player_radius",
    "vanished_marker",
]

WHITE: RGB = (255, 255, 255)

# Disc radius by height for the standard layout: the area grows with height
# so a glance tells 1 from 3, and a badge gives the figure itself.
_PLAYER_RADIUS = {1: 12.5, 2: 16.5, 3: 20.5}


def player_radius(height: int | None, scale: float) -> float:
    return _PLAYER_RADIUS.get(height or 1, 12.5) * scale


def centred_text(
    draw: ImageDraw.ImageDraw,
    at: Point,
    text: str,
    fnt: Font,
    fill: RGB,
    stroke: RGB | None = None,
    stroke_width: int = 0,
) -> None:
    """Text centred on a point (Pillow's "mm" anchor: middle of the glyph box)."""
    draw.text(
        at,
        text,
        font=fnt,
        fill=fill,
        anchor="mm",
        stroke_width=stroke_width if stroke else 0,
        stroke_fill=stroke,
    )


def height_badge(draw: ImageDraw.ImageDraw, at: Point, height: int, size: float) -> None:
    """A small white tag with the height figure, outlined in ink."""
    x, y = at
    half = size / 2.0
    draw.rounded_rectangle(
        (x - half, y - half, x + half, y + half),
        radius=max(1, round(size / 4)),
        fill=WHITE,
        outline=INK,
        width=1,
    )
    centred_text(draw, (x, y + 0.5), str(height), font(max(8, round(size * 0.95)), bold=True), INK)


def player_disc(
    draw: ImageDraw.ImageDraw,
    at: Point,
    *,
    colour: RGB,
    number: int,
    height: int | None,
    balls: Sequence[str],
    scale: float,
) -> None:
    """A player: disc in team colour, shirt number, height badge, balls in hand."""
    x, y = at
    r = player_radius(height, scale)
    draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=WHITE)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=1)
    size = max(9, round(r * (0.95 if number < 10 else 0.8)))
    centred_text(draw, (x, y), str(number), font(size, bold=True), WHITE, INK, 1)
    if height is not None:
        badge = max(9.0, 12.0 * scale)
        corner = r * 0.72
        height_badge(draw, (x + corner + badge * 0.15, y - corner - badge * 0.15), height, badge)
    # Balls in hand hang at the lower corners, clear of the shirt number.
    held = max(4.0, 6.0 * scale)
    for i, ball in enumerate(balls[:2]):
        bx = x + (-1 if i == 0 else 1) * (r * 0.8 + held * 0.3)
        by = y + r * 0.75 + held * 0.3
        ball_marker(draw, (bx, by), ball, held, None)


def ball_marker(
    draw: ImageDraw.ImageDraw, at: Point, ball: str, radius: float, height: int | None
) -> None:
    """A ball in its own colour inside a white ring and a dark outline."""
    x, y = at
    r = radius
    draw.ellipse((x - r - 2.5, y - r - 2.5, x + r + 2.5, y + r + 2.5), fill=INK)
    draw.ellipse((x - r - 1.5, y - r - 1.5, x + r + 1.5, y + r + 1.5), fill=WHITE)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=BALL_COLOURS.get(ball, (128, 128, 128)))
    if height is not None:
        fnt = font(max(8, round(r * 1.35)), bold=True)
        centred_text(draw, (x, y + 0.5), str(height), fnt, BALL_TEXT.get(ball, INK))


def vanished_marker(
    draw: ImageDraw.ImageDraw, at: Point, radius: float, height: int | None
) -> None:
    """The vanished yellow ball as only the game master sees it: a ghost ring."""
    x, y = at
    r = radius
    colour = BALL_COLOURS["yellow"]
    for a in range(0, 360, 45):
        start = math.radians(a)
        end = math.radians(a + 25)
        draw.line(
            (
                x + r * math.cos(start),
                y + r * math.sin(start),
                x + r * math.cos(end),
                y + r * math.sin(end),
            ),
            fill=INK,
            width=3,
        )
    draw.ellipse((x - r + 3, y - r + 3, x + r - 3, y + r - 3), outline=colour, width=3)
    label = "?" if height is None else f"?{height}"
    centred_text(draw, (x, y), label, font(max(8, round(r * 1.1)), bold=True), INK)


def dashed_line(
    draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: RGB, width: int, dash: float, gap: float
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(length, pos + dash)
        draw.line(
            (a[0] + ux * pos, a[1] + uy * pos, a[0] + ux * end, a[1] + uy * end),
            fill=fill,
            width=width,
        )
        pos = end + gap


def arrow(
    draw: ImageDraw.ImageDraw,
    a: Point,
    b: Point,
    fill: RGB,
    *,
    width: int,
    head: float,
    outline: RGB | None = None,
    dashed: bool = False,
) -> None:
    """An arrow from ``a`` to ``b`` with a filled head; an outline keeps it
    visible across both halves' backgrounds."""
    length = math.dist(a, b)
    if length < 1:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    base = (b[0] - ux * head, b[1] - uy * head)
    px, py = -uy, ux
    wing = head * 0.55
    tip = [
        b,
        (base[0] + px * wing, base[1] + py * wing),
        (base[0] - px * wing, base[1] - py * wing),
    ]
    if outline is not None:
        draw.line((a, base), fill=outline, width=width + 3)
        draw.polygon(tip, fill=outline, outline=outline, width=2)
    if dashed:
        dashed_line(draw, a, base, fill, width, dash=width * 2.5, gap=width * 1.5)
    else:
        draw.line((a, base), fill=fill, width=width)
    draw.polygon(tip, fill=fill)


def cross(draw: ImageDraw.ImageDraw, at: Point, r: float, colour: RGB) -> None:
    """The mark of a player who fell or was swallowed here this tick."""
    x, y = at
    for a, b in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
        draw.line((a, b), fill=INK, width=max(4, round(r * 0.7)))
        draw.line((a, b), fill=colour, width=max(2, round(r * 0.4)))
