"""The parts of the order language one by one: words, names, messages,
errors, the merge rule, the sheet, and legality with orders on file."""

from __future__ import annotations

import pytest
from orderlang_states import RULESET, latin, midgame, opening, twins

from bot.orderlang import (
    Clear,
    OrderError,
    apply_clears,
    apply_result,
    format_errors,
    format_sheet,
    parse_message,
)
from bot.orderlang.lexicon import ball_of, clean_text, norm_word, skeleton, sound_keys
from bot.orderlang.messages import ENGINE_CODE_ALIASES, MESSAGES, describe_expected, message
from bot.orderlang.names import find_player
from engine import new_match
from engine.orders import Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Substitution
from engine.problems import Code
from engine.state import PlayerState


# -- words ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "raw,norm",
    [("ИВАНОВ", "иванов"), ("Семёнов", "семенов"), ("Пeтрoв", "петров"), ("Ivаnov", "ivanov")],
)
def test_norm_word_case_yo_and_lookalikes(raw: str, norm: str) -> None:
    assert norm_word(raw) == norm


@pytest.mark.parametrize(
    "a,b",
    [
        ("кузнецов", "kuznetsov"),
        ("кузнецов", "kuznecov"),
        ("воробьев", "vorobyov"),
        ("федоров", "fyodorov"),
        ("михайлов", "mikhaylov"),
        ("щупс-курощупс", "shchups-kuroshchups"),
        ("цап-царапс", "tsap-tsaraps"),
    ],
)
def test_skeleton_makes_transliterations_equal(a: str, b: str) -> None:
    assert skeleton(a) == skeleton(b)


@pytest.mark.parametrize(
    "latin,cyrillic",
    [
        ("brown", "браун"),
        ("smith", "смит"),
        ("johnson", "джонсон"),
        ("williams", "уильямс"),
        ("white", "уайт"),
        ("wright", "райт"),
        ("hughes", "хьюз"),
        ("young", "янг"),
        ("george", "джордж"),
        ("müller", "мюллер"),
        ("schmidt", "шмидт"),
        ("wagner", "вагнер"),
        ("braun", "браун"),
        ("roberts", "робертс"),
        ("watts", "уоттс"),
        ("betts", "беттс"),
        ("watson", "уотсон"),
    ],
)
def test_sound_keys_make_a_latin_name_and_its_cyrillic_spelling_meet(
    latin: str, cyrillic: str
) -> None:
    assert sound_keys(latin) & sound_keys(cyrillic)


@pytest.mark.parametrize(
    "latin,cyrillic", [("brown", "брум"), ("smith", "шмит"), ("walker", "уокер")]
)
def test_sound_keys_keep_other_consonants_apart(latin: str, cyrillic: str) -> None:
    assert not sound_keys(latin) & sound_keys(cyrillic)


def test_a_name_in_its_own_script_is_not_matched_by_sound() -> None:
    """«Брайн» for «Браун» is a misspelling, not another script: "did you mean",
    though it sounds like Brown (br*n), who is in the pool too."""
    pool = latin().players
    assert {"Brown", "Браун"} <= {p.name for p in pool}
    m = find_player(("брайн",), pool)
    assert m.player is None and not m.candidates
    assert [p.name for p in m.suggestions][:1] == ["Браун"]
    assert find_player(("braun",), pool).player == latin().player("right", 1)


def _pool(*names: str) -> tuple[PlayerState, ...]:
    state, _ = new_match(RULESET, "orderlang-units", rosters={"left": names, "right": ()})
    return state.team_players("left")


@pytest.mark.parametrize(
    "names,written",
    [
        (("Brown", "Bruno"), "брауна"),  # br*n* whole (Bruno), br*n without «а» (Brown)
        (("Brown", "Bruno"), "брауну"),
        (("Moore", "Moro"), "мура"),
        (("White", "Otto"), "уайта"),
        (("Knight", "Neto"), "найта"),
    ],
)
def test_a_declined_name_sounding_like_two_players_is_ambiguous(
    names: tuple[str, str], written: str
) -> None:
    m = find_player((written,), _pool("Иванов", *names))
    assert m.player is None and sorted(p.name for p in m.candidates) == sorted(names)


