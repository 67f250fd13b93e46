"""``dragonball verify`` (placeholder until its issue lands)."""

from __future__ import annotations

import click


@click.command("verify", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def verify(args: tuple[str, ...]) -> None:
    """Replay a recorded match from its dice log and check every round (not available yet)."""
    click.echo("dragonball verify: not available yet", err=True)
    raise click.exceptions.Exit(2)
