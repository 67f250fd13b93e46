"""The still part of every field picture: cells, numbers, halves, edges, the
re-entry cells and the legend.  Drawn once per (size, ruleset, language) and
copied for each picture, which keeps a picture well under its time budget.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.i18n import N_, t
from engine import geometry
from engine.ruleset import Ruleset

from .draw import arrow, ball_marker, centred_text, cross, dashed_line, player_disc
from .layout import Layout
from .style import (
    BACKGROUND,
    BALL_COLOURS,
    DRAGON_COLOURS,
    FIRE,
    GRID,
    HALF_FILL,
    HALF_FILL_EDGE,
    INK,
    MOUTH_ZONE,
    MUTED,
    TEAM_COLOURS,
    TEAM_LIGHT,
    blend,
    font,
)

__all__ = ["LEGEND_LEFT", "cell_fill", "draw_cell_number", "field_background", "hatch"]

# x where the legend column starts on the standard 1280-px picture.
LEGEND_LEFT = 800

_LEGEND: tuple[str, ...] = (
    N_("legend.title"),
    N_("legend.player"),
    N_("legend.balls"),
    N_("legend.ball"),
    N_("legend.dragon"),
    N_("legend.mouth"),
    N_("legend.fire"),
    N_("legend.reentry"),
    N_("legend.edge"),
    N_("legend.flight"),
    N_("legend.pass"),
    N_("legend.fell"),
)


def cell_fill(cell: int) -> tuple[int, int, int]:
    half = geometry.half_of(cell)
    return (HALF_FILL_EDGE if geometry.is_edge(cell) else HALF_FILL)[half]


def draw_cell_number(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: int, colour: tuple[int, int, int] = MUTED
) -> None:
    cx, cy = layout.centre(cell)
    centred_text(draw, (cx, cy - layout.radius * 0.6), str(cell), font(layout.scaled(13)), colour)


def hatch(layout: Layout) -> Image.Image:
    """A full-size diagonal hatch in fire colour, pasted through a cell mask."""
    return _hatch(layout.size, layout.scaled(9))


@cache
def _hatch(size: tuple[int, int], step: int) -> Image.Image:
    image = Image.new("RGB", size, blend(FIRE, (255, 220, 120), 0.35))
    draw = ImageDraw.Draw(image)
    w, h = size
    for x in range(-h, w, step):
        draw.line((x, h, x + h, 0), fill=FIRE, width=max(2, step // 3))
    return image


def field_background(layout: Layout, ruleset: Ruleset, lang: str) -> Image.Image:
    """A fresh copy of the still picture (the cache keeps the original)."""
    return _background(layout, ruleset.reentry_left, ruleset.reentry_right, lang).copy()


@cache
def _background(
    layout: Layout, reentry_left: tuple[int, ...], reentry_right: tuple[int, ...], lang: str
) -> Image.Image:
    image = Image.new("RGB", layout.size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    for cell in geometry.CELLS:
        draw.polygon(layout.hexagon(cell), fill=cell_fill(cell), outline=GRID, width=1)
    # The centre line as a band through its cells' centres.
    top = layout.centre(geometry.CENTRE_LINE[0])
    bottom = layout.centre(geometry.CENTRE_LINE[-1])
    band = layout.scaled(5)
    dashed_line(
        draw,
        (top[0], top[1] - layout.radius),
        (bottom[0], bottom[1] + layout.radius),
        (200, 200, 200),
        band,
        dash=band * 3,
        gap=band * 2,
    )
    for colour, cells in (
        (TEAM_COLOURS["left"], reentry_left),
        (TEAM_COLOURS["right"], reentry_right),
    ):
        for cell in cells:
            draw.polygon(layout.hexagon(cell, 0.86), outline=colour, width=layout.scaled(3))
    for cell in geometry.CELLS:
        draw_cell_number(draw, layout, cell)
    _legend(image, layout, lang)
    return image


def _legend(image: Image.Image, layout: Layout, lang: str) -> None:
    draw = ImageDraw.Draw(image)
    texts = [t(key, lang) for key in _LEGEND]
    s = layout.scale
    left = LEGEND_LEFT * s
    top = layout.panel_top + 8 * s
    row = 25 * s
    draw.text((left, top), texts[0], font=font(layout.scaled(15), bold=True), fill=INK, anchor="lt")
    text_x = left + 78 * s
    small = font(layout.scaled(13))

    def y(i: int) -> float:
        return top + 12 * s + row * i

    for i, text in enumerate(texts[1:], start=1):
        draw.text((text_x, y(i)), text, font=small, fill=INK, anchor="lm")
    # 1: heights
    for k, h in enumerate((1, 2, 3)):
        player_disc(
            draw,
            (left + 8 * s + k * 24 * s, y(1)),
            colour=TEAM_COLOURS["left" if k != 1 else "right"],
            number=7,
            height=h,
            balls=(),
            scale=0.62 * s,
        )
    # 2: the five balls
    for k, ball in enumerate(BALL_COLOURS):
        ball_marker(draw, (left + 6 * s + k * 14 * s, y(2)), ball, 5 * s, None)
    # 3: a free ball at height 2 and a player holding one
    ball_marker(draw, (left + 10 * s, y(3)), "green", 8 * s, 2)
    player_disc(
        draw,
        (left + 45 * s, y(3) - 2 * s),
        colour=TEAM_COLOURS["left"],
        number=4,
        height=None,
        balls=("red",),
        scale=0.7 * s,
    )
    # 4, 9, 10: a dragon's head, a player's flight, a pass
    arrows = (
        (4, DRAGON_COLOURS["left"], 9, 16, None, False),
        (9, TEAM_COLOURS["left"], 4, 12, (255, 255, 255), False),
        (10, BALL_COLOURS["green"], 4, 12, INK, True),
    )
    for index, colour, width, head, outline, dashed in arrows:
        arrow(
            draw,
            (left, y(index)),
            (left + 60 * s, y(index)),
            colour,
            width=max(2, round(width * s)),
            head=head * s,
            outline=outline,
            dashed=dashed,
        )
    # 5-8: cell samples
    samples = (
        (5, None),
        (6, "fire"),
        (7, "reentry"),
        (8, "edge"),
    )
    for index, kind in samples:
        _sample_cell(image, draw, (left + 30 * s, y(index)), 11 * s, kind, layout)
    # 11: the fallen mark
    cross(draw, (left + 30 * s, y(11)), 8 * s, TEAM_COLOURS["right"])


def _sample_cell(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    r: float,
    kind: str | None,
    layout: Layout,
) -> None:
    x, y = at
    poly = [
        (x + r * 1.6 * dx, y + r * dy)
        for dx, dy in ((-1, 0), (-0.5, -1), (0.5, -1), (1, 0), (0.5, 1), (-0.5, 1))
    ]
    if kind == "fire":
        mask = Image.new("L", image.size, 0)
        ImageDraw.Draw(mask).polygon(poly, fill=255)
        image.paste(hatch(layout), (0, 0), mask)
        draw.polygon(poly, outline=GRID)
    elif kind == "reentry":
        draw.polygon(poly, fill=HALF_FILL_EDGE["left"], outline=TEAM_COLOURS["left"], width=3)
    elif kind == "edge":
        draw.polygon(poly, fill=HALF_FILL_EDGE["right"], outline=GRID)
        draw.rectangle((x + r * 2.0, y - r, x + r * 2.6, y + r), fill=(200, 200, 200))
    else:
        draw.polygon(
            poly, fill=blend(TEAM_LIGHT["left"], MOUTH_ZONE, 0.12), outline=MOUTH_ZONE, width=3
        )
