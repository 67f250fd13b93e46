"""Playing by e-mail, end to end: player's mail → Dovecot → IMAP loop → adapter →
the real game service on SQLite → outbox → SMTP server. Each test checks what was
stored, which orders are on file, and what was (or was not) sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from mail_samples import raw_mail
from sqlmodel import col
from support.mail_judge import PETYA, PHRASE, MailJudge, invite, mail_judge, parse, until
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot
from support.service_table import orders_text

from bot.mailtext.redact import leaks, redact_raw
from storage.db import Database
from storage.models import InboundMessage, OrderRow

pytestmark = pytest.mark.mailserver

SENDER = f"Петя <{PETYA}>"


async def _registered(judge: MailJudge) -> None:
    """Petya (right, number 2) joins by e-mail with his first pass phrase."""
    code = await invite(judge)
    body = f"/start {code}\nпароль: {PHRASE}\n"
    replies = await judge.post(raw_mail(body, sender=SENDER, message_id="<join@example.ru>"))
    assert [r.status for r in replies] == ["ok"]
    sent = await judge.flush()
    texts = [parse(m).get_body(preferencelist=("plain",)).get_content() for m in sent]  # type: ignore[union-attr]
    assert len(sent) == 2 and all(m.rcpt_tos == (PETYA,) for m in sent)
    assert "Добро пожаловать" in texts[0] and "Пароль для писем сохранён" in texts[1]
    assert PHRASE not in "".join(texts)  # never echoed back
    judge.smtp.clear()


@pytest.fixture
async def judge(
    db: Database, dovecot: Dovecot, smtp_server: CaptureSmtp
) -> AsyncIterator[MailJudge]:
    async with mail_judge(db, dovecot, smtp_server) as running:
        await _registered(running)
        yield running


def _mail(judge: MailJudge, body: str, message_id: str, **kwargs: object) -> bytes:
    """A message from Petya about the running game (its tag in the subject)."""
    kwargs.setdefault("sender", SENDER)
    subject = f"[DB-{judge.table.game_id}] приказы"
    return raw_mail(body, subject=subject, message_id=message_id, **kwargs)  # type: ignore[arg-type]


def _orders(judge: MailJudge, ticks: tuple[int, ...] = (1, 2, 3)) -> str:
    return orders_text(judge.table.state(), "right", [2], ticks=ticks)


def _current(judge: MailJudge) -> list[OrderRow]:
    return judge.table.rows(OrderRow, col(OrderRow.current).is_(True), OrderRow.side == "right")


def _inbound(judge: MailJudge, external_id: str) -> InboundMessage:
    (row,) = judge.table.rows(InboundMessage, InboundMessage.external_id == external_id)
    assert isinstance(row, InboundMessage)
    return row


def _text(judge: MailJudge, index: int = -1) -> str:
    body = parse(judge.smtp.messages[index]).get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


async def _accepted(judge: MailJudge, raw: bytes, message_id: str) -> None:
    (reply,) = await judge.post(raw)
    assert reply.status == "ok", reply.text
    row = _inbound(judge, message_id)
    assert (row.status, row.authenticated, row.sender) == ("ok", True, PETYA)
    # Stored as received, except the pass phrase (bot.mailtext.redact); Dovecot adds headers.
    assert row.raw.endswith(redact_raw(raw, [PHRASE]).rstrip(b"\r\n") + b"\r\n")
    assert not leaks(row.raw, [PHRASE])
    orders = _current(judge)
    assert {(o.number, o.tick) for o in orders} == {(2, 1), (2, 2), (2, 3)}
    assert {o.message_id for o in orders} == {row.id}
    (sent,) = await judge.flush()
    ack = parse(sent)
    assert sent.rcpt_tos == (PETYA,)
    assert ack["In-Reply-To"] == message_id
    assert ack["Auto-Submitted"] == "auto-replied"
    assert ack["Subject"].startswith("Re: [DB-")
    assert "приказы приняты" in _text(judge)


async def test_koi8r_plain_message(judge: MailJudge) -> None:
    body = f"пароль: {PHRASE}\n{_orders(judge)}\n-- \nПетя\n"
    raw = _mail(judge, body, "<koi@example.ru>", charset="koi8-r")
    await _accepted(judge, raw, "<koi@example.ru>")


async def test_windows1251_quoted_printable_message(judge: MailJudge) -> None:
    body = f"Пароль: {PHRASE}\n{_orders(judge)}\n"
    raw = _mail(
        judge, body, "<qp@example.ru>", charset="cp1251", label="win-1251", cte="quoted-printable"
    )
    await _accepted(judge, raw, "<qp@example.ru>")


async def test_html_only_message(judge: MailJudge) -> None:
    lines = "".join(f"<div>{line}</div>" for line in _orders(judge).splitlines())
    html = f"<html><body><p>пароль: {PHRASE}</p>{lines}</body></html>"
    raw = _mail(judge, html, "<html@example.ru>", subtype="html", cte="base64")
    await _accepted(judge, raw, "<html@example.ru>")


async def test_reply_quoting_the_acknowledgement_does_not_resubmit(judge: MailJudge) -> None:
    first = _mail(judge, f"пароль: {PHRASE}\n{_orders(judge)}", "<first@example.ru>")
    await _accepted(judge, first, "<first@example.ru>")
    ack = _text(judge)
    first_id = _inbound(judge, "<first@example.ru>").id
    # New orders for tick 1 only, above the quoted acknowledgement (which lists all three).
    quoted = "\n".join(f"> {line}" for line in ack.splitlines())
    body = f"пароль: {PHRASE}\n{_orders(judge, (1,))}\n\nOn Mon, Judge wrote:\n{quoted}\n"
    (reply,) = await judge.post(_mail(judge, body, "<second@example.ru>"))
    assert reply.status == "ok", reply.text
    second = _inbound(judge, "<second@example.ru>")
    assert "Раунд" not in second.text  # the stored text is the new part only
    by_tick = {o.tick: o.message_id for o in _current(judge)}
    assert by_tick == {1: second.id, 2: first_id, 3: first_id}
    # Outlook style, the acknowledgement below the new text without any ">".
    body = f"пароль: {PHRASE}\n\n-----Original Message-----\nFrom: judge\nSent: today\n\n{ack}"
    (reply,) = await judge.post(_mail(judge, body, "<third@example.ru>"))
    assert reply.status == "ignored"  # nothing new to read, and no answer
    assert {o.tick: o.message_id for o in _current(judge)} == by_tick
    assert len(await judge.flush()) == 2


async def test_forged_from_without_pass_phrase(judge: MailJudge) -> None:
    headers = {"Reply-To": "mallory@evil.example"}
    raw = _mail(judge, _orders(judge), "<forged@x>", headers=headers)
    (reply,) = await judge.post(raw)
    assert reply.status == "refused"
    row = _inbound(judge, "<forged@x>")
    assert (row.status, row.authenticated) == ("refused", False)
    assert _current(judge) == []
    (sent,) = await judge.flush()
    assert sent.rcpt_tos == (PETYA,)  # the registered address, never the Reply-To
    assert "Письмо не принято" in _text(judge)
    # A stranger's mail is stored and gets no answer at all.
    stranger = _mail(judge, _orders(judge), "<s@x>", sender="Мэллори <mallory@evil.example>")
    (reply,) = await judge.post(stranger)
    assert _inbound(judge, "<s@x>").status == reply.status == "refused"
    assert len(await judge.flush()) == 1


async def test_auto_reply_is_stored_and_not_answered(judge: MailJudge) -> None:
    headers = {"Auto-Submitted": "auto-replied", "In-Reply-To": "<ack@example.org>"}
    body = f"Я в отпуске до понедельника.\nпароль: {PHRASE}\n{_orders(judge)}"
    raw = _mail(judge, body, "<vacation@example.ru>", headers=headers)
    (reply,) = await judge.post(raw)
    assert reply.status == "ignored"
    assert _inbound(judge, "<vacation@example.ru>").status == "ignored"
    assert _current(judge) == []
    assert await judge.flush() == []


async def test_mail_with_a_malformed_header_is_stored_and_the_next_one_read(
    judge: MailJudge,
) -> None:
    # An 8-bit charset label used to crash the reader before storing: the same
    # mail was fetched again forever and nothing behind it was read.
    bad = b"From: <a@b.c>\r\nSubject: =?\xff?Q?x?=\r\nMessage-ID: <bad@b.c>\r\n\r\nhi\r\n"
    (reply,) = await judge.post(bad)
    assert reply.status == "refused"  # a stranger: stored, not answered
    row = _inbound(judge, "<bad@b.c>")
    assert (row.sender, row.subject, row.text) == ("a@b.c", "x", "hi")
    assert row.raw.endswith(bad)
    raw = _mail(judge, f"пароль: {PHRASE}\n{_orders(judge)}", "<after-bad@example.ru>")
    await _accepted(judge, raw, "<after-bad@example.ru>")
    assert (judge.inbound.errors, judge.inbound.given_up) == (0, 0)


async def test_same_message_delivered_twice(judge: MailJudge) -> None:
    raw = _mail(judge, f"пароль: {PHRASE}\n{_orders(judge)}", "<twice@x>")
    await _accepted(judge, raw, "<twice@x>")
    (reply,) = await judge.post(raw)
    assert reply.status == "duplicate"
    assert len(judge.table.rows(InboundMessage, InboundMessage.external_id == "<twice@x>")) == 1
    assert len(_current(judge)) == 3
    assert len(await judge.flush()) == 1
    # The join mail and both copies end up processed.
    await until(lambda: len(judge.mailbox.files("Processed")) == 3)


async def test_imap_connection_dropped_in_the_middle_of_a_fetch(
    db: Database, dovecot: Dovecot, smtp_server: CaptureSmtp, cutting_proxy: CuttingProxy
) -> None:
    async with mail_judge(db, dovecot, smtp_server, imap_port=cutting_proxy.port) as judge:
        await _registered(judge)
        body = f"пароль: {PHRASE}\n{_orders(judge)}\n-- \n" + "Летим!\n" * 2000  # a long signature
        cutting_proxy.cut_next_fetch(after_bytes=300)
        raw = _mail(judge, body, "<cut@example.ru>", charset="koi8-r")
        (reply,) = await judge.post(raw)
        assert reply.status == "ok"
        assert cutting_proxy.cuts == 1
        assert judge.inbound.errors == 1 and judge.inbound.connections == 2
        mails = judge.table.rows(InboundMessage, InboundMessage.channel == "email")
        assert len(mails) == 3  # join, its pass phrase, this one
        assert len(_current(judge)) == 3
        assert len(await judge.flush()) == 1


async def test_smtp_refusing_the_first_two_attempts(judge: MailJudge) -> None:
    judge.smtp.refuse_next(2)
    raw = _mail(judge, f"пароль: {PHRASE}\n{_orders(judge)}", "<r@x>")
    (reply,) = await judge.post(raw)
    assert reply.status == "ok"
    clock = judge.table.clock
    assert await judge.flush() == []  # 451: kept for later
    assert await judge.flush() == []  # not due again yet
    await clock.advance(timedelta(minutes=1))
    assert await judge.flush() == []  # 451 again
    await clock.advance(timedelta(minutes=5))
    (sent,) = await judge.flush()
    assert parse(sent)["In-Reply-To"] == "<r@x>"
    assert judge.smtp.attempts == 3
    (row,) = judge.table.outbox(channel="email", kind="ack", reply_ref="<r@x>")
    assert (row.state, row.attempts) == ("sent", 3)


async def test_oversized_mails_with_the_right_pass_phrase_are_no_failed_log_in(
    judge: MailJudge,
) -> None:
    # A player who attached photos: four mails over the limit (1 MB), each with
    # the right pass phrase and orders.  The judge reads none of the bodies, so
    # it cannot know the phrase: every one gets the size refusal, at the
    # registered address, and none counts as a failed log-in — no silence after
    # the third, no alert to the game masters.
    photo = "".join(f"{i:08x}" for i in range(160_000))  # ~1.3 MB "attachment"
    for i in range(4):
        body = f"пароль: {PHRASE}\n{_orders(judge)}\n\n{photo}"
        (reply,) = await judge.post(_mail(judge, body, f"<big{i}@example.ru>"))
        assert reply.status == "refused"
        row = _inbound(judge, f"<big{i}@example.ru>")
        assert (row.status, row.text, row.meta["refuse"]) == ("refused", "", "too_large")
    sent = await judge.flush()
    assert len(sent) == 4 and all(m.rcpt_tos == (PETYA,) for m in sent)
    assert all("слишком большое" in _text(judge, i) for i in range(4))
    assert judge.table.outbox(kind="gm_alert") == []
    assert _current(judge) == []
    # And a short mail with the same phrase right after is taken as usual.
    judge.smtp.clear()
    raw = _mail(judge, f"пароль: {PHRASE}\n{_orders(judge)}", "<small@example.ru>")
    await _accepted(judge, raw, "<small@example.ru>")
