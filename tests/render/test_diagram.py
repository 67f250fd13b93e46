"""Field pictures checked by pixels at known places of hand-built positions."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image
from render_pixels import close, count_in_cell, pixel, span_in_cell
from render_positions import busy_position, busy_tick_events, place

from bot.render import LAYOUT, MAX_BYTES, png_bytes, render_position
from bot.render.style import BALL_COLOURS, FIRE, MOUTH_ZONE, TEAM_COLOURS
from engine import geometry
from engine.events import Event, Kind
from engine.geometry import Direction
from engine.ruleset import Ruleset
from engine.state import BallState, MatchState, PlayerRef


def test_picture_is_wide_enough_for_a_phone_and_small_enough_to_send(
    opening: MatchState, ruleset: Ruleset
) -> None:
    image = render_position(opening, ruleset)
    assert image.width >= 1280
    data = png_bytes(image)
    assert len(data) < MAX_BYTES
    again = Image.open(io.BytesIO(data))
    assert again.format == "PNG"
    assert again.size == image.size


def test_player_of_team_a_at_57_height_2_is_drawn_in_team_a_colour_inside_57(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = place(opening, "left", 1, 57, 2)
    image = render_position(state, ruleset)
    cx, cy = LAYOUT.content_centre(57)
    # Left of the shirt number, inside the disc.
    assert close(pixel(image, (cx - LAYOUT.radius * 0.25, cy)), TEAM_COLOURS["left"])
    assert count_in_cell(image, 57, TEAM_COLOURS["left"]) > 300
    assert count_in_cell(image, 57, TEAM_COLOURS["right"]) == 0
    # Nothing of team A is left in an empty neighbouring cell.
    assert count_in_cell(image, 58, TEAM_COLOURS["left"]) == 0


def test_player_of_team_b_is_drawn_in_team_b_colour(opening: MatchState, ruleset: Ruleset) -> None:
    state = place(opening, "right", 3, 57, 2)
    image = render_position(state, ruleset)
    assert count_in_cell(image, 57, TEAM_COLOURS["right"]) > 300
    assert count_in_cell(image, 57, TEAM_COLOURS["left"]) == 0


def test_height_is_shown_by_the_size_of_the_disc(opening: MatchState, ruleset: Ruleset) -> None:
    spans = []
    for height in (1, 2, 3):
        state = place(opening, "left", 1, 57, height)
        spans.append(span_in_cell(render_position(state, ruleset), 57, TEAM_COLOURS["left"]))
    assert spans[0] < spans[1] < spans[2]


def test_two_players_on_one_cell_are_both_drawn(opening: MatchState, ruleset: Ruleset) -> None:
    state = place(place(opening, "left", 1, 57, 2), "right", 1, 57, 1)
    image = render_position(state, ruleset)
    assert count_in_cell(image, 57, TEAM_COLOURS["left"]) > 200
    assert count_in_cell(image, 57, TEAM_COLOURS["right"]) > 100


def test_free_black_ball_is_drawn_black_inside_a_white_ring(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = opening
    for ball in state.balls:
        state = state.with_ball(replace(ball, cell=40 if ball.name != "black" else 57))
    image = render_position(state, ruleset)
    cx, cy = LAYOUT.content_centre(57)
    # Off the centre, where the height figure is written.
    r = 9.5 * LAYOUT.scale
    assert close(pixel(image, (cx - r * 0.7, cy)), BALL_COLOURS["black"], 30)
    # Walking left out of the ball: black, then the white ring, then the outline.
    row = [pixel(image, (cx - r * 0.7 - k, cy)) for k in range(12)]
    first_white = next(k for k, c in enumerate(row) if close(c, (255, 255, 255), 30))
    assert any(close(c, (25, 25, 30), 30) for c in row[first_white:])
    assert count_in_cell(image, 57, BALL_COLOURS["black"], tolerance=30) > 60


def test_every_ball_is_drawn_in_its_own_colour(opening: MatchState, ruleset: Ruleset) -> None:
    cells = {"black": 57, "green": 58, "blue": 59, "red": 60, "yellow": 61}
    state = opening
    for ball in state.balls:
        state = state.with_ball(replace(ball, cell=cells[ball.name]))
    image = render_position(state, ruleset)
    for name, cell in cells.items():
        assert count_in_cell(image, cell, BALL_COLOURS[name], tolerance=20) > 60, name


def test_a_ball_in_hand_is_drawn_with_its_holder(opening: MatchState, ruleset: Ruleset) -> None:
    state = place(opening, "left", 1, 57, 2, balls=("red",))
    state = state.with_ball(BallState("red", "held", 57, 2, holder=PlayerRef("left", 1)))
    image = render_position(state, ruleset)
    assert count_in_cell(image, 57, BALL_COLOURS["red"], tolerance=20) > 30
    # It is no longer drawn where the free balls are.
    assert count_in_cell(image, 106, BALL_COLOURS["red"], tolerance=20) == 0


def test_vanished_yellow_ball_is_shown_to_the_game_master_only(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = opening.with_ball(BallState("yellow", "vanished", 57, 2, direction=Direction.E))
    public = render_position(state, ruleset)
    master = render_position(state, ruleset, gm_view=True)
    assert count_in_cell(public, 57, BALL_COLOURS["yellow"], tolerance=20) == 0
    assert count_in_cell(master, 57, BALL_COLOURS["yellow"], tolerance=20) > 30


def test_dragon_cells_are_drawn_and_open_mouth_marks_the_five_cells(
    opening: MatchState, ruleset: Ruleset
) -> None:
    closed = render_position(opening, ruleset)
    dragon = opening.dragon("right")
    mouth = geometry.mouth_cells(dragon.head, dragon.facing)
    assert len(mouth) == 5
    for cell in mouth:
        assert count_in_cell(closed, cell, MOUTH_ZONE) == 0
    opened = render_position(opening.with_dragon(replace(dragon, mouth_open=True)), ruleset)
    for cell in mouth:
        assert count_in_cell(opened, cell, MOUTH_ZONE) > 80, cell
    # The red jaw is drawn inside the head cell of an open mouth only.
    assert count_in_cell(opened, dragon.head, MOUTH_ZONE) > count_in_cell(
        closed, dragon.head, MOUTH_ZONE
    )


def test_dragon_head_points_where_it_faces(opening: MatchState, ruleset: Ruleset) -> None:
    dragon = opening.dragon("left")  # head 102 facing east
    image = render_position(opening, ruleset)
    cx, cy = LAYOUT.centre(dragon.head)
    r = LAYOUT.radius
    from bot.render.style import DRAGON_COLOURS

    # The snout reaches towards the east edge of the head cell, not the west one.
    assert close(pixel(image, (cx + r * 0.6, cy)), DRAGON_COLOURS["left"], 20)
    assert not close(pixel(image, (cx - r * 0.7, cy - r * 0.3)), DRAGON_COLOURS["left"], 20)


def test_fire_area_is_drawn_only_for_the_tick_it_was_breathed(
    opening: MatchState, ruleset: Ruleset
) -> None:
    dragon = opening.dragon("left")
    cone = geometry.fire_cone(dragon.head, dragon.facing, ruleset.fire.short_cells_depth)
    fire = Event(
        1,
        1,
        1,
        Kind.FIRE,
        {
            "side": "left",
            "fire": "short",
            "cells": list(cone),
            "random": False,
            "short_left": 6,
            "volleys_left": 3,
        },
    )
    with_fire = render_position(opening, ruleset, tick_events=[fire])
    without = render_position(opening, ruleset)
    assert len(cone) == 8
    for cell in cone:
        assert count_in_cell(with_fire, cell, FIRE, tolerance=20) > 200, cell
        assert count_in_cell(without, cell, FIRE, tolerance=20) == 0
    outside = 99
    assert outside not in cone
    assert count_in_cell(with_fire, outside, FIRE, tolerance=20) == 0


def test_a_tick_s_flight_is_drawn_as_an_arrow_between_the_cells(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # Player A1 flew 36 -> 37: the arrow crosses the border between the cells.
    after = place(opening, "left", 1, 37, 2)
    move = Event(
        1,
        1,
        1,
        Kind.PLAYER_MOVE,
        {"side": "left", "number": 1, "from_cell": 36, "from_height": 2, "cell": 37, "height": 2},
    )
    (ax, ay), (bx, by) = LAYOUT.centre(36), LAYOUT.centre(37)
    middle = ((ax + bx) / 2, (ay + by) / 2)
    drawn = render_position(after, ruleset, tick_events=[move], previous=opening)
    plain = render_position(after, ruleset)
    assert close(pixel(drawn, middle), TEAM_COLOURS["left"], 20)
    assert not close(pixel(plain, middle), TEAM_COLOURS["left"], 20)


def test_a_pass_is_drawn_in_the_ball_s_colour(opening: MatchState, ruleset: Ruleset) -> None:
    pass_ = Event(
        1,
        1,
        1,
        Kind.PASS,
        {
            "ball": "green",
            "side": "left",
            "number": 1,
            "from_cell": 53,
            "cell": 57,
            "height": 2,
            "spell": None,
        },
    )
    image = render_position(opening, ruleset, tick_events=[pass_])
    for cell in (54, 55):  # the cells the pass flies over
        assert count_in_cell(image, cell, BALL_COLOURS["green"], tolerance=20) > 40, cell


def test_the_vanished_ball_s_flight_is_not_drawn_publicly(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = opening.with_ball(BallState("yellow", "vanished", 59, 2, direction=Direction.E))
    flight = Event(
        1,
        1,
        1,
        Kind.BALL_MOVE,
        {
            "ball": "yellow",
            "from_cell": 57,
            "cell": 59,
            "height": 2,
            "direction": "E",
            "visible": False,
        },
    )
    public = render_position(state, ruleset, tick_events=[flight])
    master = render_position(state, ruleset, tick_events=[flight], gm_view=True)
    assert count_in_cell(public, 58, BALL_COLOURS["yellow"], tolerance=20) == 0
    assert count_in_cell(master, 58, BALL_COLOURS["yellow"], tolerance=20) > 20


def test_a_player_who_fell_this_tick_is_marked_where_he_fell(
    opening: MatchState, ruleset: Ruleset
) -> None:
    after = place(opening, "right", 2, None, None, status="hospital", return_round=3)
    fall = Event(
        1,
        1,
        3,
        Kind.FALL,
        {
            "side": "right",
            "number": 2,
            "cell": 77,
            "height": 2,
            "cause": "collision",
            "return_round": 3,
        },
    )
    marked = render_position(after, ruleset, tick_events=[fall])
    plain = render_position(after, ruleset)
    assert count_in_cell(marked, 77, TEAM_COLOURS["right"], tolerance=20) > 20
    assert count_in_cell(plain, 77, TEAM_COLOURS["right"], tolerance=20) == 0


def test_busy_position_renders_in_both_languages_under_a_megabyte(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = busy_position(opening)
    events = busy_tick_events(ruleset, state)
    for lang in ("ru", "en"):
        for gm in (False, True):
            image = render_position(
                state, ruleset, tick_events=events, previous=opening, gm_view=gm, lang=lang
            )
            assert len(png_bytes(image)) < MAX_BYTES


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"cells": "not a list"},
        {"cells": None, "players": None},
        {"cells": [0, 999, None, "57", True]},
        {"side": "middle", "number": "x", "from_cell": -4, "cell": 500},
        {"ball": None, "from_cell": 1, "cell": 1},
    ],
)
def test_malformed_event_data_never_breaks_a_picture(
    opening: MatchState, ruleset: Ruleset, data: dict[str, object]
) -> None:
    kinds = (
        Kind.FIRE,
        Kind.PLAYER_MOVE,
        Kind.BALL_MOVE,
        Kind.PASS,
        Kind.FALL,
        Kind.PLAYER_SWALLOWED,
    )
    events = [Event(1, 1, 1, kind, dict(data)) for kind in kinds]
    image = render_position(opening, ruleset, tick_events=events, previous=opening)
    assert image.width >= 1280


def test_unknown_language_is_a_clear_error(opening: MatchState, ruleset: Ruleset) -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        render_position(opening, ruleset, lang="de")


def test_without_dejavu_the_picture_falls_back_to_pillow_s_font(
    opening: MatchState, ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import ImageFont

    from bot.render import field, style

    real_truetype = ImageFont.truetype

    def no_truetype(font: object = None, *args: object, **kwargs: object) -> ImageFont.FreeTypeFont:
        # Font files by name or path are missing; Pillow's own embedded font is not.
        if isinstance(font, str | bytes):
            raise OSError("cannot open resource")
        return real_truetype(font, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(style, "_FONT_DIRS", ())
    monkeypatch.setattr(style.ImageFont, "truetype", no_truetype)
    style.font.cache_clear()
    field._background.cache_clear()
    try:
        image = render_position(place(opening, "left", 1, 57, 2), ruleset)
        assert count_in_cell(image, 57, TEAM_COLOURS["left"]) > 300
    finally:
        style.font.cache_clear()
        field._background.cache_clear()


def test_a_larger_layout_draws_the_same_picture_bigger(
    opening: MatchState, ruleset: Ruleset
) -> None:
    from bot.render import Layout

    big = Layout(width=1600)
    image = render_position(place(opening, "left", 1, 57, 2), ruleset, layout=big)
    assert image.size == big.size
    assert count_in_cell(image, 57, TEAM_COLOURS["left"], layout=big) > 450


def test_the_sent_png_keeps_the_colours(opening: MatchState, ruleset: Ruleset) -> None:
    state = place(opening, "left", 1, 57, 2)
    sent = Image.open(io.BytesIO(png_bytes(render_position(state, ruleset)))).convert("RGB")
    cx, cy = LAYOUT.content_centre(57)
    assert close(pixel(sent, (cx - LAYOUT.radius * 0.25, cy)), TEAM_COLOURS["left"], 8)
    assert count_in_cell(sent, 57, TEAM_COLOURS["left"], tolerance=8) > 300
    for name in BALL_COLOURS:  # the five balls at the centre (black may merge with ink)
        assert count_in_cell(sent, 106, BALL_COLOURS[name], tolerance=12) > 40, name


def test_a_damaged_state_is_drawn_as_far_as_it_is_on_the_field(
    opening: MatchState, ruleset: Ruleset
) -> None:
    from bot.render import text_diagram

    state = place(opening, "left", 1, 999, 2)
    state = state.with_ball(BallState("green", "free", 0, 2))
    state = state.with_dragon(replace(state.dragon("right"), head=500, mouth_open=True))
    image = render_position(state, ruleset, previous=opening)
    assert image.width >= 1280
    assert "Иванов" not in text_diagram(state, ruleset).split("Клетки:")[1].split("Драконы:")[0]
