"""Alembic environment of the judge's database.

Run programmatically by :mod:`storage.schema`, which hands over an open
connection in ``config.attributes["connection"]`` (so a PostgreSQL
``search_path`` chosen by the caller applies); the URL in the config is the
fallback for the ``alembic`` command line.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from storage.models import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: pass a connection or set sqlalchemy.url")
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline (SQL script) migrations are not supported")
run_migrations_online()
