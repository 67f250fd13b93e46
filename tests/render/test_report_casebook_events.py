"""The report tells the events of the case-book rulings: a pass landing a
tick after it was thrown, a game master's warning and a refused penalty
(§5, §9, §10)."""

from __future__ import annotations

from bot.render import round_report
from engine.events import Event, Kind
from engine.ruleset import Ruleset
from engine.state import MatchState


def _lines(events: list[Event], state: MatchState, ruleset: Ruleset, lang: str) -> str:
    return round_report(events, before=state, after=state, ruleset=ruleset, lang=lang)


def test_s9_the_report_tells_a_pass_landing(opening: MatchState, ruleset: Ruleset) -> None:
    passer = opening.player("left", 1)
    lands = {
        "ball": "green",
        "side": "left",
        "number": 1,
        "from_cell": 36,
        "cell": 40,
        "height": 2,
    }
    events = [Event(1, 2, 1, Kind.PASS_LANDS, lands)]
    ru = _lines(events, opening, ruleset, "ru")
    # «Пас игрока Петров» declined the word but not the name: the name in brackets,
    # as «у соперника (Соколов)».
    assert f"Пас ({passer.name}) долетает:" in ru and "на клетке 40, высота 2" in ru
    en = _lines(events, opening, ruleset, "en")
    assert f"{passer.name}'s pass:" in en and "arrives at cell 40, height 2" in en


def test_s10_the_report_tells_warnings_and_refused_penalties(
    opening: MatchState, ruleset: Ruleset
) -> None:
    team = opening.team("right").name
    events = [
        Event(1, 1, 0, Kind.PENALTY_REFUSED, {"side": "right", "reason": "no_warning"}),
        Event(1, 3, 7, Kind.WARNING, {"side": "right", "count": 1}),
    ]
    ru = _lines(events, opening, ruleset, "ru")
    assert f"Штрафной вброс команде «{team}» не назначен" in ru
    assert f"Судья предупредил команду «{team}» (§10, предупреждение 1)" in ru
    en = _lines(events, opening, ruleset, "en")
    assert f"No penalty throw-in for {team}" in en
    assert f"The game master warned {team} (§10, warning 1)" in en
