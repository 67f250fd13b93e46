"""Self-tests of the local Bot API server, driven by the real PTB client."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from aiohttp import ClientSession, web
from PIL import Image
from support.fake_telegram import ApiError, FakeTelegram
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest, ChatMigrated, Conflict, Forbidden, InvalidToken, RetryAfter


def image(fmt: str = "PNG", size: tuple[int, int] = (40, 30)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, format=fmt)
    return buffer.getvalue()


async def test_get_me_describes_the_bot(tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.is_bot
    assert me.id == int(tg.token.split(":")[0])
    assert me.username == "dragonball_test_bot"


async def test_wrong_token_is_unauthorized(tg: FakeTelegram) -> None:
    with pytest.raises(InvalidToken):
        async with Bot("1:wrong", base_url=tg.base_url):
            pass


async def test_send_message_to_a_started_private_chat(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.user(1001, "Алиса", "alice")
    sent_by_alice = tg.send_text(alice, text="/start")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Открыть", url="https://t.me/x")]])
    message = await bot.send_message(
        alice.id,
        "Привет",
        reply_parameters=ReplyParameters(sent_by_alice["message_id"]),
        reply_markup=keyboard,
    )
    assert message.chat.id == alice.id
    assert message.reply_to_message is not None
    assert message.reply_to_message.text == "/start"
    [sent] = tg.sent_to(alice)
    assert sent.text == "Привет"
    assert sent.buttons == [("Открыть", "https://t.me/x")]
    assert sent.reply_to == sent_by_alice["message_id"]


async def test_reply_to_a_missing_message(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.user(1001, "Алиса")
    tg.send_text(alice, text="/start")
    with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
        await bot.send_message(alice.id, "x", reply_parameters=ReplyParameters(999))
    message = await bot.send_message(
        alice.id, "x", reply_parameters=ReplyParameters(999, allow_sending_without_reply=True)
    )
    assert message.reply_to_message is None


async def test_delivery_errors_have_the_real_shapes(tg: FakeTelegram, bot: Bot) -> None:
    stranger = tg.user(1002, "Боб")
    with pytest.raises(Forbidden, match=r"(?i)can't initiate conversation"):
        await bot.send_message(stranger.id, "hi")
    tg.send_text(stranger, text="/start")
    tg.block(stranger)
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(stranger.id, "hi")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-42, "hi")
    group = tg.group("Команда", [stranger])
    new = tg.migrate(group)
    with pytest.raises(ChatMigrated) as migrated:
        await bot.send_message(group.id, "hi")
    assert migrated.value.new_chat_id == new.id
    assert (await bot.send_message(new.id, "hi")).chat.type == "supergroup"


async def test_429_carries_retry_after_then_succeeds(tg: FakeTelegram, bot: Bot) -> None:
    channel = tg.channel("Игра", "db_game")
    tg.fail_next("sendMessage", times=1, retry_after=3)
    with pytest.raises(RetryAfter) as error:
        await bot.send_message("@db_game", "раунд")
    assert error.value.retry_after.total_seconds() == 3  # type: ignore[union-attr]
    await bot.send_message("@db_game", "раунд")
    assert tg.texts(channel) == ["раунд"]
    assert [call.status for call in tg.calls_of("sendMessage")] == [429, 200]


async def test_text_limits_and_parse_modes(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.group("G")
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(group.id, "я" * 4097)
    assert (await bot.send_message(group.id, "я" * 4096)).text == "я" * 4096
    with pytest.raises(BadRequest, match=r"(?i)text is empty"):
        await bot.send_message(group.id, "  ")
    with pytest.raises(BadRequest, match=r"(?i)reserved"):
        await bot.send_message(group.id, "Счёт 1.5", parse_mode="MarkdownV2")
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(group.id, "<b>x", parse_mode="HTML")
    assert (await bot.send_message(group.id, "<b>x</b>", parse_mode="HTML")).text


async def test_forum_topics(tg: FakeTelegram, bot: Bot) -> None:
    forum = tg.group("Лига", forum=True)
    thread = tg.create_topic(forum, "Матч 1")
    message = await bot.send_message(forum.id, "раунд открыт", message_thread_id=thread)
    assert message.message_thread_id == thread
    with pytest.raises(BadRequest, match=r"(?i)thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=thread + 100)


async def test_photo_album_animation_document(tg: FakeTelegram, bot: Bot) -> None:
    channel = tg.channel("Игра")
    photo = await bot.send_photo(channel.id, image(size=(64, 48)), caption="тик 1")
    assert (photo.photo[-1].width, photo.photo[-1].height) == (64, 48)
    album = await bot.send_media_group(
        channel.id,
        [InputMediaPhoto(image(), filename=f"tick{i}.png") for i in range(3)],
    )
    assert len(album) == 3
    assert len({m.media_group_id for m in album}) == 1
    animation = await bot.send_animation(channel.id, image("GIF"), filename="round.gif")
    assert animation.animation is not None
    document = await bot.send_document(channel.id, b"log", filename="round.txt")
    assert document.document is not None
    assert document.document.file_name == "round.txt"
    assert [s.method for s in tg.sent_to(channel)] == [
        "sendPhoto",
        *["sendMediaGroup"] * 3,
        "sendAnimation",
        "sendDocument",
    ]
    assert tg.sent_to(channel)[1].file is not None
    file = await bot.get_file(album[0].photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == image()


async def test_bad_media_is_refused(tg: FakeTelegram, bot: Bot) -> None:
    channel = tg.channel("Игра")
    with pytest.raises(BadRequest, match=r"(?i)IMAGE_PROCESS_FAILED"):
        await bot.send_photo(channel.id, b"not an image")
    with pytest.raises(BadRequest, match=r"(?i)2-10"):
        await bot.send_media_group(channel.id, [InputMediaPhoto(image())])


async def test_edit_message_text(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.group("G")
    message = await bot.send_message(group.id, "v1")
    edited = await bot.edit_message_text("v2", chat_id=group.id, message_id=message.message_id)
    assert isinstance(edited, type(message))
    assert edited.text == "v2"
    assert tg.texts(group) == ["v2"]
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_text("v2", chat_id=group.id, message_id=message.message_id)
    with pytest.raises(BadRequest, match=r"(?i)to edit not found"):
        await bot.edit_message_text("v3", chat_id=group.id, message_id=999)


async def test_commands_per_scope_and_language(tg: FakeTelegram, bot: Bot) -> None:
    gm = tg.user(7, "ГМ")
    await bot.set_my_commands([BotCommand("help", "помощь")])
    await bot.set_my_commands(
        [BotCommand("orders", "my orders")],
        scope=BotCommandScopeAllPrivateChats(),
        language_code="en",
    )
    await bot.set_my_commands([BotCommand("start_game", "старт")], scope=BotCommandScopeChat(gm.id))
    assert [c.command for c in await bot.get_my_commands()] == ["help"]
    en = await bot.get_my_commands(scope=BotCommandScopeAllPrivateChats(), language_code="en")
    assert [c.command for c in en] == ["orders"]
    assert tg.commands({"type": "chat", "chat_id": gm.id})[0]["command"] == "start_game"
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("Bad-Name", "x")])


async def test_get_updates_offsets_and_long_polling(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.user(1001, "Алиса")
    first = tg.send_text(alice, text="/start КОД")
    [update] = await bot.get_updates(timeout=0)
    assert update.message is not None
    assert update.message.text == "/start КОД"
    assert update.message.entities[0].type == "bot_command"
    # Not confirmed yet: the same update again; confirmed by the next offset.
    assert [u.update_id for u in await bot.get_updates()] == [update.update_id]
    assert await bot.get_updates(offset=update.update_id + 1) == ()

    # Long polling: the call is held open while nothing is new, and answers with
    # the update that arrives meanwhile. (wait_for bounds only guard against a hang.)
    async def long_poll(offset: int, timeout: int) -> asyncio.Task[tuple[Update, ...]]:
        calls = len(tg.calls_of("getUpdates"))
        task = asyncio.create_task(bot.get_updates(offset=offset, timeout=timeout))
        await tg.wait_for(lambda: len(tg.calls_of("getUpdates")) > calls)  # the server has it
        assert not task.done()  # held open: nothing to answer yet
        return task

    polling = await long_poll(update.update_id + 1, timeout=60)
    tg.edit_text(first, "/start ДРУГОЙ")
    updates = await asyncio.wait_for(polling, timeout=30)
    assert updates[0].edited_message is not None
    assert updates[0].edited_message.text == "/start ДРУГОЙ"
    # Nothing arrives: the call answers, empty, once its timeout is over.
    polling = await long_poll(updates[0].update_id + 1, timeout=1)
    assert await asyncio.wait_for(polling, timeout=30) == ()


async def test_people_send_photos_documents_stickers_and_voice(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.user(1001, "Алиса")
    tg.send_media(alice, kind="photo", caption="/start КОД")
    tg.send_media(alice, kind="document", caption="приказы")
    tg.send_media(alice, kind="sticker")
    tg.send_media(alice, kind="voice")
    with pytest.raises(ValueError, match="sticker"):
        tg.send_media(alice, kind="sticker", caption="no")
    photo, document, sticker, voice = [u.message for u in await bot.get_updates()]
    assert photo is not None and document is not None and sticker is not None
    assert voice is not None
    assert (photo.text, photo.caption) == (None, "/start КОД")
    assert photo.caption_entities[0].type == "bot_command"
    assert document.document is not None and document.document.file_name == "orders.pdf"
    assert sticker.sticker is not None and sticker.caption is None
    assert voice.voice is not None and voice.voice.mime_type == "audio/ogg"
    # The file behind the photo can be downloaded like any other.
    file = await bot.get_file(photo.photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == b"photo of user 1001"


async def test_allowed_updates_and_block_notice(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.user(1001, "Алиса")
    tg.send_text(alice, text="hi")
    tg.block(alice)
    only_members = await bot.get_updates(allowed_updates=["my_chat_member"])
    assert len(only_members) == 1
    member = only_members[0].my_chat_member
    assert member is not None
    assert member.new_chat_member.status == "kicked"
    assert len(await bot.get_updates(allowed_updates=[])) == 2


async def test_json_and_form_bodies(tg: FakeTelegram) -> None:
    alice = tg.user(1001, "Алиса")
    tg.send_text(alice, text="/start")
    url = f"{tg.base_url}{tg.token}/sendMessage"
    async with ClientSession() as http:
        async with http.post(url, json={"chat_id": alice.id, "text": "json"}) as response:
            body = await response.json()
            assert body["ok"] and body["result"]["text"] == "json"
        async with http.post(url, data={"chat_id": str(alice.id), "text": "form"}) as response:
            assert (await response.json())["result"]["chat"]["id"] == alice.id
        async with http.post(url, data={"chat_id": "-5", "text": "x"}) as response:
            assert response.status == 400
            assert await response.json() == {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: chat not found",
            }
        async with http.post(f"{tg.base_url}{tg.token}/noSuchMethod") as response:
            assert response.status == 404
    assert tg.texts(alice) == ["json", "form"]


async def test_webhook_mode_posts_updates(tg: FakeTelegram, bot: Bot) -> None:
    received: list[tuple[str | None, dict[str, object]]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="s3cret")
        with pytest.raises(Conflict):
            await bot.get_updates()
        alice = tg.user(1001, "Алиса")
        tg.send_text(alice, text="один")
        tg.send_text(alice, text="два")
        await tg.wait_for(lambda: len(received) == 2)
        assert [body["message"]["text"] for _, body in received] == ["один", "два"]  # type: ignore[index]
        assert {secret for secret, _ in received} == {"s3cret"}
        assert (await bot.get_webhook_info()).pending_update_count == 0
        await bot.delete_webhook()
        assert await bot.get_updates() == ()
    finally:
        await runner.cleanup()


async def test_injected_error_of_any_shape(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.group("G")
    tg.fail_next_with("sendMessage", ApiError(403, "Forbidden: bot was kicked from the group chat"))
    with pytest.raises(Forbidden, match=r"(?i)kicked"):
        await bot.send_message(group.id, "x")
    assert json.loads(json.dumps(tg.calls_of("sendMessage")[0].params))["text"] == "x"
