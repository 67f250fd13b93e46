"""Golden messages: realistic orders with the expected sheet and errors.

Each ``[[case]]`` of ``golden/*.toml`` holds a message, the position it is
read against (``state``: see orderlang_states.py, default ``midgame``), the
writer (``side``: left, right or gm; ``controllable``; ``dragon``), the
expected valid orders in canonical Russian (``orders``) and the expected
errors as "line kind code [-> suggestions]".
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from orderlang_states import RULESET, STATES

from bot.orderlang import format_orders, parse_message

GOLDEN = Path(__file__).with_name("golden")


def _cases() -> list[Any]:
    out = []
    for path in sorted(GOLDEN.glob("*.toml")):
        with path.open("rb") as f:
            for case in tomllib.load(f)["case"]:
                out.append(pytest.param(case, id=f"{path.stem}/{case['name']}"))
    return out


CASES = _cases()


def _read(case: dict[str, Any]) -> Any:
    state = STATES[case.get("state", "midgame")]()
    side = case.get("side", "left")
    controllable = case.get("controllable")
    return state, parse_message(
        case["message"],
        state=state,
        ruleset=RULESET,
        side=None if side == "gm" else side,
        lang=case.get("lang", "ru"),
        controllable=None if controllable is None else frozenset(controllable),
        dragon_allowed=case.get("dragon", True),
    )


def test_corpus_is_large_and_names_are_unique() -> None:
    names = [c.values[0]["name"] for c in CASES]
    assert len(names) >= 80
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("case", CASES)
def test_golden(case: dict[str, Any]) -> None:
    state, result = _read(case)
    text = format_orders(result.orders, state=state, ruleset=RULESET)
    assert text == case["orders"].strip("\n")
    got = [
        f"{e.line} {e.kind} {e.code}"
        + (" -> " + " | ".join(e.suggestions) if e.suggestions else "")
        for e in result.errors
    ]
    assert got == case["errors"]
    clears = [
        f"{c.side} {c.what} {'-' if c.number is None else c.number} {'all' if c.tick is None else c.tick}"
        for c in result.clears
    ]
    assert clears == case.get("clears", [])
    assert result.ok == (not case["errors"])


@pytest.mark.parametrize("case", CASES)
def test_golden_errors_point_into_their_line(case: dict[str, Any]) -> None:
    _, result = _read(case)
    lines = case["message"].replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for e in result.errors:
        assert 1 <= e.line <= len(lines)
        assert 0 <= e.start <= e.end <= len(e.text)
        assert e.message and "{" not in e.message
        rendered = e.render().splitlines()
        assert rendered[-1] == e.message and "^" in rendered[1]
    for line in result.line_of.values():
        assert 1 <= line <= len(lines)
        assert lines[line - 1].strip()


@pytest.mark.parametrize("case", CASES)
def test_golden_sheet_reads_back_to_itself(case: dict[str, Any]) -> None:
    """The acknowledgement's canonical text is itself a valid message."""
    state, result = _read(case)
    side = case.get("side", "left")
    again = parse_message(
        format_orders(result.orders, state=state, ruleset=RULESET),
        state=state,
        ruleset=RULESET,
        side=None if side == "gm" else side,
    )
    assert again.errors == ()
    assert again.orders.sorted() == result.orders.sorted()
