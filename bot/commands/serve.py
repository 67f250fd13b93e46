"""``dragonball serve``: run the judge service."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from bot.context import AppContext, pass_app
from bot.logging import get_logger
from storage.db import DatabaseError

__all__ = ["serve"]


@click.command()
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="TOML configuration file (the same as `dragonball --config FILE serve`).",
)
@pass_app
def serve(app: AppContext, config_path: Path | None) -> None:
    """Run the judge service: deadlines, the outbox, Telegram and e-mail.

    Needs a configuration (--config, config.toml or DRAGONBALL_* variables) and
    a database at the newest schema (`dragonball db upgrade`).
    """
    from bot.app import AppError, build_app
    from bot.app import serve as run

    if config_path is not None:
        app.config_path = config_path
    config = app.config
    app.setup_logging()
    get_logger(__name__).info(
        "serve starting",
        telegram=config.telegram.enabled,
        imap=config.imap.enabled,
        smtp=config.smtp.enabled,
    )
    try:
        judge = build_app(config)
        asyncio.run(run(judge))
    except (DatabaseError, AppError) as exc:
        raise click.ClickException(str(exc)) from None
