"""The second edition's events in the report's words (ruleset variant-001):
a collision where each player draws for himself, the survivor knocked back,
and the cells a turning dragon sweeps."""

from __future__ import annotations

from bot.render import round_report
from engine.events import Event, Kind
from engine.ruleset import Ruleset
from engine.state import MatchState


def _story(events: list[Event], state: MatchState, ruleset: Ruleset, lang: str) -> list[str]:
    text = round_report(events, before=state, after=state, ruleset=ruleset, lang=lang)
    return text[: text.index("Итог раунда" if lang == "ru" else "End of round")].splitlines()


def _collision(first_falls: bool) -> list[Event]:
    # Round 1, tick 3 of the 001 demo: Михайлов and Морозов on 47 at height 3.
    a, b = {"side": "right", "number": 2}, {"side": "right", "number": 5}
    events = [Event(1, 3, 5, Kind.COLLISION, {"cell": 47, "height": 3, "players": [a, b]})]
    if first_falls:
        events += [
            Event(1, 3, 5, Kind.COLLISION_SECOND, a, p=0.5, roll=0.2, ok=True),
            Event(1, 3, 5, Kind.FALL, {**a, "cell": 47, "height": 3, "cause": "collision",
                                        "return_round": 2, "safety": True}),
        ]  # fmt: skip
    else:
        events += [
            Event(1, 3, 5, Kind.COLLISION_SECOND, a, p=0.5, roll=0.9, ok=False),
            Event(1, 3, 5, Kind.HELD_ON, {**a, "cell": 65}),
        ]
    events += [
        Event(1, 3, 5, Kind.COLLISION_SECOND, b, p=0.5, roll=0.4, ok=True),
        Event(1, 3, 5, Kind.FALL, {**b, "cell": 47, "height": 3, "cause": "collision",
                                    "return_round": 2, "safety": True}),
    ]  # fmt: skip
    return events


