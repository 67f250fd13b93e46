"""The opening position of a match (§2)."""

from __future__ import annotations

from collections.abc import Sequence

from .dice import Dice
from .events import Event, Kind
from .geometry import SIDES, Side
from .ruleset import Ruleset
from .state import BallState, DragonState, MatchState, PlayerState, TeamState

DEFAULT_TEAM_NAMES: dict[Side, str] = {"left": "Саламандры", "right": "Виверны"}
DEFAULT_NAMES: dict[Side, tuple[str, ...]] = {
    "left": (
        "Иванов",
        "Петров",
        "Сидоров",
        "Смирнов",
        "Кузнецов",
        "Попов",
        "Васильев",
        "Зайцев",
        "Павлов",
        "Семёнов",
        "Голубев",
        "Виноградов",
        "Богданов",
        "Воробьёв",
    ),
    "right": (
        "Соколов",
        "Михайлов",
        "Новиков",
        "Фёдоров",
        "Морозов",
        "Волков",
        "Алексеев",
        "Лебедев",
        "Козлов",
        "Степанов",
        "Николаев",
        "Орлов",
        "Андреев",
        "Макаров",
    ),
}


def new_match(
    ruleset: Ruleset,
    seed: str | int | bytes,
    *,
    players_per_team: int | None = None,
    reserves_per_team: int | None = None,
    team_names: dict[Side, str] | None = None,
    rosters: dict[Side, Sequence[str]] | None = None,
) -> tuple[MatchState, list[Event]]:
    """The position before round 1: players on their launch cells, dragons on
    their starting cells, all balls at the centre with random direction and
    height drawn from ``seed`` (§2).  Returns the state and the draws made.
    """
    per_team = ruleset.players_per_team if players_per_team is None else players_per_team
    reserves = ruleset.reserves_per_team if reserves_per_team is None else reserves_per_team
    if not 1 <= per_team <= len(ruleset.setup_left) or not 1 <= per_team <= len(
        ruleset.setup_right
    ):
        raise ValueError(f"players per team must be 1..{len(ruleset.setup_left)}")
    if reserves < 0:
        raise ValueError("reserves per team cannot be negative")
    names = team_names or DEFAULT_TEAM_NAMES
    players: list[PlayerState] = []
    for side in SIDES:
        roster = list(rosters[side]) if rosters and side in rosters else list(DEFAULT_NAMES[side])
        while len(roster) < per_team + reserves:
            roster.append(f"{'L' if side == 'left' else 'R'}{len(roster) + 1}")
        cells = ruleset.setup_cells(side)
        for i in range(per_team + reserves):
            active = i < per_team
            players.append(
                PlayerState(
                    side=side,
                    number=i + 1,
                    name=roster[i],
                    status="active" if active else "reserve",
                    cell=cells[i] if active else None,
                    height=ruleset.setup_height if active else None,
                )
            )
    dragons = []
    for side in SIDES:
        start = ruleset.dragon.start(side)
        dragons.append(
            DragonState(
                side=side,
                head=start.head,
                facing=start.facing,
                height=ruleset.dragon.start_height,
                mouth_open=False,
                short_left=ruleset.fire.short_budget,
                volleys_left=ruleset.fire.volley_budget,
            )
        )
    dice = Dice(seed)
    events: list[Event] = []
    balls = []
    heights = ruleset.heights
    directions = ruleset.field.directions
    for name in ruleset.ball_order:
        roll_d, direction = dice.pick(directions)
        roll_h, height = dice.pick(heights)
        events.append(
            Event(
                0,
                0,
                0,
                Kind.BALL_DIRECTION,
                {"ball": name, "cell": ruleset.ball_start_cell, "direction": direction.name},
                p=1 / len(directions),
                roll=roll_d,
            )
        )
        events.append(
            Event(
                0,
                0,
                0,
                Kind.BALL_HEIGHT,
                {"ball": name, "cell": ruleset.ball_start_cell, "height": height},
                p=1 / len(heights),
                roll=roll_h,
            )
        )
        balls.append(
            BallState(
                name=name,
                status="free",
                cell=ruleset.ball_start_cell,
                height=height,
                direction=direction,
            )
        )
    state = MatchState(
        ruleset=ruleset.name,
        round=1,
        tick=0,
        teams=(
            TeamState("left", names.get("left", "left"), enchanted_left=ruleset.enchanted_per_team),
            TeamState(
                "right", names.get("right", "right"), enchanted_left=ruleset.enchanted_per_team
            ),
        ),
        players=tuple(players),
        balls=tuple(balls),
        dragons=(dragons[0], dragons[1]),
    )
    return state, events
