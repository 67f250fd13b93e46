"""§1: the pepper (red) ball acts at once — the dragon spits out the players
it swallowed in the same tick — and only the end of the dragon's previous
lasting magic waits for the next tick; the other balls' magic starts then."""

from __future__ import annotations

from dataclasses import replace

from bot.render import round_report
from engine.events import Event, Kind
from engine.ruleset import Ruleset
from engine.state import MatchState

SWALLOWED = [{"side": "left", "number": 2}, {"side": "left", "number": 3}]


def _goal(ball: str, effect: str, *, spat: bool) -> list[Event]:
    goal = {"ball": ball, "dragon": "right", "scorer_side": "left", "points": 5}
    events = [
        Event(1, 1, 5, Kind.GOAL, {**goal, "score": {"left": 5, "right": 0}}),
        Event(1, 1, 5, Kind.EFFECT_PENDING, {"dragon": "right", "effect": effect}),
    ]
    if spat:
        spit = {"dragon": "right", "players": SWALLOWED, "return_round": 2}
        events.append(Event(1, 1, 5, Kind.PLAYERS_SPAT, spit))
    events.append(Event(1, 2, 0, Kind.EFFECT_START, {"dragon": "right", "effect": effect}))
    return events


def _dazed(state: MatchState) -> MatchState:
    dragons = tuple(replace(d, effect="daze") if d.side == "right" else d for d in state.dragons)
    return replace(state, dragons=dragons)


def _report(events: list[Event], before: MatchState, ruleset: Ruleset, lang: str) -> list[str]:
    text = round_report(events, before=before, after=before, ruleset=ruleset, lang=lang)
    return text.splitlines()


def test_s1_pepper_spits_the_swallowed_at_once(opening: MatchState, ruleset: Ruleset) -> None:
    ru = _report(_goal("red", "pepper", spat=True), opening, ruleset, "ru")
    team = opening.team("right").name
    names = ", ".join(opening.player("left", n).name for n in (2, 3))
    assert "— Такт 2 —" not in ru  # nothing is left for the next tick
    assert (
        f"🌶 Перец действует сразу: дракон команды «{team}» выплёвывает проглоченных игроков"
        f" — {names}. Они вернутся в игру в раунде 2." in ru
    )
    text = "\n".join(ru)
    assert "со следующего такта" not in text  # nothing of the pepper waits
    assert "выплёвывает проглоченных:" not in text  # the spitting is told once
    en = "\n".join(_report(_goal("red", "pepper", spat=True), opening, ruleset, "en"))
    assert f"🌶 Pepper acts at once: the {team} dragon spits out the swallowed players" in en
    assert "next tick" not in en


def test_s1_pepper_ends_a_lasting_daze_from_the_next_tick(
    opening: MatchState, ruleset: Ruleset
) -> None:
    dazed = _dazed(opening)
    ru = _report(_goal("red", "pepper", spat=False), dazed, ruleset, "ru")
    team = opening.team("right").name
    tick1 = ru[ru.index("— Такт 1 —") : ru.index("— Такт 2 —")]
    tick2 = ru[ru.index("— Такт 2 —") :]
    assert (
        f"🌶 Перец действует сразу: дракон команды «{team}» выплёвывает проглоченных игроков,"
        " но проглоченных нет." in tick1
    )
    assert f"Дракон команды «{team}»: прежняя магия (одурь) кончается со следующего такта." in tick1
    assert (
        f"Дракон команды «{team}»: прежняя магия (одурь) больше не действует — её сменил перец."
        in tick2
    )
    en = _report(_goal("red", "pepper", spat=False), dazed, ruleset, "en")
    assert f"The {team} dragon: its previous magic (dazed) ends from the next tick." in en


def test_s1_other_balls_take_hold_from_the_next_tick(opening: MatchState, ruleset: Ruleset) -> None:
    ru = _report(_goal("black", "daze", spat=False), opening, ruleset, "ru")
    tick1 = ru[ru.index("— Такт 1 —") : ru.index("— Такт 2 —")]
    tick2 = ru[ru.index("— Такт 2 —") :]
    assert any(
        line.startswith("Магия мяча подействует со следующего такта: одурь") for line in tick1
    )
    assert any(line.endswith("одурь: до следующего мяча глотает и своих, огонь — только наугад.")
               for line in tick2)  # fmt: skip
    assert not any("Перец" in line for line in ru)


def test_s1_a_pepper_without_lasting_magic_before_says_nothing_next_tick(
    opening: MatchState, ruleset: Ruleset
) -> None:
    ru = _report(_goal("red", "pepper", spat=False), opening, ruleset, "ru")
    assert "— Такт 2 —" not in ru  # the next tick has nothing to tell
    assert not any("прежняя магия" in line for line in ru)


def test_s1_pepper_spitting_one_player_speaks_of_one(opening: MatchState, ruleset: Ruleset) -> None:
    # Round 13 of the 2026 demo: «… — Васильев. Они вернутся в игру в раунде 14.»
    events = _goal("red", "pepper", spat=True)
    one = [{"side": "left", "number": 2}]
    events = [
        replace(e, data={**e.data, "players": one}) if e.kind is Kind.PLAYERS_SPAT else e
        for e in events
    ]
    team = opening.team("right").name
    name = opening.player("left", 2).name
    ru = _report(events, opening, ruleset, "ru")
    assert (
        f"🌶 Перец действует сразу: дракон команды «{team}» выплёвывает проглоченного игрока"
        f" — {name}. Он вернётся в игру в раунде 2." in ru
    )
    assert not any("Они вернутся" in line for line in ru)
    en = _report(events, opening, ruleset, "en")
    assert (
        f"🌶 Pepper acts at once: the {team} dragon spits out the swallowed player"
        f" — {name}. He is back in play in round 2." in en
    )