@pytest.mark.parametrize(
    "names,written,meant",
    [
        (("Brown", "Bruno"), "браун", "Brown"),
        (("Brown", "Bruno"), "бруно", "Bruno"),
        (("Brown",), "брауна", "Brown"),
        (("Knight",), "найта", "Knight"),
        (("Roberts",), "робертсу", "Roberts"),
        (("Watts",), "уоттсу", "Watts"),
        (("Betts",), "беттс", "Betts"),
    ],
)
def test_a_name_in_the_other_script_is_matched_by_sound(
    names: tuple[str, ...], written: str, meant: str
) -> None:
    m = find_player((written,), _pool("Иванов", *names))
    assert m.player is not None and m.player.name == meant


@pytest.mark.parametrize(
    "latin_name,cyrillic_name,written",
    [
        ("Allen", "Ильин", "allan"),
        ("Allen", "Ильин", "ильен"),
        ("Gordon", "Гордин", "gordan"),
        ("Gordon", "Гордин", "гордан"),
        ("Milan", "Милин", "milen"),
        ("Moran", "Марин", "moren"),
        ("Moran", "Марин", "маран"),
        ("Robin", "Рубин", "robbin"),
        ("Robin", "Рубин", "рубен"),
        ("Lee", "Ли", "lie"),
        ("Lowe", "Ли", "lowa"),
    ],
)
def test_a_misspelling_in_one_script_is_not_read_by_sound_in_the_other(
    latin_name: str, cyrillic_name: str, written: str
) -> None:
    """ "Allan" sounds like «Ильин» but is spelt close to Allen: both are
    suggested, neither is taken."""
    m = find_player((written,), _pool("Иванов", latin_name, cyrillic_name))
    assert m.player is None and not m.candidates
    assert {latin_name, cyrillic_name} <= {p.name for p in m.suggestions}


@pytest.mark.parametrize(
    "word,ball",
    [
        ("красный", "red"), ("красного", "red"), ("крас", "red"), ("перцовый", "red"),
        ("krasnyi", "red"), ("red", "red"), ("черный", "black"), ("одурительный", "black"),
        ("chernyi", "black"), ("зеленым", "green"), ("чихательный", "green"),
        ("голубой", "blue"), ("синий", "blue"), ("желтый", "yellow"), ("yellow", "yellow"),
        ("zheltyi", "yellow"), ("обездвиживающий", "yellow"),
    ],
)  # fmt: skip
def test_ball_names(word: str, ball: str) -> None:
    assert ball_of(norm_word(word)) == ball


@pytest.mark.parametrize("word", ["розовый", "кр", "мяч", "гуллис-дуллис", "иванов"])
def test_not_ball_names(word: str) -> None:
    assert ball_of(norm_word(word)) is None


def test_clean_text_drops_invisible_marks_and_unifies_line_ends() -> None:
    assert clean_text("Ива\u0301нов\u200b\r\nт2\rx\ufe0f") == "Иванов\nт2\nx"


# -- names ---------------------------------------------------------------------------------
def test_find_player_exact_inflected_prefix_and_near() -> None:
    pool = midgame().team_players("left")
    assert find_player(["смирнова"], pool).player == midgame().player("left", 4)
    assert find_player(["kuzn"], pool).player == midgame().player("left", 5)
    near = find_player(["кузнецв"], pool)
    assert near.player is None and [p.number for p in near.suggestions] == [5]
    assert find_player(["ив"], pool).player is None  # two letters: too short to guess


