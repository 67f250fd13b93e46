"""What a tick's picture must never hide: players who fell or were swallowed
(on any background, beside a ball), where free balls fly next, and a goal."""

from __future__ import annotations

from render_pixels import close, count_in_cell, pixel
from render_positions import busy_position, place

from bot.render import LAYOUT, render_position
from bot.render.panel import panel_lines
from bot.render.position import position_scene
from bot.render.scene import Circle, Polygon
from bot.render.style import BALL_COLOURS, GOLD, TEAM_COLOURS
from engine import geometry
from engine.events import Event, Kind
from engine.geometry import Direction
from engine.ruleset import Ruleset
from engine.state import BallState, MatchState, PlayerRef

WHITE = (255, 255, 255)


def _fall(side: str, number: int, cell: int, cause: str = "collision") -> Event:
    return Event(
        1, 2, 3, Kind.FALL,
        {"side": side, "number": number, "cell": cell, "height": 2, "cause": cause,
         "return_round": 3},
    )  # fmt: skip


def _discs(state: MatchState, ruleset: Ruleset, events: list[Event], role: str) -> list[Circle]:
    scene = position_scene(state, ruleset, LAYOUT, tick_events=events)
    return [s for s in scene.shapes if isinstance(s, Circle) and s.role == role]


def test_two_players_who_fell_on_a_ball_s_cell_each_get_a_place(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # Round 1, tick 2 of the demo: two players fall at 106, the yellow ball stays there.
    after = place(opening, "left", 3, None, None, status="hospital", return_round=3)
    after = place(after, "right", 3, None, None, status="hospital", return_round=3)
    for b in after.balls:
        after = after.with_ball(BallState(b.name, "held", 1, 1) if b.name != "yellow" else b)
    after = after.with_ball(BallState("yellow", "free", 106, 2, direction=Direction.NW))
    events = [_fall("right", 3, 106), _fall("left", 3, 106)]
    fallen = _discs(after, ruleset, events, "fallen")
    centres = {s.label: s.centre for s in fallen}
    assert set(centres) == {"left:3", "right:3"}
    ball = next(s for s in _discs(after, ruleset, events, "ball") if s.cell == 106)
    spots = [*centres.values(), ball.centre]
    # Three places, far enough apart that none covers another's middle.
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) > LAYOUT.radius * 0.5
    image = render_position(after, ruleset, tick_events=events)
    for label, at in centres.items():
        assert close(pixel(image, (at[0] + 6, at[1] + 6)), WHITE, 20), label
        ring = (at[0], at[1] - fallen[0].radius + 1)
        side = label.split(":")[0]
        assert close(pixel(image, ring), TEAM_COLOURS[side], 40), label  # type: ignore[index]
    assert close(pixel(image, ball.centre), BALL_COLOURS["yellow"], 30)


