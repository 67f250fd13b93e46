"""A judge's first start on a mailbox that already holds a backlog of mail.

Shared by ``tests/mail/test_mail_backlog.py`` and ``benchmarks/mail_backlog_bench.py``:
the real game service on SQLite with a started game and one e-mail player
(Petya, registered with his pass phrase), a fresh Dovecot mailbox filled
by writing its Maildir with ``old`` mails that reached it long ago (Petya's
orders with the right pass phrase, and strangers' mail, alternately) and by
IMAP APPEND with ``recent`` ones of Petya's that reached it an hour ago (while
the judge was down), then the IMAP loop started on it for the first time, run
until it has read everything.
"""

from __future__ import annotations

import asyncio
import resource
import time
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta

from mail_samples import raw_mail
from sqlmodel import col

from bot.mail.adapter import MailAdapter, MailPolicy
from bot.mail.imap import ImapInbound
from storage.db import Database
from storage.models import InboundMessage, OutboxRow
from support.mailservers import Dovecot, MailUser
from support.service_table import GM, Table, make_table, orders_text, set_up_game

__all__ = ["PETYA", "Backlog", "first_start"]

PETYA = "petya@example.ru"
PHRASE = "зелёный дракон"
OLD = timedelta(days=40)  # older than mail.old_mail_days (30)


@dataclass
class Backlog:
    table: Table
    inbound: ImapInbound
    mailbox: MailUser
    old: int
    recent: int
    append_seconds: float  # filling the mailbox
    read_seconds: float  # the first start: connect to an empty inbox
    rss_growth_kb: int  # peak resident memory added while reading (ru_maxrss)

    def stored(self) -> list[InboundMessage]:
        rows = self.table.rows(InboundMessage, InboundMessage.channel == "email")
        return [
            r
            for r in rows
            if isinstance(r, InboundMessage) and not r.external_id.startswith("<join>")
        ]

    def answers(self) -> list[OutboxRow]:
        """What the judge queued for Petya, but the two answers to his joining."""
        rows = self.table.rows(OutboxRow, col(OutboxRow.destination) == PETYA)
        return [r for r in rows if isinstance(r, OutboxRow) and r.reply_ref != "<join>"]


async def first_start(
    db: Database,
    dovecot: Dovecot,
    *,
    old: int,
    recent: int = 2,
    timeout: float = 600.0,
    passphrase_mail: str | None = "masked",
) -> Backlog:
    """``passphrase_mail``: the ``[imap]`` setting, as ``serve`` applies it; None
    moves every mail as it came (the judge before issue 33), for comparison."""
    table = make_table(db)
    await set_up_game(table)
    adapter = MailAdapter(table.service, MailPolicy(), now=table.clock.now)
    reply = await table.say(GM, "/invite player right 2")
    assert reply.status == "ok", reply.text
    join = raw_mail(
        f"/start {reply.data['code']}\nпароль: {PHRASE}\n",
        sender=f"Петя <{PETYA}>",
        message_id="<join>",
    )
    assert (await adapter.handle_raw(join, fallback_id="join")).status == "ok"

    orders = orders_text(table.state(), "right", [2], ticks=(1, 2, 3))
    subject = f"[DB-{table.game_id}] приказы"

    def petya(n: int) -> bytes:
        body = f"пароль: {PHRASE}\n{orders}\n"
        return raw_mail(body, sender=f"Петя <{PETYA}>", subject=subject, message_id=f"<p{n}>")

    def stranger(n: int) -> bytes:
        return raw_mail(
            f"Привет! Письмо {n}.\n", sender=f"<s{n}@example.com>", message_id=f"<s{n}>"
        )

    mailbox = dovecot.new_user()
    now = table.clock.now()
    began = time.monotonic()
    backlog = (petya(n) if n % 2 == 0 else stranger(n) for n in range(old))
    await asyncio.to_thread(dovecot.fill_maildir, mailbox, backlog, at=now - OLD)
    fresh = (petya(old + n) for n in range(recent))
    await asyncio.to_thread(dovecot.append_many, mailbox, fresh, at=now - timedelta(hours=1))
    append_seconds = time.monotonic() - began

    config = dovecot.imap_config(mailbox, passphrase_mail=passphrase_mail or "masked")
    kept = adapter.kept_copy if passphrase_mail is not None else None
    inbound = ImapInbound(config, adapter.handle, backoff_initial=0.05, kept=kept)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.monotonic()
    task = asyncio.create_task(inbound.run())
    try:
        # Event-driven: the first pass is over when the loop says it has read
        # everything (read_until) and nothing is left in the inbox.
        deadline = time.monotonic() + timeout
        while inbound.read_until is None or inbound.handed_over < old + recent:
            if time.monotonic() > deadline or task.done():
                raise TimeoutError(f"{inbound.handed_over} of {old + recent} read")
            await asyncio.sleep(0.01)
        read_seconds = time.monotonic() - began
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss
    assert not mailbox.files("INBOX"), "mail left in the inbox"
    return Backlog(table, inbound, mailbox, old, recent, append_seconds, read_seconds, growth)
