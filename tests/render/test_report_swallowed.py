"""§6: a swallowed player is told once, by the dragon that swallowed him,
with the balls he took in (one ball is «мяч», two «мячи»); a player who
stays up against a dragon's knock and so holds on is told in one sentence."""

from __future__ import annotations

from bot.render import round_report
from engine.events import Event, Kind
from engine.ruleset import Ruleset
from engine.state import MatchState


def _story(events: list[Event], state: MatchState, ruleset: Ruleset, lang: str) -> list[str]:
    text = round_report(events, before=state, after=state, ruleset=ruleset, lang=lang)
    return text[: text.index("Итог раунда" if lang == "ru" else "End of round")].splitlines()


def _swallowed(balls: list[str]) -> list[Event]:
    data = {"side": "right", "number": 7, "dragon": "left", "balls": balls}
    return [Event(1, 1, 3, Kind.PLAYER_SWALLOWED, data)]


def test_a_player_swallowed_with_one_ball(opening: MatchState, ruleset: Ruleset) -> None:
    # Round 19 of the 2026 demo read «проглочен вместе с мячами (жёлтый мяч): дракон …».
    name = opening.player("right", 7).name
    team = opening.team("left").name
    ru = _story(_swallowed(["yellow"]), opening, ruleset, "ru")
    assert f"🐉 {name} проглочен драконом команды «{team}» вместе с мячом (жёлтый)." in ru
    en = _story(_swallowed(["yellow"]), opening, ruleset, "en")
    assert f"🐉 {name} is swallowed by the {team} dragon with his ball (yellow)." in en


def test_a_player_swallowed_with_two_balls_or_none(opening: MatchState, ruleset: Ruleset) -> None:
    name = opening.player("right", 7).name
    team = opening.team("left").name
    ru = _story(_swallowed(["black", "green"]), opening, ruleset, "ru")
    assert f"🐉 {name} проглочен драконом команды «{team}» вместе с мячами (чёрный, зелёный)." in ru
    assert f"🐉 {name} проглочен драконом команды «{team}»." in _story(
        _swallowed([]), opening, ruleset, "ru"
    )
    en = _story(_swallowed(["black", "green"]), opening, ruleset, "en")
    assert f"🐉 {name} is swallowed by the {team} dragon with his balls (black, green)." in en


def _knock(ok: bool) -> list[Event]:
    who = {"side": "left", "number": 1}
    events = [
        Event(1, 3, 3, Kind.DRAGON_KNOCK_ROLL, {"dragon": "right", **who, "part": "body"},
              p=0.5, roll=0.3 if ok else 0.6, ok=ok),
    ]  # fmt: skip
    if not ok:
        events += [
            Event(1, 3, 3, Kind.HELD_ON, {**who, "dragon": "right", "part": "body"}),
            Event(1, 3, 3, Kind.ACTION_LOST, {**who, "action": "catch", "reason": "held_on"}),
        ]
    return events


def test_staying_up_against_a_dragon_is_said_once(opening: MatchState, ruleset: Ruleset) -> None:
    # Round 4 of the 2026 demo: «… — 50%, устоял.» and then «Иванов удержался
    # при столкновении, но теряет действие …» — the same holding on twice.
    name = opening.player("left", 1).name
    team = opening.team("right").name
    ru = _story(_knock(False), opening, ruleset, "ru")
    assert (
        f"{name} на клетке дракона (тело; дракон команды «{team}») — 50%, устоял,"
        " но теряет действие в этом такте (ловля)." in ru
    )
    assert not any("удержался" in line for line in ru)
    en = _story(_knock(False), opening, ruleset, "en")
    assert (
        f"{name} on the dragon's cell (body; the {team} dragon) — 50%, stays up,"
        " but loses his action this tick (catch)." in en
    )
    down = _story(_knock(True), opening, ruleset, "ru")
    assert f"{name} на клетке дракона (тело; дракон команды «{team}») — 50%, сбит." in down
