"""The web page's SVG field: the same scene as the PNG, written as elements,
and a square board drawn by both without a second drawing."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import replace

from render_pixels import close, pixel
from render_positions import place

from bot.render import LAYOUT, render_position
from bot.render.board import HEX_BOARD, Board, board_for
from bot.render.field import field_background, field_scene
from bot.render.layout import Layout
from bot.render.position import position_scene
from bot.render.style import BALL_COLOURS, TEAM_COLOURS
from bot.render.svg import WEB_LAYOUT, field_svg
from engine import geometry
from engine.ruleset import Ruleset
from engine.state import MatchState

NS = {"s": "http://www.w3.org/2000/svg"}


def _groups(svg: str, role: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-role") == role]


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def test_every_cell_is_a_tappable_polygon_where_the_layout_puts_it(
    opening: MatchState, ruleset: Ruleset
) -> None:
    svg = field_svg(opening, ruleset, "ru")
    cells = _groups(svg, "cell")
    assert sorted(int(g.get("data-cell", "0")) for g in cells) == list(geometry.CELLS)
    for g in cells:
        cell = int(g.get("data-cell", "0"))
        polygon = g.find("s:polygon", NS)
        assert polygon is not None
        corners = [tuple(map(float, p.split(","))) for p in polygon.get("points", "").split()]
        assert len(corners) == 6
        cx = sum(x for x, _ in corners) / 6
        cy = sum(y for _, y in corners) / 6
        assert WEB_LAYOUT.cell_at(cx, cy) == cell


def test_a_player_is_drawn_in_svg_where_and_as_the_png_draws_him(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = place(opening, "left", 1, 57, 2)
    svg = field_svg(state, ruleset, "en", layout=LAYOUT)
    (player,) = [g for g in _groups(svg, "player") if g.get("data-label") == "left:1"]
    assert player.get("data-cell") == "57"
    discs = player.findall("s:circle", NS)
    team = [c for c in discs if c.get("fill") == _hex(TEAM_COLOURS["left"])]
    assert len(team) == 1
    centre = (float(team[0].get("cx", "0")), float(team[0].get("cy", "0")))
    # The PNG, painted from the same scene, has the team colour there.
    image = render_position(state, ruleset)
    left_of_number = (centre[0] - LAYOUT.radius * 0.25, centre[1])
    assert close(pixel(image, left_of_number), TEAM_COLOURS["left"])
    assert player.findtext("s:text", namespaces=NS) == "1"


def test_the_svg_holds_the_scene_s_shapes_one_for_one(
    opening: MatchState, ruleset: Ruleset
) -> None:
    scene = position_scene(opening, ruleset, WEB_LAYOUT)
    still = field_scene(WEB_LAYOUT, ruleset, "ru")
    svg = field_svg(opening, ruleset, "ru")
    root = ET.fromstring(svg)
    drawn = [
        el
        for el in root.iter()
        if el.tag.split("}")[1] in ("polygon", "circle", "polyline", "rect", "text")
    ]
    # The background rectangle and the two of the fire pattern are the SVG's own.
    assert len(drawn) - 3 == len(scene.shapes) + len(still.shapes)
    balls = {g.get("data-label") for g in _groups(svg, "ball")}
    assert balls == set(BALL_COLOURS)


def test_the_web_field_has_no_legend_and_names_no_outside_font(
    opening: MatchState, ruleset: Ruleset
) -> None:
    svg = field_svg(opening, ruleset, "ru")
    assert "layer-legend" not in svg
    assert "Условные" not in svg
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_a_ruleset_on_a_square_field_is_drawn_in_squares_in_png_and_svg(
    opening: MatchState, ruleset: Ruleset
) -> None:
    square = replace(ruleset, field_shape="square", field_rows=9, field_columns=13)
    board = board_for(square)
    assert board.shape == "square" and board.cell_count == 117
    layout = LAYOUT.for_board(board)
    # Square cells, one hex width wide, tile the picture: corners touch.
    a, b = layout.hexagon(1), layout.hexagon(2)
    assert len(a) == 4 and math.dist(a[1], b[0]) < 1e-6
    assert layout.cell_at(*layout.centre(60)) == 60
    assert layout.cell_at(*a[0]) in (1, None)
    image = field_background(LAYOUT, square, "en")
    assert image.width == LAYOUT.width
    # The corner of a square lies inside its cell: filled, not background.
    x, y = layout.centre(15)
    h = layout.hex_width / 2 - 3
    corner = pixel(image, (x - h, y - h))
    assert corner != pixel(image, (2, layout.field_top + 1))
    svg = field_svg(opening, square, "en", layout=Layout(width=800, header=0, panel=0))
    cells = _groups(svg, "cell")
    assert len(cells) == 117
    polygon = cells[0].find("s:polygon", NS)
    assert polygon is not None and len(polygon.get("points", "").split()) == 4
    assert "layer-centre-line" in svg  # 13 columns: the middle one is the centre line


def test_square_board_halves_edges_and_centre_line() -> None:
    board = Board.square(4, 6)
    assert board.half_of(1) == "left" and board.half_of(6) == "right"
    assert board.centre_line == ()  # an even number of columns has no middle column
    assert board.is_edge(1) and not board.is_edge(8)
    odd = Board.square(3, 5)
    assert odd.centre_line == (3, 8, 13)
    assert HEX_BOARD.cell_count == geometry.CELL_COUNT
    assert board_for(None) is HEX_BOARD
