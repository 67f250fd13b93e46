"""Shared test fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _clean_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """No DRAGONBALL_* variable of the developer's shell leaks into a test, and
    no ./config.toml is picked up: each test runs in an empty folder."""
    for name in list(os.environ):
        if name.upper().startswith("DRAGONBALL_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    yield
