"""The panel of a second-edition picture tells the dragons' fire as 001
counts it — a jet every three ticks, a wall once in two rounds and the deep
breath after it — not the classic book's budget of flames and volleys."""

from __future__ import annotations

from bot.orderlang import apply_result, parse_message
from bot.render.panel import panel_lines
from bot.render.style import DRAGON_COLOURS
from engine import load_ruleset, new_match, resolve_round
from engine.orders import RoundOrders
from engine.state import MatchState

RULES = load_ruleset("variant-001")


def _fire_lines(state: MatchState, lang: str) -> list[str]:
    first, _ = panel_lines(state, lang, gm_view=False)
    # Under each dragon's name (in its colour): its height and mouth, then its fire.
    names = [i for i, (_, colour, _) in enumerate(first) if colour in DRAGON_COLOURS.values()]
    return [first[i + 2][0] for i in names]


def test_the_panel_shows_when_the_jet_and_the_wall_come_back() -> None:
    state, _ = new_match(RULES, "panel")
    assert _fire_lines(state, "ru") == ["  струя готова; вал готов"] * 2
    orders = RoundOrders()
    for side, text in (("left", "т3 Дракон: стоять, струя"), ("right", "т1 Дракон: стоять, вал")):
        result = parse_message(text, state=state, ruleset=RULES, side=side, lang="ru")
        assert not result.errors, result.errors
        orders = apply_result(orders, result)
    state = resolve_round(state, orders, RULES, "panel/1").state
    assert _fire_lines(state, "ru") == [
        "  струя — с р. 2, т. 3; вал готов",
        "  струя — с р. 3, т. 1; вал — с раунда 3",
    ]
    assert _fire_lines(state, "en")[1] == "  jet from round 3, tick 1; wall from round 3"
    assert not any("залп" in line or "коротк" in line for line in _fire_lines(state, "ru"))


def test_the_classic_panel_keeps_its_budget() -> None:
    state, _ = new_match(load_ruleset("classic"), "panel")
    assert _fire_lines(state, "ru") == ["  огонь: коротких 7, залпов 3"] * 2
