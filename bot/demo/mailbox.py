"""Real e-mail in the demo (``dragonball demo --mail``): a local SMTP inbox.

An aiosmtpd server on the loopback interface takes mail from any mail
program (or ``curl smtp://…``) and hands each message, as received, to the
judge's real e-mail path: :meth:`bot.mail.adapter.MailAdapter.handle_raw`
reads it, authenticates the sender by pass phrase and calls the service.
The answers go to the outbox like every other, and so into the transcript.
aiosmtpd is imported only here: without it, ``--mail`` says what to install.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.logging import get_logger

from .transcript import TranscriptChannel

if TYPE_CHECKING:  # the mail modules are loaded only with --mail
    from bot.mail.adapter import MailAdapter

__all__ = ["DemoMailbox", "MailOptions", "MailReceived", "mail_available"]

log = get_logger(__name__)


def mail_available() -> bool:
    """Is aiosmtpd installed (it comes with the project's ``test`` extra)?"""
    try:
        import aiosmtpd.smtp  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class MailOptions:
    host: str = "127.0.0.1"
    port: int = 2525  # 0: any free port (tests)
    wait: float = 60.0  # real seconds each round waits for mail, unless resolved earlier


@dataclass(frozen=True)
class MailReceived:
    sender: str
    subject: str
    status: str  # the judge's reply status ("ok", "partial", "rejected", "refused", ...)


class DemoMailbox:
    """The SMTP inbox of the demo judge, served on the running event loop."""

    def __init__(
        self,
        adapter: MailAdapter,
        transcript: TranscriptChannel,
        on_mail: Callable[[MailReceived], None] | None = None,
    ) -> None:
        self.adapter = adapter
        self.transcript = transcript
        self.on_mail = on_mail
        self.port = 0
        self.senders: set[str] = set()  # addresses whose mail the judge accepted
        self._server: asyncio.Server | None = None
        self._ids = itertools.count(1)

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port``; returns the port (useful with port 0)."""
        from aiosmtpd.smtp import SMTP

        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: SMTP(self, hostname="dragonball-demo", loop=loop), host, port
        )
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """aiosmtpd's hook: one message, exactly as received."""
        from bot.mail.reading import read_message

        raw: bytes = envelope.original_content or envelope.content
        mail = read_message(raw)  # for the transcript: what the judge reads, no pass phrase
        sender = mail.from_address or "?"
        n = next(self._ids)
        self.transcript.note(self.transcript.head_in("email", sender, f"smtp {n}"),
                             f"[{mail.subject}]\n{mail.text}")  # fmt: skip
        try:
            reply = await self.adapter.handle_raw(raw, fallback_id=f"demo-smtp:{n}")
        except Exception:  # the service failed (a bug): the sender's program retries later
            log.exception("the demo judge could not take a mail")
            return "451 4.3.0 the judge could not take the message now, try again later"
        if reply.status in ("ok", "partial"):
            self.senders.add(sender)
        if self.on_mail is not None:
            self.on_mail(MailReceived(sender, mail.subject, reply.status))
        return "250 2.0.0 OK"
