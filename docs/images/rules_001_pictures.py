"""Draw the pictures of the second edition's players' rule book
(docs/rules-001-ru.md, rules-001-en.md) with the judge's own renderer: the
empty square field, the opening position, and the position the book's order
examples are written for (``example_position``; tests/test_player_rules_001.py
checks every example against it).  Run from the repository root after a
change to the field, the legend, the opening or the example:

    python docs/images/rules_001_pictures.py
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.demo import cast
from bot.render.diagram import png_bytes, render_field, render_position
from engine.geometry import Direction, Side
from engine.ruleset import load_ruleset
from engine.setup import new_match
from engine.state import BallState, MatchState, PlayerRef

HERE = Path(__file__).resolve().parent
RULESET = "variant-001"

# The example: before round 5.  Who stands where (cell, height) and holds
# what; everyone else is on his launch cell.
_PLAYERS: dict[tuple[Side, int], tuple[int, int, tuple[str, ...]]] = {
    ("left", 1): (96, 2, ("red",)),  # Иванов, next to the right dragon's head after one cell
    ("left", 2): (91, 2, ("green",)),  # Петров, passes along row 6
    ("left", 3): (94, 2, ()),  # Сидоров, on the pass's line
    ("left", 5): (71, 2, ()),  # Кузнецов
    ("left", 7): (124, 2, ("black",)),  # Васильев, throws without a spell
    ("right", 1): (98, 2, ()),  # Соколов, goes for Иванов's ball
    ("right", 2): (93, 3, ()),  # Михайлов, may intercept
}
# Попов fell at round 4, tick 2, saying the safety spell: he is back at
# round 5, tick 2, from the cell and height of his fall.
_FALLEN = ("left", 6, 139, 1, 2)
_FREE: dict[str, tuple[int, int, Direction]] = {
    "blue": (128, 2, Direction.N),
    "yellow": (150, 1, Direction.NE),
}


def opening(lang: str) -> MatchState:
    state, _ = new_match(
        load_ruleset(RULESET),
        "rules-001",
        team_names={side: cast.team_name(side, lang) for side in ("left", "right")},
        rosters={side: cast.roster(side, lang) for side in ("left", "right")},
    )
    return state


def example_position(lang: str) -> MatchState:
    """The position the rule book's order examples are written for."""
    state = replace(opening(lang), round=5, tick=0)
    for (side, number), (cell, height, balls) in _PLAYERS.items():
        p = state.player(side, number)
        state = state.with_player(replace(p, cell=cell, height=height, balls=balls))
        for ball in balls:
            state = state.with_ball(
                BallState(ball, "held", cell, height, holder=PlayerRef(side, number))
            )
    side, number, cell, height, tick = _FALLEN
    fallen = state.player(side, number)  # type: ignore[arg-type]
    marks = (("return_cell", cell), ("return_height", height), ("return_tick", tick))
    state = state.with_player(
        replace(fallen, status="hospital", cell=None, height=None, return_round=5, marks=marks)
    )
    for ball, (cell, height, direction) in _FREE.items():
        state = state.with_ball(BallState(ball, "free", cell, height, direction=direction))
    return state


def main() -> None:
    ruleset = load_ruleset(RULESET)
    for lang in ("ru", "en"):
        pictures = {
            "field": render_field(ruleset, lang=lang),
            "opening": render_position(opening(lang), ruleset, lang=lang),
            "example": render_position(example_position(lang), ruleset, lang=lang),
        }
        for name, picture in pictures.items():
            (HERE / f"{name}-001-{lang}.png").write_bytes(png_bytes(picture))
            print(f"wrote {name}-001-{lang}.png")


if __name__ == "__main__":
    main()
