"""Alembic migrations: they build exactly the models' schema, and the start-up check."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from storage.db import Database
from storage.models import metadata
from storage.schema import SchemaOutOfDate, check_schema, current_revision, head_revision, upgrade


def test_upgrade_builds_the_schema_of_the_models(empty_db: Database) -> None:
    assert current_revision(empty_db) is None
    assert upgrade(empty_db) == head_revision()
    check_schema(empty_db)
    with empty_db.engine.connect() as conn:
        diff = compare_metadata(
            MigrationContext.configure(conn, opts={"compare_type": True}), metadata
        )
    assert diff == []


def test_upgrade_twice_is_harmless(empty_db: Database) -> None:
    upgrade(empty_db)
    assert upgrade(empty_db) == head_revision()


def test_empty_database_is_refused_with_advice(empty_db: Database) -> None:
    with pytest.raises(SchemaOutOfDate, match="dragonball db upgrade"):
        check_schema(empty_db)


def test_unknown_revision_asks_to_upgrade_the_judge(empty_db: Database) -> None:
    upgrade(empty_db)
    with empty_db.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'base0'"))
    with pytest.raises(SchemaOutOfDate, match="does not know") as info:
        check_schema(empty_db)
    assert "upgrade the judge" in str(info.value)


def test_database_url_errors_are_clear(tmp_path: object) -> None:
    from storage.db import DatabaseError

    with pytest.raises(DatabaseError, match="unsupported database"):
        Database("mysql://u@h/db")
    with pytest.raises(DatabaseError, match="not a database URL"):
        Database("nonsense")
