"""The monospace field for plain-text mail and the log."""

from __future__ import annotations

from dataclasses import replace

from render_fixtures import load_round
from render_positions import busy_position, place

from bot.render import text_diagram
from bot.render.text_diagram import SLOT, WIDTH
from engine import geometry
from engine.ruleset import Ruleset
from engine.state import MatchState


def _map_lines(text: str) -> list[str]:
    return text.splitlines()[:26]  # 13 rows of numbers and contents


def test_map_shows_every_cell_and_fits_about_a_hundred_columns(
    opening: MatchState, ruleset: Ruleset
) -> None:
    text = text_diagram(opening, ruleset)
    lines = _map_lines(text)
    assert max(len(line) for line in lines) <= WIDTH
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    numbers = {int(w) for line in lines[0::2] for w in line.split()}
    assert numbers == set(geometry.CELLS)


def _content_under(text: str, cell: int) -> str:
    lines = _map_lines(text)
    row, x = geometry.coord(cell)
    col = x * (SLOT + 1) // 2
    return lines[2 * row + 1][col : col + SLOT].strip()


def test_player_is_marked_under_his_cell_and_listed(opening: MatchState, ruleset: Ruleset) -> None:
    state = place(opening, "left", 1, 57, 2)
    ru = text_diagram(state, ruleset)
    en = text_diagram(state, ruleset, lang="en")
    assert _content_under(ru, 57) == "А1"
    assert _content_under(en, 57) == "A1"
    assert "   57: А1 Иванов, высота 2" in ru
    assert "   57: A1 Иванов, height 2" in en


def test_dragons_and_balls_are_marked(opening: MatchState, ruleset: Ruleset) -> None:
    text = text_diagram(opening, ruleset)
    left = opening.dragon("left")
    assert _content_under(text, left.head) == "Д→"
    _, body, _ = geometry.dragon_cells(left.head, left.facing) or (0, 0, 0)
    assert _content_under(text, body) == "д"
    # Five balls at the centre: one letter each.
    assert _content_under(text, 106) == "чзгкж"
    crowded = place(place(opening, "left", 1, 106, 1), "right", 1, 106, 3)
    # More than a slot holds: a «+» says the listing has the rest.
    assert _content_under(text_diagram(crowded, ruleset), 106) == "А1Б1+"
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  106:"))
    listing = " ".join([lines[at]] + [x for x in lines[at + 1 : at + 4] if x.startswith(" " * 7)])
    for colour in ("Чёрный", "Зелёный", "Голубой", "Красный", "Жёлтый"):
        assert colour in listing


def test_vanished_yellow_ball_is_not_on_the_public_map(
    opening: MatchState, ruleset: Ruleset
) -> None:
    state = busy_position(opening)  # the yellow ball vanished at 124
    assert state.ball("yellow").status == "vanished"
    text = text_diagram(state, ruleset)
    assert "124" not in [line.split(":")[0].strip() for line in text.splitlines() if ":" in line]
    assert _content_under(text, 124) == ""
    assert "Жёлтый мяч — где он, не видно" in text


def test_off_field_players_are_listed(opening: MatchState, ruleset: Ruleset) -> None:
    state = busy_position(opening)
    text = text_diagram(state, ruleset)
    assert "А4 Смирнов — вернётся в раунде 3" in text
    assert "Б2 Михайлов — в драконе «Саламандры»" in text


def test_recorded_position_renders(ruleset: Ruleset) -> None:
    rec = load_round("recorded_round.json")
    text = text_diagram(rec.after, ruleset)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert replace(rec.after).round == rec.after.round


def test_a_ball_in_the_air_is_marked_where_it_comes_down(
    opening: MatchState, ruleset: Ruleset
) -> None:
    from engine.geometry import Direction
    from engine.state import BallState, PlayerRef

    state = place(opening, "right", 1, 107, 2, balls=())
    for name in ("black", "green", "blue", "yellow"):
        state = state.with_ball(BallState(name, "held", 1, 1))
    state = state.with_ball(
        BallState(
            "red", "free", 107, 2, direction=Direction.W, pass_to=(155, 1),
            passer=PlayerRef("right", 1),
        )
    )  # fmt: skip
    text = text_diagram(state, ruleset)
    assert _content_under(text, 155) == "к"
    assert "к" not in _content_under(text, 107)  # the thrower's cell is only bookkeeping
    assert "  155: Красный мяч в воздухе (пас): опустится здесь в следующем такте, высота 1" in (
        text.splitlines()
    )
