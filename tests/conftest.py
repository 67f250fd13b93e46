"""Shared test fixtures."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _no_dragonball_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No DRAGONBALL_* variable of the developer's shell leaks into a test."""
    for name in list(os.environ):
        if name.upper().startswith("DRAGONBALL_"):
            monkeypatch.delenv(name)


@pytest.fixture
def empty_cwd(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Run the test in an empty folder, so no ./config.toml is picked up."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
