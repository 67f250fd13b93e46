"""variant-001 version 4: three rulings of the book and one reading
(docs/rules.md, 001 · Versions; the cases are in cases/variant-001):

1. a player on a cell a dragon is put back onto after a fight is swallowed
   there and then (001: «Драконы отводятся в положение как в начале игры»,
   «проглатывает игрока, который оказался на одной из клеток дракона»);
2. a thrown player who holds on in a collision goes back one cell along his
   throw (001: «отлетает на 1 клетку назад»);
3. after the pepper ball a free ball on the head is a certain goal (001:
   «Вероятность забития гола становится 100%»);
4. a steal that comes before the spell of a holder of two balls takes the
   enchanted ball for certain (001: «Если у игрока более одного мяча, то
   вероятность отобрать 1 из мячей - 100%»).

Versions 1-3 keep their data, digests and play: each ruling is played here
under the old versions too."""

from __future__ import annotations

import tomllib
from importlib.resources import files

import pytest

from engine.cases import parse_case, run_case
from engine.ruleset import RulesetError, load_ruleset, parse_ruleset, shipped_versions

# The digests rounds played under variant-001@1, @2 and @3 recorded: they must not change.
DIGESTS = {
    1: "efd78b259fede51c903e74453af3c076b6a64d00cc5cdb03e05a5e4a55317ed7",
    2: "59127ad06cce5d7a5f528c63ed7266bf4e1cfc7c6fd64a55fbf638995bbf21f2",
    3: "fa94e7f2c71644f79b24eb31d45642bb673e668e80d20b07e0769426981092c2",
}
NEW = {
    "put_back_onto": "swallowed",
    "knockback_way": "way_in",
    "gape_head_balls": "certain",
    "race_two_balls": "certain",
}
OLD_VERSIONS = ("variant-001@1", "variant-001@2", "variant-001@3")


def _case(text: str) -> None:
    result = run_case(parse_case(tomllib.loads(text), name="t"))
    assert result.passed, result.detail


def test_version_4_is_current_and_versions_1_to_3_keep_their_digests() -> None:
    assert shipped_versions("variant-001") == (1, 2, 3, 4)
    current = load_ruleset("variant-001")
    assert current.version == 4 and current.digest not in DIGESTS.values()
    for version, digest in DIGESTS.items():
        old = load_ruleset("variant-001", version)
        assert (old.version, old.digest) == (version, digest)
        assert not set(NEW) & set(old.extra)
    assert {k: current.extra[k] for k in NEW} == NEW