def test_find_player_never_guesses_between_two() -> None:
    pool = twins().team_players("left")
    m = find_player(["иванов"], pool)
    assert m.player is None and {p.number for p in m.candidates} == {1, 2}
    assert find_player(["петр", "иванов"], pool).player == twins().player("left", 2)


# -- messages and errors ------------------------------------------------------------------
def test_every_engine_code_has_a_message_in_both_languages() -> None:
    for code in Code:
        key = ENGINE_CODE_ALIASES.get(code.value, code.value)
        assert key in MESSAGES, code
        ru, en = message(key, "ru"), message(key, "en")
        assert ru != en and ru and en


def test_messages_fill_in_params_and_survive_missing_ones() -> None:
    assert message("too_far", "ru", from_cell=1, cell=5, distance=3, max=1).startswith(
        "Слишком далеко: с клетки 1 на 5"
    )
    assert message("too_far", "en", cell=5) == (
        "Too far: from cell ? to 5 is ? cells, a tick allows ?."
    )
    assert message("no_such_code") == "no_such_code"
    assert describe_expected(["INT"], "en") == "a number"
    assert describe_expected([], "ru") == "конец строки"


def test_render_puts_the_caret_under_the_span_even_after_wide_characters() -> None:
    e = OrderError("syntax", 4, "🐉 Иванов: 89", 10, 12, "msg", "x")
    first, caret, text = e.render().splitlines()
    assert first == "4: 🐉 Иванов: 89"
    # the dragon takes two columns on a terminal or in a monospace chat font
    assert caret == " " * (len("4: ") + 2 + 9) + "^^"
    assert text == "msg"
    assert OrderError("too_large", 0, "", 0, 0, "big", "too_large").render() == "big"


def test_format_errors_counts_them_in_the_readers_language() -> None:
    result = parse_message(
        "Кузнецв: 169 в2\nX", state=midgame(), ruleset=RULESET, side="left", lang="en"
    )
    text = format_errors(result.errors, "en")
    assert text.startswith("Errors (2):\n\n1: Кузнецв: 169 в2\n")
    assert "Did you mean “Кузнецов”?" in text
    assert format_errors((), "ru") == ""


# -- merge rule ----------------------------------------------------------------------------
def _po(number: int, tick: int, cell: int = 1) -> PlayerOrder:
    return PlayerOrder("left", number, tick, cell, 2)


def test_apply_result_clears_first_then_later_orders_replace_earlier() -> None:
    on_file = RoundOrders(
        players=(_po(1, 1), _po(1, 2), _po(2, 1)),
        dragons=(DragonOrder("left", 1), DragonOrder("left", 2)),
        substitutions=(Substitution("left", 6, 8),),
    )
    state = midgame()
    result = parse_message(
        "Петров т1: 91 в2\nИванов т2: отмена\nт1 Дракон: отмена",
        state=state,
        ruleset=RULESET,
        side="left",
        check_legality=False,
    )
    merged = apply_result(on_file, result).sorted()
    assert merged.players == (_po(1, 1), PlayerOrder("left", 2, 1, 91, 2))
    assert merged.dragons == (DragonOrder("left", 2),)
    assert merged.substitutions == on_file.substitutions
    everything = apply_clears(on_file, (Clear("left", "all"),))
    assert everything == RoundOrders()
    other_team = apply_clears(on_file, (Clear("right", "all"),))
    assert other_team == on_file


def test_legality_measures_from_the_order_on_file() -> None:
    """Tick 2 is checked from where the stored tick-1 order takes him."""
    state = midgame()
    on_file = RoundOrders(players=(PlayerOrder("left", 1, 1, 89, 2),))
    near = parse_message(
        "т2 Иванов: 90 в2", state=state, ruleset=RULESET, side="left", on_file=on_file
    )
    assert near.ok and near.orders.players == (PlayerOrder("left", 1, 2, 90, 2),)
    alone = parse_message("т2 Иванов: 90 в2", state=state, ruleset=RULESET, side="left")
    assert [e.code for e in alone.errors] == ["too_far"] and alone.orders.players == ()


