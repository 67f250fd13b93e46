"""What the game service and the channel adapters exchange: pure data, no I/O.

Telegram and e-mail adapters turn what they receive into :class:`Inbound`,
hand it to ``GameService.receive`` and get a :class:`Reply`; the outbox
worker hands them :class:`OutboxItem` and they answer with a
:class:`DeliveryResult`.  The names and fields are a contract: extend them
compatibly (new fields with defaults), never rename.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# What a stored message shows instead of a pass phrase (never kept in clear).
from bot.masking import MASK as PASSPHRASE_MASK
from bot.masking import mask_passphrase_command

__all__ = [
    "PASSPHRASE_MASK",
    "REPLY_STATUSES",
    "Attachment",
    "DeliveryResult",
    "Inbound",
    "MemberInfo",
    "OutboxItem",
    "Reply",
    "mask_passphrase_command",
]

REPLY_STATUSES = ("ok", "partial", "rejected", "duplicate", "unknown_sender", "refused", "ignored")


@dataclass(frozen=True)
class Inbound:
    """One message as a channel received it."""

    channel: str  # "telegram" | "email" | "demo" | "cli"
    # Unique per channel: telegram f"{chat_id}:{message_id}", e-mail the Message-ID
    # (or, when missing, a digest of the raw bytes: bot.mail.adapter.content_id).
    external_id: str
    sender: str  # telegram user id (str) or e-mail address (lower-case)
    text: str  # the text to interpret (mail: decoded, quotes and signature stripped)
    raw: bytes  # exactly what was received (update JSON / RFC 822 bytes)
    received_at: datetime  # aware, UTC
    chat: str | None = None  # telegram chat where it was written (private chat or team group)
    game_hint: str | None = None  # e.g. "DB-12" from an e-mail subject tag
    edit_of: str | None = None  # telegram: external_id of the message this edit replaces
    reply_ref: str | None = None  # what a reply should point to (message id / Message-ID)
    subject: str | None = None  # e-mail subject (for "Re: …")
    authenticated: bool = True  # e-mail: pass phrase or DKIM verified by the adapter
    meta: Mapping[str, str] = field(default_factory=dict)  # e.g. {"authentication_results": …}


@dataclass(frozen=True)
class Reply:
    """What the service decided (already queued in the outbox as well)."""

    status: str  # one of REPLY_STATUSES
    text: str  # rendered in the member's language
    game_id: int | None = None
    outbox_ids: tuple[int, ...] = ()
    # Extension: machine-readable results, e.g. {"code": …} of an invitation.
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MemberInfo:
    """A member as the adapters see him (extension of the contract)."""

    id: int
    name: str
    telegram_user_id: int | None
    email: str | None
    lang: str
    notify: str  # where his private messages go: "telegram" | "email"
    has_passphrase: bool
    # (game id, role, side or None, shirt numbers he controls)
    memberships: tuple[tuple[int, str, str | None, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class OutboxItem:
    """One message to deliver."""

    id: int
    channel: str  # "telegram" | "email"
    destination: str  # telegram chat id / e-mail address
    # "ack" | "round_open" | "reminder" | "results" | "match_end" | "announce" | "notice" | "gm_alert"
    kind: str
    text: str  # plain text (Telegram message / e-mail text part)
    subject: str | None = None  # e-mail subject
    html: str | None = None  # optional e-mail HTML part (images as cid:<filename>)
    attachments: tuple[Attachment, ...] = ()  # diagrams (PNG per tick, GIF of the round)
    reply_ref: str | None = None  # reply to this message (telegram message id / Message-ID)
    thread_id: str | None = None  # telegram forum topic
    buttons: tuple[tuple[str, str], ...] = ()  # (label, url) inline buttons
    attempts: int = 0
    # The parts a channel already delivered in earlier attempts (its own labels,
    # recorded through a PartLog): a retry sends only the others.
    parts_sent: tuple[str, ...] = ()

    @property
    def idempotency_key(self) -> str:
        """Stable per item: adapters that can deduplicate should send it along."""
        return f"dragonball-outbox-{self.id}"


@dataclass(frozen=True)
class DeliveryResult:
    ok: bool
    retry_after: float | None = None  # seconds; None with ok=False: the worker's backoff
    permanent: bool = False  # never retry (blocked by user, chat gone, address rejected)
    reason: str = ""
    new_destination: str | None = None  # e.g. a chat migrated to a supergroup: redeliver there
