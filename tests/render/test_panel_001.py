"""The panel of a second-edition picture tells the dragons' fire as 001
counts it — a jet every three ticks, a wall once in two rounds and the deep
breath after it — not the classic book's budget of flames and volleys."""

from __future__ import annotations

from render_positions import place

from bot.orderlang import apply_result, parse_message
from bot.render.panel import panel_lines
from bot.render.style import DRAGON_COLOURS
from bot.render.table import position_table
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


def test_the_end_of_round_table_tells_the_001_fire_too() -> None:
    # The 001 demo's table read «огонь: коротких 1000, залпов 1000» (the
    # classic budget's fields, which 001 fills with a sentinel).
    state, _ = new_match(RULES, "panel")
    orders = RoundOrders()
    result = parse_message("т1 Дракон: стоять, вал", state=state, ruleset=RULES, side="right")
    orders = apply_result(orders, result)
    state = resolve_round(state, orders, RULES, "panel/1").state
    ru = position_table(state, RULES, round_=1, lang="ru")
    dragons = [line for line in ru if line.startswith("  дракон:")]
    assert dragons[0].endswith("; огонь: струя готова; вал готов")
    assert dragons[1].endswith("; огонь: струя — с р. 3, т. 1; вал — с раунда 3")
    assert not any("1000" in line for line in ru)
    en = position_table(state, RULES, round_=1, lang="en")
    assert any(line.endswith("; fire: jet from round 3, tick 1; wall from round 3") for line in en)
    classic = load_ruleset("classic")
    start, _ = new_match(classic, "panel")
    assert any(
        line.endswith("; огонь: коротких 7, залпов 3")
        for line in position_table(start, classic, round_=1, lang="ru")
    )


def test_a_player_out_of_the_game_is_out_not_in_reserve() -> None:
    # The 001 demo's table after round 8 listed «А1 Иванов — в запасе»: he had
    # fallen without the safety spell and was out of the game.
    state, _ = new_match(RULES, "panel")
    state = place(state, "left", 1, None, None, status="out")
    name = state.player("left", 1).name
    ru = position_table(state, RULES, round_=8, lang="ru")
    assert f"  А1 {name} — выбыл из игры" in ru
    assert not any("в запасе" in line for line in ru)
    assert f"  A1 {name} — out of the game" in position_table(state, RULES, round_=8, lang="en")
    _, second = panel_lines(state, "ru", gm_view=False)
    texts = [text for text, _, _ in second]
    assert texts[texts.index("Выбыли из игры") + 1] == f"А1 {name}"
    start, _ = new_match(load_ruleset("classic"), "panel")
    assert "Выбыли из игры" not in [text for text, _, _ in panel_lines(start, "ru", False)[1]]
