"""The ordering page's API: Telegram's signed initData on every call (a
forged or stale one is 401), only the caller's own team's orders in any
answer, drafts checked by the judge's own parser and legality code, and a
submitted draft stored and acknowledged like a typed message."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from support.service_table import GM, Table, make_table, set_up_game

from bot.web.auth import sign_init_data, sign_link
from bot.web.server import WebSettings, build_web_app
from storage.db import Database

TOKEN = "123456:TEST-TOKEN"
SECRET = b"link secret of the tests"


def init_data(table: Table, user: int, *, token: str = TOKEN, age: float = 0) -> str:
    signed = int((table.clock.now() - timedelta(seconds=age)).timestamp())
    fields = {
        "user": json.dumps({"id": user, "first_name": "P", "language_code": "ru"}),
        "auth_date": str(signed),
        "query_id": "AAE",
    }
    return sign_init_data(fields, token)


@pytest.fixture
async def world(sqlite_db: Database) -> AsyncIterator[tuple[Table, TestClient[Any, Any]]]:
    table = make_table(sqlite_db)
    await set_up_game(table)
    settings = WebSettings(bot_token=TOKEN, link_secret=SECRET, max_age=timedelta(hours=1))
    async with TestClient(TestServer(build_web_app(table.service, settings))) as client:
        yield table, client


async def post(client: TestClient[Any, Any], path: str, auth: str, body: dict[str, Any]) -> Any:
    res = await client.post(path, json=body, headers={"Authorization": auth})
    return res.status, await res.json()


ENDPOINTS = ("/api/page", "/api/check", "/api/options", "/api/targets", "/api/submit")


async def test_forged_stale_or_missing_init_data_is_401(world: Any) -> None:
    table, client = world
    body = {"text": "", "number": 1, "tick": 1, "cell": 36, "height": 2}
    forged = init_data(table, 201, token="999:OTHER")
    stale = init_data(table, 201, age=2 * 3600)
    tampered = init_data(table, 201).replace("201", "301")
    for path in ENDPOINTS:
        for auth in (f"tma {forged}", f"tma {stale}", f"tma {tampered}", "", "link 1.1.1.bad"):
            status, _ = await post(client, path, auth, body)
            assert status == 401, (path, auth)


async def test_only_the_callers_team_and_public_information(world: Any) -> None:
    table, client = world
    state = table.state()
    right = next(p for p in state.team_players("right") if p.cell == 108)
    secret_line = f"{right.name}: 107 в1, ловить"
    assert (await table.say(301, f"Такт 1\n{secret_line}")).status == "ok"
    auth = f"tma {init_data(table, 201)}"
    left = next(p for p in state.team_players("left") if p.cell == 104)
    answers = []
    status, page = await post(client, "/api/page", auth, {})
    assert status == 200 and page["side"] == "left" and page["svg"].startswith("<svg")
    answers.append(page)
    for path, body in (
        ("/api/check", {"text": ""}),
        ("/api/options", {"text": "", "number": left.number, "tick": 1}),
        ("/api/targets", {"text": "", "number": left.number, "tick": 1, "cell": 105, "height": 2}),
    ):
        status, answer = await post(client, path, auth, body)
        assert status == 200, answer
        answers.append(answer)
    for answer in answers:
        text = json.dumps(answer, ensure_ascii=False)
        assert (
            "107 в1" not in text
            and f'"side": "right", "number": {right.number}, "tick"' not in text
        )
        assert "enchanted_by" not in text and "vanished" not in text
    # The other team's player cannot be ordered from this seat.
    status, _ = await post(client, "/api/options", auth, {"text": "", "number": 99, "tick": 1})
    assert status == 403


async def test_legal_cells_and_a_submitted_draft(world: Any) -> None:
    table, client = world
    state = table.state()
    left = next(p for p in state.team_players("left") if p.cell == 104)
    auth = f"tma {init_data(table, 201)}"
    status, opts = await post(
        client, "/api/options", auth, {"text": "", "number": left.number, "tick": 1}
    )
    cells = {m["cell"] for m in opts["moves"]}
    assert status == 200 and 105 in cells and 104 in cells and 106 not in cells
    draft = {"players": [
        {"side": "left", "number": left.number, "tick": 1, "cell": 105, "height": 2, "action": None}
    ]}  # fmt: skip
    status, checked = await post(client, "/api/check", auth, {"orders": draft})
    assert status == 200 and checked["ok"] and "105 в2" in checked["text"]
    status, sent = await post(client, "/api/submit", auth, {"text": checked["text"]})
    assert status == 200 and sent["status"] == "ok", sent
    acks = table.outbox(destination="201", kind="ack")
    assert acks and "105 в2" in acks[-1].text


async def test_a_crafted_clear_is_a_bad_request(world: Any) -> None:
    """A ``clears`` entry that is not ``{number, tick}`` is refused as a bad
    request, like any other malformed call (a number or a string was a 500)."""
    table, client = world
    auth = f"tma {init_data(table, 201)}"
    for clears in ([1], ["т1"], [None], [[1, 1]], [{"number": 1}], [{"number": "x", "tick": 1}]):
        status, answer = await post(client, "/api/check", auth, {"orders": {}, "clears": clears})
        assert (status, answer["error"]) == (400, "bad request"), clears
    status, answer = await post(
        client, "/api/check", auth, {"orders": {}, "clears": [{"number": None, "tick": 1}]}
    )
    assert status == 200 and answer["text"].startswith("Дракон т1: отмена"), answer


async def test_a_personal_link_for_a_member_without_mail_is_refused(world: Any) -> None:
    """A link opens the page of a member who plays by mail; one signed for a
    Telegram member (no address) is refused."""
    table, client = world
    with table.db.transaction() as s:
        from storage import repo

        member = repo.member_by_telegram(s, 202)
        assert member is not None and member.id is not None
        member_id = member.id
    link = sign_link(SECRET, member_id, table.game_id, 1)
    status, _ = await post(client, "/api/page", f"link {link}", {})
    assert status == 403


async def test_round_open_offers_the_page_in_private_chats_only(sqlite_db: Database) -> None:
    table = make_table(sqlite_db, web_url="https://judge.example", web_link_secret=SECRET)
    await set_up_game(table)
    opened = table.outbox(kind="round_open")
    private = [r for r in opened if r.destination in ("201", "202", "301")]
    assert private and all(
        r.buttons == [["Приказы на поле", "webapp:https://judge.example/app"]] for r in private
    )
    assert all(r.buttons == [] for r in opened if r not in private)


async def test_an_email_player_gets_a_personal_link_that_opens_the_page(
    sqlite_db: Database,
) -> None:
    """The round-open mail's link is in the address's fragment, signed when the
    mail is handed to the channel: the outbox keeps a placeholder, no signature."""
    table = make_table(sqlite_db, web_url="https://judge.example", web_link_secret=SECRET)
    await set_up_game(table)
    invited = await table.say(GM, "/invite player left 3")
    assert invited.status == "ok", invited.text
    joined = await table.mail("p3@mail.example", f"/start {invited.data['code']}")
    assert joined.status == "ok", joined.text
    assert (await table.say(GM, "/resolve")).status == "ok"
    rows = table.outbox(kind="round_open", destination="p3@mail.example")
    assert rows, table.outbox(destination="p3@mail.example")
    assert f"https://judge.example/app#link=[link:{table.game_id}.2]" in rows[-1].text
    items = [
        item
        for item in await table.service.pending_outbox("email", 100)
        if item.kind == "round_open" and item.destination == "p3@mail.example"
    ]
    assert "?link=" not in items[-1].text
    link = items[-1].text.split("https://judge.example/app#link=", 1)[1].split()[0]
    # The signature is in no stored message.
    assert all(link.rsplit(".", 1)[1] not in r.text for r in table.outbox())
    settings = WebSettings(bot_token=TOKEN, link_secret=SECRET, max_age=timedelta(hours=1))
    async with TestClient(TestServer(build_web_app(table.service, settings))) as client:
        status, page = await post(client, "/api/page", f"link {link}", {})
        assert status == 200, page
        assert page["side"] == "left" and page["numbers"] == [3] and page["round"] == 2
        status, _ = await post(client, "/api/page", f"link {link[:-1]}x", {})
        assert status == 401


async def test_a_placeholder_typed_into_a_message_is_not_signed(sqlite_db: Database) -> None:
    """Only a round-open mail has its placeholder filled: a player who makes the
    judge echo one (a line of his orders quoted back) gets no signed link."""
    table = make_table(sqlite_db, web_url="https://judge.example", web_link_secret=SECRET)
    await set_up_game(table)
    invited = await table.say(GM, "/invite player left 3")
    assert (await table.mail("p3@mail.example", f"/start {invited.data['code']}")).status == "ok"
    hole = f"https://judge.example/app#link=[link:{table.game_id}.1]"
    await table.mail("p3@mail.example", f"Такт 1\nИгрок 3: {hole}")
    items = await table.service.pending_outbox("email", 100)
    echoed = [i for i in items if i.kind != "round_open" and "#link=" in i.text]
    assert echoed and all(f"#link=[link:{table.game_id}.1]" in i.text for i in echoed)
    assert not any(re.search(r"#link=[0-9]+\.", i.text) for i in items)
