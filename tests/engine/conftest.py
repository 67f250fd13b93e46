"""Fixtures of the engine tests; the helpers themselves are in enginekit.py."""

from __future__ import annotations

import pytest
from enginekit import CLASSIC, STILL

from engine.ruleset import Ruleset


@pytest.fixture
def rules() -> Ruleset:
    """The classic ruleset."""
    return CLASSIC


@pytest.fixture
def still() -> Ruleset:
    """Classic numbers with balls that keep still (see enginekit.still_rules)."""
    return STILL
