"""The web page of the judge: ordering by tapping the field, and replays.

:func:`web_part` is what ``dragonball serve`` starts when ``[web]`` is
enabled: an aiohttp server on the judge's own event loop.  (The package
imports nothing of the service at import time, so that the service may use
:mod:`bot.web.auth` to sign its links.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.config import Config
    from bot.service import GameService

__all__ = ["web_part"]


def web_part(config: Config, service: GameService) -> Any:
    """The app's ``Part``: the server started before serving, stopped after."""
    from datetime import timedelta

    from aiohttp import web

    from bot.app import Part
    from bot.service.kernel.settings import web_link_key

    from .server import WebSettings, build_web_app, runner_options

    token = config.telegram.token.get_secret_value() if config.telegram.token else None
    settings = WebSettings(
        bot_token=token,
        link_secret=web_link_key(config),
        max_age=timedelta(seconds=config.web.init_data_max_age),
        read_timeout=config.web.read_timeout,
    )
    # No access log: a request line holds nothing secret, but nothing is gained.
    runner = web.AppRunner(build_web_app(service, settings), **runner_options(settings))

    async def start() -> None:
        await runner.setup()
        await web.TCPSite(runner, config.web.listen, config.web.port).start()

    return Part("web", start=start, stop=runner.cleanup)
