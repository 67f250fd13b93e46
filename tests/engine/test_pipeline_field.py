"""The resolution is a pipeline of named steps a ruleset composes, and the
field a ruleset plays on answers through one interface (engine.field)."""

from __future__ import annotations

import pytest

from engine import geometry, load_ruleset
from engine.field import SquareField, field_of
from engine.geometry import Direction
from engine.resolution.pipeline import CLASSIC_STEPS, STEPS, pipeline_of
from engine.ruleset import RulesetError, parse_ruleset


def test_the_classic_ruleset_names_no_steps_and_plays_the_order_of_section_9() -> None:
    rules = load_ruleset("classic")
    assert rules.steps == ()
    assert pipeline_of(rules) == tuple(STEPS[n] for n in CLASSIC_STEPS)
    assert CLASSIC_STEPS[0] == "start_of_tick" and CLASSIC_STEPS[-1] == "end_of_tick"


def test_an_unknown_step_is_refused_naming_it() -> None:
    import tomllib
    from importlib import resources

    data = tomllib.loads(
        resources.files("engine.rulesets").joinpath("classic.toml").read_text("utf-8")
    )
    data["resolution"] = {"steps": ["start_of_tick", "juggle"]}
    rules = parse_ruleset(data)
    with pytest.raises(RulesetError, match="juggle"):
        pipeline_of(rules)


def test_the_hex_field_answers_from_the_classic_geometry() -> None:
    hexes = load_ruleset("classic").field
    assert hexes.cell_count == geometry.CELL_COUNT == 211
    assert hexes.neighbours(106) == geometry.neighbours(106)
    assert hexes.distance(1, 211) == geometry.distance(1, 211)
    assert hexes.step(106, Direction.N) is None  # no north on hexes
    assert len(hexes.directions) == 6


def test_a_square_field_has_eight_directions_and_the_kings_distance() -> None:
    sq = field_of("square", 13, 17)
    assert isinstance(sq, SquareField)
    assert sq.cell_count == 221 and len(sq.directions) == 8
    assert sq.neighbours(1) == (2, 19, 18)  # E, SE, S of the corner
    assert len(sq.neighbours(111)) == 8
    assert sq.distance(1, 221) == 16
    assert sq.line_direction(111, 111 - 3 * 17 + 3) == Direction.NE
    assert sq.line_direction(111, 111 + 2 * 17 + 1) is None  # a knight's move is no line
    assert sq.half_of(1) == "left" and sq.half_of(17) == "right" and sq.half_of(9) is None
    assert sq.turned(Direction.E, 1) == Direction.S and sq.opposite(Direction.N) == Direction.S
