"""``dragonball db``: database schema management (Alembic migrations)."""

from __future__ import annotations

import click

from bot.context import AppContext, pass_app
from storage.db import Database, DatabaseError
from storage.schema import current_revision, head_revision
from storage.schema import upgrade as upgrade_schema

__all__ = ["db"]


def _database(app: AppContext) -> Database:
    try:
        return Database(app.database_config.database.url)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None


@click.group("db")
def db() -> None:
    """Database schema management (alembic migrations)."""


@db.command("upgrade")
@pass_app
def upgrade(app: AppContext) -> None:
    """Upgrade the database to the newest schema revision (creates it if empty)."""
    database = _database(app)
    try:
        before = current_revision(database)
        after = upgrade_schema(database)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        database.dispose()
    if before == after:
        click.echo(f"{database.display_url}: already at revision {after}")
    else:
        click.echo(f"{database.display_url}: upgraded from {before or 'empty'} to {after}")


@db.command("current")
@pass_app
def current(app: AppContext) -> None:
    """Show the schema revision of the database; exit status 1 if it is not the newest."""
    database = _database(app)
    try:
        revision = current_revision(database)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        database.dispose()
    head = head_revision()
    state = "up to date" if revision == head else "needs `dragonball db upgrade`"
    click.echo(f"{database.display_url}: revision {revision or 'none'} (newest {head}): {state}")
    if revision != head:
        raise click.exceptions.Exit(1)
