"""``dragonball db``: database schema management (placeholder until storage lands)."""

from __future__ import annotations

import click


@click.group("db")
def db() -> None:
    """Database schema management (alembic migrations)."""


@db.command("upgrade")
def upgrade() -> None:
    """Upgrade the database to the newest schema revision (not available yet)."""
    click.echo("dragonball db upgrade: not available yet", err=True)
    raise click.exceptions.Exit(2)


@db.command("current")
def current() -> None:
    """Show the schema revision of the database (not available yet)."""
    click.echo("dragonball db current: not available yet", err=True)
    raise click.exceptions.Exit(2)
