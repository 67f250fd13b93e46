"""Positions the order-language tests read messages against.

``opening``: a new match (round 1, tick 0) with the default rosters and two
reserves a team.  ``midgame``: round 2, tick 0, with balls in hands, a
player due back from the hospital wing on tick 3, a dazed right dragon, and
the left dragon two cells from the centre line with one volley left.
``twins``: rosters with shared surnames; ``latin``: Latin names;
``soundalikes``: names that sound alike across the scripts.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from engine import BallState, MatchState, PlayerRef, Ruleset, load_ruleset, new_match

RULESET: Ruleset = load_ruleset()


@cache
def opening() -> MatchState:
    state, _ = new_match(RULESET, "orderlang-golden", reserves_per_team=2)
    return state


@cache
def midgame() -> MatchState:
    s = replace(opening(), round=2)
    placed = {
        ("left", 1): (88, 2, ("red",)),
        ("left", 2): (90, 2, ("black",)),
        ("left", 4): (107, 1, ()),
        ("right", 1): (108, 1, ("green",)),
        ("right", 2): (92, 2, ()),
    }
    for (side, number), (cell, height, balls) in placed.items():
        p = s.player(side, number)
        s = s.with_player(replace(p, cell=cell, height=height, balls=balls))
    s = s.with_player(
        replace(s.player("left", 3), status="hospital", cell=None, height=None, return_round=2)
    )
    for ball, side, number in (("red", "left", 1), ("black", "left", 2), ("green", "right", 1)):
        holder = s.player(side, number)
        s = s.with_ball(
            BallState(ball, "held", holder.cell, holder.height, holder=PlayerRef(side, number))
        )
    s = s.with_ball(replace(s.ball("yellow"), cell=50, height=1))
    s = s.with_dragon(replace(s.dragon("right"), effect="daze"))
    # The game master warned the right team in round 1 (§10: a penalty may follow).
    s = s.with_team(replace(s.team("right"), warnings=1, warned_round=1))
    return s.with_dragon(replace(s.dragon("left"), head=104, volleys_left=1))


@cache
def twins() -> MatchState:
    """Rosters with shared surnames, within a team and across the teams."""
    rosters = {
        "left": (
            "Алексей Иванов",
            "Пётр Иванов",
            "Петров",
            "Петренко",
            "Сидоров",
            "Смирнов",
            "Кузнецов",
        ),
        "right": ("Соколов", "Петров", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев"),
    }
    state, _ = new_match(RULESET, "orderlang-twins", rosters=rosters)
    return state


@cache
def latin() -> MatchState:
    """Rosters with Latin names and a Latin-sounding Cyrillic one («Браун»)."""
    rosters = {
        "left": ("Brown", "Smith", "Green", "Greene", "Johnson", "Иванов", "Wright"),
        "right": ("Браун", "Miller", "Соколов", "Clark", "Young", "King", "Scott"),
    }
    state, _ = new_match(RULESET, "orderlang-latin", rosters=rosters)
    return state


@cache
def soundalikes() -> MatchState:
    """Names that sound alike once a Russian ending is dropped (Brown and
    Bruno: «Брауна») or a vowel is misspelt (Allen and «Ильин»)."""
    rosters = {
        "left": ("Иванов", "Brown", "Bruno", "Allen", "Ильин", "Мосин", "Watts"),
        "right": ("Brown", "Bruno", "Moore", "Moro", "White", "Otto", "Mason"),
    }
    state, _ = new_match(RULESET, "orderlang-soundalikes", rosters=rosters)
    return state


@cache
def last_round() -> MatchState:
    """The midgame position a round earlier: its answers are last round's."""
    return replace(midgame(), round=1)


@cache
def after_tick1() -> MatchState:
    """The midgame position with its round's first tick already played."""
    return replace(midgame(), tick=1)


STATES = {
    "opening": opening,
    "midgame": midgame,
    "twins": twins,
    "latin": latin,
    "soundalikes": soundalikes,
    "last_round": last_round,
    "after_tick1": after_tick1,
}