def test_problems_of_orders_on_file_are_not_blamed_on_the_message() -> None:
    state = midgame()
    on_file = RoundOrders(players=(PlayerOrder("left", 2, 1, 150, 2),))  # far: illegal
    result = parse_message(
        "Иванов: 89 в2", state=state, ruleset=RULESET, side="left", on_file=on_file
    )
    assert result.ok and result.line_of == {PlayerOrder("left", 1, 1, 89, 2): 1}


def test_an_illegal_line_drops_only_its_own_order() -> None:
    result = parse_message(
        "Иванов: 89 в2\nПетров: 150 в2\nПопов: 86 в2", state=midgame(), ruleset=RULESET, side="left"
    )
    assert [(e.line, e.kind, e.code) for e in result.errors] == [(2, "illegal", "too_far")]
    assert sorted(result.line_of.values()) == [1, 3]
    assert result.errors[0].text[result.errors[0].start : result.errors[0].end] == "150 в2"


# -- the acknowledgement --------------------------------------------------------------------
def test_sheet_lists_who_has_no_order_yet() -> None:
    state = midgame()
    orders = RoundOrders(
        players=tuple(
            PlayerOrder("left", p.number, t, p.cell or 1, 2)
            for p in state.team_players("left")
            if p.status == "active"
            for t in (1, 2, 3)
            if p.number != 2 or t == 1
        ),
        dragons=(DragonOrder("left", 1), DragonOrder("left", 2), DragonOrder("left", 3)),
    )
    sheet = format_sheet(orders, state=state, ruleset=RULESET, side="left")
    assert sheet.startswith("Раунд 2\nКоманда Саламандры\nТакт 1\nИванов: 88 в2\n")
    assert sheet.endswith("Ещё нет приказа:\nтакт 2: Петров\nтакт 3: Петров, Сидоров (вылет)")
    empty = format_sheet(RoundOrders(), state=opening(), ruleset=RULESET, side="right", lang="en")
    assert empty.startswith("No orders.\n\nNo order yet:\ntick 1: Соколов, Михайлов")
    assert empty.endswith(
        "tick 3: Соколов, Михайлов, Новиков, Фёдоров, Морозов, Волков, Алексеев, dragon (will stay)"
    )


@pytest.mark.parametrize("line", ["Такт 2", "т 3", "Tick 1", "Раунд 5", "ROUND 12", "t9"])
def test_header_shortcut_gives_what_the_grammar_gives(line: str) -> None:
    from bot.orderlang.driver import run
    from bot.orderlang.syntax import _header, parse_line, parser
    from bot.orderlang.tokens import tokenize

    tokens = tokenize(line)
    assert _header(tokens) == run(parser(), tokens) == parse_line(1, line).node


def test_game_master_clears_one_team_at_a_time() -> None:
    def clears(text: str) -> tuple[list[str], list[Clear]]:
        r = parse_message(text, state=midgame(), ruleset=RULESET, side=None)
        return [e.code for e in r.errors], list(r.clears)

    assert clears("отменить всё") == (["no_team"], [])
    assert clears("Команда Виверны\nотменить всё") == ([], [Clear("right", "all")])


def test_all_ticks_after_the_last_tick_is_an_error_not_silence() -> None:
    from dataclasses import replace

    state = replace(midgame(), tick=3)
    r = parse_message("Дракон все такты: стоять", state=state, ruleset=RULESET, side="left")
    assert [(e.kind, e.code) for e in r.errors] == [("illegal", "tick_past")]


def test_team_named_like_a_side_word_is_printed_so_that_it_reads_back() -> None:
    from dataclasses import replace

    from bot.orderlang import format_orders

    state = midgame()
    state = state.with_team(replace(state.team("left"), name="Правые"))
    orders = RoundOrders(players=(PlayerOrder("left", 1, 1, 89, 2),))
    text = format_orders(orders, state=state, ruleset=RULESET)
    assert "Команда Правые" in text
    again = parse_message(text, state=state, ruleset=RULESET, side=None, check_legality=False)
    assert again.ok and again.orders == orders


