"""The web server inside ``dragonball serve``: the ordering page, its API and
the replay pages, on the judge's own event loop (aiohttp).

Every API call carries ``Authorization: tma <initData>`` (the Telegram Mini
App's signed launch data) or ``Authorization: link <token>`` (a player's
personal link from his round-open mail); anything else is 401.  Reads run in
a service transaction; a submitted draft goes through
``GameService.receive`` exactly as a typed message.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

from bot.i18n import t
from bot.logging import get_logger
from bot.service import GameService, webpage
from bot.service.kernel.context import ServiceError, Tx, parse_game_code

from . import views
from .auth import Caller, Unauthorized, check_init_data, check_link

__all__ = ["STATIC", "WebSettings", "build_web_app"]

log = get_logger(__name__)

STATIC = ("app.html", "app.js", "app.css", "replay.html", "replay.js")
_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
# No script, style or font from anywhere but this server (Telegram's own
# script is the one exception the page may load).
_CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors https://web.telegram.org *"
)


class WebSettings:
    def __init__(
        self, *, bot_token: str | None, link_secret: bytes | None, max_age: timedelta
    ) -> None:
        self.bot_token = bot_token
        self.link_secret = link_secret
        self.max_age = max_age


def _launch_lang(authorization: str) -> str:
    """The language of the Telegram user named in launch data (unchecked: it
    only chooses the language of the refusal)."""
    kind, _, value = authorization.partition(" ")
    if kind == "tma":
        try:
            user = json.loads(dict(parse_qsl(value)).get("user", "{}"))
            code = user.get("language_code") if isinstance(user, dict) else None
        except ValueError:
            code = None
        if isinstance(code, str) and code.startswith("en"):
            return "en"
    return "ru"


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


def build_web_app(service: GameService, settings: WebSettings) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)

    def caller_of(request: web.Request) -> Caller:
        kind, _, value = request.headers.get("Authorization", "").partition(" ")
        now = service.clock.now()
        if kind == "tma" and settings.bot_token:
            return check_init_data(value, settings.bot_token, max_age=settings.max_age, now=now)
        if kind == "link" and settings.link_secret:
            return check_link(settings.link_secret, value, now=now)
        raise Unauthorized("no credentials")

    Handler = Callable[[Tx, Caller, dict[str, Any]], dict[str, Any]]

    def api(fn: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            try:
                body = await request.json()
                if not isinstance(body, dict):
                    raise ValueError("not an object")
            except ValueError:
                body = None
            try:
                caller = caller_of(request)
            except Unauthorized as exc:
                return unauthorized(request, body, exc)
            if body is None:
                return web.json_response({"error": "bad request"}, status=400)
            try:
                data = await service.read(lambda tx: fn(tx, caller, body))
            except views.Forbidden as exc:
                return forbidden(body, caller, exc)
            except (KeyError, TypeError, ValueError) as exc:
                return web.json_response({"error": "bad request", "why": str(exc)}, status=400)
            return web.json_response(data)

        return handle

    def unauthorized(
        request: web.Request, body: dict[str, Any] | None, exc: Unauthorized
    ) -> web.Response:
        """401, with a line the player can act on in the language he asked for
        (the page's ``lang``, else his Telegram language)."""
        lang = (body or {}).get("lang")
        if lang not in ("ru", "en"):
            lang = _launch_lang(request.headers.get("Authorization", ""))
        key = "web.link_expired" if str(exc) == "expired" else "web.unauthorized"
        return web.json_response(
            {"error": "unauthorized", "why": str(exc), "message": t(key, lang)}, status=401
        )

    def forbidden(body: dict[str, Any], caller: Caller, exc: views.Forbidden) -> web.Response:
        lang = body.get("lang")
        if lang not in ("ru", "en"):
            lang = "en" if (caller.lang or "").startswith("en") else "ru"
        return web.json_response(
            {"error": "forbidden", "why": str(exc), "message": exc.message(lang)}, status=403
        )

    def lang_of(tx: Tx, caller: Caller, body: dict[str, Any]) -> str:
        asked = body.get("lang")
        if asked in ("ru", "en"):
            return str(asked)
        return views.seat(tx, caller).actor.lang

    def page(tx: Tx, caller: Caller, body: dict[str, Any]) -> dict[str, Any]:
        return views.page(tx, caller, lang_of(tx, caller, body))

    def check(tx: Tx, caller: Caller, body: dict[str, Any]) -> dict[str, Any]:
        text = body.get("text")
        orders = body.get("orders")
        clears = body.get("clears")
        return views.check(
            tx, caller, None if text is None else str(text), lang_of(tx, caller, body),
            orders if isinstance(orders, dict) else None,
            clears if isinstance(clears, list) else None,
        )  # fmt: skip

    def options(tx: Tx, caller: Caller, body: dict[str, Any]) -> dict[str, Any]:
        return views.options(tx, caller, str(body["text"]), int(body["number"]), int(body["tick"]))

    def targets(tx: Tx, caller: Caller, body: dict[str, Any]) -> dict[str, Any]:
        return views.targets(
            tx, caller, str(body["text"]), int(body["number"]), int(body["tick"]),
            int(body["cell"]), int(body["height"]),
        )  # fmt: skip

    async def submit(request: web.Request) -> web.Response:
        try:
            caller = caller_of(request)
        except Unauthorized as exc:
            return unauthorized(request, None, exc)
        raw = await request.read()
        try:
            text = str(json.loads(raw)["text"])
            msg = await service.read(
                lambda tx: (views.seat(tx, caller), views.sender(tx, caller))[1]
            )
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "bad request"}, status=400)
        except views.Forbidden as exc:
            return forbidden({}, caller, exc)
        # The ordinary path: stored, parsed, checked and acknowledged in the
        # member's chat (or by mail) like a message he typed.
        inbound = msg.__class__(
            channel=msg.channel, external_id=f"web:{uuid.uuid4()}", sender=msg.sender,
            text=text, raw=raw, received_at=service.clock.now(), chat=msg.chat,
            authenticated=msg.authenticated, meta={"via": "web"},
        )  # fmt: skip
        reply = await service.receive(inbound)
        return web.json_response({"status": reply.status, "text": reply.text})

    async def static(request: web.Request) -> web.Response:
        name = request.match_info.get("name", "app.html")
        if name not in STATIC:
            raise web.HTTPNotFound()
        suffix = name[name.rindex(".") :]
        return web.Response(
            body=_static(name),
            content_type=_TYPES[suffix],
            charset="utf-8",
            headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"},
        )

    cache: dict[tuple[int, str], tuple[int, dict[str, str]]] = {}

    async def replay(request: web.Request) -> web.Response:
        """The public replay of a game: no credentials, public view only."""
        code = request.match_info["game"]
        name = request.match_info.get("name") or "index.html"
        lang = request.query.get("lang", "ru")
        game_id = parse_game_code(code)
        if game_id is None or lang not in ("ru", "en"):
            raise web.HTTPNotFound()

        def build(tx: Tx) -> dict[str, str]:
            done = webpage.resolved_count(tx, game_id)
            hit = cache.get((game_id, lang))
            if hit is not None and hit[0] == done:
                return hit[1]
            pages = webpage.replay_pages(tx, game_id, lang)
            cache[(game_id, lang)] = (done, pages)
            return pages

        try:
            pages = await service.read(build)
        except ServiceError:
            raise web.HTTPNotFound() from None
        if name not in pages:
            raise web.HTTPNotFound()
        return web.Response(text=pages[name], content_type="text/html", charset="utf-8",
                            headers={"Content-Security-Policy": _CSP})  # fmt: skip

    app.router.add_get("/replay/{game}/", replay)
    app.router.add_get("/replay/{game}/{name}", replay)
    app.router.add_get("/app", static)
    app.router.add_get("/static/{name}", static)
    app.router.add_post("/api/page", api(page))
    app.router.add_post("/api/check", api(check))
    app.router.add_post("/api/options", api(options))
    app.router.add_post("/api/targets", api(targets))
    app.router.add_post("/api/submit", submit)
    return app
