"""Throw-away databases for tests and benchmarks.

``temporary_database("sqlite", folder)`` makes a fresh SQLite file;
``temporary_database("postgresql")`` a fresh schema in the PostgreSQL
database named by ``DRAGONBALL_TEST_POSTGRES_URL`` (default: the local
server, trust auth, database ``test``), dropped afterwards.  Tables are made
from the models (fast) or, with ``migrate=True``, by the migrations.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text

from .db import Database
from .models import metadata
from .schema import upgrade

__all__ = ["KINDS", "POSTGRES_URL", "temporary_database"]

POSTGRES_URL = os.environ.get(
    "DRAGONBALL_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
KINDS = ("sqlite", "postgresql")


@contextmanager
def _pg_schema() -> Iterator[str]:
    name = f"t_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{name}"'))
        yield name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        admin.dispose()


@contextmanager
def temporary_database(
    kind: str, folder: Path | None = None, *, migrate: bool = False, create: bool = True
) -> Iterator[Database]:
    """A fresh, empty database of ``kind`` ("sqlite" or "postgresql")."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            db = Database(f"sqlite:///{Path(tmp) / 'judge.db'}")
            try:
                _prepare(db, migrate=migrate, create=create)
                yield db
            finally:
                db.dispose()
    elif kind == "postgresql":
        with _pg_schema() as schema:
            db = Database(POSTGRES_URL, schema=schema)
            try:
                _prepare(db, migrate=migrate, create=create)
                yield db
            finally:
                db.dispose()
    else:
        raise ValueError(f"unknown database kind {kind!r}")


def _prepare(db: Database, *, migrate: bool, create: bool) -> None:
    if migrate:
        upgrade(db)
    elif create:
        metadata.create_all(db.engine)
