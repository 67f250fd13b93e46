"""Mail faults with real parts: Dovecot restarted under the judge, SMTP refusals
mid-session, a connection cut in the middle of a large batch.

The judge here is the real one (``support.mail_judge``: the game service on
SQLite, the IMAP loop, the outbox worker); each test checks what was stored
(once), what was answered (once), and what is left on the server.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import suppress
from datetime import UTC, datetime

import pytest
from mail_samples import raw_mail
from support.mail_judge import PETYA, PHRASE, MailJudge, invite, mail_judge, parse, until
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot
from support.service_table import orders_text

from bot.mail.imap import FetchedMail, ImapInbound
from bot.service import Reply
from storage.db import Database
from storage.models import InboundMessage

pytestmark = pytest.mark.mailserver

SENDER = f"Петя <{PETYA}>"


@pytest.fixture
def own_dovecot() -> Iterator[Dovecot]:
    """A Dovecot of this test alone: it is stopped and started under the judge."""
    server = Dovecot(users=2)
    try:
        server.start()
        yield server
    finally:
        server.stop()


async def _register(judge: MailJudge) -> None:
    """Petya joins by e-mail with his first pass phrase (two answers)."""
    code = await invite(judge)
    body = f"/start {code}\nпароль: {PHRASE}\n"
    replies = await judge.post(raw_mail(body, sender=SENDER, message_id="<join@example.ru>"))
    assert [r.status for r in replies] == ["ok"]
    assert len(await judge.flush()) == 2
    judge.smtp.clear()


@pytest.fixture
async def judge(
    db: Database, own_dovecot: Dovecot, smtp_server: CaptureSmtp
) -> AsyncIterator[MailJudge]:
    async with mail_judge(db, own_dovecot, smtp_server) as running:
        await _register(running)
        yield running


def _orders_mail(judge: MailJudge, n: int, *, message_id: bool = True) -> bytes:
    orders = orders_text(judge.table.state(), "right", [2], ticks=(1, 2, 3))
    body = f"пароль: {PHRASE}\n{orders}\n"
    subject = f"[DB-{judge.table.game_id}] приказы {n}"
    mid = f"<fault-{n}@example.ru>" if message_id else None
    headers = {"X-Fault": str(n)}
    return raw_mail(body, sender=SENDER, subject=subject, message_id=mid, headers=headers)


def _stored(judge: MailJudge) -> list[InboundMessage]:
    rows = judge.table.rows(InboundMessage, InboundMessage.channel == "email")
    return [row for row in rows if isinstance(row, InboundMessage)]


def _answered_subjects(judge: MailJudge) -> list[str]:
    return sorted(str(parse(m)["Subject"]) for m in judge.smtp.messages)


def _halt_after_storing(judge: MailJudge, marker: bytes, validities: list[int]) -> asyncio.Event:
    """Stop Dovecot once the mail containing ``marker`` is stored, before the loop
    marks it processed; the returned event is set when Dovecot is down. The
    UIDVALIDITY of every mail handed over goes to ``validities``."""
    halted = asyncio.Event()
    handle = judge.adapter.handle

    async def handle_then_halt(mail: FetchedMail) -> Reply:
        validities.append(mail.uidvalidity)
        reply = await handle(mail)
        if marker in mail.raw and not halted.is_set():
            await asyncio.to_thread(judge.dovecot.halt)
            halted.set()
        return reply

    judge.adapter.handle = handle_then_halt  # type: ignore[method-assign]
    return halted


@pytest.mark.parametrize("uidvalidity", ["kept", "changed"])
async def test_dovecot_restarted_under_the_judge_loses_nothing_and_answers_once(
    judge: MailJudge, uidvalidity: str
) -> None:
    dovecot, mailbox, inbound = judge.dovecot, judge.mailbox, judge.inbound
    first = _orders_mail(judge, 1)
    await judge.post(first)
    # Mail 2 has no Message-ID: when UIDVALIDITY changes its UID says nothing any more.
    validities: list[int] = []
    halted = _halt_after_storing(judge, b"X-Fault: 2\r\n", validities)
    dovecot.deliver(mailbox, _orders_mail(judge, 2, message_id=False), at=judge.table.clock.now())
    await asyncio.wait_for(halted.wait(), 60)
    errors = inbound.errors
    await until(lambda: inbound.errors >= errors + 2, timeout=60)  # it tried again, and again
    assert inbound.connections == 1
    if uidvalidity == "changed":
        dovecot.new_uidvalidity(mailbox)
    await asyncio.to_thread(dovecot.resume)
    await until(lambda: inbound.connections == 2, timeout=60)
    await judge.post(_orders_mail(judge, 3))
    await until(lambda: not mailbox.files("INBOX"), timeout=60)

    stored = _stored(judge)
    subjects = sorted(
        row.subject or "" for row in stored if not row.external_id.startswith("<join@")
    )
    assert subjects == [f"[DB-{judge.table.game_id}] приказы {n}" for n in (1, 2, 3)]  # each once
    # Mail 2 was handed over again after the restart, and recognised.
    statuses = [reply.status for reply in judge.replies[1:]]
    assert statuses == ["ok", "ok", "duplicate", "ok"]
    await judge.flush()
    assert _answered_subjects(judge) == [
        f"Re: [DB-{judge.table.game_id}] приказы {n}" for n in (1, 2, 3)
    ]
    assert len(mailbox.files("Processed")) == 4  # the join mail and the three
    assert len(validities) == 3  # mail 2 before and after the restart, mail 3
    assert (validities[0] != validities[1]) is (uidvalidity == "changed")


@pytest.mark.parametrize(
    ("reply", "hang_up"),
    [("421 4.3.2 Service shutting down", True), ("451 4.3.0 Temporary failure", False)],
)
async def test_answer_refused_for_now_by_smtp_is_delivered_once_later(
    judge: MailJudge, reply: str, hang_up: bool
) -> None:
    await judge.post(_orders_mail(judge, 1))
    judge.smtp.refuse_next(1, reply, hang_up=hang_up)
    assert await judge.flush() == []
    (ack,) = judge.table.outbox(reply_ref="<fault-1@example.ru>")
    assert (ack.state, ack.attempts) == ("pending", 1)
    assert reply[:3] in (ack.last_error or "")
    await judge.table.clock.advance(60)  # past the outbox's first backoff (30 s)
    (sent,) = await judge.flush()
    assert sent.rcpt_tos == (PETYA,)
    assert parse(sent)["In-Reply-To"] == "<fault-1@example.ru>"
    await judge.table.clock.advance(3600)
    assert len(await judge.flush()) == 1  # and never again
    assert judge.table.outbox(reply_ref="<fault-1@example.ru>")[0].state == "sent"


async def test_answer_refused_for_good_is_reported_to_the_game_masters(judge: MailJudge) -> None:
    judge.smtp.refuse_recipient(PETYA, "550 5.1.1 Mailbox unavailable")
    await judge.post(_orders_mail(judge, 1))
    assert await judge.flush() == []
    (ack,) = judge.table.outbox(reply_ref="<fault-1@example.ru>")
    assert (ack.state, ack.attempts) == ("failed", 1)  # given up at once: never retried
    # The game's master hears of it (by Telegram, where he plays).
    (alert,) = judge.table.outbox(kind="gm_alert")
    assert (alert.channel, alert.destination) == ("telegram", "100")
    assert PETYA in alert.text and "550" in alert.text
    await judge.table.clock.advance(3600)
    assert await judge.flush() == []
    assert judge.smtp.attempts == 0  # refused at RCPT: no DATA ever


async def test_connection_cut_in_the_middle_of_a_large_batch_resumes_and_loses_none(
    dovecot: Dovecot, cutting_proxy: CuttingProxy
) -> None:
    mailbox = dovecot.new_user()
    count = 60
    padding = "Ловец летит над полем. " * 600  # about 25 KB each: a batch is 250 KB
    raws = [
        raw_mail(f"#{n}\n{padding}\n", message_id=f"<batch-{n}@example.ru>") for n in range(count)
    ]
    dovecot.append_many(mailbox, raws, at=datetime.now(UTC))
    # Into the 25th body: the third batch of ten is cut short, two went through.
    cutting_proxy.cut_next_fetch(after_bytes=5_000, bodies_first=24)
    handed: list[int] = []

    async def sink(mail: FetchedMail) -> None:
        handed.append(int(mail.raw.split(b"\r\n\r\n", 1)[1].split(b"\r\n", 1)[0][1:]))

    config = dovecot.imap_config(mailbox, port=cutting_proxy.port)
    inbound = ImapInbound(config, sink, batch_size=10, backoff_initial=0.05)
    task = asyncio.create_task(inbound.run())
    try:
        # Moved: copied to Processed first, then expunged from the INBOX.
        done = lambda: len(mailbox.files("Processed")) == count and not mailbox.files("INBOX")  # noqa: E731
        await until(done, timeout=120)
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
    assert cutting_proxy.cuts == 1
    assert (inbound.errors, inbound.connections) == (1, 2)
    assert handed == list(range(count))  # each once, in order: none lost, none twice
