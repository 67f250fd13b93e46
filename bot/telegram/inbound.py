"""From a Telegram update to the service's :class:`Inbound`.

``external_id`` is ``"<chat id>:<message id>"``; an edit gets its own
``"<chat id>:<message id>:edit:<update id>"`` (stable when Telegram delivers
the same update twice) and points with ``edit_of`` at the message it edits.
Commands addressed to this bot as ``/orders@judge_bot`` lose the suffix;
commands for another bot in a group give ``None`` (not ours to read).
A message that is no text gets ``meta["media"]``: ``"photo"``, ``"sticker"``, ...
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from telegram import Message, Update

from bot.service.kernel.api import Inbound

__all__ = ["CHANNEL", "command_text", "external_id", "media_kind", "to_inbound"]

CHANNEL = "telegram"
# Message fields that make it something other than text (animation before document:
# a GIF carries both).
_MEDIA = (
    "animation", "audio", "contact", "dice", "document", "game", "location", "paid_media",
    "photo", "poll", "sticker", "story", "venue", "video", "video_note", "voice",
)  # fmt: skip
_COMMAND = re.compile(r"^(\s*/[A-Za-z0-9_]+)@([A-Za-z0-9_]+)(?=\s|$)")


def command_text(text: str, bot_username: str | None) -> str | None:
    """``text`` with a leading ``/cmd@this_bot`` made ``/cmd``; None if for another bot."""
    match = _COMMAND.match(text)
    if match is None:
        return text
    if bot_username is not None and match.group(2).lower() != bot_username.lower():
        return None
    return match.group(1) + text[match.end() :]


def external_id(message: Message) -> str:
    return f"{message.chat.id}:{message.message_id}"


def media_kind(message: Message) -> str | None:
    """What a message that is not text carries (``"photo"``, ...); None for text."""
    if message.text is not None:
        return None
    return next((name for name in _MEDIA if getattr(message, name, None)), "other")


def _aware(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.now(UTC)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def to_inbound(update: Update, text: str) -> Inbound:
    """The service's view of a (possibly edited) message of ``update``; ``text`` is
    its text, or its caption."""
    message = update.effective_message
    user = update.effective_user
    if message is None or user is None:
        raise ValueError("update without a message or a sender")
    own_id = external_id(message)
    edited = update.edited_message is not None
    meta = {
        "chat_type": message.chat.type,
        "name": user.full_name,
        "username": user.username or "",
        "language_code": user.language_code or "",
    }
    if message.is_topic_message and message.message_thread_id is not None:
        meta["thread_id"] = str(message.message_thread_id)
    media = media_kind(message)
    if media is not None:
        meta["media"] = media
    written = message.text if message.text is not None else (message.caption or "")
    if _COMMAND.match(written) and text != written:  # "/cmd@this_bot": meant for the judge
        meta["addressed"] = "1"
    # As received: the service stores it without a pass phrase (bot.masking).
    raw = json.dumps(update.to_dict(), ensure_ascii=False, sort_keys=True, default=str)
    return Inbound(
        channel=CHANNEL,
        external_id=f"{own_id}:edit:{update.update_id}" if edited else own_id,
        sender=str(user.id),
        text=text,
        raw=raw.encode(),
        # Telegram's own time stamp: a message written before the deadline counts
        # as such even when it is processed a moment after.
        received_at=_aware(message.edit_date if edited else message.date),
        chat=str(message.chat.id),
        edit_of=own_id if edited else None,
        reply_ref=str(message.message_id),
        meta=meta,
    )
