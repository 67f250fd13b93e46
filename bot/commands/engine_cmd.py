"""``dragonball engine``: rules-engine tools (placeholder until its issue lands)."""

from __future__ import annotations

import click


@click.group(
    "engine",
    invoke_without_command=True,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.pass_context
def engine(ctx: click.Context) -> None:
    """Rules-engine tools: resolve a round from files, show rulesets (not available yet)."""
    click.echo("dragonball engine: not available yet", err=True)
    ctx.exit(2)
