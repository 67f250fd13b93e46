"""The e-mail channel: delivers outbox items through an SMTP server.

:class:`EmailChannel` implements ``bot.service.kernel.ports.Channel``. It keeps one
SMTP connection open between messages (closed after ``idle_close_seconds``)
and reconnects once when the server has dropped it meanwhile. It never
raises: every outcome is a :class:`~bot.service.kernel.api.DeliveryResult` for the
outbox worker, which owns the retries and their backoff:

* a temporary refusal (4xx), a dropped connection, a timeout: retry later;
* a recipient refused with 5xx, a message refused with 5xx, an address that
  is not one: permanent, never retried;
* our own sender or login refused: retried (a configuration problem the game
  master must fix; the reason says so).
"""

from __future__ import annotations

import asyncio
import re
import ssl
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage

import aiosmtplib

from bot.config import SmtpConfig
from bot.logging import get_logger
from bot.mail.compose import SENDER_NAME, build_message, to_bytes
from bot.service import PartLog
from bot.service.kernel.api import DeliveryResult, OutboxItem

__all__ = ["EmailChannel", "classify_error"]

_log = get_logger(__name__)
_ADDRESS = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+")


def classify_error(exc: BaseException) -> DeliveryResult:
    """The delivery result for an exception of aiosmtplib (or the network)."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [refused.code for refused in exc.recipients]
        reason = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
        permanent = bool(codes) and all(500 <= code < 600 for code in codes)
        return DeliveryResult(ok=False, permanent=permanent, reason=f"recipient refused: {reason}")
    if isinstance(exc, aiosmtplib.SMTPRecipientRefused):
        permanent = 500 <= exc.code < 600
        return DeliveryResult(
            ok=False, permanent=permanent, reason=f"recipient refused: {exc.code} {exc.message}"
        )
    if isinstance(exc, aiosmtplib.SMTPSenderRefused):
        return DeliveryResult(
            ok=False, reason=f"sender refused (check smtp.from_address): {exc.code} {exc.message}"
        )
    if isinstance(exc, aiosmtplib.SMTPAuthenticationError):
        return DeliveryResult(
            ok=False, reason=f"login refused (check smtp.username/password): {exc.code}"
        )
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        permanent = isinstance(exc, aiosmtplib.SMTPDataError) and 500 <= exc.code < 600
        return DeliveryResult(
            ok=False, permanent=permanent, reason=f"server said {exc.code} {exc.message}"
        )
    if isinstance(exc, TimeoutError):
        return DeliveryResult(ok=False, reason="timeout talking to the SMTP server")
    return DeliveryResult(ok=False, reason=f"{type(exc).__name__}: {exc}")


class EmailChannel:
    """``Channel`` for ``"email"`` outbox items, sent through ``[smtp]``."""

    name = "email"

    def __init__(
        self,
        config: SmtpConfig,
        *,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30.0,
        idle_close_seconds: float = 60.0,
        sender_name: str = SENDER_NAME,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        if not config.host or not config.from_address:
            raise ValueError("smtp.host and smtp.from_address are required to send mail")
        self._config = config
        self._ssl_context = ssl_context
        self._timeout = timeout
        self._idle_close = idle_close_seconds
        self._sender_name = sender_name
        self._now = now
        self._client: aiosmtplib.SMTP | None = None
        self._last_used = 0.0
        self._lock = asyncio.Lock()
        self.sent = 0  # messages accepted by the server, for the log and benchmarks

    @property
    def from_address(self) -> str:
        assert self._config.from_address is not None  # checked in __init__
        return self._config.from_address

    def build(self, item: OutboxItem) -> EmailMessage:
        """The message that :meth:`deliver` would send for ``item``."""
        return build_message(
            item, from_address=self.from_address, now=self._now(), sender_name=self._sender_name
        )

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        # One mail is one part: the worker's mark of the item records it (``parts`` unused).
        if not _ADDRESS.fullmatch(item.destination.strip()):
            return DeliveryResult(
                ok=False, permanent=True, reason=f"not an e-mail address: {item.destination!r}"
            )
        try:
            message = self.build(item)
        except (ValueError, TypeError) as exc:
            return DeliveryResult(ok=False, permanent=True, reason=f"cannot build the mail: {exc}")
        async with self._lock:
            try:
                await self._send(message, item.destination.strip())
            except Exception as exc:  # every failure becomes a result for the worker
                await self._drop()
                result = classify_error(exc)
                _log.warning("mail delivery failed", outbox_id=item.id, reason=result.reason)
                return result
        self.sent += 1
        return DeliveryResult(ok=True)

    async def _send(self, message: EmailMessage, recipient: str) -> None:
        reused = await self._connect()
        try:
            await self._client_send(message, recipient)
        except aiosmtplib.SMTPServerDisconnected:
            if not reused:
                raise
            # The server closed the idle connection since our last message: once more.
            await self._drop()
            await self._connect()
            await self._client_send(message, recipient)
        self._last_used = time.monotonic()

    async def _client_send(self, message: EmailMessage, recipient: str) -> None:
        assert self._client is not None
        # Serialized here, not by aiosmtplib: its policy would undo MAIL_POLICY's folding.
        await self._client.sendmail(
            self.from_address, [recipient], to_bytes(message), timeout=self._timeout
        )

    async def _connect(self) -> bool:
        """Make sure a connection is open; True when an existing one is reused."""
        if self._client is not None and self._client.is_connected:
            if time.monotonic() - self._last_used < self._idle_close:
                return True
            await self._drop()
        config = self._config
        password = config.password.get_secret_value() if config.password else None
        client = aiosmtplib.SMTP(
            hostname=config.host,
            port=config.port,
            username=config.username or None,
            password=password if config.username else None,
            local_hostname=self.from_address.rsplit("@", 1)[-1],
            timeout=self._timeout,
            use_tls=config.security == "tls",
            start_tls=config.security == "starttls",
            tls_context=self._ssl_context,
        )
        await client.connect()
        self._client = client
        self._last_used = time.monotonic()
        return False

    async def _drop(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        protocol = client.protocol
        try:
            if client.is_connected:
                await asyncio.wait_for(client.quit(), timeout=min(5.0, self._timeout))
        except Exception:  # the connection is going away anyway
            client.close()
        await _closed(protocol)

    async def close(self) -> None:
        """Close the connection (at shutdown)."""
        async with self._lock:
            await self._drop()


async def _closed(protocol: object, timeout: float = 2.0) -> None:
    """Wait until a closed connection's socket is really closed.

    A TLS connection (after STARTTLS above all) closes its socket only once the
    TLS shutdown has run, after ``close()`` returned; the protocol hears of it in
    ``connection_lost``, which drops its ``transport``. Without the wait the
    socket may outlive the channel and be left to the garbage collector.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while getattr(protocol, "transport", None) is not None and loop.time() < deadline:
        await asyncio.sleep(0.01)
