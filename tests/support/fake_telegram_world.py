"""The in-memory Telegram world behind the fake Bot API server.

Users, chats (private chats, groups, supergroups with forum topics, channels),
every message written in them, the queue of updates for the bot and what the
bot sent. The JSON produced here follows the shapes of the real Bot API
(Message, Chat, User, Update, ChatMemberUpdated, ...), so the real
python-telegram-bot client parses it as it would parse Telegram's answers.

Test code acts as the people: :meth:`World.send_text` writes a message,
:meth:`World.send_media` sends a photo, document, sticker or voice message
(with a caption), :meth:`World.edit_text` edits one, :meth:`World.block` blocks the bot,
:meth:`World.migrate` upgrades a group to a supergroup.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_UPDATE_TYPES",
    "MEDIA_KINDS",
    "ApiError",
    "FakeChat",
    "FakeUser",
    "SentMessage",
    "UploadedFile",
    "World",
    "utf16_len",
]

JSON = dict[str, Any]

# getUpdates without allowed_updates delivers every type except these (Bot API docs).
_OPT_IN_TYPES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "callback_query",
        "my_chat_member",
        "inline_query",
    }
)

# A person's media message by kind: (file name, MIME type, the object's own fields).
MEDIA_KINDS: dict[str, tuple[str, str, JSON]] = {
    "photo": ("photo.jpg", "image/jpeg", {"width": 1280, "height": 960}),
    "document": (
        "orders.pdf",
        "application/pdf",
        {"file_name": "orders.pdf", "mime_type": "application/pdf"},
    ),
    "sticker": (
        "sticker.webp",
        "image/webp",
        {"type": "regular", "width": 512, "height": 512, "is_animated": False, "is_video": False},
    ),
    "voice": ("voice.ogg", "audio/ogg", {"duration": 3, "mime_type": "audio/ogg"}),
}

_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")


def command_entities(text: str) -> list[JSON]:
    """The ``bot_command`` entities Telegram marks in a text (offsets in UTF-16 units)."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_len(text[: match.start()]),
            "length": utf16_len(match.group()),
        }
        for match in _COMMAND.finditer(text)
    ]


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: how the Bot API measures offsets."""
    return len(text.encode("utf-16-le")) // 2


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status, description, optional parameters."""

    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def body(self) -> JSON:
        body: JSON = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


@dataclass
class FakeUser:
    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False

    def to_json(self) -> JSON:
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass
class FakeChat:
    id: int
    type: str  # "private" | "group" | "supergroup" | "channel"
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    is_forum: bool = False
    bot_member: bool = True  # groups: the bot is in it
    bot_admin: bool = True  # channels: the bot may post
    migrated_to: int | None = None
    members: set[int] = field(default_factory=set)
    topics: dict[int, str] = field(default_factory=dict)
    next_message_id: int = 1

    def to_json(self) -> JSON:
        data: JSON = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass(frozen=True)
class UploadedFile:
    filename: str
    content_type: str
    data: bytes


@dataclass
class SentMessage:
    """One message the bot sent (an album gives one per item)."""

    method: str
    chat_id: int
    message: JSON
    params: JSON
    file: UploadedFile | None = None
    at: float = field(default_factory=time.monotonic)

    @property
    def message_id(self) -> int:
        return int(self.message["message_id"])

    @property
    def text(self) -> str:
        """The text, or the caption of a media message ("" when none)."""
        return str(self.message.get("text") or self.message.get("caption") or "")

    @property
    def reply_to(self) -> int | None:
        reply = self.message.get("reply_to_message")
        return int(reply["message_id"]) if reply else None

    @property
    def buttons(self) -> list[tuple[str, str]]:
        markup = self.message.get("reply_markup") or {}
        return [
            (button["text"], button.get("url", ""))
            for row in markup.get("inline_keyboard", [])
            for button in row
        ]


