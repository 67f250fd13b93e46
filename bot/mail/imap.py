"""The inbound mail loop: new messages of an IMAP mailbox into a sink.

For every new message, :class:`ImapInbound` hands the raw bytes to the sink
FIRST (the sink stores them; a second delivery of the same message is fine)
and only then marks the message processed: moved to ``processed_folder``, or
flagged ``\\Seen`` when no folder is configured (a batch's messages together,
once each of them is handed over). A crash between the two hands the
messages over once more, never zero times.

A sink that raises leaves its message unmarked and the loop goes on with the
next one: one message nobody can handle must not hold up the mail behind it.
Failed messages are tried again after a backoff (new mail still wakes the loop
at once). While the sink fails for every message (the database is down) they
wait as long as it takes; a message that failed ``max_attempts`` times while
other messages went through is given up on: logged as an error and marked
processed, so it stays on the server (in ``processed_folder``) for a person,
instead of being fetched again forever.

Defences against the known traps of aioimaplib 2.x: every call goes through
``asyncio.wait_for`` and is abandoned as soon as the connection is lost;
bodies are fetched with ``BODY.PEEK[]`` in small batches (by count and by
bytes), messages over the size limit as headers only; any error closes the
connection and the loop reconnects with exponential backoff; IDLE is renewed
every ``idle_renew_seconds`` (it does not notice a dead connection by itself),
and without IDLE the mailbox is polled (NOOP first, so Dovecot shows the
newest message in the same poll).

**Read until** (the deadline watermark): a pass that started at *T* (before
its NOOP and SEARCH) and handed every message it found to the sink has read
everything that reached the mailbox before *T*; the loop says so through
``on_mark``.  :meth:`ImapInbound.refresh` ends an IDLE (or a poll's sleep)
at once so that such a pass starts now.  Each message carries its
INTERNALDATE — when it reached our mailbox — which is the time it counts by.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from aioimaplib import aioimaplib

from bot.config import ImapConfig
from bot.logging import get_logger
from bot.mail import imapwire

__all__ = ["FetchedMail", "ImapInbound", "MailSink"]

_log = get_logger(__name__)
_T = TypeVar("_T")


@dataclass(frozen=True)
class FetchedMail:
    """One message as fetched from the mailbox."""

    uid: int
    uidvalidity: int
    raw: bytes  # the whole message, or only its header when ``truncated``
    size: int  # RFC822.SIZE as the server reports it
    truncated: bool = False  # over the size limit: only the header was fetched
    arrived: datetime | None = None  # INTERNALDATE: when it reached the mailbox


MailSink = Callable[[FetchedMail], Awaitable[object]]


@dataclass
class _Failure:
    """A message the sink raised on, still waiting for a successful attempt."""

    handed_before: int  # ``handed_over`` at its first failure
    attempts: int = 0


class ConnectionLost(Exception):
    """The IMAP connection closed under a pending command."""


class ImapInbound:
    """Reads new mail from ``[imap]`` forever; run :meth:`run` as a task, cancel to stop."""

    def __init__(
        self,
        config: ImapConfig,
        sink: MailSink,
        *,
        max_message_bytes: int | None = None,
        ssl_context: ssl.SSLContext | None = None,
        batch_size: int = 10,
        batch_bytes: int = 4_000_000,
        command_timeout: float = 30.0,
        backoff_initial: float = 1.0,
        backoff_max: float = 300.0,
        use_idle: bool = True,
        max_attempts: int = 3,
        on_mark: Callable[[datetime], object] | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        kept: Callable[[FetchedMail], bytes | None] | None = None,
    ) -> None:
        if not config.host or not config.username or config.password is None:
            raise ValueError("imap.host, imap.username and imap.password are required")
        self._config = config
        self._sink = sink
        self._max_bytes = max_message_bytes
        self._ssl_context = ssl_context
        self._batch_size = max(1, batch_size)
        self._batch_bytes = max(1, batch_bytes)
        self._timeout = command_timeout
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._use_idle = use_idle
        self._max_attempts = max(1, max_attempts)
        self._failures: dict[tuple[int, int], _Failure] = {}  # by (uidvalidity, uid)
        self._client: imapwire.Client | None = None
        self._lost = asyncio.Event()
        self._uidvalidity = 0
        self._move = False
        self._on_mark = on_mark
        self._now = now
        self._kept = kept
        self._refresh = asyncio.Event()
        self.read_until: datetime | None = None
        # Counters for tests, logs and the benchmark.
        self.connections = 0
        self.handed_over = 0
        self.given_up = 0
        self.errors = 0
        self.last_error = ""

    # ------------------------------------------------------------ the loop

    async def run(self) -> None:
        """Connect, process, wait for news; reconnect with backoff after any error."""
        delay = self._backoff_initial
        try:
            while True:
                try:
                    await self._open()
                    delay = retry = self._backoff_initial
                    while True:
                        announced = self._imap.exists_seen
                        await self.process_new()
                        wait = None
                        if self._failures:  # tried again after a backoff of their own
                            wait, retry = retry, min(self._backoff_max, retry * 2)
                        else:
                            retry = self._backoff_initial
                        if self._imap.exists_seen == announced:
                            await self._wait_for_news(wait)
                        # else: mail arrived while we were busy; look again at once
                except Exception as exc:
                    self.errors += 1
                    self.last_error = f"{type(exc).__name__}: {exc}"
                    _log.warning("imap error, reconnecting", error=self.last_error, delay=delay)
                    await self.close()
                    await asyncio.sleep(delay * random.uniform(0.9, 1.1))
                    delay = min(self._backoff_max, delay * 2)
        finally:
            await self.close()

    def refresh(self, after: datetime) -> None:
        """Look at the mailbox now unless a pass started at or after ``after``."""
        if self.read_until is None or self.read_until < after:
            self._refresh.set()

    async def check_once(self) -> int:
        """Connect if needed and hand over every new message; returns how many."""
        if self._client is None:
            await self._open()
        return await self.process_new()

    async def close(self) -> None:
        """Drop the connection without waiting for the server."""
        client, self._client = self._client, None
        if client is None:
            return
        connecting = client.connecting
        if connecting is not None and not connecting.done():
            connecting.cancel()  # asyncio closes the half-open socket
        transport = client.protocol.transport
        if transport is not None:
            # abort, not close: a TLS close waits for the peer's close_notify, and
            # a loop that stops meanwhile would leave the socket open.
            transport.abort()
        for task in list(client.tasks) + list(client.protocol.tasks):
            task.cancel()

    # ------------------------------------------------------------ calls

    async def _call(self, call: Awaitable[_T], timeout: float | None = None) -> _T:
        """Await one IMAP call; give up on timeout or when the connection is lost."""
        task = asyncio.ensure_future(call)
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            done, _pending = await asyncio.wait(
                {task, lost}, timeout=timeout or self._timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            lost.cancel()
            if not task.done():
                task.cancel()  # timed out, connection lost, or we are cancelled
        if task in done:
            return task.result()
        if lost in done:
            raise ConnectionLost("connection lost")
        raise TimeoutError(f"no answer within {timeout or self._timeout:.0f} s")

    async def _ok(self, call: Awaitable[Any], what: str, timeout: float | None = None) -> Any:
        response = await self._call(call, timeout)
        if response.result != "OK":
            raise aioimaplib.Abort(f"{what}: {response.result} {response.lines[-1:]!r}")
        return response

    @property
    def _imap(self) -> imapwire.Client:
        if self._client is None:
            raise ConnectionLost("not connected")
        return self._client

    # ------------------------------------------------------------ session

    async def _open(self) -> None:
        config = self._config
        assert config.host is not None and config.username is not None
        assert config.password is not None
        # One event per connection: an old connection's late "lost" must not end this one.
        lost = self._lost = asyncio.Event()
        context = self._ssl_context or ssl.create_default_context()
        client = imapwire.Client(
            host=config.host,
            port=config.port,
            timeout=self._timeout,
            conn_lost_cb=lambda _exc: lost.set(),
            ssl_context=context if config.security == "tls" else None,
        )
        self._client = client
        await self._call(client.wait_hello_from_server())
        if config.security == "starttls":
            await self._call(imapwire.starttls(client, context, config.host))
        password = config.password.get_secret_value()
        await self._ok(client.login(imapwire.imap_quote(config.username), password), "LOGIN")
        selected = await self._ok(client.select(imapwire.imap_quote(config.mailbox)), "SELECT")
        self._uidvalidity = imapwire.parse_uidvalidity(selected.lines)
        self._move = bool(config.processed_folder)
        if self._move:
            # Fails harmlessly (NO) when the folder exists already.
            await self._call(client.create(imapwire.imap_quote(config.processed_folder)))
        self.connections += 1
        _log.info("imap connected", host=config.host, mailbox=config.mailbox, idle=self._idle_ok)

    @property
    def _idle_ok(self) -> bool:
        return self._use_idle and self._client is not None and self._client.has_capability("IDLE")

    async def _wait_for_news(self, limit: float | None = None) -> None:
        """Wait for new mail, at most ``limit`` seconds when given."""
        if self._refresh.is_set():
            return
        if self._idle_ok:
            await self._idle(limit)
        else:
            poll = self._config.poll_interval_seconds
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._refresh.wait(), poll if limit is None else min(poll, limit)
                )

    async def _idle(self, limit: float | None = None) -> None:
        """IDLE until the server reports a change, it is time to renew, or ``limit``."""
        imap = self._imap
        renew = self._config.idle_renew_seconds
        renew = renew if limit is None else min(renew, limit)
        idle = await self._call(imap.idle_start(timeout=renew))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + renew
        try:
            while True:
                left = deadline - loop.time()
                if left <= 0 or self._refresh.is_set():
                    break
                push = await self._push_or_refresh(left)
                if push is None or push == aioimaplib.STOP_WAIT_SERVER_PUSH:
                    break
                if any(b"EXISTS" in bytes(line) for line in push if isinstance(line, bytes)):
                    break  # "* OK Still here" keep-alives are not news
        except TimeoutError:
            pass  # renew
        imap.idle_done()
        await self._call(idle)

    async def _push_or_refresh(self, left: float) -> Any:
        """The server's next push during IDLE, or None when asked to look now."""
        push = asyncio.ensure_future(
            self._call(self._imap.wait_server_push(timeout=left + 5), timeout=left + 10)
        )
        refresh = asyncio.ensure_future(self._refresh.wait())
        try:
            await asyncio.wait({push, refresh}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            refresh.cancel()
            if not push.done():
                push.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await push
        return push.result() if push.done() and not push.cancelled() else None

    async def process_new(self) -> int:
        """Hand every new message to the sink, then mark it; returns how many went through.

        A message the sink raises on stays unmarked (see the module's doc).  A pass
        after which nothing waits moves ``read_until`` to its start.
        """
        started = self._now()
        self._refresh.clear()
        handed = await self._process_new()
        if not self._failures and (self.read_until is None or started > self.read_until):
            self.read_until = started
            if self._on_mark is not None:
                self._on_mark(started)
        return handed

    async def _process_new(self) -> int:
        imap = self._imap
        await self._call(imap.noop())  # Dovecot refreshes its view at the end of a command
        criterion = "UNDELETED" if self._move else "UNSEEN"
        found = await self._ok(imap.uid_search(criterion, charset=None), "UID SEARCH")
        uids = imapwire.parse_search(found.lines)
        waiting = {(self._uidvalidity, uid) for uid in uids}
        # Forget failures of messages someone else has moved away meanwhile.
        self._failures = {k: v for k, v in self._failures.items() if k in waiting}
        handed = 0
        for chunk in imapwire.chunks(uids, 200):
            sizes, arrivals = await self._sizes(chunk)
            for batch in self._batches([uid for uid in chunk if uid in sizes], sizes):
                handed += await self._fetch_batch(batch, sizes, arrivals)
        return handed

    async def _sizes(self, uids: list[int]) -> tuple[dict[int, int], dict[int, datetime]]:
        response = await self._ok(
            self._imap.uid("fetch", imapwire.uid_set(uids), "(UID RFC822.SIZE INTERNALDATE)"),
            "UID FETCH size",
        )
        return imapwire.parse_sizes(response.lines), imapwire.parse_arrivals(response.lines)

    def _batches(self, uids: list[int], sizes: dict[int, int]) -> list[list[int]]:
        batches: list[list[int]] = []
        current: list[int] = []
        total = 0
        for uid in uids:
            size = self._fetch_size(sizes[uid])
            if current and (len(current) >= self._batch_size or total + size > self._batch_bytes):
                batches.append(current)
                current, total = [], 0
            current.append(uid)
            total += size
        if current:
            batches.append(current)
        return batches

    def _too_large(self, size: int) -> bool:
        return self._max_bytes is not None and size > self._max_bytes

    def _fetch_size(self, size: int) -> int:
        return 10_000 if self._too_large(size) else size

    async def _fetch_batch(
        self, batch: list[int], sizes: dict[int, int], arrivals: dict[int, datetime]
    ) -> int:
        whole = [uid for uid in batch if not self._too_large(sizes[uid])]
        heads = [uid for uid in batch if self._too_large(sizes[uid])]
        fetched: dict[int, bytes] = {}
        for uids, part in ((whole, "BODY.PEEK[]"), (heads, "BODY.PEEK[HEADER]")):
            if uids:
                nbytes = sum(self._fetch_size(sizes[uid]) for uid in uids)
                response = await self._ok(
                    self._imap.uid("fetch", imapwire.uid_set(uids), f"(UID {part})"),
                    "UID FETCH",
                    timeout=self._timeout + nbytes / 200_000,
                )
                fetched.update((p.uid, p.data) for p in imapwire.parse_fetch(response.lines))
        handed = 0
        done: list[int] = []
        replaced: dict[int, tuple[bytes, datetime | None]] = {}
        for uid in batch:
            if uid not in fetched:
                continue  # expunged meanwhile, or a response we could not read: next time
            mail = FetchedMail(
                uid, self._uidvalidity, fetched[uid], sizes[uid], self._too_large(sizes[uid]),
                arrivals.get(uid),
            )  # fmt: skip
            try:
                await self._sink(mail)
            except Exception as exc:
                if not self._failed(mail, exc):
                    continue  # unmarked: tried again later
            else:
                self._failures.pop((mail.uidvalidity, uid), None)
                self.handed_over += 1
                handed += 1
                copy = self._kept(mail) if self._kept is not None else None
                if copy is not None:
                    replaced[uid] = (copy, mail.arrived)
            done.append(uid)
        if done:
            # The batch's messages are marked together once all of them are stored
            # (two commands a batch, not two a message: a backlog of thousands on a
            # first start); a cut before this hands them over again, as duplicates.
            await self._mark([uid for uid in done if uid not in replaced])
        if replaced:
            await self._replace(replaced)
        return handed

    def _failed(self, mail: FetchedMail, exc: Exception) -> bool:
        """Record that the sink raised on ``mail``; True when it is given up on."""
        self.errors += 1
        self.last_error = f"{type(exc).__name__}: {exc}"
        key = (mail.uidvalidity, mail.uid)
        failure = self._failures.setdefault(key, _Failure(self.handed_over))
        failure.attempts += 1
        where = {"uid": mail.uid, "uidvalidity": mail.uidvalidity, "size": mail.size}
        # Others went through since it first failed: the sink works, this message does not.
        if failure.attempts < self._max_attempts or self.handed_over == failure.handed_before:
            _log.warning(
                "handing over a message failed, trying again later",
                error=self.last_error, attempt=failure.attempts, **where,
            )  # fmt: skip
            return False
        del self._failures[key]
        self.given_up += 1
        _log.error(
            "giving up on a message: marked processed without being handed over",
            error=self.last_error, attempts=failure.attempts, exc_info=exc, **where,
        )  # fmt: skip
        return True

    async def _mark(self, uids: list[int]) -> None:
        """Mark messages processed: \\Seen, then moved when a folder is configured."""
        if not uids:
            return
        imap = self._imap
        uid = imapwire.uid_set(uids)
        await self._ok(imap.uid("store", uid, "+FLAGS.SILENT (\\Seen)"), "UID STORE")
        if not self._move:
            return
        folder = imapwire.imap_quote(self._config.processed_folder)
        if imap.has_capability("MOVE"):
            await self._ok(imap.uid("move", uid, folder), "UID MOVE")
            return
        await self._ok(imap.uid("copy", uid, folder), "UID COPY")
        await self._ok(imap.uid("store", uid, "+FLAGS.SILENT (\\Deleted)"), "UID STORE")
        if imap.has_capability("UIDPLUS"):
            await self._ok(imap.uid("expunge", uid), "UID EXPUNGE")

    async def _replace(self, copies: dict[int, tuple[bytes, datetime | None]]) -> None:
        """Messages that held a pass phrase: their masked copies (``imap.passphrase_mail
        = "masked"``: appended, \\Seen, where the message would have gone) replace
        them, or they are deleted ("deleted").  A cut between the two reads the
        original again: a duplicate, masked once more."""
        imap = self._imap
        config = self._config
        if config.passphrase_mail == "masked":
            folder = imapwire.imap_quote(config.processed_folder or config.mailbox)
            for raw, arrived in copies.values():
                await self._ok(
                    imap.append(raw, mailbox=folder, flags="(\\Seen)", date=arrived), "APPEND"
                )
        uid = imapwire.uid_set(sorted(copies))
        await self._ok(imap.uid("store", uid, "+FLAGS.SILENT (\\Seen \\Deleted)"), "UID STORE")
        if imap.has_capability("UIDPLUS"):
            await self._ok(imap.uid("expunge", uid), "UID EXPUNGE")
        else:  # the judge's own mailbox: nothing else in it is waiting to be deleted
            await self._ok(imap.expunge(), "EXPUNGE")
