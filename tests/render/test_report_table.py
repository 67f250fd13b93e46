"""The end-of-round table and the story's order: each thing said once, in
§9 order, a player's words beside his own action."""

from __future__ import annotations

from dataclasses import replace

from render_positions import busy_position, place

from bot.render import round_report
from bot.render.course import next_course
from bot.render.table import position_table
from engine import geometry
from engine.events import Event, Kind
from engine.geometry import Direction
from engine.ruleset import Ruleset
from engine.state import BallState, MatchState


def _table(state: MatchState, ruleset: Ruleset, **kw: object) -> list[str]:
    return position_table(state, ruleset, round_=2, lang=str(kw.pop("lang", "ru")), **kw)  # type: ignore[arg-type]


def test_the_table_lists_every_player_with_cell_height_and_balls(ruleset: Ruleset) -> None:
    from engine.setup import new_match

    state = busy_position(new_match(ruleset, "table")[0])
    lines = _table(state, ruleset)
    assert lines[0] == "Позиция после раунда 2 (клетка/высота):"
    assert "  А2 Петров 58/3 — в руках: зелёный" in lines
    assert "  Б1 Соколов 57/1 — в руках: чёрный, голубой" in lines
    assert "  А4 Смирнов — больничное крыло до раунда 3" in lines
    assert "  Б2 Михайлов — проглочен, в драконе «Саламандры»" in lines
    # Every player once, in his team's block.
    for p in state.players:
        assert sum(1 for line in lines if f" {p.name}" in line) == 1, p.name
    left_dragon = next(line for line in lines if line.startswith("  дракон: голова 103"))
    assert "смотрит на СВ" in left_dragon and "коротких 5" in left_dragon and "одурь" in left_dragon
    right_dragon = next(line for line in lines if "пасть открыта" in line)
    assert "залпов 2" in right_dragon


def test_a_free_ball_is_listed_with_where_it_flies_next(ruleset: Ruleset) -> None:
    from engine.setup import new_match

    state = busy_position(new_match(ruleset, "table")[0])
    lines = _table(state, ruleset)
    red = state.ball("red")
    assert red.cell is not None
    first = geometry.step(red.cell, Direction.E)
    second = geometry.step(first or 0, Direction.E)
    assert f"  красный 90/3 → В: {first}, {second}" in lines
    # The vanished yellow ball: "vanished", never where; its cell for the GM only.
    assert "Жёлтый мяч исчез: где он, не видно." in lines
    assert not any("124" in line for line in lines)
    gm = _table(state, ruleset, gm_view=True)
    assert "Жёлтый мяч исчез: клетка 124, высота 2 (видит судья)." in gm


def test_a_course_into_the_dome_says_so(ruleset: Ruleset) -> None:
    from engine.setup import new_match

    state = new_match(ruleset, "table")[0]
    edge = 8  # the top row: one step north-west leaves the field
    ball = BallState("red", "free", edge, 2, direction=Direction.NW)
    course = next_course(ball, ruleset)
    assert course is not None and course.dome and course.cells == ()
    ball = BallState("red", "free", 24, 2, direction=Direction.NE)  # one step, then the dome
    course = next_course(ball, ruleset)
    assert course is not None and course.dome and len(course.cells) == 1
    lines = _table(state.with_ball(ball), ruleset, lang="en")
    assert any(
        line.startswith("  red 24/2 → NE: ") and "new course at the dome" in line for line in lines
    )
    assert next_course(replace(ball, status="held"), ruleset) is None


def test_the_report_ends_with_the_table_instead_of_separate_lists(
    opening: MatchState, ruleset: Ruleset
) -> None:
    after = place(opening, "left", 3, None, None, status="hospital", return_round=4)
    text = round_report([], before=opening, after=after, ruleset=ruleset)
    assert "А3 Сидоров — больничное крыло до раунда 4" in text
    # Said once: the hospital wing and the fire are in the table, not again in lists.
    assert "Больничное крыло:" not in text and "Огонь:" not in text
    assert text.count("Сидоров") == 1


def _held_on_tick() -> list[Event]:
    pair = [{"side": "left", "number": 6}, {"side": "right", "number": 6}]
    return [
        Event(1, 3, 3, Kind.COLLISION, {"cell": 106, "height": 1, "players": pair}),
        Event(
            1, 3, 3, Kind.COLLISION_PICK,
            {"cell": 106, "height": 1, "side": "left", "number": 6}, p=0.5, roll=0.2,
        ),
        Event(
            1, 3, 3, Kind.FALL,
            {"side": "left", "number": 6, "cell": 106, "height": 1, "cause": "collision",
             "return_round": 2},
        ),
        Event(1, 3, 3, Kind.COLLISION_SECOND, {"side": "right", "number": 6}, p=0.5, roll=0.7, ok=False),
        Event(1, 3, 3, Kind.HELD_ON, {"side": "right", "number": 6}),
        Event(
            1, 3, 3, Kind.ACTION_LOST,
            {"side": "right", "number": 6, "action": "catch", "reason": "held_on"},
        ),
    ]  # fmt: skip


