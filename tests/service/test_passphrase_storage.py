"""A pass phrase is never stored, whichever way it came (issue 33): a
``/passphrase`` command typed in Telegram, sent from the ordering page (the
request's JSON is the stored raw body) or written in a mail; every column of
every table is searched for it afterwards."""

from __future__ import annotations

import json
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from support.service_table import GM, Table
from support.stored_secrets import stored_anywhere

from bot.masking import stored_form
from bot.service import Inbound
from bot.web.auth import sign_init_data
from bot.web.server import WebSettings, build_web_app
from storage.models import InboundMessage

TOKEN = "123456:TEST-TOKEN"


def _init_data(table: Table, user: int) -> str:
    fields = {
        "user": json.dumps({"id": user, "first_name": "P", "language_code": "ru"}),
        "auth_date": str(int(table.clock.now().timestamp())),
        "query_id": "AAE",
    }
    return sign_init_data(fields, TOKEN)


def _row(table: Table, external_id: str) -> InboundMessage:
    (row,) = table.rows(InboundMessage, InboundMessage.external_id == external_id)
    assert isinstance(row, InboundMessage)
    return row


async def test_a_phrase_sent_from_the_page_is_masked_in_the_raw_body(table: Table) -> None:
    phrase = "жёлтый мяч за драконом"
    settings = WebSettings(bot_token=TOKEN, link_secret=b"secret", max_age=timedelta(hours=1))
    async with TestClient(TestServer(build_web_app(table.service, settings))) as client:
        res = await client.post(
            "/api/submit", json={"text": f"/passphrase {phrase}"},
            headers={"Authorization": f"tma {_init_data(table, 201)}"},
        )  # fmt: skip
        answer: Any = await res.json()
    assert res.status == 200 and answer["status"] == "ok", answer
    info = await table.service.member_by_telegram(201)
    assert info is not None and info.has_passphrase
    (row,) = [r for r in table.rows(InboundMessage) if r.external_id.startswith("web:")]
    assert row.text == "/passphrase ********"
    assert json.loads(row.raw) == {"text": "/passphrase ********"}
    assert stored_anywhere(table.service.db, phrase) == []


async def test_a_phrase_in_a_telegram_update_is_masked_everywhere_in_it(table: Table) -> None:
    phrase = "синий кит под мостом"
    update = {
        "update_id": 5,
        "message": {
            "message_id": 7, "chat": {"id": 201, "type": "private"}, "from": {"id": 201},
            "text": f"/passphrase {phrase}",
            # A reply to his own earlier command quotes it: masked as well.
            "reply_to_message": {"message_id": 6, "text": "/пароль старый дракон над полем"},
        },
    }  # fmt: skip
    reply = await table.service.receive(
        Inbound(
            channel="telegram", external_id="201:pw", sender="201", text=f"/passphrase {phrase}",
            raw=json.dumps(update).encode(), received_at=table.clock.now(), chat="201",
        )
    )  # fmt: skip
    assert reply.status == "ok", reply.text
    row = _row(table, "201:pw")
    stored = json.loads(row.raw)["message"]
    assert stored["text"] == "/passphrase ********"
    assert stored["reply_to_message"]["text"] == "/пароль ********"
    for secret in (phrase, "старый дракон над полем"):
        assert stored_anywhere(table.service.db, secret) == []


async def test_a_phrase_command_in_a_mail_body_is_masked_in_the_raw_mail(table: Table) -> None:
    phrase = "красная шапка на поле"
    invited = await table.say(GM, "/invite player left 3 petrov@x.example")
    assert (await table.mail("petrov@x.example", f"/start {invited.data['code']}")).status == "ok"
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "petrov@x.example", "judge@x.example", "пароль"
    mail["Message-ID"] = "<pw@x.example>"
    mail.set_content(f"/passphrase {phrase}\n", cte="8bit")
    reply = await table.service.receive(
        Inbound(
            channel="email", external_id="<pw@x.example>", sender="petrov@x.example",
            text=f"/passphrase {phrase}", raw=bytes(mail), received_at=table.clock.now(),
        )
    )  # fmt: skip
    assert reply.status == "ok", reply.text
    assert await table.service.check_passphrase("petrov@x.example", phrase)
    assert _row(table, "<pw@x.example>").text == "/passphrase ********"
    assert stored_anywhere(table.service.db, phrase) == []


def test_the_stored_form_of_anything_else_is_what_came() -> None:
    raw = json.dumps({"text": "Иванов: 57 в2"}).encode()
    assert stored_form("Иванов: 57 в2", raw) == ("Иванов: 57 в2", raw)
    # A raw body nothing can mask in place is replaced by the masked text.
    deep = b"[" * 5000 + b"]" * 5000
    text, kept = stored_form("/passphrase очень тайная фраза", deep)
    assert text == "/passphrase ********" and b"********" in kept and b"[[[" not in kept
