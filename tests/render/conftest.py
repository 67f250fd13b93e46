"""Fixtures of the rendering tests: the classic ruleset and an opening position."""

from __future__ import annotations

import pytest

from engine.ruleset import Ruleset, load_ruleset
from engine.setup import new_match
from engine.state import MatchState


@pytest.fixture(scope="session")
def ruleset() -> Ruleset:
    return load_ruleset("classic")


@pytest.fixture(scope="session")
def opening(ruleset: Ruleset) -> MatchState:
    state, _ = new_match(ruleset, "render-tests")
    return state
