"""The answers for what players write that is not quite an order: the right
reason, the caret in the right place, and where the judge would have to
guess, the exact form to write (issue 17).  The verdicts themselves are in
golden/issue17_forms.toml."""

from __future__ import annotations

from dataclasses import replace

from orderlang_states import RULESET, midgame

from bot.orderlang import ParseResult, parse_message
from engine.orders import Catch, Pass


def _read(text: str, lang: str = "ru", **kw: object) -> ParseResult:
    return parse_message(text, state=midgame(), ruleset=RULESET, side="left", lang=lang, **kw)  # type: ignore[arg-type]


def _one_error(text: str, lang: str = "ru") -> tuple[str, str, str]:
    r = _read(text, lang)
    assert len(r.errors) == 1, r.errors
    e = r.errors[0]
    return e.code, e.text[e.start : e.end], e.message


def test_a_second_action_says_one_action_a_tick() -> None:
    code, marked, msg = _one_error("Иванов: 89 в2, ловить, отнять Соколов")
    assert code == "one_action" and marked == "отнять"
    assert "Одно действие за такт" in msg and "«ловить» и «отнять»" in msg
    assert "«т2 Иванов: …, отнять»" in msg
    code, marked, msg = _one_error("Ivanov: 89 h2, pass red to 91 h2, catch", "en")
    assert code == "one_action" and marked == "catch" and msg.startswith("One action a tick")


def test_an_unknown_spell_after_the_ball_is_called_a_spell_and_the_spells_are_listed() -> None:
    code, marked, msg = _one_error("Иванов: 89 в2, пас красный -> 91 в2 абракадабра")
    assert code == "unknown_spell_list" and marked == "абракадабра"
    assert "Нет заклинания «абракадабра»" in msg and "гуллис-дуллис" in msg
    assert "мяч" not in msg
    # before any ball is named, an unknown word may still be a misspelt ball
    code, _, msg = _one_error("Иванов: 89 в2, пас крсный -> 91 в2")
    assert code == "unknown_ball" and "«красный»" in msg


def test_a_pass_with_no_ball_in_hand_shows_a_form_that_is_in_range() -> None:
    code, marked, msg = _one_error("Попов: 86 в2, пас -> 88 в2")
    assert code == "pass_ball_none" and marked == "пас -> 88 в2"
    # his own target, with a free ball any pass may carry (blue lies free at 106)
    assert "«пас голубой -> 88 в2»" in msg


def test_a_pass_naming_no_ball_by_a_player_with_two_lists_both() -> None:
    state = midgame()
    ivanov = state.player("left", 1)
    state = state.with_player(replace(ivanov, balls=("red", "blue")))
    r = parse_message("Иванов: 89 в2, пас -> 91 в2", state=state, ruleset=RULESET, side="left")
    (e,) = r.errors
    assert e.code == "pass_ball_which" and "красный, голубой" in e.message
    assert e.suggestions == ("пас красный -> 91 в2", "пас голубой -> 91 в2")


def test_a_pass_to_a_team_mate_flies_to_where_his_order_takes_him_when_it_lands() -> None:
    # a pass lands on the next tick (passes.flight = next_tick): his tick-2 order counts
    r = _read("Иванов: 89 в2, пас красный игроку 2\nт1 Петров: 91 в2\nт2 Петров: 92 в3, ловить")
    assert r.ok and r.orders.sorted().players[0].action == Pass("red", 92, 3)
    # a team-mate who has no order then: the form to write, with where he will be
    code, marked, msg = _one_error("Иванов: 89 в2, пас красный игроку Петрову\nт1 Петров: 91 в2")
    assert code == "receiver_unknown" and marked == "игроку Петрову"
    assert "в такте 2" in msg and "«пас красный -> 91 в2»" in msg
    code, _, msg = _one_error("Иванов: 89 в2, пас красный игроку Петрову")
    assert code == "receiver_unknown" and "«пас красный -> 90 в2»" in msg  # where he is now
    # a pass on the last tick lands next round
    code, _, msg = _one_error("т3 Иванов: 88 в2, pass red to player 2", "en")
    assert code == "receiver_next_round" and "“pass red to 90 h2”" in msg


def test_a_pass_to_a_team_mate_in_a_same_tick_ruleset_aims_at_this_tick() -> None:
    same = replace(RULESET, pass_flight="same_tick")
    r = parse_message(
        "Иванов: 89 в2, пас красный игроку 2\nПетров: 91 в2, ловить",
        state=midgame(),
        ruleset=same,
        side="left",
    )
    assert r.ok and r.orders.sorted().players[0].action == Pass("red", 91, 2)