@pytest.mark.parametrize("key", sorted(NEW))
def test_a_setting_takes_only_its_two_readings(key: str) -> None:
    text = (files("engine.rulesets") / "variant-001.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    data["variant"][key] = "sometimes"
    with pytest.raises(RulesetError, match=f"variant.{key}"):
        parse_ruleset(data)


FIGHT = """
title = "t"
ruleset = "{ruleset}"
rule = "4.24"
quote = "Дракон проглатывает игрока, который оказался на одной из клеток дракона."

[players]
L1 = {{ at = "115/{height}", holds = "red" }}

[dragons]
left = {{ head = 40, facing = "E" }}
right = {{ head = 42, facing = "W" }}

[orders]
left = "forward"
right = "stay"
L1 = "115/{height} pass red 117/{height} spell gullis-dullis"

[expect]
{expect}
"""


def test_put_back_onto_a_player_the_dragon_swallows_him_in_step_3() -> None:
    _case(
        FIGHT.format(
            ruleset="variant-001",
            height=2,
            expect='events = ["dragons_reset", "player_swallowed L1 step=3 dragon=right"]\n'
            'no_events = ["pass"]\nscore = "5:0"',
        )
    )


def test_put_back_under_or_over_a_player_it_leaves_him_there() -> None:
    # Swallowing is at the dragon's height (2), as on its cells at step 3.
    _case(
        FIGHT.format(
            ruleset="variant-001",
            height=3,
            expect='L1 = { at = "115/3", status = "active" }\nevents = ["pass red L1"]\n'
            'no_events = ["player_swallowed"]',
        )
    )


def test_versions_1_to_3_left_him_on_the_dragon_to_pass_from_its_back() -> None:
    for ruleset in OLD_VERSIONS:
        _case(
            FIGHT.format(
                ruleset=ruleset,
                height=2,
                expect='L1 = { at = "115/2", status = "active", holds = [] }\n'
                'events = ["dragons_reset", "pass red L1"]\nno_events = ["player_swallowed"]',
            )
        )


def test_a_player_thrown_by_the_fight_onto_a_starting_cell_is_swallowed_there() -> None:
    # L1, north of the left dragon's body when the dragons meet on row 10, is
    # thrown 3 cells north onto 115, the right dragon's starting body cell.
    text = """
title = "t"
ruleset = "{ruleset}"
rule = "4.24"
quote = "Дракон проглатывает игрока, который оказался на одной из клеток дракона."

[players]
L1 = "166/2"

[dragons]
left = {{ head = 183, facing = "E" }}
right = {{ head = 185, facing = "W" }}

[orders]
left = "forward"
right = "stay"

[expect]
{expect}
"""
    _case(
        text.format(
            ruleset="variant-001",
            expect='events = ["thrown L1 cell=115 step=3", "player_swallowed L1 step=3"]',
        )
    )
    _case(
        text.format(
            ruleset="variant-001@3",
            expect='L1 = { at = "115/2", status = "active" }\nno_events = ["player_swallowed"]',
        )
    )


STRIKE = """
title = "t"
ruleset = "{ruleset}"
rule = "2.3"
quote = "он отлетает на 1 клетку назад"

[players]
R1 = "123/2"
L2 = "174/2"

[dragons]
left = {{ head = 108, facing = "E" }}
right = {{ head = 48, facing = "W" }}

[orders]
left = "stay strike tail"
right = "stay"

[dice]
"second_falls R1" = false
"second_falls L2" = {l2_falls}

[expect]
{expect}
"""


def test_a_thrown_player_who_holds_on_goes_back_one_cell_along_his_throw() -> None:
    _case(
        STRIKE.format(
            ruleset="variant-001",
            l2_falls="false",
            expect='R1 = { at = "157/2" }\nL2 = { at = "174/2", status = "active" }',
        )
    )


def test_versions_1_to_3_sent_him_back_as_far_as_he_was_thrown() -> None:
    for ruleset in OLD_VERSIONS:
        _case(
            STRIKE.format(
                ruleset=ruleset,
                l2_falls="true",
                expect='R1 = { at = "123/2", status = "active" }\nevents = ["held_on R1 cell=123"]',
            )
        )


def test_a_player_who_flew_in_still_goes_back_to_the_cell_he_left() -> None:
    # A flight is one cell: «1 клетку назад» is where he came from, as before.
    text = """
title = "t"
ruleset = "variant-001"
rule = "2.3"
quote = "он отлетает на 1 клетку назад"

[players]
L1 = "38/1"
R1 = "40/2"

[orders]
L1 = "39/2"
R1 = "39/2"

[dice]
second_falls = false

[expect]
L1 = { at = "38/1" }
R1 = { at = "40/2" }
"""
    _case(text)


HEAD = """
title = "t"
ruleset = "{ruleset}"
rule = "5.8"
quote = "Вероятность забития гола становится 100%"

[balls]
green = {{ at = "112/2", direction = "E" }}

[dragons]
right = {{ head = 114, facing = "W"{marks} }}

[expect]
score = "2:0"
probability = {p}
seeds = 400
"""


def test_after_the_red_ball_a_free_ball_on_the_head_is_certain() -> None:
    _case(HEAD.format(ruleset="variant-001", marks=", marks = { gape = 1 }", p=1.0))


def test_without_the_red_ball_it_is_still_the_die() -> None:
    _case(HEAD.format(ruleset="variant-001", marks="", p=0.5))


def test_versions_1_to_3_kept_the_die_after_the_red_ball() -> None:
    for ruleset in OLD_VERSIONS:
        _case(HEAD.format(ruleset=ruleset, marks=", marks = { gape = 1 }", p=0.5))


RACE = """
title = "t"
ruleset = "{ruleset}"
rule = "1.2"
quote = "вероятность отобрать 1 из мячей - 100%"

[players]
L1 = "60/2"
R1 = {{ at = "61/2", holds = {holds} }}

[orders]
L1 = "60/2 steal R1"
R1 = "61/2 pass red 64/2 spell gullis-dullis"

[dice]
race = {steal_first}

[expect]
{expect}
probability = {p}
seeds = 400
"""


TWO = '["red", "blue"]'
TAKEN = 'L1 = { holds = ["red"] }\nno_events = ["pass"]'


@pytest.mark.parametrize(
    ("ruleset", "holds", "steal_first", "expect", "p"),
    [
        # version 4: the steal first takes the enchanted ball for certain
        ("variant-001", TWO, "true", TAKEN + '\nR1 = { holds = ["blue"] }', 1.0),
        # the spell first still knocks the robber down
        ("variant-001", TWO, "false", 'L1 = { status = "out" }\nevents = ["pass red R1"]', 1.0),
        # from one ball the steal first is still the die
        ("variant-001", '"red"', "true", TAKEN, 0.5),
        # versions 1-3 threw the one-ball die against two balls
        *((old, TWO, "true", TAKEN + '\nR1 = { holds = ["blue"] }', 0.5) for old in OLD_VERSIONS),
    ],
)
def test_a_steal_racing_the_spell_of_a_holder(
    ruleset: str, holds: str, steal_first: str, expect: str, p: float
) -> None:
    _case(RACE.format(ruleset=ruleset, holds=holds, steal_first=steal_first, expect=expect, p=p))
