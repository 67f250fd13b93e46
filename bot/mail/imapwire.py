"""Small pieces of IMAP that aioimaplib 2.x leaves to its user.

Parsing the responses of ``UID SEARCH``, ``UID FETCH`` and ``SELECT`` (the
library hands back raw lines), quoting mailbox names, and STARTTLS, which the
library lists as a command but does not implement.
"""

from __future__ import annotations

import asyncio
import re
import ssl
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aioimaplib import aioimaplib

__all__ = [
    "Client",
    "FetchedPart",
    "chunks",
    "imap_quote",
    "parse_arrivals",
    "parse_fetch",
    "parse_search",
    "parse_sizes",
    "parse_uidvalidity",
    "starttls",
    "uid_set",
]

_FETCH_START = re.compile(rb"^\d+ FETCH \(")
_UID = re.compile(rb"\bUID (\d+)")
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)")
_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_INTERNALDATE = re.compile(rb'\bINTERNALDATE "([^"]+)"')
_ATOM = re.compile(r"[A-Za-z0-9_./-]+")
_EXISTS = re.compile(rb"^\* \d+ EXISTS")


class _Protocol(aioimaplib.IMAP4ClientProtocol):  # type: ignore[misc]
    """Counts ``* n EXISTS`` announcements, whatever command they came with.

    aioimaplib drops untagged data that arrives during SEARCH, FETCH or STORE.
    Dovecot announces a new message once, at the end of whichever command is
    running, and IDLE does not repeat it: without this count a message that
    lands while we are busy waits for the next one.
    """

    exists_seen = 0

    def _untagged_response(self, line: bytes) -> Any:
        if _EXISTS.match(line):
            self.exists_seen += 1
        return super()._untagged_response(line)


class Client(aioimaplib.IMAP4):  # type: ignore[misc]
    """aioimaplib's client with a protocol that counts EXISTS (:attr:`exists_seen`)."""

    protocol: _Protocol

    def create_client(
        self,
        host: str,
        port: int,
        loop: asyncio.AbstractEventLoop | None,
        conn_lost_cb: Callable[[Exception | None], None] | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        local_loop = loop if loop is not None else asyncio.get_running_loop()
        self.protocol = _Protocol(local_loop, conn_lost_cb)
        self._client_task = local_loop.create_task(
            local_loop.create_connection(lambda: self.protocol, host, port, ssl=ssl_context)
        )

    @property
    def connecting(self) -> asyncio.Task[Any] | None:
        """The task opening the connection (the library keeps it private)."""
        return getattr(self, "_client_task", None)

    @property
    def exists_seen(self) -> int:
        return self.protocol.exists_seen


@dataclass(frozen=True)
class FetchedPart:
    uid: int
    data: bytes


def _lines(lines: Iterable[object]) -> list[bytes]:
    return [bytes(line) for line in lines if isinstance(line, bytes | bytearray)]


def parse_search(lines: Sequence[object]) -> list[int]:
    """UIDs of a ``UID SEARCH`` response (the untagged ``SEARCH`` data)."""
    uids: list[int] = []
    for line in _lines(lines[:-1]):  # the last line is the completion text
        words = line.split()
        if words and words[0].upper() == b"SEARCH":
            words = words[1:]
        if all(word.isdigit() for word in words):
            uids.extend(int(word) for word in words)
    return sorted(set(uids))


def parse_sizes(lines: Sequence[object]) -> dict[int, int]:
    """``{uid: size}`` from a ``UID FETCH … (UID RFC822.SIZE)`` response."""
    sizes = {}
    for line in _lines(lines):
        uid, size = _UID.search(line), _SIZE.search(line)
        if _FETCH_START.match(line) and uid and size:
            sizes[int(uid[1])] = int(size[1])
    return sizes


def parse_arrivals(lines: Sequence[object]) -> dict[int, datetime]:
    """``{uid: INTERNALDATE}`` (when the message reached the mailbox, aware UTC) from a
    ``UID FETCH … (UID INTERNALDATE …)`` response; unreadable dates are left out."""
    found = {}
    for line in _lines(lines):
        uid, date = _UID.search(line), _INTERNALDATE.search(line)
        if _FETCH_START.match(line) and uid and date:
            try:
                when = datetime.strptime(date[1].decode("ascii").strip(), "%d-%b-%Y %H:%M:%S %z")
            except ValueError:
                continue
            found[int(uid[1])] = when.astimezone(UTC)
    return found


def parse_fetch(lines: Sequence[object]) -> list[FetchedPart]:
    """The literal of each message in a ``UID FETCH … (BODY.PEEK[…])`` response."""
    parts = []
    items = list(lines)
    for index, line in enumerate(items):
        if not isinstance(line, bytes) or not _FETCH_START.match(line):
            continue
        if not line.endswith(b"}") or index + 1 >= len(items):
            continue
        literal = items[index + 1]
        if not isinstance(literal, bytes | bytearray):
            continue
        uid = _UID.search(line)
        after = items[index + 2] if index + 2 < len(items) else None
        if uid is None and isinstance(after, bytes):
            uid = _UID.search(after)  # "UID n" may follow the literal
        if uid is not None:
            parts.append(FetchedPart(int(uid[1]), bytes(literal)))
    return parts


def parse_uidvalidity(lines: Sequence[object]) -> int:
    """UIDVALIDITY from a ``SELECT`` response (0 when the server sent none)."""
    for line in _lines(lines):
        match = _UIDVALIDITY.search(line)
        if match:
            return int(match[1])
    return 0


def imap_quote(name: str) -> str:
    """A mailbox name as an IMAP atom when possible, else a quoted string."""
    return name if _ATOM.fullmatch(name) else aioimaplib.quoted(name)


def uid_set(uids: Iterable[int]) -> str:
    return ",".join(str(uid) for uid in uids)


def chunks(items: Sequence[int], size: int) -> list[list[int]]:
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


async def starttls(client: aioimaplib.IMAP4, context: ssl.SSLContext, host: str) -> None:
    """Upgrade a fresh (not yet logged in) connection to TLS (RFC 3501 6.2.1)."""
    protocol = client.protocol
    if "STARTTLS" not in protocol.capabilities:
        raise aioimaplib.Abort("server does not offer STARTTLS")
    command = aioimaplib.Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)
    response = await protocol.execute(command)
    if response.result != "OK":
        raise aioimaplib.Abort(f"STARTTLS refused: {response.result}")
    loop = asyncio.get_running_loop()
    transport = await loop.start_tls(protocol.transport, protocol, context, server_hostname=host)
    if transport is None:
        raise aioimaplib.Abort("TLS handshake failed")
    protocol.transport = transport
    # Capabilities learnt before TLS must not be trusted (RFC 3501 6.2.1).
    await protocol.capability()