def test_a_player_burnt_in_the_fire_stands_out_on_the_hatching(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # Round 20, tick 1 of the demo: Morozov burnt at 57 inside the fire.
    after = place(opening, "right", 5, None, None, status="hospital", return_round=22)
    fire = Event(
        1, 2, 1, Kind.FIRE,
        {"side": "left", "fire": "volley", "cells": [57, 58, 41, 40], "random": False,
         "short_left": 7, "volleys_left": 2},
    )  # fmt: skip
    events = [fire, _fall("right", 5, 57, "fire")]
    image = render_position(after, ruleset, tick_events=events)
    plain = render_position(after, ruleset, tick_events=[fire])
    # A white disc of a player's size, with his team's ring, where the hatching was.
    assert count_in_cell(image, 57, WHITE, tolerance=10) > 500
    assert count_in_cell(plain, 57, WHITE, tolerance=10) < 200  # the cell number's outline
    assert count_in_cell(image, 57, TEAM_COLOURS["right"], tolerance=25) > 60


def test_a_swallowed_player_is_drawn_where_he_was_swallowed(
    opening: MatchState, ruleset: Ruleset
) -> None:
    after = place(opening, "left", 2, None, None, status="swallowed", swallowed_by="right")
    events = [
        Event(
            1, 1, 1, Kind.PLAYER_MOVE,
            {"side": "left", "number": 2, "from_cell": 93, "from_height": 2, "cell": 110,
             "height": 2},
        ),
        Event(1, 1, 3, Kind.PLAYER_SWALLOWED, {"dragon": "right", "side": "left", "number": 2,
                                               "balls": []}),
    ]  # fmt: skip
    swallowed = _discs(after, ruleset, events, "swallowed")
    assert {s.cell for s in swallowed} == {110} and {s.label for s in swallowed} == {"left:2"}
    assert not _discs(after, ruleset, events, "fallen")


def test_a_free_ball_s_next_flight_is_drawn_to_where_it_lands(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = opening.with_ball(BallState("red", "free", 90, 3, direction=Direction.E))
    for name in ("black", "green", "blue", "yellow"):
        state = state.with_ball(BallState(name, "held", 1, 1))
    land = geometry.step(90, Direction.E, 2)
    assert land is not None
    scene = position_scene(state, ruleset, LAYOUT)
    course = [s for s in scene.shapes if s.role == "course"]
    assert course and {s.cell for s in course} == {land} and {s.label for s in course} == {"red"}
    image = render_position(state, ruleset)
    assert count_in_cell(image, geometry.step(90, Direction.E) or 0, BALL_COLOURS["red"]) > 15
    # A held ball has no course of its own.
    held = opening
    for b in opening.balls:
        held = held.with_ball(BallState(b.name, "held", 1, 1))
    assert not [s for s in position_scene(held, ruleset, LAYOUT).shapes if s.role == "course"]


def test_a_goal_is_marked_by_the_dragon_that_swallowed_it(
    opening: MatchState, ruleset: Ruleset
) -> None:
    head = opening.dragon("left").head
    goal = Event(
        1, 1, 2, Kind.GOAL,
        {"ball": "red", "dragon": "left", "scorer_side": "right", "points": 5,
         "score": {"left": 0, "right": 5}},
    )  # fmt: skip
    scene = position_scene(opening, ruleset, LAYOUT, tick_events=[goal])
    marks = [s for s in scene.shapes if s.role == "goal"]
    assert marks and {s.cell for s in marks} == {head}
    assert any(getattr(s, "text", None) == "+5" for s in marks)
    image = render_position(opening, ruleset, tick_events=[goal])
    plain = render_position(opening, ruleset)
    near = [head, *geometry.neighbours(head)]
    assert sum(count_in_cell(image, c, GOLD) for c in near) > 200
    assert sum(count_in_cell(plain, c, GOLD) for c in near) == 0


def test_the_vanished_yellow_ball_is_vanished_not_out_of_play(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = busy_position(opening).with_ball(
        BallState("black", "swallowed", 55, 2, swallowed_by="left")
    )
    public, _ = panel_lines(state, "ru", gm_view=False)
    texts = [t for t, _, _ in public]
    off = texts.index("Мячи вне игры")
    vanished = texts.index("Исчезнувший мяч")
    assert not any("Жёлтый" in t for t in texts[off:vanished])
    assert texts[vanished + 1] == "Жёлтый мяч — где он, не видно"
    gm, _ = panel_lines(state, "ru", gm_view=True)
    assert "Жёлтый мяч — клетка 124, выс. 2 (видит судья)" in [t for t, _, _ in gm]
    en, _ = panel_lines(state, "en", gm_view=False)
    assert ("Vanished ball", (25, 25, 30), True) in en


def _in_the_air(opening: MatchState) -> MatchState:
    # Sokolov (right 1) at 107 threw the red ball to 155 height 1 (round 17 of
    # the seed-2026 demo); it is in the air until step 1 of the next tick.
    state = place(opening, "right", 1, 107, 2)
    for name in ("black", "green", "blue", "yellow"):
        state = state.with_ball(BallState(name, "held", 1, 1))
    return state.with_ball(
        BallState(
            "red", "free", 107, 2, direction=Direction.W, pass_to=(155, 1),
            passer=PlayerRef("right", 1),
        )
    )  # fmt: skip


def test_a_ball_in_the_air_on_a_pass_is_drawn_on_its_way_to_where_it_lands(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = _in_the_air(opening)
    scene = position_scene(state, ruleset, LAYOUT)
    course = [s for s in scene.shapes if s.role == "course"]
    # No free course from the thrower's cell: the ring is where the pass lands.
    assert course and {s.cell for s in course} == {155} and {s.label for s in course} == {"red"}
    [ball] = [
        s
        for s in scene.shapes
        if isinstance(s, Circle) and s.role == "ball" and s.fill == BALL_COLOURS["red"]
    ]
    assert ball.cell == 155
    thrower, landing = LAYOUT.centre(107), LAYOUT.content_centre(155)
    half_way = ((thrower[0] + landing[0]) / 2, (thrower[1] + landing[1]) / 2)
    assert abs(ball.centre[0] - half_way[0]) < 1 and abs(ball.centre[1] - half_way[1]) < 1
    image = render_position(state, ruleset)
    x, y = ball.centre
    assert close(pixel(image, (x + 7, y)), BALL_COLOURS["red"], 30)  # beside its height digit
    assert count_in_cell(image, 155, BALL_COLOURS["red"]) > 40  # the landing ring
    # where a free course from 107 to the west would have gone: nothing red
    assert count_in_cell(image, geometry.step(107, Direction.W) or 0, BALL_COLOURS["red"]) == 0


def test_a_pass_that_lands_a_tick_later_is_drawn_again_on_its_landing_tick(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = opening
    for name in ("black", "green", "blue", "yellow"):
        state = state.with_ball(BallState(name, "held", 1, 1))
    state = state.with_ball(BallState("red", "free", 155, 1, direction=Direction.SW))
    lands = Event(
        17, 2, 1, Kind.PASS_LANDS,
        {"ball": "red", "side": "right", "number": 1, "from_cell": 107, "cell": 155, "height": 1},
    )  # fmt: skip
    with_landing = render_position(state, ruleset, tick_events=[lands])
    without = render_position(state, ruleset)
    red = BALL_COLOURS["red"]
    assert count_in_cell(with_landing, 107, red) > count_in_cell(without, 107, red) + 30


def test_a_goal_s_star_goes_where_it_covers_no_player(
    opening: MatchState, ruleset: Ruleset
) -> None:
    dragon = opening.dragon("left")
    head = dragon.head
    goal = Event(
        1, 1, 2, Kind.GOAL,
        {"ball": "red", "dragon": "left", "scorer_side": "right", "points": 5,
         "score": {"left": 0, "right": 5}},
    )  # fmt: skip
    body = set(geometry.dragon_cells(head, dragon.facing) or ())
    free_sides = [c for c in geometry.neighbours(head) if c not in body]
    # Players on every free side of the head but the one below it, the last
    # choice: the star goes there.
    empty = geometry.step(head, Direction.SW)
    assert empty in free_sides
    state = opening
    for number, cell in enumerate([c for c in free_sides if c != empty], start=1):
        state = place(state, "right", number, cell, 2)
    scene = position_scene(state, ruleset, LAYOUT, tick_events=[goal])
    [star] = [s for s in scene.shapes if s.role == "goal" and isinstance(s, Polygon)]
    sx = sum(p[0] for p in star.points) / len(star.points)
    sy = sum(p[1] for p in star.points) / len(star.points)
    nearest = min(
        geometry.neighbours(head),
        key=lambda c: (LAYOUT.centre(c)[0] - sx) ** 2 + (LAYOUT.centre(c)[1] - sy) ** 2,
    )
    assert nearest == empty


def test_two_goals_into_one_dragon_in_a_tick_each_get_a_star_of_their_own(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # Round 13 of the 2026 demo: a blue (+3) and a red (+5) pass landed in
    # one open mouth in the same tick; the second star was drawn over the first.
    goals = [
        Event(
            1,
            1,
            2,
            Kind.GOAL,
            {
                "ball": ball,
                "dragon": "right",
                "scorer_side": "left",
                "points": points,
                "score": {"left": total, "right": 0},
            },
        )
        for ball, points, total in (("blue", 3, 3), ("red", 5, 8))
    ]
    scene = position_scene(opening, ruleset, LAYOUT, tick_events=goals)
    stars = [s for s in scene.shapes if s.role == "goal" and isinstance(s, Polygon)]
    assert len(stars) == 2
    centres = {
        (round(sum(p[0] for p in s.points) / len(s.points)),
         round(sum(p[1] for p in s.points) / len(s.points)))
        for s in stars
    }  # fmt: skip
    assert len(centres) == 2
    labels = {getattr(s, "text", None) for s in scene.shapes if s.role == "goal"}
    assert {"+3", "+5"} <= labels


def test_a_swallowed_ball_in_the_panel_reads_as_in_the_table(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # It read «Зелёный мяч — проглочен, дракон «Виверны»»; the table says
    # «зелёный — проглочен драконом «Виверны»».
    state = opening.with_ball(BallState("green", "swallowed", 55, 2, swallowed_by="right"))
    team = state.team("right").name
    public, _ = panel_lines(state, "ru", gm_view=False)
    assert (f"Зелёный мяч — проглочен драконом «{team}»", (25, 25, 30), False) in public
    english, _ = panel_lines(state, "en", gm_view=False)
    assert any(text == f"The green ball: swallowed by the {team} dragon" for text, _, _ in english)