def test_a_pass_to_a_team_mate_measures_from_the_order_on_file() -> None:
    on_file = _read("т1-2 Петров: 91 в2").orders
    r = _read("Иванов: 89 в2, пас красный игроку 2", on_file=on_file)
    assert r.ok and r.orders.players[0].action == Pass("red", 91, 2)


def test_a_later_line_replaces_a_pending_pass_to_a_team_mate() -> None:
    r = _read("Иванов: 89 в2, пас красный игроку 2\nИванов: 89 в2, ловить")
    assert r.ok and [o.action for o in r.orders.players if o.number == 1] == [Catch(None, None)]
    r = _read("Иванов: 89 в2, пас красный игроку 2\nИванов: отмена")
    assert r.ok and r.orders.players == ()


def test_substitution_caret_is_under_the_wrong_name_whichever_way_round() -> None:
    # "замена X вместо Y" / "sub X for Y": X comes in, Y goes out; "X -> Y" the other way
    for text, lang, wrong in (
        ("замена Иванов вместо Петров", "ru", "Иванов"),
        ("замена Петров -> Иванов", "ru", "Иванов"),
        ("sub Ivanov for Petrov", "en", "Ivanov"),
        ("sub Petrov -> Ivanov", "en", "Ivanov"),
    ):
        r = _read(text, lang)
        (e,) = r.errors
        assert e.code == "subst_not_reserve"
        assert e.text[e.start : e.end] == wrong, text
        caret = e.render().splitlines()[1]
        assert caret.index("^") == len("1: ") + text.index(wrong)
        assert caret.count("^") == len(wrong)


def test_a_reserve_written_as_the_player_leaving_gets_the_form_to_write() -> None:
    # Zaitsev (8) is a reserve, Popov (6) is on the field: written the wrong way round
    for text, lang, wrong, form in (
        ("замена Зайцев -> Попов", "ru", "Зайцев", "«замена Попов -> Зайцев»"),
        ("замена Попов вместо Зайцев", "ru", "Зайцев", "«замена Попов -> Зайцев»"),
        ("sub Popov for Zaitsev", "en", "Zaitsev", "“sub Попов -> Зайцев”"),
    ):
        code, marked, msg = _one_error(text, lang)
        assert code == "subst_not_reserve" and marked == wrong
        assert "не запасной" not in msg and "not a reserve" not in msg
        assert form in msg, msg
        fixed = form.strip("«»“”")
        assert _read(fixed, lang).ok
    # two reserves: no swap would help
    code, marked, msg = _one_error("замена Зайцев -> Павлов")
    assert marked == "Зайцев" and "запасной, его нет на поле" in msg and "«" not in msg


def test_a_pass_without_height_flies_at_the_throwers_height_unless_the_ruleset_says_no() -> None:
    r = _read("Иванов: 89 в3, пас красный -> 91")
    assert r.ok and r.orders.players[0].action == Pass("red", 91, 3)
    strict = replace(RULESET, pass_default_height="none")
    r = parse_message(
        "Иванов: 89 в3, пас красный -> 91", state=midgame(), ruleset=strict, side="left"
    )
    assert [e.code for e in r.errors] == ["no_height"]


def test_a_flight_without_height_suggests_the_players_own_height() -> None:
    code, _, msg = _one_error("Смирнов: 108")
    assert code == "no_height" and "«108 в1»" in msg  # Smirnov flies at height 1


def test_first_name_and_surname_but_not_two_players() -> None:
    assert _read("Иван Иванов: 89 в2").ok
    assert not _read("Иванов Петров: 89 в2").ok
    assert _read("Ivan Ivanov: 89 h2", "en").ok


def test_player_is_still_skipped_where_it_means_nothing() -> None:
    r = _read("Смирнов: 108 в1, отнять player 1")
    assert r.ok and r.orders.players[0].action is not None


def test_an_unknown_word_in_a_dragon_order_shows_how_to_write_one() -> None:
    for text, lang, word, form in (
        ("Дракон: вперёд, дышит огнём", "ru", "дышит", "«Дракон: вперёд, вверх, залп»"),
        ("Dragon: forward, breathe fire", "en", "breathe", "“Dragon: forward, up, volley”"),
        # a compass word in the classic rules, which have no flame jet
        ("Дракон: вперёд, СВ", "ru", "СВ", "«Дракон: вперёд, вверх, залп»"),
    ):
        code, marked, msg = _one_error(text, lang)
        assert code == "dragon_word" and marked == word
        assert form in msg and "«»" not in msg and "“”" not in msg


