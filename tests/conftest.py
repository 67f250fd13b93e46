"""Shared test fixtures."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _no_dragonball_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No DRAGONBALL_* variable of the developer's shell leaks into a test."""
    for name in list(os.environ):
        if name.upper().startswith("DRAGONBALL_"):
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True, scope="module")
def _collect_garbage_after_each_module() -> Iterator[None]:
    """A socket, file or transport a module leaves open fails that module.

    Without it the ResourceWarning of a leaked object fires whenever the garbage
    collector happens to run, and fails some unrelated later test (that happened:
    an orderlang test failed on a socket opened by a network test before it).
    Collecting after every test would cost too much; after every module is cheap.
    """
    yield
    gc.collect()


@pytest.fixture
def empty_cwd(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Run the test in an empty folder, so no ./config.toml is picked up."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
