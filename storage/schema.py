"""Schema migrations (Alembic, run programmatically) and the start-up check.

The migration scripts ship inside the package (``storage/migrations``), so an
installed judge can upgrade its database with ``dragonball db upgrade``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.exc import SQLAlchemyError

from .db import Database, DatabaseError

__all__ = [
    "SchemaOutOfDate",
    "alembic_config",
    "check_schema",
    "current_revision",
    "head_revision",
    "upgrade",
]


class SchemaOutOfDate(DatabaseError):
    """The database is not at the schema revision this code needs."""


def _script_location() -> Path:
    return Path(str(resources.files("storage") / "migrations"))


def alembic_config() -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(_script_location()))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships its migrations
        raise DatabaseError("no migration scripts found")
    return head


@contextmanager
def _quiet_alembic() -> Iterator[None]:
    """Reading the revision makes Alembic log its dialect at INFO: noise there."""
    logger = logging.getLogger("alembic.runtime.migration")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def current_revision(db: Database) -> str | None:
    """The revision the database is at, None for an empty database."""
    try:
        with _quiet_alembic(), db.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    except SQLAlchemyError as exc:
        raise DatabaseError(
            f"cannot read the database {db.display_url}: {exc.__class__.__name__}: {exc}"
        ) from exc


def upgrade(db: Database, revision: str = "head") -> str | None:
    """Apply the migrations up to ``revision``; returns the revision now current."""
    cfg = alembic_config()
    try:
        with db.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    except SQLAlchemyError as exc:
        raise DatabaseError(
            f"migration failed on {db.display_url}: {exc.__class__.__name__}: {exc}"
        ) from exc
    return current_revision(db)


def check_schema(db: Database) -> None:
    """Raise :class:`SchemaOutOfDate` with advice unless the database is at head."""
    current = current_revision(db)
    head = head_revision()
    if current == head:
        return
    if current is None:
        raise SchemaOutOfDate(
            f"the database {db.display_url} has no judge schema yet: run `dragonball db upgrade`"
        )
    known = {rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if current not in known:
        raise SchemaOutOfDate(
            f"the database {db.display_url} is at schema revision {current}, which this version of the "
            f"judge does not know (newest known: {head}): upgrade the judge"
        )
    raise SchemaOutOfDate(
        f"the database {db.display_url} is at schema revision {current}, the judge needs {head}: "
        "run `dragonball db upgrade`"
    )
