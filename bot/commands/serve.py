"""``dragonball serve``: run the judge service."""

from __future__ import annotations

import click

from bot.context import AppContext, pass_app
from bot.logging import get_logger


@click.command()
@pass_app
def serve(app: AppContext) -> None:
    """Run the judge service: Telegram bot, e-mail gateway and daily deadlines.

    Needs a configuration (--config, config.toml or DRAGONBALL_* variables).
    """
    config = app.config
    app.setup_logging()
    get_logger(__name__).info(
        "serve starting",
        telegram=config.telegram.enabled,
        imap=config.imap.enabled,
        smtp=config.smtp.enabled,
    )
    click.echo("dragonball: serve is not wired yet (the service loop is in progress)", err=True)
    raise click.exceptions.Exit(2)
