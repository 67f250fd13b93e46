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
from storage.models import InboundMessage, Member

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
    # The page takes orders only (docs/security.md): the command is refused, and
    # nothing stored holds the phrase.
    assert res.status == 403, answer
    assert stored_anywhere(table.service.db, phrase) == []
    # Were a page's request ever stored, its JSON would keep no phrase either.
    text, raw = stored_form(
        f"/passphrase {phrase}", json.dumps({"text": f"/passphrase {phrase}"}).encode()
    )
    assert text == "/passphrase ********"
    assert json.loads(raw) == {"text": "/passphrase ********"}


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


async def test_a_locked_player_is_told_by_mail_and_in_telegram(table: Table) -> None:
    """The unlock code of the e-mail lock (bot.mail.adapter) reaches the member
    at his registered address and, when he has linked Telegram, there too, in
    his own language."""
    invited = await table.say(GM, "/invite player left 3 petrov@x.example")
    assert (await table.mail("petrov@x.example", f"/start {invited.data['code']}")).status == "ok"
    mail_only = await table.service.member_by_email("petrov@x.example")
    assert mail_only is not None
    ids = await table.service.tell_member(
        mail_only.id, "mail_locked", "subject_mail_lock", failures=3, minutes=60, code="AB2C-D3EF"
    )
    (row,) = table.outbox(id=ids[0])
    assert (row.channel, row.destination, row.subject) == (
        "email", "petrov@x.example", "Письма с вашего адреса",
    )  # fmt: skip
    assert "AB2C-D3EF" in row.text and "60 мин" in row.text
    # Member 201 plays in Telegram and reads English; an address of his own as well.
    assert (await table.say(201, "/lang en")).status == "ok"
    both = await table.service.member_by_telegram(201)
    assert both is not None
    with table.service.db.transaction() as s:
        member = s.get(Member, both.id)
        assert member is not None
        member.email = "c.left@team.example"
        s.add(member)
    ids = await table.service.tell_member(both.id, "mail_unlocked", "subject_mail_lock")
    rows = [table.outbox(id=i)[0] for i in ids]
    assert {(r.channel, r.destination) for r in rows} == {
        ("email", "c.left@team.example"), ("telegram", "201"),
    }  # fmt: skip
    assert all(r.text.startswith("Code accepted") for r in rows)
