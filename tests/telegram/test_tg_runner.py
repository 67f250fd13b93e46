"""The runner and the update handlers against the local Bot API server (service double)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC
from typing import Any

import pytest
from pydantic import SecretStr
from support.fake_telegram import FakeTelegram
from support.telegram_doubles import RecordingService
from telegram import MenuButtonWebApp

from bot.config import Config, TelegramConfig
from bot.i18n import t
from bot.telegram import FloodLimits, TelegramRunner, build_telegram
from bot.telegram.commands import GM_COMMANDS, GROUP_COMMANDS, PLAYER_COMMANDS
from bot.telegram.handlers import APOLOGY


def config_for(tg: FakeTelegram, **extra: Any) -> TelegramConfig:
    return TelegramConfig(enabled=True, token=SecretStr(tg.token), base_url=tg.base_url, **extra)


@asynccontextmanager
async def running(
    tg: FakeTelegram, service: RecordingService, **kw: Any
) -> AsyncIterator[TelegramRunner]:
    config = kw.pop("config", None) or config_for(tg)
    runner = TelegramRunner(config, service, limits=FloodLimits.unlimited(), poll_timeout=1, **kw)
    await runner.start()
    try:
        yield runner
    finally:
        await runner.stop()


async def wait_received(tg: FakeTelegram, service: RecordingService, count: int) -> None:
    await tg.wait_for(lambda: len(service.received) >= count)


async def test_a_message_reaches_the_service_as_inbound(tg: FakeTelegram) -> None:
    service = RecordingService()
    alice = tg.user(1001, "Алиса", "alice")
    async with running(tg, service) as runner:
        assert runner.username == "dragonball_test_bot"
        message = tg.send_text(alice, text="/start ABC123")
        await wait_received(tg, service, 1)
    [inbound] = service.received
    assert inbound.channel == "telegram"
    assert inbound.external_id == f"{alice.id}:{message['message_id']}"
    assert inbound.sender == "1001"
    assert inbound.chat == "1001"
    assert inbound.text == "/start ABC123"
    assert inbound.reply_ref == str(message["message_id"])
    assert inbound.edit_of is None
    assert inbound.received_at.tzinfo is not None
    assert inbound.received_at.utcoffset() == UTC.utcoffset(None)
    assert inbound.meta["chat_type"] == "private"
    assert inbound.meta["username"] == "alice"
    assert inbound.meta["name"] == "Алиса"
    assert json.loads(inbound.raw)["message"]["text"] == "/start ABC123"
    # Stopping confirmed the update: a restart would not see it again.
    assert tg.world.pending_updates(None, 100) == []


async def test_an_edit_points_at_the_message_it_replaces(tg: FakeTelegram) -> None:
    service = RecordingService()
    alice = tg.user(1001, "Алиса")
    async with running(tg, service):
        message = tg.send_text(alice, text="1: 40")
        await wait_received(tg, service, 1)
        tg.edit_text(message, "1: 41")
        await wait_received(tg, service, 2)
    original, edit = service.received
    assert edit.text == "1: 41"
    assert edit.edit_of == original.external_id
    assert edit.external_id != original.external_id
    assert edit.external_id.startswith(original.external_id + ":edit:")


async def test_group_commands_for_this_bot_only(tg: FakeTelegram) -> None:
    service = RecordingService()
    alice = tg.user(1001, "Алиса")
    team = tg.group("Левые", [alice])
    async with running(tg, service):
        tg.send_text(alice, team, "/orders@other_bot")
        tg.send_text(alice, team, "/orders@dragonball_test_bot")
        tg.send_text(alice, team, "/ready")
        await wait_received(tg, service, 2)
        await asyncio.sleep(0.1)
    assert [m.text for m in service.received] == ["/orders", "/ready"]
    assert {m.chat for m in service.received} == {str(team.id)}
    assert service.received[0].meta["chat_type"] == "group"


async def test_command_menus_are_registered(tg: FakeTelegram) -> None:
    gm = tg.user(7, "Судья")
    tg.send_text(gm, text="/start")
    async with running(tg, RecordingService(), game_masters=[gm.id, 8]):
        pass
    private = tg.commands({"type": "all_private_chats"})
    assert [c["command"] for c in private] == [c.name for c in PLAYER_COMMANDS]
    assert private[0]["description"] == t(PLAYER_COMMANDS[0].key, "ru")
    english = tg.commands({"type": "all_private_chats"}, "en")
    assert english[0]["description"] == t(PLAYER_COMMANDS[0].key, "en")
    group = tg.commands({"type": "all_group_chats"})
    assert [c["command"] for c in group] == [c.name for c in GROUP_COMMANDS]
    gm_menu = tg.commands({"type": "chat", "chat_id": gm.id})
    assert [c["command"] for c in gm_menu] == [c.name for c in PLAYER_COMMANDS + GM_COMMANDS]
    # Game master 8 never started the bot: his menu failed, the bot still ran.
    assert tg.commands({"type": "chat", "chat_id": 8}) == []


async def test_messages_of_one_sender_keep_their_order(tg: FakeTelegram) -> None:
    service = RecordingService(game_id=None, delays={"first": 0.3})
    alice = tg.user(1001, "Алиса")
    async with running(tg, service):
        tg.send_text(alice, text="first")
        tg.send_text(alice, text="second")
        tg.send_text(alice, text="third")
        await wait_received(tg, service, 3)
    assert service.started == ["first", "second", "third"]
    assert [m.text for m in service.received] == ["first", "second", "third"]
    assert service.most_running == 1


async def test_different_games_run_side_by_side(tg: FakeTelegram) -> None:
    service = RecordingService(game_id=None, delays={"slow": 0.5})
    alice, bob = tg.user(1001, "Алиса"), tg.user(1002, "Боб")
    async with running(tg, service):
        tg.send_text(alice, text="slow")
        tg.send_text(bob, text="quick")
        await wait_received(tg, service, 2)
    assert [m.text for m in service.received] == ["quick", "slow"]
    assert service.most_running == 2


async def test_one_game_is_processed_one_update_at_a_time(tg: FakeTelegram) -> None:
    service = RecordingService(game_id=5, delays={"slow": 0.3})
    alice, bob = tg.user(1001, "Алиса"), tg.user(1002, "Боб")
    async with running(tg, service):
        # First messages teach the runner that both play game 5.
        tg.send_text(alice, text="hello")
        tg.send_text(bob, text="hi")
        await wait_received(tg, service, 2)
        tg.send_text(alice, text="slow")
        tg.send_text(bob, text="after")
        await wait_received(tg, service, 4)
    assert [m.text for m in service.received][2:] == ["slow", "after"]
    assert service.started[2:] == ["slow", "after"]


async def test_a_service_failure_gets_an_apology(tg: FakeTelegram) -> None:
    service = RecordingService(fail_on=frozenset({"boom"}))
    alice = tg.user(1001, "Алиса")
    bob = tg.user(1002, "Bob", language_code="en")
    async with running(tg, service):
        message = tg.send_text(alice, text="boom")
        tg.send_text(bob, text="boom")
        [sent] = await tg.wait_sent(alice)
        [to_bob] = await tg.wait_sent(bob)
    assert sent.text == APOLOGY["ru"]
    assert sent.reply_to == message["message_id"]
    assert to_bob.text == APOLOGY["en"]


async def test_the_token_never_reaches_the_log(
    tg: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    service = RecordingService()
    alice = tg.user(1001, "Алиса")
    async with running(tg, service):
        tg.send_text(alice, text="/status")
        await wait_received(tg, service, 1)
    secret = tg.token.split(":", 1)[1]
    assert secret not in caplog.text
    assert all(secret not in record.getMessage() for record in caplog.records)
    # httpx logged the request URLs: they were there, scrubbed.
    assert any("[redacted]" in record.getMessage() for record in caplog.records)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_webhook_mode(tg: FakeTelegram) -> None:
    service = RecordingService()
    alice = tg.user(1001, "Алиса")
    port = free_port()
    config = config_for(
        tg,
        mode="webhook",
        webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
        webhook_listen="127.0.0.1",
        webhook_port=port,
    )
    async with running(tg, service, config=config):
        assert tg.world.webhook is not None
        assert tg.world.webhook["url"].endswith("/telegram/hook")
        tg.send_text(alice, text="через вебхук")
        await wait_received(tg, service, 1)
    assert service.received[0].text == "через вебхук"


def test_a_token_is_required() -> None:
    with pytest.raises(ValueError, match="token"):
        TelegramRunner(TelegramConfig(), RecordingService())


async def test_with_the_ordering_page_served_the_private_menu_button_opens_it(
    tg: FakeTelegram,
) -> None:
    telegram = {"enabled": True, "token": tg.token, "base_url": tg.base_url}
    web = {"enabled": True, "public_url": "https://judge.example.org/", "link_secret": "s" * 32}
    runner, _ = build_telegram(
        Config.model_validate({"telegram": telegram, "web": web}), RecordingService()
    )
    await runner.start()
    try:
        # As a client asks for it (PTB reads the fake server's answer back).
        button = await runner.bot.get_chat_menu_button()
    finally:
        await runner.stop()
    assert tg.world.menu_buttons[None]["type"] == "web_app"
    assert isinstance(button, MenuButtonWebApp)
    assert button.web_app.url == "https://judge.example.org/app"
    assert button.text == "Приказы на поле"
    plain, _ = build_telegram(Config.model_validate({"telegram": telegram}), RecordingService())
    await plain.start()
    await plain.stop()
    # No page (turned off since): Telegram's own button again, not a dead page.
    assert tg.world.menu_buttons == {None: {"type": "default"}}