def test_the_package_imports_no_storage_and_no_network() -> None:
    import ast
    import sys
    from pathlib import Path

    allowed = {"engine", "lark", "__future__"} | set(sys.stdlib_module_names)
    network = {"socket", "ssl", "http", "urllib", "asyncio", "smtplib", "imaplib", "email"}
    package = Path(__file__).parents[2] / "bot" / "orderlang"
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module == "bot.i18n":
                    continue  # the message catalogs: files of the package, no storage, no network
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert roots <= allowed - network, (path.name, roots)


def test_unicode_hyphen_in_spells() -> None:
    text = "Иванов: 89 в2, пас красный -> 91 в2 гуллис\u2010дуллис\nПетров: 91 в2, ловить Цап\u2010Царапс"
    result = parse_message(text, state=midgame(), ruleset=RULESET, side="left")
    assert result.ok
    assert [o.action for o in result.orders.sorted().players] == [
        Pass("red", 91, 2, "gullis-dullis"),
        Catch(None, "tsap-tsaraps"),
    ]


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        # written under «Такт 2»: the error line carries it, before its comment
        ("Такт 2\nСидорв: 89 в2 // к кольцу", "2: Сидорв: 89 в2   (такт 2)  // к кольцу"),
        ("Такт 2\nСидорв: 89 в2 -- заметка", "2: Сидорв: 89 в2   (такт 2)  -- заметка"),
        ("Такт 1-2\nСидорв: 89 в2", "2: Сидорв: 89 в2   (такты 1-2)"),
        # a line that names its own ticks, or every tick, is shown as written
        ("Такт 2\nт3 Сидорв: 89 в2", "2: т3 Сидорв: 89 в2"),
        ("Такт 2\nвсе Сидорв: 89 в2", "2: все Сидорв: 89 в2"),
        # no heading: nothing to add
        ("Сидорв: 89 в2", "1: Сидорв: 89 в2"),
    ],
)
def test_an_error_line_shows_the_tick_heading_it_was_written_under(
    message: str, shown: str
) -> None:
    result = parse_message(message, state=midgame(), ruleset=RULESET, side="left", lang="ru")
    lines = format_errors(result.errors, "ru").splitlines()
    assert shown in lines, lines
    caret = lines[lines.index(shown) + 1]
    assert caret.index("^") == shown.index("Сидорв")  # the caret still under the word


def test_a_report_move_after_the_action_is_answered_with_a_line_that_reads() -> None:
    """The line to write keeps the action before the flight: «Иванов: ловить,
    89 в2», not «Иванов: ловить,: 89 в2»."""
    text = "Иванов: ловить, 88/2→89/2\nт2 Иванов: ловить, 88/2→89/2"
    result = parse_message(text, state=midgame(), ruleset=RULESET, side="left")
    [error] = result.errors
    assert error.code == "moved_from" and "«т2 Иванов: ловить, 89 в2»" in error.message
    again = parse_message("т2 Иванов: ловить, 89 в2", state=midgame(), ruleset=RULESET, side="left")
    assert not [e for e in again.errors if e.kind == "syntax"]


def test_a_name_is_the_player_as_the_position_at_hand_has_him() -> None:
    """The roster is shared by every position with the same names: what it
    finds is the player as this position has him (a reserve come on is active)."""
    from dataclasses import replace

    state = midgame()
    pool = state.team_players("left")
    first = find_player(("иванов",), pool).player
    assert first is not None
    moved = tuple(replace(p, cell=1, status="reserve") if p is first else p for p in pool)
    again = find_player(("иванов",), moved).player
    assert again is not None and (again.cell, again.status) == (1, "reserve")
