"""Real mail servers on loopback for the e-mail tests and the benchmark.

* :class:`Dovecot`: a real Dovecot (IMAP with IDLE, STARTTLS and implicit
  TLS, plus LMTP to put mail in) in a temporary folder, with a pool of
  passwd-file users so every test gets a mailbox of its own. Nothing is
  installed here: ``dovecot-imapd`` and ``dovecot-lmtpd`` come from the
  system (``.ci/run`` installs them). See ``/work/shared/spec/mail-test-servers.md``.
* :class:`CaptureSmtp`: an aiosmtpd server recording what it is sent, told
  to refuse the next N messages with 451 when a test wants it.
* :class:`CuttingProxy`: a TCP proxy between an IMAP client and Dovecot that
  can cut the connection in the middle of a FETCH response.
"""

from __future__ import annotations

import asyncio
import imaplib
import os
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from bot.config import ImapConfig, SmtpConfig

__all__ = [
    "CaptureSmtp",
    "Captured",
    "CuttingProxy",
    "Dovecot",
    "MailUser",
    "free_port",
    "make_certificate",
]

NOBODY = 65534  # Dovecot refuses uid 0 for mail users; see the shared spec


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: ``(cert, key)``."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"]
        + ["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True,
        capture_output=True,
    )
    return cert, key


@dataclass(frozen=True)
class MailUser:
    name: str
    password: str
    home: Path

    @property
    def maildir(self) -> Path:
        return self.home / "Maildir"

    @property
    def address(self) -> str:
        return f"{self.name}@example.org"

    def files(self, folder: str = "INBOX") -> list[Path]:
        """Message files of a folder (Maildir ``new`` and ``cur``)."""
        base = self.maildir if folder == "INBOX" else self.maildir / f".{folder}"
        return sorted(p for sub in ("new", "cur") for p in (base / sub).glob("*") if p.is_file())


class _EarlyExit(RuntimeError):
    """Dovecot exited as it started (its ports taken, most often)."""


