"""E-mail acknowledgement latency: the judge beside a bare IMAP-fetch + SMTP-send loop.

Both run against the same real servers of the tests (``tests/support/mailservers.py``):
a Dovecot (IMAP with IDLE, mail put in over LMTP) and an aiosmtpd server that
stamps every message it accepts. For each message the latency is the time from
the message landing in the mailbox (the LMTP delivery returned) to the answer
to it being accepted by the SMTP server. Messages are sent one after the other.

1. bare: aioimaplib IDLE → ``UID SEARCH UNSEEN`` → ``UID FETCH BODY.PEEK[]`` →
   ``STORE \\Seen``, then a short reply through one kept aiosmtplib connection.
2. judge: ``ImapInbound`` (IDLE) → ``MailAdapter`` (reading, pass phrase check)
   → the real ``GameService`` on SQLite (stores the raw mail, parses and files
   the orders, queues the acknowledgement) → ``OutboxWorker`` woken by the
   service (as in ``bot/app.py``) → ``EmailChannel``. Every message is a valid
   set of orders with the pass phrase.

Dovecot waits a fixed 0.5 s before it pushes a new message to an IDLE client,
so both loops include that wait. Run ``python benchmarks/email_bench.py``
(default 200 messages each). The target: the judge's median within 1.5x the
bare loop's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "mail"))

import aiosmtplib
from aioimaplib import aioimaplib
from mail_samples import raw_mail
from support.mailservers import CaptureSmtp, Dovecot, MailUser
from support.service_table import GM, make_table, orders_text, set_up_game

from bot.logging import configure_logging
from bot.mail import imapwire
from bot.mail.adapter import MailAdapter
from bot.mail.imap import FetchedMail, ImapInbound
from bot.mail.smtp import EmailChannel
from bot.service import OutboxWorker, SystemClock
from storage.testing import temporary_database

PHRASE = "зелёный дракон"
PLAYER = "Петя <petya@example.ru>"


async def _deliver(dovecot: Dovecot, user: MailUser, raw: bytes) -> float:
    """Put a message into the mailbox; the moment it has landed."""
    await asyncio.to_thread(dovecot.deliver, user, raw)
    return time.monotonic()


async def _measure(
    count: int,
    make: Callable[[int], bytes],
    dovecot: Dovecot,
    user: MailUser,
    smtp: CaptureSmtp,
) -> list[float]:
    latencies = []
    for n in range(count):
        before = len(smtp.messages)
        landed = await _deliver(dovecot, user, make(n))
        answers = await smtp.wait_for(before + 1, timeout=30)
        latencies.append(answers[before].at - landed)
    return latencies


async def bare_loop(dovecot: Dovecot, user: MailUser, smtp: CaptureSmtp) -> None:
    """The least a mail robot must do: wait, fetch, mark, answer."""
    imap = aioimaplib.IMAP4(host="127.0.0.1", port=dovecot.imap_port, timeout=30)
    await imap.wait_hello_from_server()
    await imap.login(user.name, user.password)
    await imap.select("INBOX")
    client = aiosmtplib.SMTP(hostname="127.0.0.1", port=smtp.port, start_tls=False)
    await client.connect()
    try:
        while True:
            idle = await imap.idle_start(timeout=60)
            await imap.wait_server_push(timeout=65)
            imap.idle_done()
            await asyncio.wait_for(idle, 30)
            found = await imap.uid_search("UNSEEN", charset=None)
            for uid in imapwire.parse_search(found.lines):
                fetched = await imap.uid("fetch", str(uid), "(BODY.PEEK[])")
                for part in imapwire.parse_fetch(fetched.lines):
                    await imap.uid("store", str(part.uid), "+FLAGS.SILENT (\\Seen)")
                    reply = EmailMessage()
                    reply["From"], reply["To"] = "judge@example.org", "petya@example.ru"
                    reply["Subject"] = "Re: orders"
                    reply.set_content(f"Received {len(part.data)} bytes.")
                    await client.send_message(reply)
    finally:
        client.close()
        imap.protocol.transport.abort()


async def run(count: int, db_folder: Path) -> dict[str, object]:
    dovecot = Dovecot(users=4)
    smtp = CaptureSmtp()
    dovecot.start()
    smtp.start()
    tasks: list[asyncio.Task[None]] = []
    stop = asyncio.Event()
    statuses: list[str] = []
    try:
        # ---------------------------------------------------------------- bare
        bare_user = dovecot.new_user()
        tasks.append(asyncio.create_task(bare_loop(dovecot, bare_user, smtp)))
        await asyncio.sleep(0.5)

        def plain(n: int) -> bytes:
            return raw_mail(f"hello {n}", sender=PLAYER, message_id=f"<bare-{n}@example.ru>")

        bare = await _measure(count, plain, dovecot, bare_user, smtp)
        # ---------------------------------------------------------------- judge
        with temporary_database("sqlite", db_folder) as db:
            clock = SystemClock()
            table = make_table(db, clock)  # type: ignore[arg-type]
            await set_up_game(table)
            service = table.service
            channel = EmailChannel(smtp.smtp_config())
            worker = OutboxWorker(service, {"email": channel}, clock)
            service.listeners.append(worker.wake)
            adapter = MailAdapter(service)
            code = (await table.say(GM, "/invite player right 2")).data["code"]
            join = raw_mail(f"/start {code}\nпароль: {PHRASE}", sender=PLAYER, message_id="<j@x>")
            assert (await adapter.handle_raw(join, fallback_id="join")).status == "ok"
            orders = orders_text(table.state(), "right", [2])
            subject = f"[DB-{table.game_id}] приказы"
            judge_user = dovecot.new_user()

            async def sink(mail: FetchedMail) -> None:
                statuses.append((await adapter.handle(mail)).status)

            inbound = ImapInbound(dovecot.imap_config(judge_user), sink)
            tasks += [
                asyncio.create_task(inbound.run()),
                asyncio.create_task(worker.run(stop)),
            ]
            await asyncio.sleep(0.5)
            await worker.drain("email")  # the welcome messages
            smtp.clear()

            def order_mail(n: int) -> bytes:
                body = f"пароль: {PHRASE}\n{orders}\n"
                return raw_mail(body, sender=PLAYER, subject=subject, message_id=f"<o-{n}@x>")

            judge = await _measure(count, order_mail, dovecot, judge_user, smtp)
            stop.set()
            await channel.close()
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        smtp.stop()
        dovecot.stop()
    if sorted(set(statuses)) != ["ok"] or len(statuses) != count:
        raise SystemExit(f"the judge did not accept every message: {statuses}")
    return {
        "messages": count,
        "bare_median_ms": round(statistics.median(bare) * 1000, 1),
        "bare_p90_ms": round(statistics.quantiles(bare, n=10)[-1] * 1000, 1),
        "judge_median_ms": round(statistics.median(judge) * 1000, 1),
        "judge_p90_ms": round(statistics.quantiles(judge, n=10)[-1] * 1000, 1),
        "ratio_of_medians": round(statistics.median(judge) / statistics.median(bare), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    configure_logging("WARNING", "console")
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(args.messages, Path(folder)))
    if args.json:
        print(json.dumps(figures))
        return
    print(f"e-mail acknowledgement latency, {figures['messages']} messages each (IDLE)")
    print(
        f"  bare fetch+send loop: median {figures['bare_median_ms']} ms, p90 {figures['bare_p90_ms']} ms"
    )
    print(
        f"  judge:                median {figures['judge_median_ms']} ms, p90 {figures['judge_p90_ms']} ms"
    )
    print(f"  ratio of medians: {figures['ratio_of_medians']} (target <= 1.5)")
    print(" ".join(f"{k}={v}" for k, v in figures.items()) + " target_ratio=1.5")


if __name__ == "__main__":
    main()
