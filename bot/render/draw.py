"""Drawing primitives shared by the field picture and its legend.

They add shapes to a :class:`~bot.render.scene.Scene` (painted as PNG or
written as SVG), never pixels.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from .layout import Point
from .scene import Scene
from .style import BALL_COLOURS, BALL_TEXT, GOLD, INK, MOUTH_ZONE, RGB

__all__ = [
    "arrow",
    "ball_marker",
    "centred_text",
    "course_trail",
    "cross",
    "dashed_line",
    "goal_burst",
    "height_badge",
    "lost_player",
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
    scene: Scene,
    at: Point,
    text: str,
    size: int,
    fill: RGB,
    stroke: RGB | None = None,
    stroke_width: int = 0,
    *,
    bold: bool = False,
) -> None:
    """Text centred on a point (the middle of the glyph box)."""
    scene.text(at, text, size, fill, bold=bold, stroke=stroke, stroke_width=stroke_width)


def height_badge(scene: Scene, at: Point, height: int, size: float) -> None:
    """A small white tag with the height figure, outlined in ink."""
    x, y = at
    half = size / 2.0
    scene.round_rect(
        (x - half, y - half, x + half, y + half),
        max(1, round(size / 4)),
        fill=WHITE,
        outline=INK,
        width=1,
    )
    centred_text(scene, (x, y + 0.5), str(height), max(8, round(size * 0.95)), INK, bold=True)


def player_disc(
    scene: Scene,
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
    scene.circle((x, y), r + 2, fill=WHITE)
    scene.circle((x, y), r, fill=colour, outline=INK, width=1)
    size = max(9, round(r * (0.95 if number < 10 else 0.8)))
    centred_text(scene, (x, y), str(number), size, WHITE, INK, 1, bold=True)
    if height is not None:
        badge = max(9.0, 12.0 * scale)
        corner = r * 0.72
        height_badge(scene, (x + corner + badge * 0.15, y - corner - badge * 0.15), height, badge)
    # Balls in hand hang at the lower corners, clear of the shirt number.
    held = max(4.0, 6.0 * scale)
    for i, ball in enumerate(balls[:2]):
        bx = x + (-1 if i == 0 else 1) * (r * 0.8 + held * 0.3)
        by = y + r * 0.75 + held * 0.3
        ball_marker(scene, (bx, by), ball, held, None)


def ball_marker(scene: Scene, at: Point, ball: str, radius: float, height: int | None) -> None:
    """A ball in its own colour inside a white ring and a dark outline."""
    r = radius
    scene.circle(at, r + 2.5, fill=INK)
    scene.circle(at, r + 1.5, fill=WHITE)
    scene.circle(at, r, fill=BALL_COLOURS.get(ball, (128, 128, 128)))
    if height is not None:
        x, y = at
        centred_text(
            scene,
            (x, y + 0.5),
            str(height),
            max(8, round(r * 1.35)),
            BALL_TEXT.get(ball, INK),
            bold=True,
        )


def vanished_marker(scene: Scene, at: Point, radius: float, height: int | None) -> None:
    """The vanished yellow ball as only the game master sees it: a ghost ring."""
    x, y = at
    r = radius
    colour = BALL_COLOURS["yellow"]
    for a in range(0, 360, 45):
        start = math.radians(a)
        end = math.radians(a + 25)
        scene.line(
            (
                (x + r * math.cos(start), y + r * math.sin(start)),
                (x + r * math.cos(end), y + r * math.sin(end)),
            ),
            INK,
            3,
        )
    scene.circle(at, r - 3, outline=colour, width=3)
    label = "?" if height is None else f"?{height}"
    centred_text(scene, (x, y), label, max(8, round(r * 1.1)), INK, bold=True)


def dashed_line(
    scene: Scene, a: Point, b: Point, fill: RGB, width: int, dash: float, gap: float
) -> None:
    if math.dist(a, b) == 0:
        return
    scene.line((a, b), fill, width, dash=(dash, gap))


def arrow(
    scene: Scene,
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
        scene.line((a, base), outline, width + 3)
        scene.polygon(tip, fill=outline, outline=outline, width=2)
    if dashed:
        dashed_line(scene, a, base, fill, width, dash=width * 2.5, gap=width * 1.5)
    else:
        scene.line((a, base), fill, width)
    scene.polygon(tip, fill=fill)


def lost_player(
    scene: Scene, at: Point, *, colour: RGB, number: int, scale: float, swallowed: bool
) -> None:
    """A player who fell (a cross at his shoulder) or was swallowed (a ring in
    the mouth's colour) this tick, where it happened: a white disc with his
    number in team colour, as large as a player at height 2, so it stands out
    on fire hatching and never hides under a ball."""
    x, y = at
    r = player_radius(2, scale)
    if swallowed:
        scene.circle(at, r + 4, fill=MOUTH_ZONE)
    scene.circle(at, r + 1.5, fill=INK)
    scene.circle(at, r, fill=WHITE, outline=colour, width=max(2, round(3 * scale)))
    size = max(9, round(r * (0.95 if number < 10 else 0.8)))
    centred_text(scene, (x, y), str(number), size, colour, bold=True)
    if not swallowed:
        corner = r * 0.78
        cross(scene, (x + corner, y - corner), max(4.0, r * 0.42), colour)


def course_trail(
    scene: Scene, points: Sequence[Point], colour: RGB, *, dot: float, ring: float
) -> None:
    """Where a free ball flies next: dots in its colour along the way and a
    ring where it lands (drawn under the pieces, so the ring shows round them)."""
    if len(points) < 2:
        return
    step = dot * 3.2
    for a, b in itertools.pairwise(points):
        length = math.dist(a, b)
        n = max(1, int(length // step))
        for k in range(1, n + 1):
            t = k / n
            c = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if c == points[-1]:
                continue
            scene.circle(c, dot + 1, fill=INK)
            scene.circle(c, dot, fill=colour)
    end = points[-1]
    scene.circle(end, ring + 1.5, outline=INK, width=max(2, round(dot * 0.8)) + 2)
    scene.circle(end, ring, outline=colour, width=max(2, round(dot * 0.8)))


def goal_burst(scene: Scene, at: Point, points: int, r: float) -> None:
    """A goal on the picture of its tick: a gold star with the points scored."""
    x, y = at
    corners = []
    for k in range(24):
        a = math.radians(-90 + k * 15)
        rr = r if k % 2 == 0 else r * 0.72
        corners.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    scene.polygon(corners, fill=GOLD, outline=INK, width=2)
    centred_text(scene, (x, y + 0.5), f"+{points}", max(9, round(r * 0.8)), INK, bold=True)


def cross(scene: Scene, at: Point, r: float, colour: RGB) -> None:
    """The mark of a player who fell or was swallowed here this tick."""
    x, y = at
    for a, b in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
        scene.line((a, b), INK, max(4, round(r * 0.7)))
        scene.line((a, b), colour, max(2, round(r * 0.4)))
