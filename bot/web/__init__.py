"""The web page of the judge: ordering by tapping the field, and replays.

:func:`web_part` is what ``dragonball serve`` starts when ``[web]`` is
enabled: an aiohttp server on the judge's own event loop.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from aiohttp import web

from bot.config import Config
from bot.service import GameService

from .server import WebSettings, build_web_app

__all__ = ["WebSettings", "build_web_app", "link_secret", "web_part"]


def link_secret(config: Config) -> bytes | None:
    secret = config.web.link_secret
    if secret is None or not secret.get_secret_value():
        return None
    return hashlib.sha256(b"dragonball-web-link\\0" + secret.get_secret_value().encode()).digest()


def web_settings(config: Config) -> WebSettings:
    token = config.telegram.token.get_secret_value() if config.telegram.token else None
    return WebSettings(
        bot_token=token,
        link_secret=link_secret(config),
        max_age=timedelta(seconds=config.web.init_data_max_age),
    )


def web_part(config: Config, service: GameService):  # type: ignore[no-untyped-def]
    """The ``Part`` of the app: the server started before serving, stopped after."""
    from bot.app import Part

    runner = web.AppRunner(build_web_app(service, web_settings(config)), access_log=None)

    async def start() -> None:
        await runner.setup()
        await web.TCPSite(runner, config.web.listen, config.web.port).start()

    return Part("web", start=start, stop=runner.cleanup)
