"""The web server inside ``dragonball serve``: the ordering page, its API and
the replay pages, on the judge's own event loop (aiohttp).

Every API call carries ``Authorization: tma <initData>`` (the Telegram Mini
App's signed launch data) or ``Authorization: link <token>`` (a player's
personal link from his round-open mail, for that round's orders); anything
else is 401.  Reads run in a service transaction; a submitted draft goes
through ``GameService.receive`` exactly as a typed message — orders only:
the page runs no command (docs/security.md).

Whatever a caller sends, the answer is the page's own or a 4xx with a short
reason: a body not read within ``read_timeout``, not JSON, nested too deep,
with a field of the wrong kind or a number out of range is refused, never a
500.  Every response says ``nosniff``, ``no-referrer`` and may be framed by
Telegram's web client only.
"""

from __future__ import annotations

import asyncio
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
from bot.service.kernel.context import ServiceError, Tx, game_code, parse_game_code

from . import views
from .auth import Caller, Unauthorized, check_init_data, check_link

__all__ = ["STATIC", "WebSettings", "build_web_app", "runner_options"]

log = get_logger(__name__)

STATIC = ("app.html", "app.js", "app.css")  # the replays are pages of their own (/replay/)
_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
# No script, style or font from anywhere but this server (Telegram's own
# script is the one exception the page may load).  Only Telegram's web client
# may frame it: Web K and Web A both live on https://web.telegram.org (/k/,
# /a/); the apps open a Mini App in a web view of their own, not a frame.
_CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors https://web.telegram.org"
)
_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# The numbers a call may name (shirt, tick, cell, height): small, whatever the
# field; anything else is a bad request before it reaches the engine.
_NUMBER_MAX = 100_000


class WebSettings:
    def __init__(
        self,
        *,
        bot_token: str | None,
        link_secret: bytes | None,
        max_age: timedelta,
        read_timeout: float = 10.0,
    ) -> None:
        self.bot_token = bot_token
        self.link_secret = link_secret
        self.max_age = max_age
        # A request's head and body are read within this many seconds, or dropped.
        self.read_timeout = read_timeout


def runner_options(settings: WebSettings) -> dict[str, Any]:
    """What the server's runner is started with.  aiohttp drops a connection
    that has not sent a whole request head within ``keepalive_timeout`` (its
    timer runs from the connection's start): a half-sent head is dropped after
    ``read_timeout``; a half-sent body is dropped by the handlers."""
    return {"access_log": None, "keepalive_timeout": settings.read_timeout}


class BadRequest(Exception):
    """A call the page never makes: 400 with a short reason."""