class Dovecot:
    """A Dovecot server for one test session; call :meth:`start`, then :meth:`stop`."""

    def __init__(self, users: int = 60) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="dragonball-dovecot-"))
        self.root.chmod(0o755)  # Dovecot's unprivileged processes must enter it
        self.imap_port, self.imaps_port, self.lmtp_port = free_port(), free_port(), free_port()
        self.cert, self.key = make_certificate(self.root)
        self._users = [
            MailUser(f"judge{n}", f"secret{n}", self.root / "mail" / f"judge{n}")
            for n in range(users)
        ]
        self._next = 0
        self._process: subprocess.Popen[bytes] | None = None

    def _config(self) -> str:
        root = self.root
        return f"""
protocols = imap lmtp
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{self.key}
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 500
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%n {root}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%n {root}/users
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.imaps_port}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
"""

    def start(self) -> None:
        lines = []
        for user in self._users:
            user.home.mkdir(parents=True)
            os.chown(user.home, NOBODY, NOBODY)
            lines.append(f"{user.name}:{{PLAIN}}{user.password}:{NOBODY}:{NOBODY}::{user.home}::")
        (self.root / "users").write_text("\n".join(lines) + "\n")
        # A port free_port() saw free may be taken by another socket (a client's
        # ephemeral port) before Dovecot binds it: then Dovecot exits at once, and
        # a first start simply tries other ports.
        for attempt in range(5):
            (self.root / "dovecot.conf").write_text(self._config())
            try:
                self._launch()
                return
            except _EarlyExit:
                if attempt == 4:
                    raise
                self.imap_port, self.imaps_port, self.lmtp_port = (
                    free_port(),
                    free_port(),
                    free_port(),
                )

    def _launch(self) -> None:
        self._process = subprocess.Popen(
            ["dovecot", "-c", str(self.root / "dovecot.conf"), "-F"],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                process, self._process = self._process, None
                stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
                if process.stderr is not None:
                    process.stderr.close()
                raise _EarlyExit(f"dovecot exited: {stderr[-1000:]} {self.log()[-1000:]}")
            if all(_listening(port) for port in (self.imap_port, self.imaps_port, self.lmtp_port)):
                return
            time.sleep(0.02)
        raise RuntimeError(f"dovecot did not start: {self.log()[-2000:]}")

    def _kill(self) -> None:
        process, self._process = self._process, None
        try:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)  # the master and its imap children
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
        finally:
            if process is not None and process.stderr is not None:
                process.stderr.close()

    def halt(self) -> None:
        """Stop the server (every connection dies with it), keeping the mail store."""
        self._kill()
        deadline = time.monotonic() + 30
        while any(_listening(port) for port in (self.imap_port, self.lmtp_port)):
            if time.monotonic() > deadline:
                raise RuntimeError("dovecot still listens after its stop")
            time.sleep(0.02)

    def resume(self) -> None:
        """Start again after :meth:`halt`: the same ports, the same mail store
        (a port still held a moment by a socket of the old server: tried again)."""
        for attempt in range(10):
            try:
                self._launch()
                return
            except _EarlyExit:
                if attempt == 9:
                    raise
                time.sleep(0.5)

    def new_uidvalidity(self, user: MailUser) -> None:
        """While halted: make the INBOX's UIDVALIDITY change, as when a mail store is
        rebuilt or restored (the uid list and the index are thrown away, so Dovecot
        numbers the messages afresh under a new UIDVALIDITY)."""
        assert self._process is None, "halt() first"
        for path in user.maildir.glob("dovecot*"):
            if path.is_file():
                path.unlink()
        # Dovecot takes the clock's second as a new UIDVALIDITY; make it differ
        # from the old one even within the same second.
        time.sleep(1.1)

    def stop(self) -> None:
        try:
            self._kill()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def new_user(self) -> MailUser:
        """A mailbox nobody used before in this session."""
        if self._next >= len(self._users):
            raise RuntimeError("the Dovecot user pool is exhausted; raise Dovecot(users=...)")
        user = self._users[self._next]
        self._next += 1
        return user

    def deliver(self, user: MailUser, raw: bytes, *, at: datetime | None = None) -> None:
        """Put a message into ``user``'s INBOX through LMTP, as a mail server would;
        with ``at``, by IMAP APPEND with that INTERNALDATE (the arrival time a test's
        clock says: the judge counts a mail from its arrival in the mailbox)."""
        if at is None:
            with smtplib.LMTP("127.0.0.1", self.lmtp_port) as lmtp:
                lmtp.sendmail("player@example.ru", [user.name], raw)
            return
        if not raw.endswith(b"\n"):
            raw += b"\r\n"  # as an SMTP server ends the DATA it was given
        client = imaplib.IMAP4("127.0.0.1", self.imap_port)
        try:
            client.login(user.name, user.password)
            status, _ = client.append("INBOX", None, imaplib.Time2Internaldate(at), raw)
            assert status == "OK", status
        finally:
            client.logout()

    def append_many(self, user: MailUser, raws: Iterable[bytes], *, at: datetime) -> int:
        """APPEND many messages to ``user``'s INBOX over one connection, each with
        INTERNALDATE ``at`` (a backlog that reached the mailbox then); returns how many."""
        stamp = imaplib.Time2Internaldate(at)
        count = 0
        client = imaplib.IMAP4("127.0.0.1", self.imap_port)
        try:
            client.login(user.name, user.password)
            for raw in raws:
                status, _ = client.append("INBOX", None, stamp, raw)
                assert status == "OK", status
                count += 1
        finally:
            client.logout()
        return count

    def fill_maildir(self, user: MailUser, raws: Iterable[bytes], *, at: datetime) -> int:
        """Write messages straight into ``user``'s Maildir (``new/``), as a mailbox
        that filled up before the judge ever looked at it; the file's time is the
        INTERNALDATE Dovecot reports (``at``). Far faster than APPEND for thousands
        (Dovecot syncs to disk on every APPEND); returns how many."""
        folders = [user.maildir] + [user.maildir / sub for sub in ("cur", "new", "tmp")]
        for folder in folders:
            folder.mkdir(mode=0o700, exist_ok=True)
            os.chown(folder, NOBODY, NOBODY)
        stamp = at.timestamp()
        count = 0
        for raw in raws:
            name = f"{int(stamp)}.M{count}P{os.getpid()}.backlog,S={len(raw)}"
            tmp, new = user.maildir / "tmp" / name, user.maildir / "new" / name
            tmp.write_bytes(raw)
            os.chown(tmp, NOBODY, NOBODY)
            os.utime(tmp, (stamp, stamp))
            tmp.rename(new)
            count += 1
        return count

    def imap_config(
        self,
        user: MailUser,
        *,
        security: str = "none",
        port: int | None = None,
        processed_folder: str = "Processed",
        poll_interval: float = 60.0,
        idle_renew: float = 1740.0,
        passphrase_mail: str = "masked",
    ) -> ImapConfig:
        """``[imap]`` settings for reading ``user``'s mailbox (``port``: e.g. a proxy)."""
        default_port = self.imaps_port if security == "tls" else self.imap_port
        return ImapConfig.model_validate(
            {
                "enabled": True,
                "host": "127.0.0.1",
                "port": port or default_port,
                "security": security,
                "username": user.name,
                "password": user.password,
                "processed_folder": processed_folder,
                "poll_interval_seconds": poll_interval,
                "idle_renew_seconds": idle_renew,
                "passphrase_mail": passphrase_mail,
            }
        )

    def client_context(self) -> ssl.SSLContext:
        """A client TLS context that trusts this server's certificate."""
        return ssl.create_default_context(cafile=str(self.cert))


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


