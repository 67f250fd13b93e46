"""A local HTTP server that speaks the Telegram Bot API, for tests and benchmarks.

Telegram is unreachable here, so the real python-telegram-bot client is
pointed at this server with ``Bot(token, base_url=server.base_url,
base_file_url=server.base_file_url)``. Routes are ``/bot<token>/<method>``
and ``/file/bot<token>/<path>``; bodies may be JSON, form-encoded or
multipart, as PTB and other clients send them. ``getUpdates`` supports
``offset``, ``limit``, ``timeout`` (long polling) and ``allowed_updates``;
``setWebhook`` makes the server post updates to the given URL instead, like a
local Bot API server (plain http on loopback is accepted).

Usage::

    async with FakeTelegram() as tg:
        alice = tg.user(1001, "Алиса")
        tg.send_text(alice, text="/start")
        tg.send_media(alice, kind="photo", caption="Иванов: 12")
        tg.fail_next("sendMessage", times=1, retry_after=1)
        sent = await tg.wait_sent(alice, 1)

Faults (:meth:`FakeTelegram.fail_next_with`) are the next calls' answers:
an :class:`ApiError` (the real API's error JSON), :class:`Raw` (a proxy's
own page, e.g. an HTML 502), :class:`Stall` (no answer until the client gives
up: its read timeout) and :class:`Drop` (the connection closed without an
answer); the last two may first do the call (``accept``), as when Telegram
took a message and the answer was lost on the way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import ClientError, ClientSession, ClientTimeout, web

from support.fake_telegram_api import BotApi, Params
from support.fake_telegram_world import (
    ApiError,
    FakeChat,
    FakeUser,
    SentMessage,
    UploadedFile,
    World,
)

__all__ = [
    "ApiError",
    "Call",
    "Drop",
    "FakeChat",
    "FakeTelegram",
    "FakeUser",
    "Fault",
    "Raw",
    "SentMessage",
    "Serve",
    "Stall",
    "UploadedFile",
    "World",
]

DEFAULT_TOKEN = "123456789:AAEfakeTESTtokenDoNotUse0123456789ab"
T = TypeVar("T")


@dataclass
class Call:
    """One request the server answered."""

    method: str
    params: dict[str, Any]
    files: tuple[str, ...]
    status: int = 200
    at: float = field(default_factory=time.monotonic)
    served: tuple[int, ...] = ()  # getUpdates answered: the update ids it handed out
    lost: tuple[int, ...] = ()  # getUpdates stalled or dropped: the ids it had for the bot


@dataclass(frozen=True)
class Stall:
    """No answer until the client gives up (its read timeout closes the connection).
    ``accept``: the call is done first, so its effect stays (a message sent, updates
    handed out) though the client never hears of it. ``with_updates`` (getUpdates):
    the long poll goes on until it has updates to hand out."""

    accept: bool = False
    with_updates: bool = False


@dataclass(frozen=True)
class Drop:
    """The server closes the connection without an answer; ``accept`` as for
    :class:`Stall` (for getUpdates: after the long poll, mid-wait)."""

    accept: bool = True
    with_updates: bool = False


@dataclass(frozen=True)
class Serve:
    """An ordinary answer, in the queue of faults to order them: "this call goes
    through, the next ones fail". ``with_updates`` as for :class:`Stall`."""

    with_updates: bool = True

    accept = True


@dataclass(frozen=True)
class Raw:
    """An answer that is not the Bot API's JSON: a proxy's error page."""

    status: int
    body: str = "<html><head><title>502 Bad Gateway</title></head></html>"
    content_type: str = "text/html"


Fault = ApiError | Stall | Drop | Serve | Raw
_STALL_LIMIT = 300.0  # seconds: a stalled request the client never gives up on ends here


