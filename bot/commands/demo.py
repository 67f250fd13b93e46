"""``dragonball demo`` (placeholder until its issue lands)."""

from __future__ import annotations

import click


@click.command("demo", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def demo(args: tuple[str, ...]) -> None:
    """Play a short demonstration match and write its reports and field diagrams (not available yet)."""
    click.echo("dragonball demo: not available yet", err=True)
    raise click.exceptions.Exit(2)
