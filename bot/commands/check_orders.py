"""``dragonball check-orders`` (placeholder until its issue lands)."""

from __future__ import annotations

import click


@click.command("check-orders", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def check_orders(args: tuple[str, ...]) -> None:
    """Parse an order message and show what the judge understood (not available yet)."""
    click.echo("dragonball check-orders: not available yet", err=True)
    raise click.exceptions.Exit(2)
