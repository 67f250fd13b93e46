"""variant-001 version 3: a player thrown aside (or knocked back) onto a
dragon's cell at its height is swallowed there and then, with his balls, and
loses the rest of the tick (001: «Дракон проглатывает игрока, который
оказался на одной из клеток дракона … Если в этот момент у игрока был мяч -
засчитывается гол»); the ``ball_move`` event names the course east.
Versions 1 and 2 keep their data, digests and play (docs/rules.md, 001 ·
Versions; the case book has both readings, cases/variant-001/s04)."""

from __future__ import annotations

import tomllib

from engine.cases import parse_case, run_case
from engine.ruleset import load_ruleset, shipped_versions

# The digests rounds played under variant-001@1 and @2 recorded: they must not change.
V1_DIGEST = "efd78b259fede51c903e74453af3c076b6a64d00cc5cdb03e05a5e4a55317ed7"
V2_DIGEST = "59127ad06cce5d7a5f528c63ed7266bf4e1cfc7c6fd64a55fbf638995bbf21f2"

NEW_KEYS = ("thrown_onto_dragon", "ball_move_east")


def _case(text: str) -> None:
    result = run_case(parse_case(tomllib.loads(text), name="t"))
    assert result.passed, result.detail


def test_version_3_has_the_settings_and_versions_1_and_2_keep_their_digests() -> None:
    assert shipped_versions("variant-001")[:3] == (1, 2, 3)  # version 4: test_variant_001_version_4
    v1, v2, v3 = (load_ruleset("variant-001", v) for v in (1, 2, 3))
    assert (v1.version, v1.digest) == (1, V1_DIGEST)
    assert (v2.version, v2.digest) == (2, V2_DIGEST)
    assert v3.version == 3 and v3.digest not in (V1_DIGEST, V2_DIGEST)
    assert not any(k in v1.extra or k in v2.extra for k in NEW_KEYS)
    assert (v3.extra["thrown_onto_dragon"], v3.extra["ball_move_east"]) == ("swallowed", "named")


STRIKE = """
title = "t"
ruleset = "{ruleset}"
rule = "4.24"
quote = "Дракон проглатывает игрока, который оказался на одной из клеток дракона."
ticks = {ticks}

[players]
R1 = {{ at = "123/{height}", holds = "red" }}

[dragons]
left = {{ head = 108, facing = "E" }}
right = {{ head = 173, facing = "W" }}

[orders]
left = "stay strike tail"
right = "stay"

[expect]
{expect}
"""


def test_thrown_onto_a_dragon_at_its_height_he_is_swallowed_in_the_step_of_the_throw() -> None:
    _case(
        STRIKE.format(
            ruleset="variant-001",
            ticks=1,
            height=2,
            expect='events = ["thrown R1 cell=174 step=4", "player_swallowed R1 step=4 dragon=right"]\n'
            'red = { status = "swallowed", swallowed_by = "right" }\nscore = "5:0"',
        )
    )


def test_thrown_onto_a_dragon_at_another_height_he_stays_above_it() -> None:
    # The tail reaches the dragon's height ±1; the other dragon lies at 2.
    _case(
        STRIKE.format(
            ruleset="variant-001",
            ticks=1,
            height=3,
            expect='R1 = { at = "174/3", status = "active", holds = ["red"] }\n'
            'no_events = ["player_swallowed"]',
        )
    )


def test_version_2_left_him_on_the_dragon_to_the_next_tick() -> None:
    for ruleset in ("variant-001@1", "variant-001@2"):
        _case(
            STRIKE.format(
                ruleset=ruleset,
                ticks=1,
                height=2,
                expect='R1 = { at = "174/2", status = "active", holds = ["red"] }\n'
                'no_events = ["player_swallowed"]',
            )
        )
        _case(
            STRIKE.format(
                ruleset=ruleset,
                ticks=2,
                height=2,
                expect='events = ["player_swallowed R1 step=3 tick=2"]',
            )
        )


def test_a_black_ball_swallowed_with_a_thrown_player_makes_its_zone_from_the_next_tick() -> None:
    # L3 stands before the right dragon's head at its height: the dazing
    # zone swallows him, but only from tick 2.
    text = STRIKE.format(
        ruleset="variant-001",
        ticks=2,
        height=2,
        expect='events = ["goal black step=4 tick=1", "player_swallowed L3 step=4 tick=2"]\n'
        'no_events = ["player_swallowed L3 tick=1"]',
    ).replace('holds = "red"', 'holds = "black"')
    _case(text.replace("[dragons]", 'L3 = "172/2"\n\n[dragons]'))


KNOCKBACK = """
title = "t"
ruleset = "{ruleset}"
rule = "4.24"
quote = "Дракон проглатывает игрока, который оказался на одной из клеток дракона."

[players]
L1 = {{ at = "109/2", holds = "red" }}
R1 = "111/2"

[dragons]
left = {{ head = 108, facing = "E" }}

[orders]
left = "forward"
L1 = "110/2"
R1 = "110/2"

[dice]
"second_falls L1" = false
"second_falls R1" = false

[expect]
{expect}
"""


def test_knocked_back_onto_a_cell_the_dragon_moved_onto_he_is_swallowed_then() -> None:
    _case(
        KNOCKBACK.format(
            ruleset="variant-001",
            expect='events = ["collision 110", "player_swallowed L1 step=5 dragon=left"]\n'
            'red = { status = "swallowed", swallowed_by = "left" }\nscore = "0:5"',
        )
    )
    _case(
        KNOCKBACK.format(
            ruleset="variant-001@2",
            expect='L1 = { at = "109/2", status = "active", holds = ["red"] }\n'
            'no_events = ["player_swallowed"]',
        )
    )


EAST = """
title = "t"
ruleset = "{ruleset}"
rule = "3.14"
quote = "Только 1 ход мяч движется в заданном направлении с заданной скоростью."
ticks = 3

[players]
L1 = {{ at = "38/2", holds = "red" }}

[orders]
L1 = "38/2 pass red 41/2"

[expect]
red = {{ status = "free", at = "43/2" }}
{expect}
"""


def test_a_ball_flying_east_is_recorded_with_its_course() -> None:
    _case(
        EAST.format(ruleset="variant-001", expect='events = ["ball_move red cell=43 direction=E"]')
    )
    # Versions 1-2 recorded none (Direction.E is 0): their rounds' digests keep it.
    for ruleset in ("variant-001@1", "variant-001@2"):
        _case(
            EAST.format(
                ruleset=ruleset,
                expect='events = ["ball_move red cell=43"]\n'
                'no_events = ["ball_move red direction=E"]',
            )
        )
