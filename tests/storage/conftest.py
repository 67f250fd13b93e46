"""The storage suite runs on SQLite and on PostgreSQL (a fresh schema per test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.db import Database
from storage.testing import KINDS, temporary_database


@pytest.fixture(params=KINDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    with temporary_database(request.param, tmp_path) as database:
        yield database


@pytest.fixture(params=KINDS)
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """No tables at all: what `dragonball db upgrade` starts from."""
    with temporary_database(request.param, tmp_path, create=False) as database:
        yield database