class FakeTelegram:
    """The fake Bot API server plus helpers to play the people and inspect the bot."""

    def __init__(self, token: str = DEFAULT_TOKEN, *, bot_username: str = "dragonball_test_bot"):
        self.token = token
        self.world = World(token, bot_username)
        self.api = BotApi(self.world)
        self.calls: list[Call] = []
        self.abandoned = 0  # requests left without an answer (Stall, Drop)
        self._faults: dict[str, deque[Fault]] = {}
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._pusher: asyncio.Task[None] | None = None
        self._client: ClientSession | None = None

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_method)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._client = ClientSession(timeout=ClientTimeout(total=5))
        self._pusher = asyncio.create_task(self._push_webhook())

    async def stop(self) -> None:
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        if self._client is not None:
            await self._client.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self._port}/file/bot"

    # ------------------------------------------------------------------ HTTP
    async def _parse(self, request: web.Request) -> Params:
        values: dict[str, Any] = dict(request.query)
        files: dict[str, UploadedFile] = {}
        ctype = request.content_type
        if ctype == "application/json":
            body = await request.json()
            if not isinstance(body, dict):
                raise ApiError(400, "Bad Request: request body must be a JSON object")
            values.update(body)
        elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    data = value.file.read()
                    files[key] = UploadedFile(value.filename, value.content_type, data)
                else:
                    values[key] = value
        return Params(values, files)

    @staticmethod
    def _answer(status: int, body: dict[str, Any]) -> web.Response:
        return web.Response(
            status=status,
            text=json.dumps(body, ensure_ascii=False),
            content_type="application/json",
        )

    async def _handle_method(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        call = Call(method, {}, ())
        try:
            params = await self._parse(request)
            call.params, call.files = dict(params.values), tuple(params.files)
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            self.calls.append(call)
            fault = self._next_fault(method)
            if isinstance(fault, ApiError):
                raise fault
            if isinstance(fault, Raw):
                call.status = fault.status
                return web.Response(
                    status=fault.status, text=fault.body, content_type=fault.content_type
                )
            if fault is None or fault.accept:
                if method.lower() == "getupdates":
                    result = await self._get_updates(params)
                    deadline = time.monotonic() + _STALL_LIMIT
                    while fault is not None and fault.with_updates and not result:
                        if time.monotonic() > deadline:
                            break
                        await self.world.wait_change(0.5)
                        result = await self._get_updates(params)
                else:
                    result = self.api.call(method, params)
            if isinstance(fault, Stall | Drop):
                call.status = 0  # no answer
                if method.lower() == "getupdates" and fault.accept:
                    call.lost = tuple(u["update_id"] for u in result)
                await self._no_answer(request, fault)
                return web.Response(status=504)  # nobody reads it any more
        except ApiError as exc:
            call.status = exc.status
            return self._answer(exc.status, exc.body())
        except (ValueError, UnicodeDecodeError):
            call.status = 400
            return self._answer(400, ApiError(400, "Bad Request: invalid request body").body())
        if method.lower() == "getupdates":
            call.served = tuple(u["update_id"] for u in result)
        return self._answer(200, {"ok": True, "result": result})

    async def _no_answer(self, request: web.Request, fault: Stall | Drop) -> None:
        """Hold the request until the client has gone (Stall), or hang up (Drop)."""
        transport = request.transport
        if isinstance(fault, Drop):
            if transport is not None:
                transport.close()
        else:
            deadline = time.monotonic() + _STALL_LIMIT
            while request.transport is not None and not request.transport.is_closing():
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.02)
        self.abandoned += 1
        self.world.touch()

    async def _handle_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.Response(status=401)
        file_id = request.match_info["path"].rsplit("/", 1)[-1]
        upload = self.world.files.get(file_id)
        if upload is None:
            return web.Response(status=404)
        return web.Response(
            body=upload.data, content_type=upload.content_type or "application/octet-stream"
        )

    async def _get_updates(self, params: Params) -> list[dict[str, Any]]:
        if self.world.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = params.int("offset")
        limit = min(max(params.int("limit") or 100, 1), 100)
        timeout = max(params.float("timeout") or 0.0, 0.0)
        self.world.set_allowed_updates(params.json("allowed_updates"))
        deadline = time.monotonic() + timeout
        while True:
            updates = self.world.pending_updates(offset, limit)
            left = deadline - time.monotonic()
            if updates or left <= 0:
                return updates
            await self.world.wait_change(left)

    async def _push_webhook(self) -> None:
        """Post queued updates to the webhook, one at a time, in order."""
        while True:
            hook = self.world.webhook
            pending = self.world.pending_updates(None, 1) if hook else []
            if not hook or not pending:
                await self.world.wait_change(1.0)
                continue
            update = pending[0]
            headers = {"Content-Type": "application/json"}
            if hook.get("secret_token"):
                headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
            assert self._client is not None
            try:
                async with self._client.post(
                    hook["url"], data=json.dumps(update), headers=headers
                ) as r:
                    delivered = 200 <= r.status < 300
            except (ClientError, TimeoutError):
                delivered = False
            if delivered:
                self.world.updates = [u for u in self.world.updates if u is not update]
            else:
                await asyncio.sleep(0.05)

    # ------------------------------------------------------------------ faults
    def fail_next(self, method: str, times: int = 1, *, retry_after: int = 1) -> None:
        """The next ``times`` calls of ``method`` answer 429 Too Many Requests."""
        error = ApiError(
            429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
        )
        self.fail_next_with(method, error, times=times)

    def fail_next_with(self, method: str, error: Fault, *, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` answer ``error``."""
        self._faults.setdefault(method.lower(), deque()).extend([error] * times)

    def faults_left(self, method: str) -> int:
        """Faults queued for ``method`` that no call has met yet."""
        return len(self._faults.get(method.lower(), ()))

    def _next_fault(self, method: str) -> Fault | None:
        queue = self._faults.get(method.lower())
        if not queue:
            return None
        fault = queue.popleft()
        self.world.touch()  # whoever waits for the fault to be met
        return fault

    # ------------------------------------------------------------------ people
    def user(
        self, user_id: int, first_name: str, username: str | None = None, **kw: Any
    ) -> FakeUser:
        return self.world.user(user_id, first_name, username, **kw)

    def group(self, title: str, members: list[FakeUser] | None = None, **kw: Any) -> FakeChat:
        return self.world.group(title, members or [], **kw)

    def channel(self, title: str, username: str | None = None, **kw: Any) -> FakeChat:
        return self.world.channel(title, username, **kw)

    def send_text(
        self, user: FakeUser, chat: FakeChat | None = None, text: str = "", **kw: Any
    ) -> dict[str, Any]:
        return self.world.send_text(user, chat, text, **kw)

    def send_media(
        self,
        user: FakeUser,
        chat: FakeChat | None = None,
        kind: str = "photo",
        caption: str | None = None,
        **kw: Any,
    ) -> dict[str, Any]:
        return self.world.send_media(user, chat, kind, caption, **kw)

    def edit_text(self, message: dict[str, Any], text: str) -> dict[str, Any]:
        return self.world.edit_text(message, text)

    def block(self, user: FakeUser) -> None:
        self.world.block(user)

    def unblock(self, user: FakeUser) -> None:
        self.world.unblock(user)

    def migrate(self, chat: FakeChat) -> FakeChat:
        return self.world.migrate(chat)

    def create_topic(self, chat: FakeChat, name: str) -> int:
        return self.world.create_topic(chat, name)

    # ------------------------------------------------------------------ inspection
    def sent_to(self, chat: FakeChat | FakeUser | int) -> list[SentMessage]:
        return self.world.sent_to(_chat_id(chat))

    def texts(self, chat: FakeChat | FakeUser | int) -> list[str]:
        return self.world.texts(_chat_id(chat))

    def calls_of(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method.lower() == method.lower()]

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, Any]]:
        key = json.dumps(scope or {"type": "default"}, sort_keys=True)
        return self.world.commands.get((key, language_code), [])

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every change); return it."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"condition not met within {timeout} s")
            await self.world.wait_change(min(left, 0.05))

    async def wait_sent(
        self, chat: FakeChat | FakeUser | int, count: int = 1, timeout: float = 5.0
    ) -> list[SentMessage]:
        """Wait until the bot has sent at least ``count`` messages to ``chat``."""
        return await self.wait_for(
            lambda: (lambda items: items if len(items) >= count else [])(self.sent_to(chat)),
            timeout,
        )


def _chat_id(chat: FakeChat | FakeUser | int) -> int:
    return chat if isinstance(chat, int) else chat.id