def _number(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BadRequest(f"{key}: a number")
    if isinstance(value, str):
        if not (value.isascii() and value.strip().lstrip("-").isdigit() and len(value) < 10):
            raise BadRequest(f"{key}: a number")
        value = int(value)
    if isinstance(value, float) and not value.is_integer():  # inf and nan too
        raise BadRequest(f"{key}: a whole number")
    if not -_NUMBER_MAX <= value <= _NUMBER_MAX:
        raise BadRequest(f"{key}: out of range")
    return int(value)


def _json_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object (bytes: the encoding is JSON's own, whatever
    the request's charset says)."""
    try:
        body = json.loads(raw)
    except RecursionError:
        raise BadRequest("nested too deep") from None
    except ValueError:  # also a body that is not UTF-8, or an integer of 5,000 digits
        raise BadRequest("not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("not a JSON object")
    return body


async def _read(request: web.Request, settings: WebSettings) -> bytes:
    try:
        async with asyncio.timeout(settings.read_timeout):
            return await request.read()
    except TimeoutError:
        raise web.HTTPRequestTimeout(
            text='{"error": "request timeout"}', content_type="application/json"
        ) from None


def _launch_lang(authorization: str) -> str:
    """The language of the Telegram user named in launch data (unchecked: it
    only chooses the language of the refusal)."""
    kind, _, value = authorization.partition(" ")
    if kind == "tma":
        try:
            user = json.loads(dict(parse_qsl(value)).get("user", "{}"))
            code = user.get("language_code") if isinstance(user, dict) else None
        except (ValueError, RecursionError):
            code = None
        if isinstance(code, str) and code.startswith("en"):
            return "en"
    return "ru"


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


def build_web_app(service: GameService, settings: WebSettings) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)

    async def secure(request: web.Request, response: web.StreamResponse) -> None:
        # Every answer, the API's, the pages' and aiohttp's own 404 and 413.
        for name, value in _HEADERS.items():
            response.headers.setdefault(name, value)

    app.on_response_prepare.append(secure)

    def caller_of(request: web.Request) -> Caller:
        kind, _, value = request.headers.get("Authorization", "").partition(" ")
        now = service.clock.now()
        if kind == "tma" and settings.bot_token:
            return check_init_data(value, settings.bot_token, max_age=settings.max_age, now=now)
        if kind == "link" and settings.link_secret:
            return check_link(settings.link_secret, value)
        raise Unauthorized("no credentials")

    def bad_request(why: object) -> web.Response:
        return web.json_response({"error": "bad request", "why": str(why)[:200]}, status=400)

    Handler = Callable[[Tx, Caller, dict[str, Any]], dict[str, Any]]

    def api(fn: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            raw = await _read(request, settings)
            try:
                body: dict[str, Any] | None = _json_object(raw)
            except BadRequest as exc:
                body, why = None, exc
            try:
                caller = caller_of(request)
            except Unauthorized as exc:
                return unauthorized(request, body, exc)
            if body is None:
                return bad_request(why)
            try:
                data = await service.read(lambda tx: fn(tx, caller, body))
            except Unauthorized as exc:  # a link whose round has been played
                return unauthorized(request, body, exc)
            except views.Forbidden as exc:
                return forbidden(body, caller, exc)
            # A crafted body (the page sends none of these): a field of the wrong
            # kind deep in the orders, a number past the field, a list too deep.
            except (BadRequest, KeyError, TypeError, ValueError, AttributeError, IndexError,
                    OverflowError, RecursionError) as exc:  # fmt: skip
                return bad_request(exc)
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

    def forbidden(
        body: dict[str, Any], caller: Caller, exc: views.Forbidden, member_lang: str | None = None
    ) -> web.Response:
        """403 in the page's language, else the member's, else his Telegram one."""
        lang = body.get("lang")
        if lang not in ("ru", "en"):
            lang = member_lang or ("en" if (caller.lang or "").startswith("en") else "ru")
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
        return views.options(
            tx, caller, str(body.get("text") or ""), _number(body, "number"), _number(body, "tick")
        )

    def targets(tx: Tx, caller: Caller, body: dict[str, Any]) -> dict[str, Any]:
        return views.targets(
            tx, caller, str(body.get("text") or ""), _number(body, "number"),
            _number(body, "tick"), _number(body, "cell"), _number(body, "height"),
        )  # fmt: skip

    async def submit(request: web.Request) -> web.Response:
        raw = await _read(request, settings)
        try:
            caller = caller_of(request)
        except Unauthorized as exc:
            return unauthorized(request, None, exc)
        try:
            body = _json_object(raw)
            text = body["text"]
            if not isinstance(text, str):
                raise BadRequest("text: a string")
        except KeyError:
            return bad_request("text: missing")
        except BadRequest as exc:
            return bad_request(exc)
        try:
            seat, msg = await service.read(
                lambda tx: (views.seat(tx, caller), views.sender(tx, caller))
            )
        except Unauthorized as exc:
            return unauthorized(request, body, exc)
        except views.Forbidden as exc:
            return forbidden(body, caller, exc)
        if webpage.is_command(text):
            # The page orders, nothing else: a command (a pass phrase, a game
            # master's) outlives the round, and a link may be in other hands.
            refusal = views.Forbidden("orders only", "web.orders_only")
            return forbidden(body, caller, refusal, seat.actor.lang)
        if caller.round is not None:
            # A link's orders are for its round: should the round be played
            # between this check and the filing, the judge refuses them
            # (a wrong round) rather than file them in the next one.
            text = f"Раунд {caller.round}\n{text}"
        # The ordinary path: stored, parsed, checked and acknowledged in the
        # member's chat (or by mail) like a message he typed, in the game of
        # the page (a member of several games orders in the one he sees).
        inbound = msg.__class__(
            channel=msg.channel, external_id=f"web:{uuid.uuid4()}", sender=msg.sender,
            text=text, raw=raw, received_at=service.clock.now(), chat=msg.chat,
            authenticated=msg.authenticated, meta={"via": "web"},
            game_hint=game_code(seat.game),
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
            headers={"Cache-Control": "no-cache"},
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
        return web.Response(text=pages[name], content_type="text/html", charset="utf-8")

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