def test_holding_on_is_said_once(opening: MatchState, ruleset: Ruleset) -> None:
    text = round_report(_held_on_tick(), before=opening, after=opening, ruleset=ruleset)
    story = text[: text.index("Итог раунда")]
    assert "Волков удерживается — 50%, но теряет действие в этом такте (ловля)." in story
    assert story.count("Волков") == 2  # the collision and this line
    assert "теряет свои действия" not in story and "Волков теряет действие" not in story
    en = round_report(_held_on_tick(), before=opening, after=opening, ruleset=ruleset, lang="en")
    assert "Волков holds on — 50%, but loses his action this tick (catch)." in en


def test_a_description_goes_beside_the_players_own_action(
    opening: MatchState, ruleset: Ruleset
) -> None:
    events = [
        *_held_on_tick(),
        Event(
            1, 3, 6, Kind.CATCH_ROLL,
            {"side": "left", "number": 2, "ball": "green", "where": "adjacent", "second": False},
            p=0.5, roll=0.9, ok=False,
        ),
    ]  # fmt: skip
    said = {("right", 6, 3): "тянется за мячом", ("left", 2, 3): "ловит мяч"}
    text = round_report(events, before=opening, after=opening, ruleset=ruleset, descriptions=said)
    lines = text.splitlines()
    volkov = lines.index("💬 Волков: «тянется за мячом»")
    assert lines[volkov - 1].startswith("Волков удерживается")  # his lost catch, not the collision
    petrov = lines.index("💬 Петров: «ловит мяч»")
    assert lines[petrov - 1].startswith("Петров ловит зелёный мяч")


def test_returning_players_are_told_after_their_teams_flights(
    opening: MatchState, ruleset: Ruleset
) -> None:
    def move(side: str, number: int) -> Event:
        return Event(
            2, 1, 1, Kind.PLAYER_MOVE,
            {"side": side, "number": number, "from_cell": 40, "from_height": 2, "cell": 41,
             "height": 2},
        )  # fmt: skip

    def launch(side: str, number: int, cell: int) -> Event:
        return Event(
            2, 1, 1, Kind.PLAYER_LAUNCH,
            {"side": side, "number": number, "cell": cell, "height": 2, "ordered": True},
        )  # fmt: skip

    # The engine's order: launches and flights interleaved.
    events = [launch("left", 2, 201), move("left", 1), launch("right", 3, 11), move("right", 1)]
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    story = text[: text.index("Итог раунда")].splitlines()
    kinds = [
        "flights-left" if line.startswith("Полёты «Саламандры»")
        else "flights-right" if line.startswith("Полёты «Виверны»")
        else "launch-left" if line.startswith("Петров возвращается")
        else "launch-right" if line.startswith("Новиков возвращается")
        else None
        for line in story
    ]  # fmt: skip
    assert [k for k in kinds if k] == [
        "flights-left",
        "launch-left",
        "flights-right",
        "launch-right",
    ]


def test_a_dropped_ball_and_its_new_course_are_one_sentence(
    opening: MatchState, ruleset: Ruleset
) -> None:
    events = [
        Event(1, 1, 1, Kind.NO_ORDER, {"side": "left", "number": 1, "reason": None}),
        Event(
            1, 1, 1, Kind.PLAYER_MOVE,
            {"side": "left", "number": 1, "from_cell": 38, "from_height": 1, "cell": 38,
             "height": 1},
        ),
        Event(
            1, 1, 1, Kind.BALL_DROPPED,
            {"ball": "red", "side": "left", "number": 1, "cell": 38, "height": 1,
             "reason": "no_order"},
        ),
        Event(1, 1, 1, Kind.BALL_DIRECTION, {"ball": "red", "cell": 38, "direction": "SE"}, p=1 / 6),
        Event(1, 1, 1, Kind.DRAGON_MOVE, {"side": "left", "move": "forward", "head": 104,
                                          "facing": "E", "height": 2}),
    ]  # fmt: skip
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    lines = text[: text.index("Итог раунда")].splitlines()
    flights = next(i for i, line in enumerate(lines) if line.startswith("Полёты «Саламандры»"))
    assert lines[flights + 1] == "Иванов без приказа на этот такт: остаётся на месте."
    assert lines[flights + 2] == (
        "Иванов роняет красный мяч (клетка 38, высота 1); новый курс ЮВ (жребий 1 из 6)."
    )
    assert lines[flights + 3].startswith("Дракон команды «Саламандры» летит вперёд")
    assert not any(line.startswith("Мячи (клетка/высота)") for line in lines)


def test_a_ball_in_the_air_at_the_round_s_end_says_where_it_comes_down(ruleset: Ruleset) -> None:
    from engine.setup import new_match
    from engine.state import PlayerRef

    # A pass thrown on the last tick lands at step 1 of the next round (§9):
    # it has no free course yet, and it is not lying at the thrower's cell.
    state = busy_position(new_match(ruleset, "table")[0])
    state = state.with_ball(
        BallState(
            "red", "free", 57, 1, direction=Direction.E, pass_to=(155, 1),
            passer=PlayerRef("right", 1),
        )
    )  # fmt: skip
    lines = _table(state, ruleset)
    assert (
        "  красный в воздухе — пас (Соколов): опустится на 155/1 в первом такте следующего раунда"
    ) in lines
    assert not any(line.startswith("  красный 57/1") for line in lines)
    en = _table(state, ruleset, lang="en")
    assert any(
        line.startswith("  red in the air — Соколов's pass: comes down at 155/1") for line in en
    )
    assert next_course(state.ball("red"), ruleset) is None
