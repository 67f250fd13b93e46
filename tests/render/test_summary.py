"""The match summary: goals in order, each player's numbers, player of the match."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

from render_fixtures import load_match

from bot.render import match_summary
from bot.render.summary import count_players
from engine.cases import parse_case, play
from engine.events import Event, Kind
from engine.ruleset import Ruleset
from engine.state import MatchState


def _ended(state: MatchState, left: int, right: int) -> MatchState:
    teams = (replace(state.teams[0], score=left), replace(state.teams[1], score=right))
    return replace(state, teams=teams, status="ended", end_reason="decided")


def _goal(
    r: int, t: int, ball: str, dragon: str, side: str, pts: int, left: int, right: int
) -> Event:
    return Event(
        r,
        t,
        2,
        Kind.GOAL,
        {
            "ball": ball,
            "dragon": dragon,
            "scorer_side": side,
            "points": pts,
            "score": {"left": left, "right": right},
        },
    )


def _who(kind: Kind, side: str, number: int, **data: object) -> Event:
    return Event(1, 1, 4, kind, {"side": side, "number": number, **data})


def test_goals_in_order_with_scorers_and_player_of_the_match(
    opening: MatchState, ruleset: Ruleset
) -> None:
    events = [
        _who(Kind.CATCH, "left", 2, ball="green", from_pass=False),
        _who(Kind.PASS, "left", 2, ball="green", from_cell=60, cell=62, height=2, spell=None),
        _goal(1, 1, "green", "right", "left", 2, 2, 0),
        _who(Kind.STEAL, "right", 4, target=3, ball="red"),
        _who(Kind.FALL, "left", 3, cell=80, height=2, cause="collision", return_round=3),
        # Right's player throws the red ball into his own dragon: left scores.
        _who(Kind.PASS, "right", 4, ball="red", from_cell=70, cell=87, height=1, spell=None),
        _goal(2, 3, "red", "right", "left", 5, 7, 0),
        _who(
            Kind.DISENCHANT, "right", 1, ball="blue", spell="gullis-dullis", counter="tsap-tsaraps"
        ),
        _who(Kind.PLAYER_SWALLOWED, "right", 1, dragon="left", balls=["blue"]),
        _goal(3, 2, "blue", "left", "right", 3, 7, 3),
    ]
    final = _ended(opening, 7, 3)
    text = match_summary(events, final, ruleset)
    assert "Итоговый счёт: «Саламандры» 7 : 3 «Виверны»" in text
    assert "Причина окончания: исход уже не изменить." in text
    goals = [line.strip() for line in text.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    assert goals == [
        "1. Раунд 1, такт 1: зелёный мяч — дракон команды «Виверны», +2 очка команде "
        "«Саламандры»; забил Петров",
        "2. Раунд 2, такт 3: красный мяч — дракон команды «Виверны», +5 очков команде "
        "«Саламандры»; в своего дракона: Фёдоров",
        "3. Раунд 3, такт 2: голубой мяч — дракон команды «Саламандры», +3 очка команде "
        "«Виверны»; забил Соколов",
    ]
    assert "А2 Петров: поймал 1, пасов 1, отнял 0, падений 0, очков забил 2" in text
    assert "А3 Сидоров: поймал 0, пасов 0, отнял 0, падений 1" in text
    assert "Б4 Фёдоров: поймал 0, пасов 1, отнял 1, падений 0" in text
    assert "Б1 Соколов: поймал 1, пасов 0, отнял 0, падений 0, очков забил 3, проглочен 1" in text
    # Petrov: 3*2 + 1 + 0.5 = 7.5; Sokolov: 3*3 + 1 = 10.
    assert text.rstrip().endswith("🏆 Игрок матча: Соколов («Виверны»).")
    en = match_summary(events, final, ruleset, lang="en")
    assert "🏆 Player of the match: Соколов (Виверны)." in en
    assert "own dragon: Фёдоров" in en


def test_a_match_without_deeds_has_no_player_of_the_match(
    opening: MatchState, ruleset: Ruleset
) -> None:
    text = match_summary([], opening, ruleset)
    assert text.startswith("Матч продолжается: итоги на раунд 1")
    assert "Голов не было." in text
    assert "Игрок матча не определён" in text


def test_recorded_match_counts_agree_with_its_events(ruleset: Ruleset) -> None:
    events, final = load_match()
    lines, goals = count_players(events)
    kinds = [e.kind for e in events]
    assert len(goals) == kinds.count(Kind.GOAL) > 0
    assert sum(x.catches for x in lines.values()) == kinds.count(Kind.CATCH) + kinds.count(
        Kind.DISENCHANT
    )
    assert sum(x.passes for x in lines.values()) == kinds.count(Kind.PASS)
    assert sum(x.falls for x in lines.values()) == kinds.count(Kind.FALL)
    credited = sum(x.points for x in lines.values())
    assert credited <= final.teams[0].score + final.teams[1].score
    text = match_summary(events, final, ruleset)
    assert f"«{final.teams[0].name}» {final.teams[0].score} : {final.teams[1].score}" in text


def test_a_contested_steal_counts_for_the_one_the_draw_gives_the_ball() -> None:
    name = "two-stealers-one-ball-a-draw-between-them"
    path = Path(__file__).parents[2] / "cases" / "classic" / "s04" / f"{name}.toml"
    events = play(parse_case(tomllib.loads(path.read_text(encoding="utf-8")), name=name), "1")
    lines, _ = count_players(events.events)
    assert lines[("left", 2)].steals == 1  # the draw gave him the red ball
    assert lines[("left", 1)].steals == 0  # he held it only until the draw
