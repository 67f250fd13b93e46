"""The case format's richer forms (issue 31): counters by name, negative and
alternative outcomes, who was first, and errors that name their line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import cli
from engine.cases import CaseError, load_case, play, run_case
from engine.cases.lines import error_line, key_lines

RACE = """
title = "race"
ruleset = "variant-001"
rule = "1.4"

[players]
L1 = "60/2"
R1 = { at = "61/2", holds = "red" }

[orders]
L1 = "60/2 steal R1"
R1 = "61/2 pass red 64/2 spell gullis-dullis"

[dice]
first = "R1"

[expect]
events = ["race first=R1"]
"""

TWO_BALLS = """
title = "two balls"
ruleset = "variant-001"
rule = "1.2"

[players]
L1 = "60/2"
R1 = { at = "61/2", holds = ["red", "blue"] }

[orders]
L1 = "60/2 steal R1"

[expect]
"""


def case(text: str):
    return load_case(text, name="t")


def failures(text: str) -> tuple[str, ...]:
    return run_case(case(text)).detail


# ---------------------------------------------------------------- counters


def test_counters_set_by_name_are_the_marks_the_engine_reads() -> None:
    c = case(
        """
title = "x"
ruleset = "variant-001"
rule = "4.14"
round = 2
ticks = 0
[players]
L2 = { status = "hospital", return_round = 2, return_at = "40/1", return_tick = 3 }
[dragons]
left = { head = 91, facing = "E", turning = "left", turn_step = 1, jet_ready = "3.2" }
right = { head = 114, facing = "W", last_wall = 1, breath_until = 2, dazing_until = 2, gaping = true }
[expect]
left = { turning = "left", turn_step = 1, jet_ready = "3.2", asleep = false }
right = { last_wall = 1, breath_until = 2, dazing_until = 2, gaping = true, jet_ready = "none" }
L2 = { return_at = "40/1", return_tick = 3, return_round = 2 }
"""
    )
    left, right = c.position.dragons
    assert dict(left.marks) == {"turn": -1, "turn_step": 1, "jet_ready": 8}
    assert dict(right.marks) == {"wall_round": 1, "breath_round": 2, "daze_round": 2, "gape": 1}
    back = c.position.player("left", 2).marks
    assert dict(back) == {"return_cell": 40, "return_height": 1, "return_tick": 3}
    assert run_case(c).passed


def test_a_counter_expected_wrong_fails_with_its_readable_value() -> None:
    detail = failures(
        RACE.replace('first = "R1"', "").replace(
            'events = ["race first=R1"]', 'left = { jet_ready = "1.3" }'
        )
    )
    assert detail == ("left dragon.jet_ready: expected '1.3', observed None",)


def test_a_counter_of_the_second_edition_in_a_classic_case_is_an_error() -> None:
    text = 'title = "x"\nrule = "6.1"\n\n[dragons]\nleft = { head = 85, jet_ready = "1.2" }\n'
    with pytest.raises(CaseError, match=r"^line 5: dragons\.left\.jet_ready: .*classic"):
        case(text)
    text = 'title = "x"\nrule = "6.1"\n[expect]\nright = { gaping = true }\n'
    with pytest.raises(CaseError, match=r"^line 4: expect\.right\.gaping: .*second edition"):
        case(text)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("jet_ready = 2.1", 'a tick is "ROUND.TICK" in quotes'),
        ('jet_ready = "2.4"', "tick 4 is not 1–3"),
        ('turning = "up"', '"left" or "right"'),
        ("turn_step = 3", "1 or 2 ticks of the turn done"),
        ("gaping = 1", "true or false"),
        ("last_wall = true", "a whole number"),
        ("marks = { gape = 1 }, gaping = true", "set twice"),
    ],
)
def test_a_malformed_counter_names_its_line(value: str, message: str) -> None:
    text = RACE.replace("[orders]", f"[dragons]\nright = {{ {value} }}\n\n[orders]")
    with pytest.raises(CaseError, match=r"^line 11: dragons\.right\.") as err:
        case(text)
    assert message in str(err.value)


# ---------------------------------------------------------- negative forms


@pytest.mark.parametrize(
    ("expect", "ok"),
    [
        ("L1 = { cell = { not = 60 } }", False),
        ("L1 = { cell = { not = 89 } }", True),
        ('L1 = { at = { one_of = ["60/2", "61/2"] } }', True),
        ('L1 = { at = { one_of = ["59/2", "61/2"] } }', False),
        ('R1 = { holds = { exactly_one_of = ["red", "blue"] } }', True),
        ('L1 = { holds = { exactly_one_of = ["red", "blue"] } }', True),
        ('R1 = { holds = { has = ["red", "blue"] } }', False),
        ('R1 = { holds = { lacks = "green", has = "red" } }', False),
        ('R1 = { holds = { lacks = "green" } }', True),
        ('red = { held_by = { not = "R1" } }', True),
        ('score = { not = "0:0" }', False),
    ],
)
def test_negative_and_either_or_values(expect: str, ok: bool) -> None:
    text = TWO_BALLS + expect + "\n"
    c = case(text.replace("[expect]", '[dice]\nsteal_ball = "red"\n\n[expect]'))
    assert run_case(c).passed is ok, run_case(c).detail


def test_a_failed_test_says_what_was_wanted() -> None:
    c = case(
        TWO_BALLS + 'L1 = { holds = { exactly_one_of = ["red", "blue"] }, cell = { not = 60 } }\n'
    )
    assert run_case(c).detail == ("L1.cell: expected not 60, observed 60",)
    c = case(TWO_BALLS + 'R1 = { holds = { lacks = ["red", "blue"] } }\n')
    assert run_case(c).detail[0].startswith("R1.holds: expected lacks red, blue, observed ")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("L1 = { cell = { nott = 3 } }", "a value or a table of tests: not, one_of"),
        ("L1 = { cell = { has = 3 } }", "a value or a table of tests: not, one_of"),
        ("L1 = { cell = { one_of = 3 } }", "a list of values"),
        ('L1 = { holds = { exactly_one_of = "red" } }', "at least two names"),
        ('L1 = { at = { not = "60-2" } }', "is not a place"),
    ],
)
def test_a_malformed_test_names_its_line(value: str, message: str) -> None:
    with pytest.raises(CaseError, match=r"^line 14: expect\.L1\.") as err:
        case(TWO_BALLS + value + "\n")
    assert message in str(err.value)


# ---------------------------------------------------- alternative outcomes


def test_alternative_outcomes_each_with_its_share() -> None:
    text = TWO_BALLS + (
        "seeds = 300\n"
        "outcomes = [\n"
        '  { p = 0.5, L1 = { holds = "red" } },\n'
        '  { p = 0.5, L1 = { holds = "blue" } },\n'
        "]\n"
    )
    result = run_case(case(text))
    assert result.passed, result.detail
    assert result.line().startswith("PASS t: 0.")
    assert result.line().endswith(" over 300 seeds")


def test_outcomes_fail_on_a_wrong_share_and_on_a_seed_meeting_none() -> None:
    text = TWO_BALLS + (
        "seeds = 200\n"
        'outcomes = [{ p = 0.9, L1 = { holds = "red" } }, { p = 0.1, L1 = { holds = "green" } }]\n'
    )
    detail = run_case(case(text)).detail
    assert any(
        d.startswith("outcome 1: share 0.") and d.endswith("is not 0.9 ± 0.085") for d in detail
    )
    assert any("meets none of the outcomes" in d for d in detail)


def test_outcomes_written_as_tables_of_an_array() -> None:
    text = TWO_BALLS.replace("[expect]\n", "") + (
        "[expect]\nseeds = 200\n\n"
        '[[expect.outcomes]]\np = 0.5\nL1 = { holds = "red" }\n\n'
        '[[expect.outcomes]]\np = 0.5\nL1 = { holds = "blue" }\nevents = ["steal L1"]\n'
    )
    assert run_case(case(text)).passed


@pytest.mark.parametrize(
    ("value", "line", "message"),
    [
        ('outcomes = [{ L1 = "60/2" }]', 14, "expect.outcomes.1.p: the outcome's probability"),
        ("outcomes = [\n  { p = 1 },\n  { p = 2 },\n]", 16, "expect.outcomes.2.p"),
        ("outcomes = [{ p = 1, seeds = 5 }]", 14, "seeds belongs to [expect]"),
        ("outcomes = []", 14, "a list of tables"),
        ("probability = 1\noutcomes = [{ p = 1 }]", 15, "no probability or refused beside"),
        (
            "outcomes = [\n  { p = 1, L1 = { cel = 3 } },\n]",
            15,
            "expect.outcomes.1.L1: unknown key",
        ),
    ],
)
def test_a_malformed_outcome_names_its_line(value: str, line: int, message: str) -> None:
    with pytest.raises(CaseError, match=rf"^line {line}: ") as err:
        case(TWO_BALLS + value + "\n")
    assert message in str(err.value)


# ------------------------------------------------------- who was first


def test_first_names_who_spoke_first() -> None:
    out = play(case(RACE), "s")
    race = next(e for e in out.events if e.kind.value == "race")
    assert race.ok is False  # the race's "yes" is the steal first
    assert run_case(case(RACE)).passed
    steal_first = RACE.replace('first = "R1"', 'first = "L1"').replace("first=R1", "first=L1")
    out = play(case(steal_first), "s")
    assert next(e for e in out.events if e.kind.value == "race").ok is True
    assert run_case(case(steal_first)).passed


def test_first_of_a_player_not_in_the_race_fails_the_case() -> None:
    detail = failures(RACE.replace('first = "R1"', 'first = "R7"'))
    assert detail[0] == "first = R7: R7 is not in the race of L1 (the steal) and R1 (the spell)"


def test_first_where_there_is_no_race_is_a_draw_that_never_happened() -> None:
    text = RACE.replace(" spell gullis-dullis", "").replace(
        'events = ["race first=R1"]', 'no_events = ["race"]'
    )
    assert failures(text) == ("forced draw 'first' never happened",)


# ------------------------------------------------------------- lines


def test_key_lines_follow_tables_dotted_keys_inline_tables_and_arrays() -> None:
    text = (
        "a = 1\n"  # 1
        "[orders]\n"  # 2
        'L1 = "x"  # a comment with = and [\n'  # 3
        '[orders."2.1"]\n'  # 4
        "left = { move = 'forward', x = { y = 2 } }\n"  # 5
        "[[expect.outcomes]]\n"  # 6
        "p = 0.5\n"  # 7
        "[[expect.outcomes]]\n"  # 8
        "list = [\n"  # 9
        "  { b = 1 },\n"  # 10
        "  { b = 2 },\n"  # 11
        "]\n"
    )
    lines = dict(key_lines(text))
    assert lines[("a",)] == 1
    assert lines[("orders", "L1")] == 3
    assert lines[("orders", "2", "1", "left", "x", "y")] == 5
    assert lines[("expect", "outcomes", "1", "p")] == 7
    assert lines[("expect", "outcomes", "2", "list", "2", "b")] == 11
    assert error_line(text, "orders.1.1.L1: no such verb") == 3
    assert error_line(text, "orders.2.1.left: 'sideways' is not a move") == 5
    assert error_line(text, "the position is not possible: …") is None


def test_the_command_prints_the_line_of_a_malformed_form(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(TWO_BALLS + 'L1 = { holds = { exactly_one_of = "red" } }\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["engine", "case", str(bad)], catch_exceptions=False)
    assert result.exit_code == 1
    assert f"ERROR {bad}: line 14: expect.L1.holds.exactly_one_of: " in result.output


def test_the_examples_of_the_new_forms_in_docs_engine_md_read() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
    part = text[text.index("### Counters by name") : text.index("The pure parts are public")]
    blocks = re.findall(r"```toml\n(.*?)```", part, re.S)
    assert len(blocks) == 4
    for block in blocks:
        head = 'title = "doc"\nrule = "1.1"\n'
        if "ruleset" not in block:
            head += 'ruleset = "variant-001"\n'
        case(head + block)