class World:
    """Everything the fake server knows; all of it lives in one event loop."""

    def __init__(self, token: str, bot_username: str = "dragonball_test_bot") -> None:
        bot_id = int(token.split(":", 1)[0])
        self.token = token
        self.bot = FakeUser(bot_id, "Dragonball judge", bot_username, is_bot=True)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.messages: dict[tuple[int, int], JSON] = {}
        self.sent: list[SentMessage] = []
        self.updates: list[JSON] = []  # not yet confirmed by the bot
        self.history: list[JSON] = []  # every update ever queued
        self.delivered_at: dict[int, float] = {}  # update_id -> first handed to the bot
        self.allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        # chat id (None: the default for private chats) -> its menu button (setChatMenuButton)
        self.menu_buttons: dict[int | None, JSON] = {}
        self.webhook: JSON | None = None
        self.files: dict[str, UploadedFile] = {}
        self._update_ids = itertools.count(100_000)
        self._file_ids = itertools.count(1)
        self._chat_ids = itertools.count(1000)
        self._changed = asyncio.Event()

    # -------------------------------------------------------------- change signal
    def touch(self) -> None:
        """Wake whoever waits for a change (long polling, tests waiting for output)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_change(self, timeout: float) -> None:
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    @staticmethod
    def now() -> int:
        return int(time.time())

    # -------------------------------------------------------------- people and chats
    def user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        *,
        language_code: str | None = "ru",
    ) -> FakeUser:
        user = FakeUser(user_id, first_name, username, language_code=language_code)
        self.users[user_id] = user
        self.chats[user_id] = FakeChat(user_id, "private", username=username, first_name=first_name)
        return user

    def group(
        self,
        title: str,
        members: Sequence[FakeUser] = (),
        *,
        supergroup: bool = False,
        forum: bool = False,
    ) -> FakeChat:
        number = next(self._chat_ids)
        chat_id = int(f"-100{number}") if supergroup or forum else -number
        chat = FakeChat(
            chat_id,
            "supergroup" if supergroup or forum else "group",
            title=title,
            is_forum=forum,
            members={member.id for member in members},
        )
        self.chats[chat_id] = chat
        return chat

    def channel(
        self, title: str, username: str | None = None, *, bot_admin: bool = True
    ) -> FakeChat:
        chat_id = int(f"-100{next(self._chat_ids)}")
        chat = FakeChat(chat_id, "channel", title=title, username=username, bot_admin=bot_admin)
        self.chats[chat_id] = chat
        return chat

    def resolve_chat(self, chat_id: int | str) -> FakeChat:
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            name = chat_id[1:].lower()
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == name and chat.type != "private":
                    return chat
            raise ApiError(400, "Bad Request: chat not found")
        try:
            number = int(chat_id)
        except ValueError:
            raise ApiError(400, "Bad Request: chat not found") from None
        chat = self.chats.get(number)
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        return chat

    # -------------------------------------------------------------- messages
    def new_message(self, chat: FakeChat, sender: FakeUser | None, **content: Any) -> JSON:
        message: JSON = {"message_id": chat.next_message_id, "date": self.now()}
        chat.next_message_id += 1
        if sender is not None:
            message["from"] = sender.to_json()
        elif chat.type == "channel":
            message["sender_chat"] = chat.to_json()
        message["chat"] = chat.to_json()
        message.update({key: value for key, value in content.items() if value is not None})
        self.messages[(chat.id, message["message_id"])] = message
        return message

    def find_message(self, chat: FakeChat, message_id: int) -> JSON | None:
        return self.messages.get((chat.id, message_id))

    def push_update(self, kind: str, payload: JSON) -> JSON:
        update = {"update_id": next(self._update_ids), kind: payload}
        self.updates.append(update)
        self.history.append(update)
        self.touch()
        return update

    def send_text(
        self,
        user: FakeUser,
        chat: FakeChat | None = None,
        text: str = "",
        *,
        reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> JSON:
        """``user`` writes ``text`` in ``chat`` (default: his private chat with the bot)."""
        entities = command_entities(text)
        extra: JSON = {"text": text}
        if entities:
            extra["entities"] = entities
        return self._write(user, chat, extra, reply_to, thread_id)

    def send_media(
        self,
        user: FakeUser,
        chat: FakeChat | None = None,
        kind: str = "photo",
        caption: str | None = None,
        *,
        reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> JSON:
        """``user`` sends a ``kind`` (see :data:`MEDIA_KINDS`) message, with a caption."""
        filename, content_type, fields = MEDIA_KINDS[kind]
        data = f"{kind} of user {user.id}".encode()
        file_id, unique_id = self.store_file(UploadedFile(filename, content_type, data))
        item = {"file_id": file_id, "file_unique_id": unique_id, "file_size": len(data), **fields}
        extra: JSON = {kind: [item] if kind == "photo" else item}  # a photo comes in sizes
        if caption is not None:
            if kind == "sticker":
                raise ValueError("a sticker has no caption")
            extra["caption"] = caption
            entities = command_entities(caption)
            if entities:
                extra["caption_entities"] = entities
        return self._write(user, chat, extra, reply_to, thread_id)

    def _write(
        self,
        user: FakeUser,
        chat: FakeChat | None,
        extra: JSON,
        reply_to: int | None,
        thread_id: int | None,
    ) -> JSON:
        chat = chat or self.chats[user.id]
        if chat.type == "private":
            # Writing to a bot starts the chat; a blocked bot must be restarted first.
            self.started.add(user.id)
            self.blocked.discard(user.id)
        else:
            chat.members.add(user.id)
        if thread_id is not None:
            extra["message_thread_id"] = thread_id
            extra["is_topic_message"] = True
        if reply_to is not None:
            original = self.find_message(chat, reply_to)
            if original is not None:
                extra["reply_to_message"] = original
        message = self.new_message(chat, user, **extra)
        self.push_update("message", message)
        return message

    def edit_text(self, message: JSON, text: str) -> JSON:
        """The author edits ``message``; the bot receives an ``edited_message`` update."""
        chat = self.resolve_chat(message["chat"]["id"])
        stored = self.messages[(chat.id, message["message_id"])]
        stored["text"] = text
        stored["edit_date"] = self.now()
        stored.pop("entities", None)
        entities = command_entities(text)
        if entities:
            stored["entities"] = entities
        kind = "edited_channel_post" if chat.type == "channel" else "edited_message"
        self.push_update(kind, dict(stored))
        return stored

    def block(self, user: FakeUser) -> None:
        """``user`` blocks the bot: sends to him fail with 403 from now on."""
        self.blocked.add(user.id)
        self._member_update(user, "member", {"status": "kicked", "until_date": 0})

    def unblock(self, user: FakeUser) -> None:
        self.blocked.discard(user.id)
        self.started.add(user.id)
        self._member_update(user, "kicked", {"status": "member"})

    def _member_update(self, user: FakeUser, old_status: str, new: JSON) -> None:
        old: JSON = {"user": self.bot.to_json(), "status": old_status}
        if old_status == "kicked":
            old["until_date"] = 0
        self.push_update(
            "my_chat_member",
            {
                "chat": self.chats[user.id].to_json(),
                "from": user.to_json(),
                "date": self.now(),
                "old_chat_member": old,
                "new_chat_member": {"user": self.bot.to_json(), **new},
            },
        )

    def migrate(self, chat: FakeChat) -> FakeChat:
        """Upgrade a basic group to a supergroup (new id); the old id stops working."""
        assert chat.type == "group", "only basic groups migrate"
        new = FakeChat(int(f"-100{abs(chat.id)}"), "supergroup", title=chat.title)
        new.members = set(chat.members)
        self.chats[new.id] = new
        chat.migrated_to = new.id
        self.push_update("message", self.new_message(chat, None, migrate_to_chat_id=new.id))
        self.push_update("message", self.new_message(new, None, migrate_from_chat_id=chat.id))
        return new

    def create_topic(self, chat: FakeChat, name: str) -> int:
        """Open a topic in a forum supergroup; returns its ``message_thread_id``."""
        assert chat.is_forum, "topics exist only in forum supergroups"
        message = self.new_message(
            chat, None, forum_topic_created={"name": name, "icon_color": 7322096}
        )
        thread_id = int(message["message_id"])
        message["message_thread_id"] = thread_id
        message["is_topic_message"] = True
        chat.topics[thread_id] = name
        return thread_id

    # -------------------------------------------------------------- files
    def store_file(self, upload: UploadedFile) -> tuple[str, str]:
        """Keep an uploaded file; returns (file_id, file_unique_id)."""
        number = next(self._file_ids)
        file_id = f"AgAD{number:06d}fake"
        self.files[file_id] = upload
        return file_id, f"U{number:06d}"

    # -------------------------------------------------------------- updates for the bot
    def pending_updates(self, offset: int | None, limit: int) -> list[JSON]:
        """Confirm updates before ``offset`` and return the next ones (getUpdates)."""
        if offset is not None:
            if offset < 0:
                self.updates = self.updates[offset:]
            else:
                self.updates = [u for u in self.updates if u["update_id"] >= offset]
        chosen = [u for u in self.updates if self._wanted(u)][:limit]
        now = time.monotonic()
        for update in chosen:
            self.delivered_at.setdefault(update["update_id"], now)
        return chosen

    def _wanted(self, update: JSON) -> bool:
        kinds = set(update) - {"update_id"}
        return bool(kinds & self.allowed_updates)

    def set_allowed_updates(self, allowed: list[str] | None) -> None:
        """The last non-empty list given by getUpdates or setWebhook stays in force."""
        if allowed is None:
            return
        self.allowed_updates = frozenset(allowed) if allowed else DEFAULT_UPDATE_TYPES
        # An opt-in type must be named; the defaults never include one silently.
        if not allowed:
            self.allowed_updates -= _OPT_IN_TYPES

    # -------------------------------------------------------------- what the bot sent
    def sent_to(self, chat: FakeChat | int) -> list[SentMessage]:
        chat_id = chat.id if isinstance(chat, FakeChat) else chat
        return [item for item in self.sent if item.chat_id == chat_id]

    def texts(self, chat: FakeChat | int) -> list[str]:
        return [item.text for item in self.sent_to(chat) if item.text]
