"""The IMAP loop against a real Dovecot: hand over first, mark after, survive drops."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest
from fakes import FakeMailService
from mail_samples import ORDERS, raw_mail
from support.mailservers import CuttingProxy, Dovecot, MailUser, free_port

from bot.mail.adapter import MailAdapter
from bot.mail.imap import FetchedMail, ImapInbound
from bot.service.kernel.api import Inbound, Reply

pytestmark = pytest.mark.mailserver


class Sink:
    """Records what the loop hands over; can fail the first ``fail`` calls, and
    every call for a message containing ``poison``."""

    def __init__(self, fail: int = 0, poison: bytes | None = None) -> None:
        self.mails: list[FetchedMail] = []
        self.fail = fail
        self.poison = poison
        self.calls = 0
        self.poisoned = 0

    async def __call__(self, mail: FetchedMail) -> None:
        self.calls += 1
        if self.calls <= self.fail:
            raise RuntimeError("database is down")
        if self.poison is not None and self.poison in mail.raw:
            self.poisoned += 1
            raise ValueError("a bug only this message triggers")
        self.mails.append(mail)


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.01)


async def running(inbound: ImapInbound, check: Callable[[], Awaitable[None]]) -> None:
    """Run the loop as a task while ``check`` runs; always stop it."""
    task = asyncio.create_task(inbound.run())
    try:
        await check()
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


def _mail(n: int, **kwargs: object) -> bytes:
    return raw_mail(f"{ORDERS}\n#{n}\n", message_id=f"<imap-{n}@example.ru>", **kwargs)  # type: ignore[arg-type]


async def test_new_mail_is_handed_over_then_moved(dovecot: Dovecot, mailbox: MailUser) -> None:
    sent = [_mail(n) for n in range(3)]
    for raw in sent:
        dovecot.deliver(mailbox, raw)
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox), sink)
    try:
        assert await inbound.check_once() == 3
        # What was delivered arrives byte for byte (after the headers Dovecot adds).
        assert [mail.raw.endswith(raw) for mail, raw in zip(sink.mails, sent, strict=True)] == [
            True,
            True,
            True,
        ]
        assert all(mail.uidvalidity > 0 and not mail.truncated for mail in sink.mails)
        assert await inbound.check_once() == 0
    finally:
        await inbound.close()
    assert mailbox.files("INBOX") == []
    assert len(mailbox.files("Processed")) == 3


async def test_flag_mode_leaves_mail_in_the_inbox_seen(dovecot: Dovecot, mailbox: MailUser) -> None:
    dovecot.deliver(mailbox, _mail(1))
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox, processed_folder=""), sink)
    try:
        assert await inbound.check_once() == 1
        assert await inbound.check_once() == 0
    finally:
        await inbound.close()
    (path,) = mailbox.files("INBOX")
    assert path.name.endswith(":2,S")  # Maildir flag S = \Seen


@pytest.mark.parametrize("security", ["starttls", "tls"])
async def test_encrypted_connections(dovecot: Dovecot, mailbox: MailUser, security: str) -> None:
    dovecot.deliver(mailbox, _mail(1))
    sink = Sink()
    config = dovecot.imap_config(mailbox, security=security)
    inbound = ImapInbound(config, sink, ssl_context=dovecot.client_context())
    try:
        assert await inbound.check_once() == 1
    finally:
        await inbound.close()


async def test_untrusted_certificate_is_refused(dovecot: Dovecot, mailbox: MailUser) -> None:
    inbound = ImapInbound(dovecot.imap_config(mailbox, security="starttls"), Sink())
    try:
        with pytest.raises(Exception, match="CERTIFICATE_VERIFY_FAILED"):
            await inbound.check_once()
    finally:
        await inbound.close()


async def test_idle_picks_up_new_mail(dovecot: Dovecot, mailbox: MailUser) -> None:
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox), sink)

    async def check() -> None:
        await until(lambda: inbound.connections == 1)
        for count in (1, 2):
            dovecot.deliver(mailbox, _mail(count))
            await until(lambda: len(sink.mails) == count)  # noqa: B023 (awaited in the loop)

    await running(inbound, check)
    assert inbound.errors == 0


async def test_idle_is_renewed(dovecot: Dovecot, mailbox: MailUser) -> None:
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox, idle_renew=0.3), sink)

    async def check() -> None:
        await until(lambda: inbound.connections == 1)
        await asyncio.sleep(1.0)  # three renewals
        dovecot.deliver(mailbox, _mail(1))
        await until(lambda: len(sink.mails) == 1)

    await running(inbound, check)
    assert (inbound.errors, inbound.connections) == (0, 1)


async def test_polling_without_idle(dovecot: Dovecot, mailbox: MailUser) -> None:
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox, poll_interval=0.1), sink, use_idle=False)

    async def check() -> None:
        await until(lambda: inbound.connections == 1)
        dovecot.deliver(mailbox, _mail(1))
        await until(lambda: len(sink.mails) == 1, timeout=3)

    await running(inbound, check)


async def test_failing_sink_leaves_the_message_for_later(
    dovecot: Dovecot, mailbox: MailUser
) -> None:
    dovecot.deliver(mailbox, _mail(1))
    sink = Sink(fail=1)
    inbound = ImapInbound(dovecot.imap_config(mailbox), sink, backoff_initial=0.05)

    async def check() -> None:
        await until(lambda: len(mailbox.files("Processed")) == 1)

    await running(inbound, check)
    assert sink.calls == 2
    assert inbound.errors == 1
    assert "database is down" in inbound.last_error
    assert inbound.connections == 1  # the connection was fine: kept, the message tried again
    assert inbound.given_up == 0
    assert len(mailbox.files("Processed")) == 1


async def test_poison_message_does_not_block_the_next_good_one(
    dovecot: Dovecot, mailbox: MailUser
) -> None:
    dovecot.deliver(mailbox, _mail(1, headers={"X-Test": "POISON"}))
    dovecot.deliver(mailbox, _mail(2))
    sink = Sink(poison=b"X-Test: POISON")
    inbound = ImapInbound(dovecot.imap_config(mailbox), sink, backoff_initial=0.05)

    async def check() -> None:
        await until(lambda: len(sink.mails) == 1)  # the one behind it went through
        await until(lambda: inbound.given_up == 1)
        dovecot.deliver(mailbox, _mail(3))
        # Moved: copied (Processed) first, then expunged (INBOX).
        await until(lambda: len(mailbox.files("Processed")) == 3 and not mailbox.files("INBOX"))

    await running(inbound, check)
    assert [int(m.raw.rsplit(b"#", 1)[1]) for m in sink.mails] == [2, 3]
    # Tried max_attempts (3) times, then put aside: never fetched again.
    assert sink.poisoned == 3
    assert (inbound.errors, inbound.connections) == (3, 1)
    assert "a bug only this message triggers" in inbound.last_error
    poison = [f for f in mailbox.files("Processed") if b"POISON" in f.read_bytes()]
    assert len(poison) == 1  # kept on the server for a person to look at


class StoresThenFails(FakeMailService):
    """Stores the message, then fails once (say, queueing the answer)."""

    failed = False

    async def receive(self, msg: Inbound) -> Reply:
        reply = await super().receive(msg)
        if not self.failed:
            self.failed = True
            raise RuntimeError("failed after storing")
        return reply


async def test_failure_after_storing_is_marked_processed_on_the_next_try(
    dovecot: Dovecot, mailbox: MailUser
) -> None:
    dovecot.deliver(mailbox, _mail(1))
    service = StoresThenFails()
    adapter = MailAdapter(service)
    inbound = ImapInbound(dovecot.imap_config(mailbox), adapter.handle, backoff_initial=0.05)

    async def check() -> None:
        await until(lambda: len(mailbox.files("Processed")) == 1)

    await running(inbound, check)
    assert list(service.stored) == ["<imap-1@example.ru>"]  # stored once; then a duplicate
    assert (inbound.errors, inbound.handed_over, inbound.given_up) == (1, 1, 0)


async def test_sink_failing_for_every_message_gives_up_on_none(
    dovecot: Dovecot, mailbox: MailUser
) -> None:
    for n in (1, 2):
        dovecot.deliver(mailbox, _mail(n))
    sink = Sink(fail=1_000_000)
    config = dovecot.imap_config(mailbox)
    inbound = ImapInbound(config, sink, backoff_initial=0.01, backoff_max=0.05, max_attempts=2)

    async def check() -> None:
        await until(lambda: sink.calls >= 12)  # each message failed six times and more
        assert inbound.given_up == 0
        assert mailbox.files("Processed") == []
        sink.fail = 0  # the database is back
        await until(lambda: len(mailbox.files("Processed")) == 2)

    await running(inbound, check)
    assert len(sink.mails) == 2
    assert inbound.given_up == 0
    assert inbound.connections == 1


async def test_connection_dropped_in_the_middle_of_a_fetch(
    dovecot: Dovecot, mailbox: MailUser, cutting_proxy: CuttingProxy
) -> None:
    big = raw_mail(ORDERS + "\n" + "Ловец летит. " * 3000 + "\n", message_id="<big@example.ru>")
    dovecot.deliver(mailbox, big)
    cutting_proxy.cut_next_fetch(after_bytes=500)
    sink = Sink()
    config = dovecot.imap_config(mailbox, port=cutting_proxy.port)
    inbound = ImapInbound(config, sink, backoff_initial=0.05)

    async def check() -> None:
        await until(lambda: len(mailbox.files("Processed")) == 1)

    await running(inbound, check)
    assert cutting_proxy.cuts == 1
    assert cutting_proxy.connections == 2
    assert inbound.errors == 1
    assert sink.mails[0].raw.endswith(big)
    assert len(mailbox.files("Processed")) == 1


async def test_oversized_message_is_fetched_as_header_only(
    dovecot: Dovecot, mailbox: MailUser
) -> None:
    dovecot.deliver(mailbox, raw_mail("x" * 20_000, message_id="<huge@example.ru>"))
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox), sink, max_message_bytes=5_000)
    try:
        assert await inbound.check_once() == 1
    finally:
        await inbound.close()
    (mail,) = sink.mails
    assert mail.truncated
    assert mail.size > 20_000
    assert b"Message-ID: <huge@example.ru>" in mail.raw
    assert b"xxxxxxxx" not in mail.raw


async def test_many_messages_in_small_batches(dovecot: Dovecot, mailbox: MailUser) -> None:
    for n in range(23):
        dovecot.deliver(mailbox, _mail(n))
    sink = Sink()
    inbound = ImapInbound(dovecot.imap_config(mailbox), sink, batch_size=5, batch_bytes=4_000)
    try:
        assert await inbound.check_once() == 23
    finally:
        await inbound.close()
    ids = [int(m.raw.rsplit(b"#", 1)[1]) for m in sink.mails]
    assert ids == list(range(23))  # in arrival order


async def test_unreachable_server_backs_off(dovecot: Dovecot, mailbox: MailUser) -> None:
    config = dovecot.imap_config(mailbox, port=free_port())  # nothing listens there
    inbound = ImapInbound(config, Sink(), backoff_initial=0.02, backoff_max=0.1)

    async def check() -> None:
        await until(lambda: inbound.errors >= 4)

    await running(inbound, check)
    assert inbound.connections == 0
    assert "Connection" in inbound.last_error or "Errno" in inbound.last_error


async def test_wrong_password_is_an_error_not_a_crash(dovecot: Dovecot, mailbox: MailUser) -> None:
    config = dovecot.imap_config(mailbox).model_copy(update={"username": "judge-nobody"})
    inbound = ImapInbound(config, Sink(), backoff_initial=0.02, command_timeout=5)

    async def check() -> None:
        await until(lambda: inbound.errors >= 1)

    await running(inbound, check)
    assert "LOGIN" in inbound.last_error


async def test_connection_cut_mid_idle_loses_nothing(
    dovecot: Dovecot, mailbox: MailUser, cutting_proxy: CuttingProxy
) -> None:
    sink = Sink()
    inbound = ImapInbound(
        dovecot.imap_config(mailbox, port=cutting_proxy.port), sink, backoff_initial=0.05
    )

    async def check() -> None:
        await until(lambda: inbound.connections == 1)
        dovecot.deliver(mailbox, _mail(1))
        await until(lambda: len(sink.mails) == 1)
        await asyncio.sleep(0.2)  # back in IDLE
        assert cutting_proxy.cut_all() == 1
        dovecot.deliver(mailbox, _mail(2))  # arrives while nobody listens
        await until(lambda: len(mailbox.files("Processed")) == 2, timeout=30)

    await running(inbound, check)
    assert inbound.connections == 2
    assert [int(m.raw.rsplit(b"#", 1)[1]) for m in sink.mails] == [1, 2]  # each once
