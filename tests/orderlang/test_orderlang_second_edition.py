"""The order language on the second edition's square field: the safety spell,
the flame jet with its direction, the fire wall, tail and wing strikes —
read, checked when saved and printed back."""

from __future__ import annotations

from bot.orderlang import format_orders, parse_message
from engine import load_ruleset, new_match
from engine.geometry import Direction

RULES = load_ruleset("variant-001")
STATE, _ = new_match(RULES, 3)


def test_new_words_read_and_print_back() -> None:
    text = (
        "такт 1\nИванов 54 в2 чебурыхнус-парашутис\nдракон вперёд струя св\n"
        "такт 2\nдракон стоять хвост\nтакт 3\nдракон налево вал\n"
    )
    res = parse_message(text, state=STATE, ruleset=RULES, side="left")
    assert not res.errors
    (ivanov,) = res.orders.players
    assert ivanov.safety and ivanov.cell == 54
    d1, d2, d3 = sorted(res.orders.dragons, key=lambda d: d.tick)
    assert (d1.move, d1.fire, d1.fire_direction) == ("forward", "jet", Direction.NE)
    assert (d2.move, d2.strike) == ("stay", "tail")
    assert (d3.move, d3.fire) == ("left", "wall")
    for lang in ("ru", "en"):
        printed = format_orders(res.orders, state=STATE, ruleset=RULES, lang=lang)
        again = parse_message(printed, state=STATE, ruleset=RULES, side="left", lang=lang)
        assert not again.errors and again.orders == res.orders


def test_a_second_jet_within_three_ticks_is_refused_when_saved() -> None:
    text = "такт 1\nдракон струя\nтакт 2\nдракон струя\n"
    res = parse_message(text, state=STATE, ruleset=RULES, side="left")
    assert [e.code for e in res.errors] == ["fire_budget"]


def test_a_direction_without_a_jet_says_only_a_jet_takes_one() -> None:
    res = parse_message("дракон вперёд св", state=STATE, ruleset=RULES, side="left")
    (e,) = res.errors
    assert e.code == "dragon_direction" and e.text[e.start : e.end] == "св"
    assert "«Дракон: стоять, струя св»" in e.message