def test_001_each_player_in_a_collision_draws_for_himself(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # It read «Михайлов удерживается — 50%. Морозов тоже падает — 50%.»: «тоже»
    # after a player who stayed up, and not a word of where the survivor went.
    first, second = opening.player("right", 2).name, opening.player("right", 5).name
    ru = _story(_collision(False), opening, ruleset, "ru")
    assert f"{first} удерживается — 50%, отлетает назад на клетку 65." in ru
    assert f"{second} падает — 50%." in ru
    assert not any("тоже" in line for line in ru)
    en = _story(_collision(False), opening, ruleset, "en")
    assert f"{first} holds on — 50%, knocked back to cell 65." in en
    assert f"{second} falls — 50%." in en
    both = _story(_collision(True), opening, ruleset, "ru")
    assert f"{first} падает — 50%." in both
    assert f"{second} тоже падает — 50%." not in both and f"{second} падает — 50%." in both


def test_a_classic_collision_still_says_the_second_falls_too(
    opening: MatchState, ruleset: Ruleset
) -> None:
    a, b = {"side": "left", "number": 6}, {"side": "right", "number": 6}
    events = [
        Event(1, 1, 3, Kind.COLLISION, {"cell": 106, "height": 1, "players": [a, b]}),
        Event(1, 1, 3, Kind.COLLISION_PICK, {"cell": 106, "height": 1, **a}, p=0.5, roll=0.2),
        Event(1, 1, 3, Kind.COLLISION_SECOND, b, p=0.5, roll=0.2, ok=True),
    ]
    ru = _story(events, opening, ruleset, "ru")
    assert f"{opening.player('right', 6).name} тоже падает — 50%." in ru


def test_001_a_turn_sweeping_one_cell_says_клетку(opening: MatchState, ruleset: Ruleset) -> None:
    team = opening.team("left").name
    one = [Event(1, 1, 1, Kind.TURN_ZONE, {"side": "left", "cells": [108]})]
    two = [Event(1, 1, 1, Kind.TURN_ZONE, {"side": "left", "cells": [73, 90]})]
    assert f"Дракон команды «{team}» поворачивает, задевая клетку 108." in _story(
        one, opening, ruleset, "ru"
    )
    assert f"Дракон команды «{team}» поворачивает, задевая клетки 73, 90." in _story(
        two, opening, ruleset, "ru"
    )
    assert f"The {team} dragon turns, sweeping cell 108." in _story(one, opening, ruleset, "en")


def test_001_ball_magic_is_told_in_words(opening: MatchState, ruleset: Ruleset) -> None:
    # Round 7 of the 001 demo read «Дракон команды «Саламандры»: daze_zone.»
    team = opening.team("left").name
    words = {
        "daze_zone": ("зона поражения вокруг дракона до конца раунда", "a striking zone"),
        "spit": ("чих: выплёвывает всех проглоченных", "sneeze: spits out"),
        "gape": ("пасть широко открыта до конца матча", "mouth wide open"),
        "sleep": ("приземляется и засыпает: конец матча", "lands and falls asleep"),
    }
    for effect, (ru, en) in words.items():
        start = [Event(1, 2, 10, Kind.EFFECT_START, {"dragon": "left", "effect": effect})]
        [line] = [x for x in _story(start, opening, ruleset, "ru") if x.startswith("Дракон")]
        assert line.startswith(f"Дракон команды «{team}»: {ru}") and f": {effect}." not in line
        [line] = [x for x in _story(start, opening, ruleset, "en") if x.startswith("The")]
        assert line.startswith(f"The {team} dragon: {en}") and f": {effect}." not in line


def test_001_a_player_thrown_aside_is_told_what_threw_him(
    opening: MatchState, ruleset: Ruleset
) -> None:
    # Round 7 of the 001 demo: «↔ Васильев отброшен на 3 клетки (С): с клетки 87
    # на 36.» — by the dazing zone, which has no line of its own in that tick.
    name = opening.player("left", 7).name
    who = {"side": "left", "number": 7, "from_cell": 87, "direction": "N"}
    zone = [Event(1, 3, 4, Kind.THROWN, {**who, "cell": 36, "cause": "daze"})]
    ru = _story(zone, opening, ruleset, "ru")
    assert f"↔ {name} отброшен на 3 клетки (С; зона поражения дракона): с клетки 87 на 36." in ru
    en = _story(zone, opening, ruleset, "en")
    assert f"↔ {name} is thrown 3 cells (N; the dragon's striking zone): from cell 87 to 36." in en
    dome = [Event(1, 3, 4, Kind.THROWN, {**who, "cell": None, "cause": "tail"})]
    assert f"↔ {name} отброшен с клетки 87 (С; удар хвостом) прямо в защитный купол." in _story(
        dome, opening, ruleset, "ru"
    )


def test_001_fire_is_named_and_counts_no_budget(opening: MatchState, ruleset: Ruleset) -> None:
    # Round 10 of the 001 demo: «🔥 Дракон команды «Виверны» выдыхает jet: клетки
    # 100. Осталось: коротких 0, залпов 0.»
    team = opening.team("right").name
    data = {"side": "right", "random": False, "short_left": 0, "volleys_left": 0}
    jet = [Event(1, 3, 4, Kind.FIRE, {**data, "fire": "jet", "cells": [100]})]
    wall = [Event(1, 3, 4, Kind.FIRE, {**data, "fire": "wall", "cells": [98, 99, 100]})]
    assert f"🔥 Дракон команды «{team}» выдыхает струю пламени: клетка 100." in _story(
        jet, opening, ruleset, "ru"
    )
    assert f"🔥 Дракон команды «{team}» выдыхает огненный вал: клетки 98, 99, 100." in _story(
        wall, opening, ruleset, "ru"
    )
    en = _story(jet, opening, ruleset, "en")
    assert f"🔥 The {team} dragon breathes a jet of flame: cell 100." in en
    assert not any(
        "Осталось" in line or "jet:" in line for line in _story(jet, opening, ruleset, "ru")
    )
