"""End-to-end harness of the e-mail channel: the real game service on SQLite,
the IMAP loop on a real Dovecot mailbox, the outbox worker sending through a
capturing SMTP server. Used by the e-mail tests and ``benchmarks/email_bench.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

from bot.mail.adapter import MailAdapter, MailPolicy
from bot.mail.imap import FetchedMail, ImapInbound
from bot.mail.smtp import EmailChannel
from bot.service import OutboxWorker, Reply
from storage.db import Database
from support.mailservers import Captured, CaptureSmtp, Dovecot, MailUser
from support.service_table import GM, Table, make_table, set_up_game

__all__ = ["PETYA", "PHRASE", "MailJudge", "invite", "mail_judge", "parse", "until"]

PETYA = "petya@example.ru"
PHRASE = "зелёный дракон"


async def until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached in time")
        await asyncio.sleep(0.005)


def parse(captured: Captured) -> EmailMessage:
    msg = message_from_bytes(captured.data, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


@dataclass
class MailJudge:
    table: Table
    dovecot: Dovecot
    mailbox: MailUser
    smtp: CaptureSmtp
    adapter: MailAdapter
    inbound: ImapInbound
    worker: OutboxWorker
    replies: list[Reply] = field(default_factory=list)

    async def post(self, raw: bytes, handled: int = 1) -> list[Reply]:
        """Deliver ``raw`` to the judge's mailbox; wait until the adapter handled it."""
        before = len(self.replies)
        self.dovecot.deliver(self.mailbox, raw, at=self.table.clock.now())
        await until(lambda: len(self.replies) >= before + handled)
        return self.replies[before:]

    async def flush(self) -> list[Captured]:
        """Send what the outbox holds now; returns everything the SMTP server got so far."""
        await self.worker.drain("email")
        return self.smtp.messages


@asynccontextmanager
async def mail_judge(
    db: Database,
    dovecot: Dovecot,
    smtp: CaptureSmtp,
    *,
    imap_port: int | None = None,
    policy: MailPolicy | None = None,
    pictures: bool = False,
    passphrase_mail: str = "masked",
) -> AsyncIterator[MailJudge]:
    """A running judge with a started game (teams by Telegram) and an empty mailbox;
    ``pictures``: its reports come with the diagrams; ``passphrase_mail``: the
    ``[imap]`` setting of that name."""
    table = make_table(db, pictures=pictures)
    await set_up_game(table)
    mailbox = dovecot.new_user()
    adapter = MailAdapter(table.service, policy, now=table.clock.now)
    channel = EmailChannel(smtp.smtp_config(), now=table.clock.now)
    worker = OutboxWorker(table.service, {"email": channel}, table.clock)
    replies: list[Reply] = []

    async def sink(mail: FetchedMail) -> None:
        replies.append(await adapter.handle(mail))

    config = dovecot.imap_config(mailbox, port=imap_port, passphrase_mail=passphrase_mail)
    inbound = ImapInbound(config, sink, backoff_initial=0.05, kept=adapter.kept_copy)
    judge = MailJudge(table, dovecot, mailbox, smtp, adapter, inbound, worker, replies)
    task = asyncio.create_task(judge.inbound.run())
    try:
        await until(lambda: judge.inbound.connections >= 1)
        yield judge
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
        await channel.close()


async def invite(judge: MailJudge, side: str = "right", number: int = 2) -> str:
    """A game master's invitation code for a player (the GM writes by Telegram)."""
    reply = await judge.table.say(GM, f"/invite player {side} {number}")
    assert reply.status == "ok", reply.text
    return str(reply.data["code"])
