"""``dragonball simulate`` (placeholder until its issue lands)."""

from __future__ import annotations

import click


@click.command("simulate", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def simulate(args: tuple[str, ...]) -> None:
    """Simulate many matches between scripted teams to test the rules and measure speed (not available yet)."""
    click.echo("dragonball simulate: not available yet", err=True)
    raise click.exceptions.Exit(2)
