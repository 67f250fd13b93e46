"""What the page's credentials let a caller do, and what a crafted call gets
(docs/security.md): a link orders for its round and nothing else, a member's
set of players is all he reads and writes, every answer carries the page's
security headers, and no input is a 500."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from importlib import resources
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from structlog.testing import capture_logs
from support.service_table import GM, Table, make_table, set_up_game

from bot.web.auth import sign_init_data, sign_link
from bot.web.server import STATIC, WebSettings, build_web_app, runner_options
from storage import repo
from storage.db import Database
from storage.models import InboundMessage, Member

TOKEN = "123456:TEST-TOKEN"
SECRET = b"link secret of the tests"
MAIL = "p3@mail.example"


def init_data(table: Table, user: int, *, age: float = 0) -> str:
    signed = int((table.clock.now() - timedelta(seconds=age)).timestamp())
    fields = {
        "user": json.dumps({"id": user, "first_name": "P", "language_code": "ru"}),
        "auth_date": str(signed),
    }
    return sign_init_data(fields, TOKEN)


async def join_by_mail(table: Table, what: str = "player left 3", address: str = MAIL) -> int:
    """A member who plays by mail; his id."""
    invited = await table.say(GM, f"/invite {what}")
    assert invited.status == "ok", invited.text
    joined = await table.mail(address, f"/start {invited.data['code']}")
    assert joined.status == "ok", joined.text
    with table.db.transaction() as s:
        member = repo.member_by_email(s, address)
        assert member is not None and member.id is not None
        return member.id


@pytest.fixture
async def world(sqlite_db: Database) -> AsyncIterator[tuple[Table, TestClient[Any, Any]]]:
    table = make_table(sqlite_db, web_url="https://judge.example", web_link_secret=SECRET)
    await set_up_game(table)
    settings = WebSettings(bot_token=TOKEN, link_secret=SECRET, max_age=timedelta(hours=1))
    async with TestClient(TestServer(build_web_app(table.service, settings))) as client:
        yield table, client


async def post(
    client: TestClient[Any, Any], path: str, auth: str, body: dict[str, Any] | bytes
) -> tuple[int, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    res = await client.post(path, data=data, headers={"Authorization": auth})
    return res.status, await res.json()


COMMANDS = (
    "/passphrase new phrase of the thief",
    "/пароль new phrase of the thief",
    "  /passphrase new phrase of the thief",
    "/lang en",
    "/tz Europe/Kiev",
    "/ready",
    "/clear",
    "/start ABCDEFGHJK",
    "/resolve",
    "/invite player left 4",
    "/status",
)


async def test_a_link_runs_no_command_and_cannot_change_the_pass_phrase(world: Any) -> None:
    table, client = world
    member_id = await join_by_mail(table)
    assert (await table.mail(MAIL, "/passphrase the player's own phrase")).status == "ok"
    before = table.rows(Member, Member.id == member_id)[0].passphrase_hash
    stored = len(table.rows(InboundMessage))
    link = f"link {sign_link(SECRET, member_id, table.game_id, 1)}"
    for text in COMMANDS:
        status, answer = await post(client, "/api/submit", link, {"text": text})
        assert status == 403 and answer["error"] == "forbidden", (text, answer)
        assert answer["message"].startswith("Страница принимает только приказы"), answer
    status, answer = await post(client, "/api/submit", link, {"text": COMMANDS[0], "lang": "en"})
    assert status == 403 and answer["message"].startswith("The page takes this round's orders")
    # Nothing was stored, nothing changed: the phrase is the player's own.
    assert table.rows(Member, Member.id == member_id)[0].passphrase_hash == before
    assert len(table.rows(InboundMessage)) == stored
    # Orders it does take, for his player.
    status, sent = await post(client, "/api/submit", link, {"text": "Такт 1\nИгрок 3: 104 в1"})
    assert status == 200, sent


async def test_the_page_runs_no_command_for_telegram_either(world: Any) -> None:
    table, client = world
    auth = f"tma {init_data(table, 201)}"
    status, answer = await post(client, "/api/submit", auth, {"text": "/passphrase x y z"})
    assert status == 403 and answer["why"] == "orders only"


async def test_a_link_of_round_1_does_not_open_round_2(world: Any) -> None:
    table, client = world
    member_id = await join_by_mail(table)
    first = f"link {sign_link(SECRET, member_id, table.game_id, 1)}"
    status, page = await post(client, "/api/page", first, {})
    assert status == 200 and page["round"] == 1, page
    # Resolved early, long before round 1's deadline: round 2 is open.
    assert (await table.say(GM, "/resolve")).status == "ok"
    body = {"text": "", "number": 3, "tick": 1, "cell": 104, "height": 1}
    for path in ("/api/page", "/api/check", "/api/options", "/api/targets", "/api/submit"):
        status, answer = await post(client, path, first, body)
        assert status == 401 and answer["why"] == "expired", (path, answer)
        assert answer["message"].startswith("Ссылка больше не действует"), answer
    second = f"link {sign_link(SECRET, member_id, table.game_id, 2)}"
    status, page = await post(client, "/api/page", second, {})
    assert status == 200 and page["round"] == 2
    # A link for a round not yet open opens nothing either.
    third = f"link {sign_link(SECRET, member_id, table.game_id, 3)}"
    assert (await post(client, "/api/page", third, {}))[0] == 401


async def test_a_revoked_members_link_opens_nothing(world: Any) -> None:
    table, client = world
    invited = await table.say(GM, "/invite player left 3")
    assert (await table.mail(MAIL, f"/start {invited.data['code']}")).status == "ok"
    with table.db.transaction() as s:
        member = repo.member_by_email(s, MAIL)
        assert member is not None and member.id is not None
        link = f"link {sign_link(SECRET, member.id, table.game_id, 1)}"
    assert (await post(client, "/api/page", link, {}))[0] == 200
    assert (await table.say(GM, f"/revoke {invited.data['code']}")).status == "ok"
    for path in ("/api/page", "/api/submit"):
        status, answer = await post(client, path, link, {"text": "Такт 1\nИгрок 3: 104 в1"})
        assert status == 403 and answer["error"] == "forbidden", (path, answer)


async def test_a_links_orders_are_filed_for_its_round_only(world: Any) -> None:
    """The text a link submits names the link's round: the judge refuses it in
    any other round (should the round be played between the page's check and
    the filing)."""
    table, client = world
    member_id = await join_by_mail(table)
    link = f"link {sign_link(SECRET, member_id, table.game_id, 1)}"
    status, sent = await post(client, "/api/submit", link, {"text": "Такт 1\nИгрок 3: 104 в1"})
    assert status == 200 and sent["status"] == "ok", sent
    filed = [r for r in table.rows(InboundMessage) if r.external_id.startswith("web:")]
    assert filed[-1].text.startswith("Раунд 1\n")
    # The same text typed for round 2 is refused as of another round.
    assert (await table.say(GM, "/resolve")).status == "ok"
    refused = await table.mail(MAIL, filed[-1].text)
    assert refused.status == "rejected" and "раунд 1" in refused.text, refused.text


async def test_a_dragon_only_member_reads_no_players_options(world: Any) -> None:
    table, client = world
    invited = await table.say(GM, "/invite player left dragon")
    assert invited.status == "ok", invited.text
    assert (await table.say(203, f"/start {invited.data['code']}")).status == "ok"
    auth = f"tma {init_data(table, 203)}"
    status, page = await post(client, "/api/page", auth, {})
    assert status == 200 and page["numbers"] == [] and page["dragon"] is True
    for number in (1, 2, 3):
        body = {"text": "", "number": number, "tick": 1, "cell": 104, "height": 1}
        for path in ("/api/options", "/api/targets"):
            status, answer = await post(client, path, auth, body)
            assert status == 403 and answer["why"] == "not your player", (path, number)


def _nested(depth: int) -> bytes:
    return b'{"text": "", "orders": ' + b"[" * depth + b"]" * depth + b"}"


async def test_no_input_is_a_500(world: Any) -> None:
    table, client = world
    member_id = await join_by_mail(table)
    tma = f"tma {init_data(table, 201)}"
    link = sign_link(SECRET, member_id, table.game_id, 1)
    hash_ua = init_data(table, 201).rsplit("hash=", 1)[0] + "hash=%C3%A4"
    # Header values reach aiohttp as text; a byte it cannot read as ASCII
    # arrives as a character past ASCII.
    headers = (
        f"tma {hash_ua}",
        f"tma {init_data(table, 201)}ä",
        "tma user=%7B%7D&auth_date=99999999999999999999&hash=00",
        "tma %ZZ",
        "tma " + "&" * 5000,
        f"link {link[:-1]}ä",
        f"link {link[:-1]}\u0660",
        f"link {link}.1",
        "link \u0661.1.1." + "0" * 32,
        "link " + "9" * 50 + ".1.1." + "0" * 32,
        "link",
        "tma",
        "Bearer x",
    )
    body = {"text": "", "number": 1, "tick": 1, "cell": 104, "height": 1}
    for path in ("/api/page", "/api/check", "/api/options", "/api/targets", "/api/submit"):
        for auth in headers:
            status, answer = await post(client, path, auth, body)
            assert status == 401 and answer["error"] == "unauthorized", (path, auth, status)
    crafted: list[tuple[str, dict[str, Any] | bytes]] = [
        ("/api/check", {"orders": {"players": "x"}}),
        ("/api/check", {"orders": {"players": ["x"]}}),
        ("/api/check", {"orders": {"players": [{"number": 1e999}]}}),
        ("/api/check", {"orders": {"dragons": [[]]}}),
        ("/api/check", _nested(30_000)),
        ("/api/submit", _nested(30_000)),
        ("/api/check", b'{"text": "", "orders": ' + b'{"a":' * 10_000 + b"1" + b"}" * 10_001),
        ("/api/submit", {"text": {"a": 1}}),
        ("/api/submit", {}),
        ("/api/submit", b"[1]"),
        ("/api/submit", b"\xff\xfe\x00"),
        ("/api/page", b"not json"),
        ("/api/page", b"1" * 5000),
        *(
            ("/api/options", {"text": "", "number": n, "tick": 1})
            for n in (1e999, -1e999, 1.5, "x", None, True, [1], "1" * 30, 10**30, "١")
        ),
        *(
            ("/api/options", {"text": "", "number": 1, "tick": t})
            for t in (1e999, 10**9, -5, 0, 99)
        ),
        *(
            ("/api/targets", {"text": "", "number": 1, "tick": 1, "cell": c, "height": h})
            for c, h in ((1e999, 1), (10**9, 1), (-1, 1), (0, 1), (104, 99), (104, -1), (104, None))
        ),
    ]
    for auth in (tma, f"link {link}"):
        for path, data in crafted:
            status, answer = await post(client, path, auth, data)
            assert 400 <= status < 500, (
                path,
                data if isinstance(data, dict) else data[:40],
                status,
            )
            assert isinstance(answer.get("error"), str) and len(json.dumps(answer)) < 600
    # A declared charset nobody knows, a body not the length it says.
    res = await client.post(
        "/api/page",
        data=b"{}",
        headers={"Authorization": tma, "Content-Type": "application/json; charset=nope"},
    )
    assert res.status == 200
    res = await client.post("/api/check", data=b"x" * 100_000, headers={"Authorization": tma})
    assert res.status == 413


async def test_every_answer_carries_the_security_headers(world: Any) -> None:
    table, client = world
    tma = f"tma {init_data(table, 201)}"
    answers = [
        await client.get("/app"),
        *[await client.get(f"/static/{name}") for name in STATIC],
        await client.get("/static/replay.html"),
        await client.get("/static/../server.py"),
        await client.get("/nowhere"),
        await client.get("/replay/DB-1/"),
        await client.get("/replay/DB-x/"),
        await client.post("/api/page", json={}, headers={"Authorization": tma}),
        await client.post("/api/page", json={}),
        await client.post("/api/check", data=b"{", headers={"Authorization": tma}),
        await client.get("/api/page"),
    ]
    for res in answers:
        assert res.status < 500, res.url
        assert res.headers["X-Content-Type-Options"] == "nosniff", res.url
        assert res.headers["Referrer-Policy"] == "no-referrer", res.url
        csp = res.headers["Content-Security-Policy"]
        assert csp.endswith("frame-ancestors https://web.telegram.org"), (res.url, csp)


async def test_the_static_list_is_the_files(world: Any) -> None:
    _, client = world
    files = {f.name for f in resources.files("bot.web").joinpath("static").iterdir() if f.is_file()}
    assert set(STATIC) == files
    for name in STATIC:
        assert (await client.get(f"/static/{name}")).status == 200, name


async def test_a_half_sent_request_is_dropped(sqlite_db: Database) -> None:
    """Neither a head nor a body left unfinished holds a connection past
    ``read_timeout``: the head's connection is closed, the body's answered 408."""
    table = make_table(sqlite_db)
    settings = WebSettings(
        bot_token=TOKEN, link_secret=SECRET, max_age=timedelta(hours=1), read_timeout=0.2
    )
    server = TestServer(build_web_app(table.service, settings))
    await server.start_server(**runner_options(settings))
    try:
        reader, writer = await asyncio.open_connection(server.host, server.port)
        writer.write(b"POST /api/page HTTP/1.1\r\nHost: judge\r\nContent-Le")
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 60) == b""  # closed, no answer
        writer.close()
        reader, writer = await asyncio.open_connection(server.host, server.port)
        writer.write(b'POST /api/page HTTP/1.1\r\nHost: judge\r\nContent-Length: 100\r\n\r\n{"te')
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 60)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
        writer.close()
    finally:
        await server.close()


async def test_no_log_holds_a_link_or_launch_data(world: Any) -> None:
    """The server keeps no access log, and nothing the page's calls log (the
    service's line per message included) holds a link's signature or launch
    data's hash."""
    table, client = world
    member_id = await join_by_mail(table)
    link = sign_link(SECRET, member_id, table.game_id, 1)
    launch = init_data(table, 201)
    settings = WebSettings(bot_token=TOKEN, link_secret=SECRET, max_age=timedelta(hours=1))
    assert runner_options(settings)["access_log"] is None
    with capture_logs() as logs:
        for auth in (f"link {link}", f"tma {launch}"):
            for path in ("/api/page", "/api/check"):
                assert (await post(client, path, auth, {"text": ""}))[0] == 200
            await post(client, "/api/submit", auth, {"text": "Такт 1\nИгрок 3: 104 в1"})
            await post(client, "/api/submit", auth, {"text": "/passphrase secret words"})
    assert any(e["event"] == "message received" for e in logs)
    text = repr(logs)
    assert link.rsplit(".", 1)[1] not in text and launch.rsplit("hash=", 1)[1] not in text
    assert "secret words" not in text