def test_a_pass_to_a_team_mate_by_name_after_na_to_or_the_arrow() -> None:
    mate = "\nт1-2 Петров: 91 в2"
    for text, lang in (
        ("Иванов: 89 в2, пас красный на Петрова", "ru"),
        ("Иванов: 89 в2, пас красный -> Петров", "ru"),
        ("Ivanov: 89 h2, pass red to Petrov", "en"),
    ):
        r = _read(text + mate, lang)
        assert r.ok, r.errors
        ivanov = next(o for o in r.orders.players if o.number == 1)
        assert ivanov.action == Pass("red", 91, 2)


def test_a_pass_to_an_opponent_by_name_says_a_pass_goes_to_a_team_mate() -> None:
    code, marked, msg = _one_error("Иванов: 89 в2, пас красный на Соколова")
    assert code == "receiver_opponent" and marked == "Соколова"
    assert "Соколов — игрок команды «Виверны»" in msg and "не можете" not in msg
    # with no «на»/«игроку» too: not the form «игроку Соколову», which is refused as well
    code, marked, msg = _one_error("Иванов: 89 в2, пас красный Соколову")
    assert code == "receiver_opponent" and marked == "пас красный Соколову"
    assert "Соколов — игрок команды «Виверны»" in msg and "игроку Соколову" not in msg
    # a team-mate's name: both forms, as ever
    code, _, msg = _one_error("Иванов: 89 в2, пас красный Петрову")
    assert code == "pass_no_target" and "«пас красный игроку Петрову»" in msg


def test_a_pass_with_no_target_shows_both_forms_with_its_own_words() -> None:
    code, marked, msg = _one_error("Иванов: 89 в3, передаю красный Петрову гуллис-дуллис")
    assert code == "pass_no_target" and marked == "передаю красный Петрову гуллис-дуллис"
    assert "«пас красный игроку Петрову гуллис-дуллис»" in msg
    assert "«пас красный -> 91 в3 гуллис-дуллис»" in msg  # in range of his flight, his height
    for form in ("пас красный игроку Петрову гуллис-дуллис", "пас красный -> 91 в3 гуллис-дуллис"):
        assert _read(f"Иванов: 89 в3, {form}\nт1-2 Петров: 91 в2").ok, form
    # no name: a shirt number, never a name the roster may not have
    code, _, msg = _one_error("Иванов: 89 в2, пас красный")
    assert code == "pass_no_target" and "«пас красный игроку 2»" in msg
    code, _, msg = _one_error("Ivanov: 89 h2, throw red Petrov", "en")
    assert code == "pass_no_target" and "“pass red to player Petrov”" in msg
    assert "“pass red to 91 h2”" in msg


def test_a_substitution_line_it_cannot_read_shows_both_forms_with_its_names() -> None:
    code, marked, msg = _one_error("замена Попова Зайцевым")
    assert code == "subst_form" and marked == "замена Попова Зайцевым"
    assert "«замена Попов -> Зайцев»" in msg and "«замена Зайцев вместо Попов»" in msg
    assert _read("замена Попов -> Зайцев").ok and _read("замена Зайцев вместо Попов").ok
    code, _, msg = _one_error("substitute Popov by Zaitsev", "en")
    assert code == "subst_form" and "“sub Попов -> Зайцев”" in msg
    assert _read("sub Попов -> Зайцев", "en").ok


def test_a_move_from_a_round_report_that_starts_elsewhere_gives_the_line_to_write() -> None:
    code, marked, msg = _one_error("Иванов 87/2→88/2, ловить")
    assert code == "moved_from" and marked == "87/2→88/2"
    assert "с 87/2, а к началу такта 1 Иванов — на 88/2" in msg
    assert "«Иванов: 88 в2, ловить»" in msg
    assert _read("Иванов: 88 в2, ловить").ok
    code, marked, msg = _one_error("т2 Petrov 91/2 -> 92/2", "en")
    assert code == "moved_from_unknown" and marked == "91/2 -> 92/2"
    assert "“т2 Petrov: 92 h2”" in msg and "start of tick 2 is unknown" in msg
    # starting where he stands, the move is the flight to its end
    r = _read("Иванов 88/2→89/2, пас красный -> 91 в2")
    assert r.ok and [(o.cell, o.height) for o in r.orders.players] == [(89, 2)]
