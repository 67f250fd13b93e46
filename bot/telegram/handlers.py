"""Telegram updates → the game service.

Every message and every edit of one, in a private chat with the bot or in a
group, goes to ``service.receive`` as an :class:`Inbound` (commands too: the
service reads ``/orders``, ``/start CODE``, the game-master commands, ...).
A photo, document, sticker or voice message is stored like any other: its
caption is the text (empty without one), ``meta["media"]`` says what it was.
Only service notices (members joining, pins, new topics) are not messages.
The service queues its answer in the outbox (and wakes the outbox worker
through its listeners); ``on_reply`` is an optional hook that sees every
reply. The game of the reply is remembered, so that later updates of the same
game are processed one at a time (:mod:`bot.telegram.ordering`). The poller's
tracker hears when the service has stored the message (only then is the
update confirmed to Telegram, :mod:`bot.telegram.poller`). If the service
fails after storing it, the sender gets a short apology straight away; if it
could not even store it, nothing is said: the update is fetched again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from telegram import Bot, Message, ReplyParameters, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import Application, ChatMemberHandler, ContextTypes, MessageHandler, filters

from bot.logging import get_logger
from bot.service.kernel.api import Inbound, Reply

from .inbound import command_text, to_inbound
from .ordering import GameIndex
from .poller import UpdateTracker

__all__ = ["APOLOGY", "Receiver", "UpdateHandlers", "user_lang"]

log = get_logger(__name__)

APOLOGY = {
    "ru": "Не удалось обработать сообщение: внутренняя ошибка судьи. Попробуйте ещё раз чуть позже.",
    "en": "The judge could not process this message (an internal error). Please try again a bit later.",
}


class Receiver(Protocol):
    """The part of the game service the handlers use: ``on_stored`` is called
    once the message is in the database (before it is worked on)."""

    async def receive(
        self, msg: Inbound, *, on_stored: Callable[[], object] | None = None
    ) -> Reply: ...


def user_lang(user: User | None) -> str:
    """Russian first; English for people whose Telegram speaks English."""
    code = (user.language_code or "") if user else ""
    return "en" if code.lower().startswith("en") else "ru"


class UpdateHandlers:
    """The PTB handlers of the bot; ``install`` adds them to an application."""

    def __init__(
        self,
        service: Receiver,
        index: GameIndex,
        *,
        on_reply: Callable[[Reply], object] | None = None,
        tracker: UpdateTracker | None = None,
    ) -> None:
        self.service = service
        self.index = index
        self.on_reply = on_reply
        self.tracker = tracker or UpdateTracker()

    def install(self, application: Application) -> None:  # type: ignore[type-arg]
        messages = (
            filters.UpdateType.MESSAGE | filters.UpdateType.EDITED_MESSAGE
        ) & ~filters.StatusUpdate.ALL
        application.add_handler(MessageHandler(messages, self.on_message))
        application.add_handler(
            ChatMemberHandler(self.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER)
        )
        application.add_error_handler(self.on_error)

    async def on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None or user.is_bot:
            return
        written = message.text if message.text is not None else message.caption or ""
        text = command_text(written, context.bot.username)
        if text is None:  # a command for another bot in a group
            return
        inbound = to_inbound(update, text)
        stored = False

        def on_stored() -> None:
            nonlocal stored
            stored = True
            self.tracker.stored(update.update_id)

        try:
            reply = await self.service.receive(inbound, on_stored=on_stored)
        except Exception:
            if not stored:  # not in the database: not confirmed, fetched again
                log.exception("telegram message not stored", external_id=inbound.external_id)
                self.tracker.stored(update.update_id, ok=False)
                return
            # Stored: it is worked on again later (GameService.recover); say so now.
            log.exception("telegram message not processed", external_id=inbound.external_id)
            await self._apologise(context.bot, message, user)
            return
        self.index.learn(user.id, message.chat.id, reply.game_id)
        log.debug(
            "telegram message processed",
            external_id=inbound.external_id,
            status=reply.status,
            game_id=reply.game_id,
            edit=inbound.edit_of is not None,
        )
        if self.on_reply is not None:
            self.on_reply(reply)

    @staticmethod
    async def _apologise(bot: Bot, message: Message, user: User) -> None:
        try:
            await bot.send_message(
                message.chat.id,
                APOLOGY[user_lang(user)],
                reply_parameters=ReplyParameters(
                    message.message_id, allow_sending_without_reply=True
                ),
                message_thread_id=message.message_thread_id if message.is_topic_message else None,
            )
        except TelegramError as exc:
            log.warning("telegram apology not sent", chat_id=message.chat.id, error=str(exc))

    async def on_my_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log when the bot is blocked, restarted, added to or removed from a chat.

        Deliveries to such a chat fail and are reported by the outbox worker;
        this line tells the operator why.
        """
        change = update.my_chat_member
        if change is None:
            return
        chat = change.chat
        log.info(
            "telegram membership changed",
            chat_id=chat.id,
            chat_type=chat.type,
            private=chat.type == ChatType.PRIVATE,
            old=change.old_chat_member.status,
            new=change.new_chat_member.status,
            by=change.from_user.id,
        )

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        error = context.error
        log.error(
            "telegram update failed",
            update_id=getattr(update, "update_id", None),
            error=repr(error),
            exc_info=error,
        )
