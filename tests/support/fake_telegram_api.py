"""The Bot API methods of the fake Telegram server, on top of :class:`World`.

Each method takes the request's parameters (:class:`Params`, parsed from a
JSON, form-encoded or multipart body) and returns the ``result`` of the real
API's answer, or raises :class:`ApiError` with the real API's error shape:
400 "Bad Request: chat not found", 403 "Forbidden: bot was blocked by the
user", 400 with ``parameters.migrate_to_chat_id`` for a migrated group, ...
``getUpdates`` waits (long polling), so the server implements it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from support.fake_telegram_world import (
    ApiError,
    FakeChat,
    SentMessage,
    UploadedFile,
    World,
    utf16_len,
)

__all__ = ["BotApi", "Params"]

JSON = dict[str, Any]

MAX_TEXT = 4096
MAX_CAPTION = 1024
_HTML_TAGS = frozenset(
    ["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler"]
    + ["a", "code", "pre", "blockquote", "tg-emoji"]
)
_MD2_ALWAYS_RESERVED = set(">#+-=|{}.!")
_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")


class Params:
    """Request parameters: JSON values (JSON bodies) or strings (forms) plus uploaded files."""

    def __init__(self, values: JSON, files: dict[str, UploadedFile] | None = None) -> None:
        self.values = values
        self.files = files or {}

    def has(self, name: str) -> bool:
        return self.values.get(name) is not None or name in self.files

    def str(self, name: str, *, required: bool = False) -> str | None:
        value = self.values.get(name)
        if value is None:
            if required:
                raise ApiError(400, f"Bad Request: {name} is empty")
            return None
        return value if isinstance(value, str) else json.dumps(value)

    def int(self, name: str, *, required: bool = False) -> int | None:
        value = self.values.get(name)
        if value is None:
            if required:
                raise ApiError(400, f"Bad Request: {name} is empty")
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def float(self, name: str) -> float | None:
        value = self.values.get(name)
        try:
            return None if value is None else float(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def json(self, name: str) -> Any:
        value = self.values.get(name)
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                raise ApiError(400, f"Bad Request: can't parse {name} JSON object") from None
        return value

    def bool(self, name: str) -> bool:
        value = self.values.get(name)
        if isinstance(value, str):
            return value.lower() in ("true", "1")
        return bool(value)

    def chat_id(self) -> int | str:
        value = self.values.get("chat_id")
        if value is None or value == "":
            raise ApiError(400, "Bad Request: chat_id is empty")
        if isinstance(value, str) and value.startswith("@"):
            return value
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ApiError(400, "Bad Request: chat not found") from None


def _check_text(text: str | None, entities_mode: str | None, *, caption: bool = False) -> None:
    if not caption and (text is None or not text.strip()):
        raise ApiError(400, "Bad Request: message text is empty")
    if text is None:
        return
    limit = MAX_CAPTION if caption else MAX_TEXT
    if utf16_len(text) > limit:
        what = "message caption is too long" if caption else "message is too long"
        raise ApiError(400, f"Bad Request: {what}")
    if entities_mode is None or entities_mode == "":
        return
    mode = entities_mode.lower()
    if mode == "html":
        _check_html(text)
    elif mode == "markdownv2":
        _check_markdown_v2(text)
    elif mode != "markdown":
        raise ApiError(400, "Bad Request: unsupported parse_mode")


_ENTITY_TYPES = {
    "mention", "hashtag", "cashtag", "bot_command", "url", "email", "phone_number", "bold",
    "italic", "underline", "strikethrough", "spoiler", "blockquote", "expandable_blockquote",
    "code", "pre", "text_link", "text_mention", "custom_emoji",
}  # fmt: skip


def _check_entities(text: str, entities: Any, parse_mode: str | None) -> list[JSON] | None:
    """Telegram's checks of explicit entities: a list of known types, each
    range inside the text in UTF-16 units, and not together with a parse mode."""
    if entities is None:
        return None
    if parse_mode:
        raise ApiError(400, "Bad Request: can't use entities together with parse_mode")
    if not isinstance(entities, list):
        raise _entity_error("entities must be an array")
    size = utf16_len(text)
    for e in entities:
        if not isinstance(e, dict) or e.get("type") not in _ENTITY_TYPES:
            raise _entity_error(f"unsupported entity {e!r}")
        offset, length = e.get("offset"), e.get("length")
        if not (isinstance(offset, int) and isinstance(length, int)):
            raise _entity_error("entity offset and length must be numbers")
        if offset < 0 or length <= 0 or offset + length > size:
            raise _entity_error(f"entity {offset}+{length} is outside the text of {size}")
    return entities


def _entity_error(detail: str) -> ApiError:
    return ApiError(400, f"Bad Request: can't parse entities: {detail}")


def _check_html(text: str) -> None:
    stack: list[str] = []
    for match in re.finditer(r"<(/?)([^\s>/]*)[^>]*>|<", text):
        if match.group() == "<":
            raise _entity_error(f"Unsupported start tag at byte offset {match.start()}")
        closing, tag = match.group(1) == "/", match.group(2).lower()
        if tag not in _HTML_TAGS:
            raise _entity_error(f'Unsupported start tag "{tag}" at byte offset {match.start()}')
        if not closing:
            stack.append(tag)
        elif not stack or stack.pop() != tag:
            raise _entity_error(f"Unexpected end tag at byte offset {match.start()}")
    if stack:
        raise _entity_error(f'Can\'t find end tag corresponding to start tag "{stack[-1]}"')


def _check_markdown_v2(text: str) -> None:
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in _MD2_ALWAYS_RESERVED:
            raise _entity_error(
                f"Character '{char}' is reserved and must be escaped with the preceding '\\'"
            )


def _image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG/GIF, (0, 0) for JPEG/WebP, None when not an image."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith((b"GIF87a", b"GIF89a")) and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data.startswith(b"\xff\xd8\xff") or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        return 0, 0
    return None


class BotApi:
    """The methods; ``call(name, params)`` returns the ``result`` or raises ApiError."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.edits: list[SentMessage] = []
        self.methods: dict[str, Callable[[Params], Any]] = {
            "getme": self.get_me,
            "logout": lambda p: True,
            "close": lambda p: True,
            "setwebhook": self.set_webhook,
            "deletewebhook": self.delete_webhook,
            "getwebhookinfo": self.get_webhook_info,
            "sendmessage": self.send_message,
            "sendphoto": self.send_photo,
            "sendanimation": self.send_animation,
            "senddocument": self.send_document,
            "sendmediagroup": self.send_media_group,
            "editmessagetext": self.edit_message_text,
            "deletemessage": self.delete_message,
            "setmycommands": self.set_my_commands,
            "getmycommands": self.get_my_commands,
            "deletemycommands": self.delete_my_commands,
            "setchatmenubutton": self.set_chat_menu_button,
            "getchatmenubutton": self.get_chat_menu_button,
            "sendchataction": self.send_chat_action,
            "answercallbackquery": lambda p: True,
            "getchat": self.get_chat,
            "getfile": self.get_file,
        }

    def call(self, method: str, params: Params) -> Any:
        handler = self.methods.get(method.lower())
        if handler is None:
            raise ApiError(404, "Not Found")
        return handler(params)

    # ------------------------------------------------------------------ bot
    def get_me(self, p: Params) -> JSON:
        return {
            **self.world.bot.to_json(),
            "can_join_groups": True,
            "can_read_all_group_messages": True,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def set_webhook(self, p: Params) -> bool:
        url = p.str("url") or ""
        if not url:
            return self.delete_webhook(p)
        # Like a local Bot API server, plain http and any port are accepted.
        if not re.match(r"https?://", url):
            raise ApiError(
                400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
            )
        self.world.set_allowed_updates(p.json("allowed_updates"))
        if p.bool("drop_pending_updates"):
            self.world.updates.clear()
        self.world.webhook = {"url": url, "secret_token": p.str("secret_token")}
        self.world.touch()
        return True

    def delete_webhook(self, p: Params) -> bool:
        self.world.webhook = None
        if p.bool("drop_pending_updates"):
            self.world.updates.clear()
        self.world.touch()
        return True

    def get_webhook_info(self, p: Params) -> JSON:
        hook = self.world.webhook
        return {
            "url": hook["url"] if hook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.world.updates),
        }

    # ------------------------------------------------------------------ commands
    @staticmethod
    def _scope_key(p: Params) -> tuple[str, str]:
        scope = p.json("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), p.str("language_code") or ""

    def set_my_commands(self, p: Params) -> bool:
        commands = p.json("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise ApiError(400, "Bad Request: commands must be a list of at most 100 BotCommand")
        for command in commands:
            name = str(command.get("command", ""))
            description = str(command.get("description", ""))
            if not _COMMAND_NAME.fullmatch(name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(description) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        scope = p.json("scope") or {}
        if "chat_id" in scope:
            self.world.resolve_chat(scope["chat_id"])
        self.world.commands[self._scope_key(p)] = commands
        return True

    def get_my_commands(self, p: Params) -> list[JSON]:
        return self.world.commands.get(self._scope_key(p), [])

    def delete_my_commands(self, p: Params) -> bool:
        self.world.commands.pop(self._scope_key(p), None)
        return True

    def set_chat_menu_button(self, p: Params) -> bool:
        button = p.json("menu_button") or {"type": "default"}
        kind = button.get("type")
        if kind not in ("commands", "web_app", "default"):
            raise ApiError(400, "Bad Request: unsupported menu button type")
        if kind == "web_app":
            url = str((button.get("web_app") or {}).get("url", ""))
            if not button.get("text") or not url.startswith(("https://", "http://")):
                raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
        chat_id = p.int("chat_id") if p.has("chat_id") else None
        if chat_id is not None:
            self.world.resolve_chat(chat_id)
        self.world.menu_buttons[chat_id] = button
        return True

    def get_chat_menu_button(self, p: Params) -> JSON:
        chat_id = p.int("chat_id") if p.has("chat_id") else None
        return self.world.menu_buttons.get(chat_id) or self.world.menu_buttons.get(
            None, {"type": "commands"}
        )

    # ------------------------------------------------------------------ sending
    def _target(self, p: Params) -> FakeChat:
        chat = self.world.resolve_chat(p.chat_id())
        if chat.type == "private":
            if chat.id in self.world.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat.id not in self.world.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        elif chat.type == "channel":
            if not chat.bot_admin:
                raise ApiError(400, "Bad Request: need administrator rights in the channel chat")
        elif not chat.bot_member:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        return chat

    def _placement(self, p: Params, chat: FakeChat) -> JSON:
        """Thread, reply and keyboard of a new message, checked like the real API does."""
        extra: JSON = {}
        thread = p.int("message_thread_id")
        if thread is not None:
            if not chat.is_forum or thread not in chat.topics:
                raise ApiError(400, "Bad Request: message thread not found")
            extra["message_thread_id"] = thread
            extra["is_topic_message"] = True
        reply = p.json("reply_parameters") or {}
        reply_id = reply.get("message_id", p.int("reply_to_message_id"))
        if reply_id is not None:
            allow = reply.get("allow_sending_without_reply", p.bool("allow_sending_without_reply"))
            original = self.world.find_message(chat, int(reply_id))
            if original is not None:
                extra["reply_to_message"] = original
            elif not allow:
                raise ApiError(400, "Bad Request: message to be replied not found")
        markup = p.json("reply_markup")
        if markup is not None:
            extra["reply_markup"] = self._check_markup(markup)
        return extra

    @staticmethod
    def _check_markup(markup: Any) -> JSON:
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if not button.get("text"):
                    raise ApiError(
                        400, "Bad Request: text buttons are unallowed in the inline keyboard"
                    )
                url = button.get("url")
                if url is not None and not re.match(r"(https?|tg)://\S+$", url):
                    raise ApiError(
                        400,
                        f"Bad Request: inline keyboard button URL '{url}' is invalid: Wrong HTTP URL",
                    )
        return markup  # type: ignore[no-any-return]

    def _record(
        self,
        method: str,
        chat: FakeChat,
        message: JSON,
        p: Params,
        file: UploadedFile | None = None,
    ) -> JSON:
        values = {k: v for k, v in p.values.items()}
        self.world.sent.append(SentMessage(method, chat.id, message, values, file))
        self.world.touch()
        return message

    def send_message(self, p: Params) -> JSON:
        chat = self._target(p)
        text = p.str("text")
        _check_text(text, p.str("parse_mode"))
        entities = _check_entities(text or "", p.json("entities"), p.str("parse_mode"))
        extra = self._placement(p, chat)
        message = self.world.new_message(
            chat, self.world.bot, text=text, entities=entities, **extra
        )
        return self._record("sendMessage", chat, message, p)

    def _input_file(self, p: Params, name: str) -> UploadedFile:
        if name in p.files:
            return p.files[name]
        value = p.str(name)
        if value is None:
            raise ApiError(400, f"Bad Request: there is no {name} in the request")
        return self._file_ref(p, value)

    def _file_ref(self, p: Params, value: str) -> UploadedFile:
        if value.startswith("attach://"):
            upload = p.files.get(value.removeprefix("attach://"))
            if upload is None:
                raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            return upload
        if value in self.world.files:
            return self.world.files[value]
        if re.match(r"https?://", value):
            # Telegram would download it; nothing is reachable from here.
            return UploadedFile(value.rsplit("/", 1)[-1], "", b"")
        raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")

    def _media_json(self, kind: str, upload: UploadedFile) -> JSON:
        file_id, unique = self.world.store_file(upload)
        base: JSON = {"file_id": file_id, "file_unique_id": unique, "file_size": len(upload.data)}
        if kind == "photo":
            size = _image_size(upload.data) if upload.data else (0, 0)
            if size is None:
                raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
            return {"photo": [{**base, "width": size[0], "height": size[1]}]}
        if kind == "animation":
            size = _image_size(upload.data) if upload.data else (0, 0)
            if size is None and not upload.data[4:8] == b"ftyp":
                raise ApiError(400, "Bad Request: wrong type of the web page content")
            width, height = size or (0, 0)
            animation = {
                **base,
                "width": width,
                "height": height,
                "duration": 1,
                "file_name": upload.filename,
                "mime_type": upload.content_type or "image/gif",
            }
            document = {k: animation[k] for k in (*base, "file_name", "mime_type")}
            return {"animation": animation, "document": document}
        return {
            "document": {**base, "file_name": upload.filename, "mime_type": upload.content_type}
        }

    def _send_media(self, p: Params, kind: str, method: str) -> JSON:
        chat = self._target(p)
        upload = self._input_file(p, kind)
        caption = p.str("caption")
        _check_text(caption, p.str("parse_mode"), caption=True)
        extra = self._placement(p, chat)
        media = self._media_json(kind, upload)
        message = self.world.new_message(chat, self.world.bot, caption=caption, **media, **extra)
        return self._record(method, chat, message, p, upload)

    def send_photo(self, p: Params) -> JSON:
        return self._send_media(p, "photo", "sendPhoto")

    def send_animation(self, p: Params) -> JSON:
        return self._send_media(p, "animation", "sendAnimation")

    def send_document(self, p: Params) -> JSON:
        return self._send_media(p, "document", "sendDocument")

    def send_media_group(self, p: Params) -> list[JSON]:
        chat = self._target(p)
        items = p.json("media")
        if not isinstance(items, list) or not 2 <= len(items) <= 10:
            raise ApiError(400, "Bad Request: media group must contain 2-10 items")
        kinds = {item.get("type") for item in items}
        if len(kinds) > 1 and not kinds <= {"photo", "video"}:
            raise ApiError(400, "Bad Request: documents can't be mixed with other media types")
        extra = self._placement(p, chat)
        prepared = []
        for item in items:
            upload = self._file_ref(p, str(item.get("media", "")))
            _check_text(item.get("caption"), item.get("parse_mode"), caption=True)
            prepared.append((item, upload, self._media_json(str(item.get("type")), upload)))
        group_id = str(10**17 + len(self.world.sent))
        messages = []
        for item, upload, media in prepared:
            message = self.world.new_message(
                chat,
                self.world.bot,
                media_group_id=group_id,
                caption=item.get("caption"),
                **media,
                **extra,
            )
            messages.append(self._record("sendMediaGroup", chat, message, p, upload))
        return messages

    def edit_message_text(self, p: Params) -> JSON:
        chat = self.world.resolve_chat(p.chat_id())
        message_id = p.int("message_id", required=True)
        assert message_id is not None
        message = self.world.find_message(chat, message_id)
        if message is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        if message.get("from", {}).get("id") != self.world.bot.id and chat.type != "channel":
            raise ApiError(400, "Bad Request: message can't be edited")
        text = p.str("text")
        _check_text(text, p.str("parse_mode"))
        markup = p.json("reply_markup")
        if text == message.get("text") and markup == message.get("reply_markup"):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        message["text"] = text
        message["edit_date"] = self.world.now()
        if markup is not None:
            message["reply_markup"] = self._check_markup(markup)
        self.edits.append(SentMessage("editMessageText", chat.id, dict(message), dict(p.values)))
        self.world.touch()
        return message

    def delete_message(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.chat_id())
        key = (chat.id, p.int("message_id", required=True) or 0)
        if self.world.messages.pop(key, None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        return True

    def send_chat_action(self, p: Params) -> bool:
        self._target(p)
        if not p.str("action"):
            raise ApiError(400, "Bad Request: action is empty")
        return True

    def get_chat(self, p: Params) -> JSON:
        chat = self.world.resolve_chat(p.chat_id())
        return {**chat.to_json(), "accent_color_id": 0, "max_reaction_count": 11}

    def get_file(self, p: Params) -> JSON:
        file_id = p.str("file_id", required=True) or ""
        upload = self.world.files.get(file_id)
        if upload is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": f"U{file_id}",
            "file_size": len(upload.data),
            "file_path": f"documents/{file_id}",
        }
