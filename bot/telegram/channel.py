"""Delivering outbox items to Telegram: :class:`TelegramChannel`.

An item becomes a series of requests: its text cut into messages of at most
4096 characters (the first one a reply to ``reply_ref``, the last one carrying
the inline URL buttons), then its images (one photo, or albums of up to ten),
its GIF as an animation and any other file as a document, all in the forum
topic ``thread_id`` when given. The parts already sent are remembered, so a
retry after a 429 sends only what is missing: every part arrives once. Given
the outbox worker's :class:`~bot.service.PartLog`, each part but the last is
also recorded there as soon as Telegram has accepted it, before the next is
sent: a judge killed mid-delivery sends again only the part in flight
(``OutboxItem.parts_sent``; the last part is covered by the item's mark).
A text part Telegram still finds too long ("message is too long": it counts
after its own parsing) is cut again in halves, until it goes.

The outcome is a :class:`DeliveryResult`: 429 gives ``retry_after``; a user
who blocked the bot or never started it, a chat the bot was removed from or
that does not exist gives ``permanent`` (``reason`` names which, see
:data:`REASONS`); a group migrated to a supergroup gives ``new_destination``,
and the channel sends whatever else still names the old group to the new one.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    MessageEntity,
    ReplyParameters,
    WebAppInfo,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    RetryAfter,
    TelegramError,
)

from bot.logging import get_logger
from bot.service import PartLog
from bot.service.kernel.api import Attachment, DeliveryResult, OutboxItem

from .pacing import retry_after_seconds
from .textsplit import MAX_MESSAGE, Part, resplit, split_formatted, utf16_len

__all__ = [
    "REASONS",
    "START_LINK",
    "Diagrams",
    "TelegramChannel",
    "chat_ref",
    "classify_error",
    "expand_url",
]

log = get_logger(__name__)

# Reasons of permanent failures, first word of DeliveryResult.reason.
REASONS = {
    "blocked": "the user blocked the bot",
    "not_started": "the user never started the bot",
    "deactivated": "the user's account was deleted",
    "kicked": "the bot was removed from the chat",
    "chat_not_found": "no such chat",
    "no_rights": "the bot may not post in the chat",
    "thread_not_found": "no such forum topic",
    "bad_request": "Telegram refused the message",
}
_FORBIDDEN_REASONS = (
    ("blocked", "blocked"),
    ("initiate", "not_started"),
    ("deactivated", "deactivated"),
    ("kicked", "kicked"),
    ("not a member", "kicked"),
)
_BAD_REQUEST_REASONS = (
    ("chat not found", "chat_not_found"),
    ("rights", "no_rights"),
    ("thread not found", "thread_not_found"),
)
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")
_ALBUM = 10
_REMEMBERED_ITEMS = 1024
_SHORTEST_CUT = 64  # a "too long" part shorter than this is not cut again: it is refused

Diagrams = Literal["album", "animation", "both"]

# A button URL the service may use without knowing the bot's name:
# "bot:start" opens the chat with this bot, "bot:start?CODE" starts it with CODE.
START_LINK = "bot:start"
WEB_APP = "webapp:"  # a button that opens the ordering page as a Telegram Mini App


def expand_url(url: str, username: str | None) -> str | None:
    """The real URL of a button (``bot:start[?CODE]`` → ``https://t.me/<bot>[?start=CODE]``)."""
    if not url.startswith(START_LINK):
        return url
    if not username:
        return None  # no bot name to link to: leave the button out
    code = url[len(START_LINK) :].lstrip("?")
    return f"https://t.me/{username}" + (f"?start={code}" if code else "")


def chat_ref(destination: str) -> int | str:
    """A chat id as the Bot API takes it: a number, or ``@name`` of a public chat."""
    text = destination.strip()
    try:
        return int(text)
    except ValueError:
        return text if text.startswith("@") else "@" + text


def classify_error(exc: TelegramError) -> DeliveryResult:
    """The delivery outcome of a Bot API error."""
    message = exc.message
    lowered = message.lower()
    if isinstance(exc, RetryAfter):
        return DeliveryResult(ok=False, retry_after=retry_after_seconds(exc), reason="flood")
    if isinstance(exc, ChatMigrated):
        return DeliveryResult(
            ok=False, new_destination=str(exc.new_chat_id), reason="migrated to a supergroup"
        )
    if isinstance(exc, Forbidden):
        code = next((c for needle, c in _FORBIDDEN_REASONS if needle in lowered), "blocked")
        return DeliveryResult(ok=False, permanent=True, reason=f"{code}: {message}")
    if isinstance(exc, BadRequest):
        code = next((c for needle, c in _BAD_REQUEST_REASONS if needle in lowered), "bad_request")
        return DeliveryResult(ok=False, permanent=True, reason=f"{code}: {message}")
    if isinstance(exc, InvalidToken):
        return DeliveryResult(ok=False, reason="the bot token is not accepted")
    # NetworkError (timeouts included), Conflict, anything new: try again later.
    return DeliveryResult(ok=False, reason=f"network: {message}")


@dataclass(frozen=True)
class _Part:
    """One request of an item's delivery."""

    label: str
    send: Callable[[int | str], Awaitable[object]]
    # The same part in smaller pieces, for a text Telegram finds too long.
    smaller: Callable[[], list[_Part]] | None = None


class TelegramChannel:
    """The ``telegram`` channel of the outbox worker (``Channel`` protocol)."""

    name = "telegram"

    def __init__(self, bot: Bot, *, diagrams: Diagrams = "album") -> None:
        self.bot = bot
        self.diagrams = diagrams
        # (item id, destination) -> labels of the parts already delivered.
        self._progress: OrderedDict[tuple[int, str], set[str]] = OrderedDict()
        # Groups that became supergroups: old id -> new. The outbox moves its rows
        # too, but items of a batch already claimed still name the old chat.
        self._migrated: OrderedDict[str, str] = OrderedDict()

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        key = (item.id, item.destination)
        done = self._progress.setdefault(key, set())
        done.update(item.parts_sent)  # recorded by an earlier attempt, maybe an earlier process
        self._progress.move_to_end(key)
        while len(self._progress) > _REMEMBERED_ITEMS:
            self._progress.popitem(last=False)
        try:
            chat = chat_ref(self._migrated.get(item.destination, item.destination))
            planned = self._parts(item)
            for index, part in enumerate(planned):
                await self._send(part, chat, done, parts, last=index == len(planned) - 1)
        except TelegramError as exc:
            result = classify_error(exc)
            if result.new_destination:
                self._migrated[item.destination] = result.new_destination
                while len(self._migrated) > _REMEMBERED_ITEMS:
                    self._migrated.popitem(last=False)
            if result.permanent or result.new_destination:
                self._progress.pop(key, None)
            log.info(
                "telegram delivery failed",
                outbox_id=item.id,
                kind=item.kind,
                sent_parts=len(done),
                reason=result.reason,
                retry_after=result.retry_after,
                permanent=result.permanent,
            )
            return result
        except ValueError as exc:  # an item no retry can fix, e.g. a thread id that is no number
            self._progress.pop(key, None)
            return DeliveryResult(ok=False, permanent=True, reason=f"bad_request: {exc}")
        self._progress.pop(key, None)
        return DeliveryResult(ok=True)

    async def _send(
        self, part: _Part, chat: int | str, done: set[str], parts: PartLog | None, *, last: bool
    ) -> None:
        """Send ``part`` unless it went already; ``last``: nothing of the item follows."""
        if part.label in done:
            return
        begun = any(label.startswith(part.label + ".") for label in done)
        if not begun:  # pieces of it went already: go on with them, not with the whole
            try:
                await part.send(chat)
            except BadRequest as exc:
                if not _too_long(exc) or part.smaller is None or not part.smaller():
                    raise
                log.warning("telegram: message too long, sent in pieces", part=part.label)
                begun = True
            else:
                done.add(part.label)
                # Telegram has it: on record before anything more goes (the last
                # part needs none: the item is marked sent next).
                if parts is not None and not last:
                    await parts.sent(part.label)
                return
        assert part.smaller is not None
        pieces = part.smaller()
        for index, piece in enumerate(pieces):
            await self._send(piece, chat, done, parts, last=last and index == len(pieces) - 1)
        done.add(part.label)

    def _username(self) -> str | None:
        try:
            name: str | None = self.bot.username
        except RuntimeError:  # the bot was never initialized
            return None
        return name

    # ------------------------------------------------------------------ planning
    def _parts(self, item: OutboxItem) -> list[_Part]:
        thread = int(item.thread_id) if item.thread_id else None
        reply = (
            ReplyParameters(int(item.reply_ref), allow_sending_without_reply=True)
            if item.reply_ref and item.reply_ref.isdigit()
            else None
        )
        buttons = [
            # "webapp:URL" opens the ordering page as a Mini App (private chats only).
            [InlineKeyboardButton(label, web_app=WebAppInfo(link[len(WEB_APP) :]))]
            if link.startswith(WEB_APP)
            else [InlineKeyboardButton(label, url=link)]
            for label, url in item.buttons
            if (link := expand_url(url, self._username())) is not None
        ]
        markup = InlineKeyboardMarkup(buttons) if buttons else None
        # preformatted blocks (bot.service.kernel.textblocks) go as "pre" entities:
        # fixed-width, and nothing to escape
        texts = split_formatted(item.text, MAX_MESSAGE)
        if not texts and markup is not None:
            texts = [("⬇", ())]  # buttons need a message to sit under
        parts = [
            self._text_part(
                f"text{index}",
                text,
                thread,
                reply if index == 0 else None,
                markup if index == len(texts) - 1 else None,
            )
            for index, text in enumerate(texts)
        ]
        # Media reply to the original message only when there is no text before them.
        media_reply = reply if not texts else None
        images, animations, documents = _sort_attachments(item.attachments)
        if self.diagrams == "album" and images:
            animations = []
        elif self.diagrams == "animation" and animations:
            images = []
        for start in range(0, len(images), _ALBUM):
            parts.append(
                self._images_part(
                    f"images{start}", images[start : start + _ALBUM], thread, media_reply
                )
            )
            media_reply = None
        for index, gif in enumerate(animations):
            parts.append(
                self._file_part(f"animation{index}", "animation", gif, thread, media_reply)
            )
            media_reply = None
        for index, document in enumerate(documents):
            parts.append(
                self._file_part(f"document{index}", "document", document, thread, media_reply)
            )
            media_reply = None
        return parts

    def _text_part(
        self,
        label: str,
        part: Part,
        thread: int | None,
        reply: ReplyParameters | None,
        markup: InlineKeyboardMarkup | None,
    ) -> _Part:
        text, ranges = part
        entities = [MessageEntity(MessageEntity.PRE, offset, length) for offset, length in ranges]

        def smaller() -> list[_Part]:
            size = utf16_len(text)
            if size < _SHORTEST_CUT:
                return []
            pieces = resplit(part, size // 2 + 1)
            last = len(pieces) - 1
            return [
                self._text_part(
                    f"{label}.{index}",
                    piece,
                    thread,
                    reply if index == 0 else None,
                    markup if index == last else None,
                )
                for index, piece in enumerate(pieces)
            ]

        async def send(chat: int | str) -> object:
            return await self.bot.send_message(
                chat,
                text,
                entities=entities or None,
                message_thread_id=thread,
                reply_parameters=reply,
                reply_markup=markup,
            )

        return _Part(label, send, smaller)

    def _images_part(
        self,
        label: str,
        images: list[Attachment],
        thread: int | None,
        reply: ReplyParameters | None,
    ) -> _Part:
        async def send(chat: int | str) -> object:
            if len(images) == 1:
                return await self.bot.send_photo(
                    chat,
                    images[0].data,
                    filename=images[0].filename,
                    message_thread_id=thread,
                    reply_parameters=reply,
                )
            media = [InputMediaPhoto(image.data, filename=image.filename) for image in images]
            return await self.bot.send_media_group(
                chat, media, message_thread_id=thread, reply_parameters=reply
            )

        return _Part(label, send)

    def _file_part(
        self,
        label: str,
        kind: Literal["animation", "document"],
        attachment: Attachment,
        thread: int | None,
        reply: ReplyParameters | None,
    ) -> _Part:
        async def send(chat: int | str) -> object:
            if kind == "animation":
                return await self.bot.send_animation(
                    chat,
                    attachment.data,
                    filename=attachment.filename,
                    message_thread_id=thread,
                    reply_parameters=reply,
                )
            return await self.bot.send_document(
                chat,
                attachment.data,
                filename=attachment.filename,
                message_thread_id=thread,
                reply_parameters=reply,
            )

        return _Part(label, send)


def _too_long(exc: BadRequest) -> bool:
    lowered = exc.message.lower()
    return "too long" in lowered and "caption" not in lowered


def _sort_attachments(
    attachments: tuple[Attachment, ...],
) -> tuple[list[Attachment], list[Attachment], list[Attachment]]:
    """(still images, GIF animations, other files)."""
    images, animations, documents = [], [], []
    for attachment in attachments:
        kind = attachment.content_type.lower().split(";")[0].strip()
        name = attachment.filename.lower()
        if kind == "image/gif" or name.endswith(".gif"):
            animations.append(attachment)
        elif kind in _IMAGE_TYPES or name.endswith((".png", ".jpg", ".jpeg", ".webp")):
            images.append(attachment)
        else:
            documents.append(attachment)
    return images, animations, documents
