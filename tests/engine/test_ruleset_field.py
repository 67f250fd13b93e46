"""The ruleset's optional [field] table: the hex field, or a square grid."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest

from engine.ruleset import RulesetError, parse_ruleset


def _classic() -> dict[str, Any]:
    text = resources.files("engine.rulesets").joinpath("classic.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def test_the_classic_field_is_the_13_row_hex_field() -> None:
    rules = parse_ruleset(_classic())
    assert (rules.field_shape, rules.field_rows, rules.field_columns) == ("hex", 13, 17)


def test_without_a_field_table_the_field_is_the_hex_field() -> None:
    data = _classic()
    del data["field"]
    assert parse_ruleset(data).field_shape == "hex"


def test_a_square_field_names_its_rows_and_columns() -> None:
    data = _classic()
    data["field"] = {"shape": "square", "rows": 12, "columns": 19}
    rules = parse_ruleset(data)
    assert (rules.field_shape, rules.field_rows, rules.field_columns) == ("square", 12, 19)


@pytest.mark.parametrize(
    ("field", "key"),
    [
        ({"shape": "square", "rows": 12}, "field.columns"),
        ({"shape": "round"}, "field.shape"),
        ({"shape": "hex", "rows": 9}, "field.rows"),
        ({"shape": "square", "rows": 1, "columns": 5}, "field.rows"),
    ],
)
def test_a_broken_field_table_names_the_key(field: dict[str, Any], key: str) -> None:
    data = _classic()
    data["field"] = field
    with pytest.raises(RulesetError, match=key):
        parse_ruleset(data)
