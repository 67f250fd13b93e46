"""The ``dragonball`` command line: the composition root of the service.

This module only builds the top-level group and registers the sub-commands;
each sub-command lives in its own module under :mod:`bot.commands`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import click

from bot.commands.check_orders import check_orders
from bot.commands.db import db
from bot.commands.demo import demo
from bot.commands.engine_cmd import engine
from bot.commands.gm_cmd import gm
from bot.commands.serve import serve
from bot.commands.simulate import simulate
from bot.commands.verify import verify
from bot.config import ConfigError
from bot.context import AppContext

__all__ = ["cli", "main"]

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigFailure(click.ClickException):
    """A :class:`ConfigError` on its way out: one line, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"dragonball: {self.format_message()}", file=file, err=file is None)


class DragonballGroup(click.Group):
    """Turns configuration errors of any sub-command into one-line failures."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ConfigError as exc:
            raise ConfigFailure(str(exc)) from None


@click.group(cls=DragonballGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="DRAGONBALL_CONFIG",
    show_envvar=True,
    help="TOML configuration file (default: ./config.toml if present, else built-in defaults).",
)
@click.option(
    "--log-level",
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    help="Override logging.level from the configuration.",
)
@click.version_option(package_name="dragonball-judge", prog_name="dragonball")
@click.pass_context
def cli(ctx: click.Context, config_path: Path | None, log_level: str | None) -> None:
    """Dragonball (Драконбол) judge: referees matches played by Telegram and e-mail."""
    ctx.obj = AppContext(
        config_path=config_path, log_level=log_level.upper() if log_level else None
    )


for _command in (serve, demo, simulate, engine, check_orders, verify, db, gm):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``dragonball`` console script."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="dragonball")
    except ConfigError as exc:  # raised outside a sub-command's invocation
        click.echo(f"dragonball: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
