"""Two rulings of variant-001 put right in its version 2: a free ball on the
player's own cell is caught at any other height (classic §4; the case book
has both versions), and a game master's penalty plays by classic §10 (001 is
silent on penalties).  Version 1 still plays as it did, with its digest."""

from __future__ import annotations

import tomllib

import pytest

from engine.cases import parse_case, run_case
from engine.ruleset import RulesetError, load_ruleset, parse_ruleset, shipped_versions

# The digest rounds played under variant-001@1 recorded: it must not change.
V1_DIGEST = "efd78b259fede51c903e74453af3c076b6a64d00cc5cdb03e05a5e4a55317ed7"


def _case(text: str) -> None:
    result = run_case(parse_case(tomllib.loads(text), name="t"))
    assert result.passed, result.detail


def test_version_2_has_the_settings_and_version_1_keeps_its_digest() -> None:
    assert shipped_versions("variant-001")[:2] == (1, 2)  # version 3: test_variant_001_version_3
    v1, v2 = load_ruleset("variant-001", 1), load_ruleset("variant-001", 2)
    assert (v1.version, v1.digest) == (1, V1_DIGEST)
    assert v2.version == 2 and v2.digest != V1_DIGEST
    assert "own_cell_catch" not in v1.extra and "penalties" not in v1.extra
    assert (v2.extra["own_cell_catch"], v2.extra["penalties"]) == ("any_height", "classic")


def _doc() -> dict:  # type: ignore[type-arg]
    from importlib import resources

    text = resources.files("engine.rulesets").joinpath("variant-001.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_a_bad_history_or_setting_names_the_key() -> None:
    doc = _doc()
    doc["history"]["1"]["added_later"] = ["variant.no_such_key"]
    with pytest.raises(RulesetError, match=r"history\.1\.variant\.no_such_key: no such key"):
        parse_ruleset(doc, 1)
    doc = _doc()
    doc["variant"]["own_cell_catch"] = "sometimes"
    with pytest.raises(RulesetError, match=r"variant\.own_cell_catch: expected one of"):
        parse_ruleset(doc)


PENALTY = """
title = "classic §10 in the second edition: a penalty after a warning"
ruleset = "{ruleset}"
rule = "10.1"
quote = "судья в раунде, следующим за тем, когда было вынесено предупреждение"
round = 3
right_team = {{ warned_round = 2 }}

[players]
R1 = {{ at = "36/2", holds = "red" }}

[orders]
penalty = "right"

[expect]
{expect}
"""


def test_a_penalty_after_a_warning_throws_the_ball_in_at_the_centre() -> None:
    _case(
        PENALTY.format(
            ruleset="variant-001",
            expect='R1 = { holds = [] }\nred = { status = "free", cell = 111 }\n'
            'events = ["penalty_throw_in red R1 cell=111 step=0 tick=1"]',
        )
    )


def test_a_penalty_throws_in_every_held_ball_one_a_tick() -> None:
    text = PENALTY.format(
        ruleset="variant-001",
        expect='R1 = { holds = [] }\nevents = ["penalty_throw_in red R1 tick=1", '
        '"penalty_throw_in yellow R1 tick=2"]',
    ).replace('holds = "red"', 'holds = ["red", "yellow"]')
    _case(text.replace("[players]", "ticks = 2\n\n[players]"))


def test_a_penalty_without_a_warning_in_the_round_before_is_refused() -> None:
    _case(
        PENALTY.format(ruleset="variant-001", expect='refused = "penalty_no_warning"').replace(
            "warned_round = 2", "warned_round = 3"
        )
    )


def test_a_warning_is_recorded_with_its_round_at_the_round_end() -> None:
    _case("""
title = "a warning in the second edition"
ruleset = "variant-001"
rule = "10.1"
quote = "предупреждение"
ticks = 3

[players]
R1 = { at = "36/2", holds = "red" }

[orders]
warning = "right"

[expect]
right_team = { warnings = 1, warned_round = 1 }
events = ["warning right count=1 tick=3 step=11"]
""")


def test_version_1_accepted_a_penalty_and_did_nothing() -> None:
    _case(
        PENALTY.format(
            ruleset="variant-001@1",
            expect='R1 = { holds = ["red"] }\nno_events = ["penalty_throw_in", "penalty_refused"]',
        )
    )