# ---------------------------------------------------------------- SMTP


@dataclass(frozen=True)
class Captured:
    mail_from: str
    rcpt_tos: tuple[str, ...]
    data: bytes
    session: int = 0  # which SMTP connection brought it (1, 2, ...)
    at: float = 0.0  # time.monotonic() when the server accepted it


@dataclass
class _Handler:
    refuse: int = 0  # refuse this many of the next messages with ``refusal``
    refusal: str = "451 4.3.0 Temporary failure, try again later"
    hang_up: bool = False  # close the connection after a refusal (as after a 421)
    refused_rcpt: dict[str, str] = field(default_factory=dict)  # address -> reply
    attempts: int = 0
    messages: list[Captured] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    sessions: int = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if not hasattr(session, "capture_number"):
                self.sessions += 1
                session.capture_number = self.sessions
            self.attempts += 1
            if self.refuse > 0:
                self.refuse -= 1
                if self.hang_up:
                    # After the reply is written (it is, before the loop runs again):
                    # a server that says 421 closes the connection.
                    asyncio.get_running_loop().call_soon(server.transport.close)
                return self.refusal
            data = envelope.original_content or envelope.content
            self.messages.append(
                Captured(
                    envelope.mail_from,
                    tuple(envelope.rcpt_tos),
                    bytes(data),
                    session.capture_number,
                    time.monotonic(),
                )
            )
        return "250 2.0.0 OK"

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address.startswith("nobody@"):
            return "550 5.1.1 No such user"
        with self.lock:
            refused = self.refused_rcpt.get(address)
        if refused is not None:
            if refused.startswith("421"):
                asyncio.get_running_loop().call_soon(server.transport.close)
            return refused
        envelope.rcpt_tos.append(address)
        return "250 OK"


