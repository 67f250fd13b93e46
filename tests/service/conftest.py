"""A game service on a throw-away database and a fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from support.service_table import Table, make_table, set_up_game
from support.sweep_count import SWEEP_COUNT

from storage.db import Database
from storage.testing import KINDS, temporary_database


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    with temporary_database("sqlite", tmp_path) as db:
        yield db


@pytest.fixture(params=KINDS)
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    with temporary_database(request.param, tmp_path) as db:
        yield db


@pytest.fixture
async def table(sqlite_db: Database) -> AsyncIterator[Table]:
    t = make_table(sqlite_db)
    await set_up_game(t)
    yield t


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """The privacy sweep says how many combinations it checked."""
    count = config.stash.get(SWEEP_COUNT, None)
    if count is not None and count.combinations:
        terminalreporter.write_line(
            f"privacy sweep: {count.combinations} combinations (command × chat × role × "
            f"moment, {count.moments} moments) checked, {count.texts} outbound texts searched"
        )
