"""The e-mail adapter: a received mail in, a call of the game service out.

:meth:`MailAdapter.handle` is the sink of :class:`~bot.mail.imap.ImapInbound`.
It reads the mail (:mod:`bot.mail.reading`), decides who is writing, and
hands an :class:`~bot.service.kernel.api.Inbound` to ``service.receive``, which
stores the raw bytes first and answers through the outbox (to the member's
registered address only). Nothing a sender puts into a mail makes it raise;
only a failing service (database down) does, and then the IMAP loop leaves
the message unprocessed and reads it again later.

Decided here, before the service sees the message (``Inbound.meta``):

* automatic mail (auto-replies, bounces, list mail) and mail without a usable
  From get ``ignore``: stored, never answered;
* mail that reached the mailbox more than ``mail.old_mail_days`` before it is
  read (a mailbox's old mail when the judge first reads it) gets ``ignore``:
  stored, never answered, nothing in it done — thousands of stale mails must
  not each get an answer; the game masters are told once (per process);
* a message over ``mail.max_message_bytes`` gets ``refuse = "too_large"``
  (stored — only its header when the IMAP loop fetched no more — and answered
  with the limit);
* ``authenticated`` is True only for a registered address with the right pass
  phrase, or with a DKIM pass reported by our own receiving server when
  ``mail.accept_dkim`` is on, or (``mail.require_passphrase = false``) for any
  registered address;
* failures (no or wrong pass phrase, stranger) are counted per address; past
  ``max_failures`` in ``failure_window`` the mail gets ``ignore`` (no answer),
  and reaching the limit on a member's address alerts the game masters;
* ``новый пароль: …`` in an authenticated mail becomes ``/passphrase …``; a
  first pass phrase may come with the invitation: ``/start CODE`` plus a
  ``пароль: …`` line, for an address that has none yet.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.config import MailConfig
from bot.i18n import N_
from bot.logging import get_logger
from bot.mail.auth import FailureLimiter, dkim_verified
from bot.mail.imap import FetchedMail
from bot.mail.reading import MailText, read_message
from bot.masking import stored_form
from bot.service.kernel.api import Inbound, MemberInfo, Reply

__all__ = ["MailAdapter", "MailPolicy", "MailService", "content_id"]

_log = get_logger(__name__)


def content_id(raw: bytes) -> str:
    """The id of a mail without Message-ID: a digest of its bytes as the server
    keeps them.  Not its UID: a mailbox rebuilt under a new UIDVALIDITY numbers
    its mail afresh, and a stored but unmarked mail would be answered twice."""
    return "sha256:" + hashlib.sha256(raw).hexdigest()[:40]


class MailService(Protocol):
    """What the adapter needs of ``bot.service.GameService``."""

    async def receive(self, msg: Inbound) -> Reply: ...

    async def member_by_email(self, address: str) -> MemberInfo | None: ...

    async def check_passphrase(self, email: str, phrase: str) -> bool: ...

    async def alert_game_masters(
        self, key: str, game_id: int | None = None, **params: object
    ) -> tuple[int, ...]: ...

    async def tell_member(
        self, member_id: int, key: str, subject_key: str, **params: object
    ) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class MailPolicy:
    """The ``[mail]`` settings the adapter applies."""

    max_message_bytes: int = 1_000_000
    require_passphrase: bool = True
    accept_dkim: bool = False
    authserv_id: str | None = None
    max_failures: int = 3
    failure_window: timedelta = timedelta(hours=1)
    lock_for: timedelta = timedelta(hours=1)
    old_mail: timedelta | None = timedelta(days=30)  # None: every mail is new

    @classmethod
    def from_config(cls, config: MailConfig) -> MailPolicy:
        return cls(
            max_message_bytes=config.max_message_bytes,
            require_passphrase=config.require_passphrase,
            accept_dkim=config.accept_dkim,
            authserv_id=config.dkim_authserv_id,
            max_failures=config.max_failures,
            failure_window=timedelta(minutes=config.failure_window_minutes),
            lock_for=timedelta(minutes=config.lock_minutes),
            old_mail=timedelta(days=config.old_mail_days) if config.old_mail_days else None,
        )


@dataclass
class _Verdict:
    member: MemberInfo | None = None
    authenticated: bool = False
    # passphrase | dkim | from_header | no_passphrase | wrong_passphrase | passphrase_not_set | ...
    how: str = "none"


class MailAdapter:
    """Turns received mail into ``service.receive`` calls (the IMAP loop's sink)."""

    def __init__(
        self,
        service: MailService,
        policy: MailPolicy | None = None,
        *,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._service = service
        self.policy = policy or MailPolicy()
        self._now = now
        policy = self.policy
        # Wrong pass phrases of members' addresses: counted, then the address locked.
        self.limiter = FailureLimiter(policy.max_failures, policy.failure_window, policy.lock_for)
        # Mail from unknown addresses (nothing to guess; only /start is answered):
        # past the limit it is stored unanswered, so forged senders get no flood.
        self.strangers = FailureLimiter(policy.max_failures, policy.failure_window)
        self._told_old = False  # the game masters heard of old mail (once a process)
        self._kept: dict[str, bytes] = {}  # stored forms for kept_copy, by content_id

    async def handle(self, mail: FetchedMail) -> Reply:
        """Sink of the IMAP loop: one fetched message."""
        fallback = content_id(mail.raw)
        oversized = mail.truncated or mail.size > self.policy.max_message_bytes
        reply, stored = await self._handle(
            mail.raw, fallback_id=fallback, oversized=oversized, arrived=mail.arrived
        )
        if oversized or stored != mail.raw:
            # The mailbox keeps no more than the database (kept_copy): a mail over
            # the limit was not read, so it may hold a pass phrase nobody masked.
            self._kept[fallback] = stored
            while len(self._kept) > 1000:  # a copy nobody asked for: forgotten
                self._kept.pop(next(iter(self._kept)))
        return reply

    def kept_copy(self, mail: FetchedMail) -> bytes | None:
        """What the mailbox may keep of ``mail`` once handled (the IMAP loop's
        ``kept``): its stored form when that differs from it — a pass phrase
        masked, or only the header of a mail over the size limit — else None."""
        return self._kept.pop(content_id(mail.raw), None)

    async def handle_raw(
        self, raw: bytes, *, fallback_id: str, oversized: bool = False,
        arrived: datetime | None = None,
    ) -> Reply:  # fmt: skip
        """Read ``raw`` and hand it to the service; returns the service's reply.
        ``arrived`` (the mailbox's INTERNALDATE) is the time the message counts by —
        never its Date header, which the sender writes; without it, now."""
        reply, _stored = await self._handle(
            raw, fallback_id=fallback_id, oversized=oversized, arrived=arrived
        )
        return reply

    async def _handle(
        self, raw: bytes, *, fallback_id: str, oversized: bool, arrived: datetime | None
    ) -> tuple[Reply, bytes]:
        """:meth:`handle_raw`, and the bytes stored of ``raw``."""
        now = self._now()
        counts_from = arrived or now
        limit = self.policy.max_message_bytes
        mail = read_message(raw, max_bytes=0 if oversized else limit)
        sender = mail.from_address or ""
        meta = self._meta(mail)
        verdict = _Verdict()
        old = self.policy.old_mail
        if old is not None and arrived is not None and now - arrived > old:
            meta["ignore"] = f"old mail: reached the mailbox {(now - arrived).days} days before"
        elif mail.auto is not None:
            meta["ignore"] = mail.auto
        elif not sender:
            meta["ignore"] = "no usable From address"
        else:
            verdict = await self._authenticate(mail, sender, now)
            meta["auth"] = verdict.how
            if "too large" in mail.problems:
                meta.update(refuse="too_large", limit=str(limit))
            if verdict.how == "locked":
                meta["ignore"] = "locked: too many wrong pass phrases"
            elif verdict.how == "unlocked":
                meta["ignore"] = "unlock code: the address is unlocked"
            elif verdict.member is None and self.strangers.exceeded(sender, now):
                meta["ignore"] = "too many failed attempts"
        # Stored without the pass phrases (docs/email.md, "What is stored"); the
        # body of an oversized mail was not read for them: read it for this alone.
        secrets = read_message(raw).secrets if "too large" in mail.problems else mail.secrets
        raw = stored_form("", raw, secrets)[1]
        text = mail.text
        if verdict.authenticated and mail.new_passphrase is not None:
            text = f"/passphrase {mail.new_passphrase}"
        external_id = mail.message_id or fallback_id
        reply = await self._service.receive(
            self._inbound(mail, external_id, sender, text, raw, counts_from, verdict, meta)
        )
        # The service logs the message at INFO (bot.service.service); this is the detail.
        _log.debug(
            "mail received", external_id=external_id, sender=sender, status=reply.status,
            auth=meta.get("auth", "-"), ignored=meta.get("ignore", ""),
        )  # fmt: skip
        if reply.status == "duplicate":
            return reply, raw
        if meta.get("ignore", "").startswith("old mail") and not self._told_old:
            await self._tell_old(counts_from)
        if verdict.how == "unlocked" and verdict.member is not None:
            await self._service.tell_member(
                verdict.member.id, N_("mail_unlocked"), N_("subject_mail_lock")
            )
        elif "ignore" not in meta and meta.get("refuse") != "too_large":
            # A mail refused for its size was never read for its pass phrase: it is
            # no failed attempt (the sender is told about the size, nothing else).
            await self._count_failure(mail, sender, now, verdict, reply)
        first_phrase = mail.new_passphrase or mail.passphrase
        if (
            reply.status == "ok"
            and not verdict.authenticated
            and "ignore" not in meta
            and mail.text.lstrip().startswith("/start")
            and first_phrase is not None
            and (verdict.member is None or not verdict.member.has_passphrase)
        ):
            # The invitation code vouched for the sender: his first pass phrase.
            await self._service.receive(
                self._inbound(
                    mail, f"{external_id}#passphrase", sender, f"/passphrase {first_phrase}",
                    raw, counts_from, _Verdict(verdict.member, True, "invitation"), {"auth": "invitation"},
                )
            )  # fmt: skip
        return reply, raw

    @staticmethod
    def _inbound(
        mail: MailText,
        external_id: str,
        sender: str,
        text: str,
        raw: bytes,
        now: datetime,
        verdict: _Verdict,
        meta: dict[str, str],
    ) -> Inbound:
        return Inbound(
            channel="email",
            external_id=external_id,
            sender=sender,
            text=text,
            raw=raw,
            received_at=now,
            game_hint=mail.game_tag,
            reply_ref=mail.message_id,
            subject=mail.subject or None,
            authenticated=verdict.authenticated,
            meta=meta,
        )

    @staticmethod
    def _meta(mail: MailText) -> dict[str, str]:
        meta = {"size": str(mail.size)}
        if mail.authentication_results:
            meta["authentication_results"] = "\n".join(mail.authentication_results)
        if mail.problems:
            meta["problems"] = "; ".join(mail.problems)
        if mail.in_reply_to:
            meta["in_reply_to"] = mail.in_reply_to
        if mail.attachments:
            meta["attachments_ignored"] = str(mail.attachments)
        if mail.from_name:
            meta["name"] = mail.from_name  # the service names new members after it
        return meta

    async def _authenticate(self, mail: MailText, sender: str, now: datetime) -> _Verdict:
        member = await self._service.member_by_email(sender)
        if member is None:
            return _Verdict(None, False, "unknown_sender")
        # The lock is looked at before the phrase: a locked address has no guesses.
        if self.limiter.locked_until(sender, now) is not None:
            if self.limiter.unlock(sender, _code_words(mail), now):
                return _Verdict(member, False, "unlocked")
            return _Verdict(member, False, "locked")
        if mail.passphrase is not None and await self._service.check_passphrase(
            sender, mail.passphrase
        ):
            self.limiter.clear(sender)
            return _Verdict(member, True, "passphrase")
        policy = self.policy
        results = list(mail.authentication_results)
        if policy.accept_dkim and dkim_verified(results, sender, policy.authserv_id):
            return _Verdict(member, True, "dkim")
        if not policy.require_passphrase:
            return _Verdict(member, True, "from_header")
        if not member.has_passphrase:
            how = "passphrase_not_set"
        elif mail.passphrase is not None:
            how = "wrong_passphrase"
        else:
            how = "no_passphrase"
        return _Verdict(member, False, how)

    async def _tell_old(self, arrived: datetime) -> None:
        """The first old mail this process stores: the game masters are told once
        that mail this old is kept unanswered, and how to have it answered."""
        assert self.policy.old_mail is not None
        await self._service.alert_game_masters(
            "gm_alert_old_mail",
            days=self.policy.old_mail.days,
            arrived=arrived.strftime("%Y-%m-%d %H:%M UTC"),
        )
        self._told_old = True

    async def _count_failure(
        self, mail: MailText, sender: str, now: datetime, verdict: _Verdict, reply: Reply
    ) -> None:
        """Count a refused mail.  A stranger's counts against the strangers' limit
        (a joining mail that was taken clears it).  Of a member's mail only a wrong
        pass phrase counts — not a mail without one, nor a joining mail; the
        ``max_failures``-th locks the address (the refusal is answered first): the
        game masters are told, and the player gets a code that unlocks it."""
        if verdict.authenticated:
            return
        joining = mail.text.lstrip().startswith("/start")
        member = verdict.member
        if member is None:
            if joining and reply.status == "ok":
                self.strangers.clear(sender)
            else:  # a wrong code too: its answer goes to a From anyone may type
                self.strangers.record(sender, now)
            return
        if joining or verdict.how != "wrong_passphrase":
            return
        failures = self.limiter.record(sender, now)
        if failures < self.limiter.max_failures:
            return
        code, _until = self.limiter.lock(sender, now)
        minutes = int(self.limiter.lock_for.total_seconds() // 60)
        games = {entry[0] for entry in member.memberships}
        await self._service.alert_game_masters(
            "gm_alert_mail_failures",
            games.pop() if len(games) == 1 else None,
            sender=sender,
            failures=failures,
            minutes=int(self.limiter.window.total_seconds() // 60),
            lock=minutes,
        )
        await self._service.tell_member(
            member.id, N_("mail_locked"), N_("subject_mail_lock"),
            failures=failures, minutes=minutes, code=code,
        )  # fmt: skip


def _code_words(mail: MailText) -> list[str]:
    """What may be an unlock code in a mail: ``XXXX-XXXX`` words of its text and
    subject, Cyrillic letters that look Latin read as Latin."""
    text = f"{mail.subject}\n{mail.text}".translate(_LOOKALIKES)
    return re.findall(r"\b[A-Za-z0-9]{4}-[A-Za-z0-9]{4}\b", text)


_LOOKALIKES = str.maketrans("АВСЕНКМОРТХУавсенкмортху", "ABCEHKMOPTXYabcehkmoptxy")
