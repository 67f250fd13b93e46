"""The e-mail channel against a real (aiosmtpd) SMTP server on loopback."""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Iterator

import aiosmtplib
import pytest
from support.mail_judge import parse
from support.mailservers import CaptureSmtp, Dovecot, free_port

from bot.config import SmtpConfig
from bot.mail.smtp import EmailChannel, classify_error
from bot.service.kernel.api import OutboxItem
from bot.service.kernel.ports import Channel

pytestmark = pytest.mark.mailserver


def _item(n: int = 1, destination: str = "vasya@example.ru", **kwargs: object) -> OutboxItem:
    return OutboxItem(
        id=n,
        channel="email",
        destination=destination,
        kind="ack",
        text="Приказы приняты.",
        subject="[DB-1] приказы",
        reply_ref="<m1@example.ru>",
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture
async def channel(smtp_server: CaptureSmtp) -> AsyncIterator[EmailChannel]:
    mail = EmailChannel(smtp_server.smtp_config())
    yield mail
    await mail.close()


def test_it_is_a_channel(channel: EmailChannel) -> None:
    assert isinstance(channel, Channel)
    assert channel.name == "email"


async def test_delivers_an_acknowledgement(channel: EmailChannel, smtp_server: CaptureSmtp) -> None:
    result = await channel.deliver(_item())
    assert result.ok
    (sent,) = smtp_server.messages
    assert (sent.mail_from, sent.rcpt_tos) == ("judge@example.org", ("vasya@example.ru",))
    msg = parse(sent)
    assert msg["Subject"] == "Re: [DB-1] приказы"
    assert msg["In-Reply-To"] == "<m1@example.ru>"


async def test_one_connection_for_several_messages(
    channel: EmailChannel, smtp_server: CaptureSmtp
) -> None:
    for n in range(3):
        assert (await channel.deliver(_item(n))).ok
    assert [m.session for m in smtp_server.messages] == [1, 1, 1]
    assert channel.sent == 3


async def test_server_dropped_the_idle_connection(
    channel: EmailChannel, smtp_server: CaptureSmtp
) -> None:
    assert (await channel.deliver(_item(1))).ok
    smtp_server.restart()
    assert (await channel.deliver(_item(2))).ok  # one silent reconnect
    assert [m.session for m in smtp_server.messages] == [1, 2]


async def test_idle_connection_is_closed_after_a_while(smtp_server: CaptureSmtp) -> None:
    mail = EmailChannel(smtp_server.smtp_config(), idle_close_seconds=0)
    try:
        for n in range(2):
            assert (await mail.deliver(_item(n))).ok
    finally:
        await mail.close()
    assert [m.session for m in smtp_server.messages] == [1, 2]


async def test_temporary_refusal_is_retried(
    channel: EmailChannel, smtp_server: CaptureSmtp
) -> None:
    smtp_server.refuse_next(1)
    result = await channel.deliver(_item())
    assert (result.ok, result.permanent) == (False, False)
    assert "451" in result.reason
    assert (await channel.deliver(_item())).ok
    assert smtp_server.attempts == 2


async def test_unknown_recipient_is_permanent(channel: EmailChannel) -> None:
    result = await channel.deliver(_item(destination="nobody@example.ru"))
    assert (result.ok, result.permanent) == (False, True)
    assert "550" in result.reason


@pytest.mark.parametrize("destination", ["not an address", "a@b", "x@y.z\nBcc: e@v.il", ""])
async def test_bad_destination_is_permanent(
    channel: EmailChannel, smtp_server: CaptureSmtp, destination: str
) -> None:
    result = await channel.deliver(_item(destination=destination))
    assert (result.ok, result.permanent) == (False, True)
    assert smtp_server.attempts == 0


async def test_unreachable_server_is_retried() -> None:
    config = SmtpConfig(
        enabled=True, host="127.0.0.1", port=free_port(), security="none", from_address="j@x.org"
    )
    mail = EmailChannel(config, timeout=2)
    result = await mail.deliver(_item())
    assert (result.ok, result.permanent) == (False, False)
    assert result.reason


def test_error_classification() -> None:
    refused = aiosmtplib.SMTPRecipientsRefused(
        [aiosmtplib.SMTPRecipientRefused(452, "mailbox full", "a@b.c")]
    )
    assert not classify_error(refused).permanent
    assert not classify_error(aiosmtplib.SMTPSenderRefused(550, "no", "judge@x")).permanent
    assert classify_error(aiosmtplib.SMTPDataError(554, "spam")).permanent
    assert not classify_error(aiosmtplib.SMTPDataError(451, "later")).permanent
    # 421: the server is closing the connection (busy, shutting down): later.
    assert not classify_error(aiosmtplib.SMTPResponseException(421, "closing")).permanent
    assert not classify_error(aiosmtplib.SMTPRecipientRefused(421, "busy", "a@b.c")).permanent
    assert not classify_error(aiosmtplib.SMTPAuthenticationError(535, "bad")).permanent
    assert "timeout" in classify_error(TimeoutError()).reason


@pytest.fixture
def server_context(dovecot: Dovecot) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(dovecot.cert, dovecot.key)
    return context


@pytest.fixture(params=["tls", "starttls"])
def tls_server(
    request: pytest.FixtureRequest, server_context: ssl.SSLContext
) -> Iterator[tuple[CaptureSmtp, str]]:
    kind = str(request.param)
    server = CaptureSmtp(**{kind: server_context})
    server.start()
    try:
        yield server, kind
    finally:
        server.stop()


async def test_encrypted_connections(tls_server: tuple[CaptureSmtp, str], dovecot: Dovecot) -> None:
    server, security = tls_server
    mail = EmailChannel(server.smtp_config(security=security), ssl_context=dovecot.client_context())
    try:
        assert (await mail.deliver(_item())).ok
    finally:
        await mail.close()
    assert len(server.messages) == 1


async def test_untrusted_certificate_is_not_used(tls_server: tuple[CaptureSmtp, str]) -> None:
    server, security = tls_server
    mail = EmailChannel(server.smtp_config(security=security), timeout=5)
    result = await mail.deliver(_item())
    assert (result.ok, result.permanent) == (False, False)
    assert server.messages == []


async def test_421_on_data_mid_session_is_retried_and_delivered_once(
    channel: EmailChannel, smtp_server: CaptureSmtp
) -> None:
    assert (await channel.deliver(_item(1))).ok
    # The server is shutting down: it answers the next DATA with 421 and hangs up.
    smtp_server.refuse_next(1, "421 4.3.2 Service shutting down", hang_up=True)
    result = await channel.deliver(_item(2))
    assert (result.ok, result.permanent) == (False, False)
    assert "421" in result.reason
    assert (await channel.deliver(_item(2))).ok  # the outbox's next try: a new connection
    assert [m.session for m in smtp_server.messages] == [1, 2]
    assert smtp_server.attempts == 3


@pytest.mark.parametrize(
    "reply", ["421 4.7.0 Too many connections, closing", "451 4.7.1 Greylisted, try later"]
)
async def test_temporary_refusal_of_the_recipient_is_retried(
    channel: EmailChannel, smtp_server: CaptureSmtp, reply: str
) -> None:
    smtp_server.refuse_recipient("vasya@example.ru", reply)
    result = await channel.deliver(_item(1))
    assert (result.ok, result.permanent) == (False, False)
    assert reply[:3] in result.reason
    smtp_server.refuse_recipient("vasya@example.ru", None)
    assert (await channel.deliver(_item(1))).ok
    assert len(smtp_server.messages) == 1


async def test_550_for_one_recipient_of_several_spares_the_others(
    channel: EmailChannel, smtp_server: CaptureSmtp
) -> None:
    smtp_server.refuse_recipient("petya@example.ru", "550 5.1.1 Mailbox unavailable")
    destinations = ["vasya@example.ru", "petya@example.ru", "kolya@example.ru"]
    results = [await channel.deliver(_item(n, d)) for n, d in enumerate(destinations)]
    assert [(r.ok, r.permanent) for r in results] == [(True, False), (False, True), (True, False)]
    assert "550" in results[1].reason
    assert [m.rcpt_tos for m in smtp_server.messages] == [
        ("vasya@example.ru",),
        ("kolya@example.ru",),
    ]


async def test_550_on_data_is_permanent(channel: EmailChannel, smtp_server: CaptureSmtp) -> None:
    smtp_server.refuse_next(1, "554 5.7.1 Message refused as spam")
    result = await channel.deliver(_item(1))
    assert (result.ok, result.permanent) == (False, True)
    assert "554" in result.reason
    assert (await channel.deliver(_item(2))).ok  # the connection is still good for the next
    assert len(smtp_server.messages) == 1