class CaptureSmtp:
    """An SMTP server (aiosmtpd, its own thread) that records the mail it gets.

    ``nobody@…`` recipients are refused with 550; :meth:`refuse_next` makes it
    answer the next messages with 451 (or any reply, hanging up after it), and
    :meth:`refuse_recipient` one address with any reply.
    """

    def __init__(
        self, *, tls: ssl.SSLContext | None = None, starttls: ssl.SSLContext | None = None
    ) -> None:
        self.port = free_port()
        self._handler = _Handler()
        self._tls, self._starttls = tls, starttls
        self._controller = self._new_controller()

    def _new_controller(self) -> Controller:
        kwargs: dict[str, Any] = {}
        if self._starttls is not None:
            kwargs["tls_context"] = self._starttls
        return Controller(
            self._handler, hostname="127.0.0.1", port=self.port, ssl_context=self._tls, **kwargs
        )

    def start(self) -> None:
        self._controller.start()

    def restart(self) -> None:
        """Stop (dropping every open connection) and listen again on the same port."""
        self._controller.stop()
        self._controller = self._new_controller()
        self._controller.start()

    def smtp_config(self, *, security: str = "none") -> SmtpConfig:
        """``[smtp]`` settings for sending through this server."""
        return SmtpConfig.model_validate(
            {
                "enabled": True,
                "host": "127.0.0.1",
                "port": self.port,
                "security": security,
                "from_address": "judge@example.org",
            }
        )

    def stop(self) -> None:
        self._controller.stop()

    def clear(self) -> None:
        """Forget what was received so far."""
        with self._handler.lock:
            self._handler.messages.clear()
            self._handler.attempts = 0

    def refuse_next(
        self,
        count: int,
        reply: str = "451 4.3.0 Temporary failure, try again later",
        *,
        hang_up: bool = False,
    ) -> None:
        """Answer the DATA of the next ``count`` messages with ``reply`` (and close
        the connection after it when ``hang_up``, as a server saying 421 does)."""
        with self._handler.lock:
            self._handler.refuse, self._handler.refusal = count, reply
            self._handler.hang_up = hang_up

    def refuse_recipient(self, address: str, reply: str | None) -> None:
        """Answer RCPT TO ``address`` with ``reply`` (a 421 closes the connection);
        None accepts it again."""
        with self._handler.lock:
            if reply is None:
                self._handler.refused_rcpt.pop(address, None)
            else:
                self._handler.refused_rcpt[address] = reply

    @property
    def attempts(self) -> int:
        with self._handler.lock:
            return self._handler.attempts

    @property
    def messages(self) -> list[Captured]:
        with self._handler.lock:
            return list(self._handler.messages)

    async def wait_for(self, count: int, timeout: float = 10.0) -> list[Captured]:
        """Wait until ``count`` messages arrived; returns them all."""
        deadline = time.monotonic() + timeout
        while len(self.messages) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(self.messages)} of {count} messages arrived")
            await asyncio.sleep(0.005)
        return self.messages


# ---------------------------------------------------------------- proxy


class CuttingProxy:
    """TCP proxy to ``127.0.0.1:upstream`` that can cut a FETCH response short."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = 0
        self.connections = 0
        self.cuts = 0
        self._cut_after: int | None = None
        self._let_through = 0  # message bodies to pass before the cut
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for writer in list(self._writers):
            writer.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut_all(self) -> int:
        """Cut every connection now (mid-IDLE, mid-anything); returns how many."""
        writers = list(self._writers)
        for writer in writers:
            writer.close()
        self.cuts += len(writers) // 2
        return len(writers) // 2

    def cut_next_fetch(self, after_bytes: int, *, bodies_first: int = 0) -> None:
        """Cut the connection ``after_bytes`` into the next message body sent, or,
        with ``bodies_first``, into the body after that many more (mid-batch)."""
        self._cut_after = after_bytes
        self._let_through = bodies_first

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        self._writers |= {writer, up_writer}
        tasks = [
            asyncio.create_task(self._pipe(reader, up_writer, cut=False)),
            asyncio.create_task(self._pipe(up_reader, writer, cut=True)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for each in (writer, up_writer):
            each.close()
            self._writers.discard(each)

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, cut: bool
    ) -> None:
        while data := await reader.read(65536):
            start = data.find(b"BODY[] {") if cut and self._cut_after is not None else -1
            while start >= 0 and self._let_through > 0:
                self._let_through -= 1
                start = data.find(b"BODY[] {", start + 1)
            if start >= 0:
                assert self._cut_after is not None
                writer.write(data[: start + self._cut_after])
                await writer.drain()
                self._cut_after = None
                self.cuts += 1
                return
            writer.write(data)
            await writer.drain()
