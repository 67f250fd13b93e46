"""The still part of every field picture: cells, numbers, halves, edges, the
re-entry cells and the legend.  Built once per (size, board, re-entry cells,
language) as a scene, painted once for the PNG and copied for each picture,
which keeps a picture well under its time budget; the SVG writes the same scene.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from bot.i18n import N_, t
from engine.ruleset import Ruleset

from .board import Board, board_for
from .draw import (
    arrow,
    ball_marker,
    centred_text,
    course_trail,
    dashed_line,
    goal_burst,
    lost_player,
    player_disc,
)
from .layout import Layout
from .paint import paint
from .scene import Scene
from .style import (
    BACKGROUND,
    BALL_COLOURS,
    DRAGON_COLOURS,
    FIRE_HATCH_STEP,
    GRID,
    HALF_FILL,
    HALF_FILL_EDGE,
    INK,
    MOUTH_ZONE,
    MUTED,
    TEAM_COLOURS,
    TEAM_LIGHT,
    blend,
)

__all__ = [
    "LEGEND_LEFT",
    "cell_fill",
    "draw_cell_number",
    "field_background",
    "field_scene",
    "hatch_step",
]

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
    N_("legend.next_flight"),
    N_("legend.goal"),
)


def cell_fill(cell: int, board: Board | None = None) -> tuple[int, int, int]:
    b = board or board_for(None)
    half = b.half_of(cell)
    return (HALF_FILL_EDGE if b.is_edge(cell) else HALF_FILL)[half]


def draw_cell_number(
    scene: Scene,
    layout: Layout,
    cell: int,
    colour: tuple[int, int, int] = MUTED,
    *,
    bold: bool = False,
    stroke: tuple[int, int, int] | None = None,
    stroke_width: int = 0,
) -> None:
    cx, cy = layout.centre(cell)
    with scene.tagged(cell=cell, role="number"):
        centred_text(
            scene,
            (cx, cy - layout.radius * 0.6),
            str(cell),
            layout.scaled(13),
            colour,
            stroke,
            stroke_width,
            bold=bold,
        )


def hatch_step(layout: Layout) -> int:
    """Spacing of the fire hatch on this picture."""
    return layout.scaled(FIRE_HATCH_STEP)


def field_background(layout: Layout, ruleset: Ruleset, lang: str) -> Image.Image:
    """A fresh copy of the still picture (the cache keeps the original)."""
    layout = layout.for_board(board_for(ruleset))
    return _background(layout, ruleset.reentry_left, ruleset.reentry_right, lang).copy()


def field_scene(layout: Layout, ruleset: Ruleset, lang: str) -> Scene:
    """The still picture as shapes (with the legend when the layout has a panel)."""
    layout = layout.for_board(board_for(ruleset))
    return _scene(layout, ruleset.reentry_left, ruleset.reentry_right, lang)


@cache
def _background(
    layout: Layout, reentry_left: tuple[int, ...], reentry_right: tuple[int, ...], lang: str
) -> Image.Image:
    image = Image.new("RGB", layout.size, BACKGROUND)
    paint(image, _scene(layout, reentry_left, reentry_right, lang).shapes, hatch_step(layout))
    return image


@cache
def _scene(
    layout: Layout, reentry_left: tuple[int, ...], reentry_right: tuple[int, ...], lang: str
) -> Scene:
    scene = Scene()
    board = layout.board
    with scene.layer("cells"):
        for cell in board.cells:
            with scene.tagged(cell=cell, role="cell"):
                scene.polygon(layout.hexagon(cell), fill=cell_fill(cell, board), outline=GRID)
    # The centre line as a band through its cells' centres.
    if board.centre_line:
        top = layout.centre(board.centre_line[0])
        bottom = layout.centre(board.centre_line[-1])
        reach = layout.radius if board.shape == "hex" else layout.hex_width / 2.0
        band = layout.scaled(5)
        with scene.layer("centre-line"):
            dashed_line(
                scene,
                (top[0], top[1] - reach),
                (bottom[0], bottom[1] + reach),
                (200, 200, 200),
                band,
                dash=band * 3,
                gap=band * 2,
            )
    with scene.layer("reentry"):
        for colour, cells in (
            (TEAM_COLOURS["left"], reentry_left),
            (TEAM_COLOURS["right"], reentry_right),
        ):
            for cell in cells:
                if board.is_cell(cell):
                    scene.polygon(
                        layout.hexagon(cell, 0.86), outline=colour, width=layout.scaled(3)
                    )
    with scene.layer("numbers"):
        for cell in board.cells:
            draw_cell_number(scene, layout, cell)
    if layout.panel:
        with scene.layer("legend"):
            _legend(scene, layout, lang)
    return scene


def _legend(scene: Scene, layout: Layout, lang: str) -> None:
    texts = [t(key, lang) for key in _LEGEND]
    s = layout.scale
    left = LEGEND_LEFT * s
    top = layout.panel_top + 8 * s
    row = 22 * s
    scene.text((left, top), texts[0], layout.scaled(15), INK, bold=True, anchor="lt")
    text_x = left + 78 * s
    small = layout.scaled(13)

    def y(i: int) -> float:
        return top + 12 * s + row * i

    for i, text in enumerate(texts[1:], start=1):
        scene.text((text_x, y(i)), text, small, INK, anchor="lm")
    # 1: heights
    for k, h in enumerate((1, 2, 3)):
        player_disc(
            scene,
            (left + 8 * s + k * 24 * s, y(1)),
            colour=TEAM_COLOURS["left" if k != 1 else "right"],
            number=7,
            height=h,
            balls=(),
            scale=0.62 * s,
        )
    # 2: the five balls
    for k, ball in enumerate(BALL_COLOURS):
        ball_marker(scene, (left + 6 * s + k * 14 * s, y(2)), ball, 5 * s, None)
    # 3: a free ball at height 2 and a player holding one
    ball_marker(scene, (left + 10 * s, y(3)), "green", 8 * s, 2)
    player_disc(
        scene,
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
            scene,
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
        _sample_cell(scene, (left + 30 * s, y(index)), 11 * s, kind)
    # 11: a player who fell and one who was swallowed
    for k, swallowed in enumerate((False, True)):
        lost_player(
            scene,
            (left + 14 * s + k * 36 * s, y(11)),
            colour=TEAM_COLOURS["right" if k == 0 else "left"],
            number=5,
            scale=0.55 * s,
            swallowed=swallowed,
        )
    # 12: a free ball's next flight
    course_trail(
        scene,
        [(left + 4 * s, y(12)), (left + 50 * s, y(12))],
        BALL_COLOURS["red"],
        dot=2.2 * s,
        ring=7 * s,
    )
    ball_marker(scene, (left + 4 * s, y(12)), "red", 5 * s, None)
    # 13: a goal
    goal_burst(scene, (left + 30 * s, y(13)), 5, 11 * s)


def _sample_cell(scene: Scene, at: tuple[float, float], r: float, kind: str | None) -> None:
    x, y = at
    poly = [
        (x + r * 1.6 * dx, y + r * dy)
        for dx, dy in ((-1, 0), (-0.5, -1), (0.5, -1), (1, 0), (0.5, 1), (-0.5, 1))
    ]
    if kind == "fire":
        scene.polygon(poly, outline=GRID, pattern="fire")
    elif kind == "reentry":
        scene.polygon(poly, fill=HALF_FILL_EDGE["left"], outline=TEAM_COLOURS["left"], width=3)
    elif kind == "edge":
        scene.polygon(poly, fill=HALF_FILL_EDGE["right"], outline=GRID)
        scene.round_rect((x + r * 2.0, y - r, x + r * 2.6, y + r), 0, fill=(200, 200, 200))
    else:
        scene.polygon(
            poly, fill=blend(TEAM_LIGHT["left"], MOUTH_ZONE, 0.12), outline=MOUTH_ZONE, width=3
        )
