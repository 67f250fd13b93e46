"""Pass phrases by mail, through a real Dovecot (issue 33): none stays readable
in the database or in the mailbox after the judge has read it, and guessing is
slowed — the failure limit is looked at before the phrase is checked, only wrong
phrases count (not the joining mail), the address is locked after the limit
with the game masters told once, and the player unlocks it with a code."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from mail_samples import raw_mail
from sqlmodel import col
from structlog.testing import capture_logs
from support.mail_judge import PETYA, PHRASE, MailJudge, invite, mail_judge, parse, until
from support.mailservers import CaptureSmtp, Dovecot
from support.service_table import orders_text
from support.stored_secrets import stored_anywhere

from bot.mailtext.redact import leaks
from storage.db import Database
from storage.models import InboundMessage, OrderRow

pytestmark = pytest.mark.mailserver

SENDER = f"Петя <{PETYA}>"
NEW = "синий дракон под мостом"
SECRETS = (PHRASE, NEW, "красный дракон у ворот", "чужой пароль наугад")


async def _join(judge: MailJudge) -> None:
    """Petya (right, number 2) joins by mail with his first pass phrase."""
    code = await invite(judge)
    replies = await judge.post(
        raw_mail(f"/start {code}\nпароль: {PHRASE}\n", sender=SENDER, message_id="<join@x>")
    )
    assert [r.status for r in replies] == ["ok"]
    assert len(await judge.flush()) == 2  # welcome, pass phrase saved
    judge.smtp.clear()


@pytest.fixture(params=["masked", "deleted"])
async def judge(
    request: pytest.FixtureRequest, db: Database, dovecot: Dovecot, smtp_server: CaptureSmtp
) -> AsyncIterator[MailJudge]:
    async with mail_judge(db, dovecot, smtp_server, passphrase_mail=request.param) as running:
        await _join(running)
        yield running


def _mail(judge: MailJudge, body: str, n: int, **kwargs: object) -> bytes:
    kwargs.setdefault("subject", f"[DB-{judge.table.game_id}] приказы")
    kwargs.setdefault("sender", SENDER)
    return raw_mail(body, message_id=f"<m{n}@example.ru>", **kwargs)  # type: ignore[arg-type]


def _orders(judge: MailJudge) -> str:
    return orders_text(judge.table.state(), "right", [2])


def _filed(judge: MailJudge) -> int:
    return len(judge.table.rows(OrderRow, col(OrderRow.current).is_(True)))


def _texts(judge: MailJudge) -> list[str]:
    out = []
    for sent in judge.smtp.messages:
        body = parse(sent).get_body(preferencelist=("plain",))
        assert body is not None
        out.append(str(body.get_content()))
    return out


async def test_no_pass_phrase_stays_readable_in_the_database_or_the_mailbox(
    judge: MailJudge,
) -> None:
    orders = _orders(judge)
    mails = [
        _mail(judge, f"пароль: {PHRASE}\n{orders}", 1, cte="base64"),  # a line, base64
        _mail(judge, orders, 2, subject=f"[DB-{judge.table.game_id}] pw: {PHRASE}"),
        _mail(judge, f"пароль: {PHRASE}\nновый пароль: {NEW}", 3, cte="quoted-printable"),
        _mail(judge, f"пароль: {NEW}\n/passphrase {PHRASE}", 4),  # the command in a mail
        _mail(judge, f"пароль: красный дракон у ворот\n{orders}", 5),  # a wrong guess
        _mail(judge, f"пароль: чужой пароль наугад\n\n> пароль: {PHRASE}", 6),  # quoted
        _mail(judge, "/status", 7),  # no phrase at all: kept as it came
    ]
    statuses = [(await judge.post(raw))[0].status for raw in mails]
    assert statuses[:4] == ["ok"] * 4 and statuses[4:6] == ["refused"] * 2, statuses
    assert stored_anywhere(judge.table.service.db, PHRASE) == []
    for secret in SECRETS:
        assert stored_anywhere(judge.table.service.db, secret) == [], secret
    await until(lambda: not judge.mailbox.files("INBOX"))  # all moved, replaced or deleted
    kept = judge.mailbox.files("Processed")
    # The join mail and mails 1-6 held a phrase; only /status was kept unchanged.
    assert [p for p in kept if leaks(p.read_bytes(), SECRETS)] == []
    if judge.inbound._config.passphrase_mail == "masked":
        assert len(kept) == len(mails) + 1
        assert any(b"********" in p.read_bytes() for p in kept)
    else:
        (left,) = kept
        assert b"/status" in left.read_bytes()


async def test_wrong_phrases_lock_the_address_until_the_player_unlocks_it(
    judge: MailJudge,
) -> None:
    with capture_logs() as logs:
        code = await _locked_and_unlocked(judge)
    # Nothing logged at any level holds a phrase, a guess or the unlock code.
    assert sum(e["event"] == "mail received" for e in logs) == 8  # the log was read
    logged = repr(logs)
    assert not any(secret in logged for secret in (PHRASE, "неверная фраза", code))


async def _locked_and_unlocked(judge: MailJudge) -> str:
    """Petya's address locked by three wrong phrases, then unlocked; returns the code."""
    orders = _orders(judge)
    right = f"пароль: {PHRASE}\n{orders}"
    # The joining mail is no failure: three wrong phrases, three answered refusals.
    for n in range(3):
        (reply,) = await judge.post(_mail(judge, f"пароль: неверная фраза {n}\n{orders}", n))
        assert reply.status == "refused"
    await judge.flush()
    texts = _texts(judge)
    assert len(texts) == 4 and all(m.rcpt_tos == (PETYA,) for m in judge.smtp.messages)
    assert all("неверный" in t for t in texts[:3])
    (code,) = re.findall(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}\b", texts[3])
    alerts = judge.table.outbox(kind="gm_alert")
    assert len(alerts) == 1 and PETYA in alerts[0].text
    # Locked: the right phrase is refused unread, unanswered; the game masters
    # are not told again, however many follow.
    for n in range(10, 13):
        (reply,) = await judge.post(_mail(judge, right, n))
        assert reply.status == "ignored"
    assert _filed(judge) == 0 and len(judge.table.outbox(kind="gm_alert")) == 1
    judge.smtp.clear()
    assert await judge.flush() == []
    # He answers the notice with its code: unlocked, told so, and heard again.
    subject = "Re: [DB-1] Письма с вашего адреса"
    (reply,) = await judge.post(_mail(judge, f"{code}\n", 20, subject=subject))
    (row,) = judge.table.rows(InboundMessage, InboundMessage.external_id == "<m20@example.ru>")
    assert (row.status, row.meta["auth"]) == ("ignored", "unlocked")
    await judge.flush()
    assert "Код принят" in _texts(judge)[-1]
    (reply,) = await judge.post(_mail(judge, right, 21))
    assert reply.status == "ok" and _filed(judge) == 3
    return str(code)
