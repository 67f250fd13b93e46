"""Answers of the service as Telegram shows them, end to end through the real
PTB client, the local Bot API server and the game service on SQLite."""

from __future__ import annotations

import re
from pathlib import Path

from sqlmodel import select
from support.fake_telegram import FakeTelegram
from support.telegram_doubles import RecordingService
from support.telegram_e2e import judge, start_cell

from bot.config import Config
from bot.service import GameService, RenderReporter, ServiceSettings
from bot.telegram import build_telegram
from storage.models import InboundMessage
from storage.testing import temporary_database


async def test_status_shows_the_field_and_only_the_own_teams_missing_names(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        asked = tg.send_text(match.alice, match.left, "/status")
        answer = await j.answer_to(asked)
        photo = await tg.wait_for(
            lambda: [s for s in tg.sent_to(match.left) if s.method == "sendPhoto"]
        )
    assert "Счёт 0:0" in answer.text and "(Europe/Moscow)" in answer.text
    assert "Без приказов — «Драконы»: Иванов, Петров." in answer.text.splitlines()
    assert "Соколов" not in answer.text and "Фениксы»:" not in answer.text
    [picture] = photo
    assert picture.file is not None and picture.file.data.startswith(b"\x89PNG")
    assert picture.file.filename == "position-round1.png"


async def test_an_invitation_comes_with_its_link_and_a_button(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        await j.setup_match(start=False)
        answer = await j.say(j.gm, "/invite player left 1")
        code = answer.text.split("/start ")[-1].strip()
        link = f"https://t.me/dragonball_test_bot?start={code}"
        assert code.isalnum() and link in answer.text
        assert answer.buttons == [("Приглашение: открыть бота", link)]
        # Following the link sends "/start CODE": the invitee joins.
        carol = tg.user(1003, "Кэрол", "carol")
        welcome = await j.say(carol, f"/start {code}")
    assert "Добро пожаловать" in welcome.text


async def test_the_runner_tells_the_game_service_the_bots_name(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    config = Config.model_validate(
        {"telegram": {"enabled": True, "token": tg.token, "base_url": tg.base_url}}
    )
    with temporary_database("sqlite", tmp_path) as db:
        service = GameService(db, ServiceSettings(), reporter=RenderReporter(pictures=False))
        runner, _ = build_telegram(config, service)
        assert service.settings.telegram_bot is None
        await runner.start()
        try:
            assert service.settings.telegram_bot == "dragonball_test_bot"
        finally:
            await runner.stop()
    plain, _ = build_telegram(config, RecordingService())
    assert plain.on_username is None  # a service without invitations is not told


async def test_a_new_member_is_answered_in_his_apps_language(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        await j.setup_match(start=False)
        dave = tg.user(1004, "Dave", "dave", language_code="en-US")
        olga = tg.user(1005, "Ольга", "olga", language_code="ru")
        welcome_en = await j.say(dave, f"/start {await j.invite('player', 'left', 1)}")
        welcome_ru = await j.say(olga, f"/start {await j.invite('player', 'right', 1)}")
        again = await j.say(dave, "/lang ru")
    assert welcome_en.text.startswith("Welcome to game DB-1")
    assert welcome_ru.text.startswith("Добро пожаловать в игру DB-1")
    assert again.text.startswith("Язык")


async def test_a_new_member_whose_app_names_no_language_is_answered_in_the_games(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        await j.gm_says("/start")
        created = await j.gm_says("/newgame Final players=2 lang=en")
        assert "DB-1" in created, created
        for command in ("/addteam left Dragons", "/addplayer left Smith", "/addplayer left Jones"):
            await j.gm_says(command)
        silent = tg.user(1006, "Sam", "sam", language_code=None)  # many clients send none
        olga = tg.user(1005, "Ольга", "olga", language_code="ru")
        welcome = await j.say(silent, f"/start {await j.invite('player', 'left', 1)}")
        welcome_ru = await j.say(olga, f"/start {await j.invite('player', 'left', 2)}")
        games = await j.say(silent, "/games")
    assert welcome.text.startswith("Welcome to game DB-1"), welcome.text
    assert welcome_ru.text.startswith("Добро пожаловать в игру DB-1"), welcome_ru.text
    assert not re.search("[а-яА-ЯёЁ]", games.text), games.text  # he stays English


async def test_a_pass_phrase_sent_in_telegram_is_never_stored(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match(start=False)
        answer = await j.say(match.alice, "/passphrase зелёный дракон над полем")
        with j.service.db.transaction() as s:
            rows = [m for m in s.exec(select(InboundMessage)) if m.sender == str(match.alice.id)]
    assert "сохранён" in answer.text
    [stored] = [m for m in rows if m.text.startswith("/passphrase")]
    assert stored.text == "/passphrase ********"
    assert b"/passphrase ********" in stored.raw and "дракон".encode() not in stored.raw


async def test_the_team_group_hears_back_only_on_orders_and_commands(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        chatter = [tg.send_text(match.alice, match.left, t) for t in ("Иванов: туда", "/shrug")]
        cell, height = start_cell("left", 1)
        order = await j.say(match.alice, f"Иванов: {cell} в{height}", match.left)
        addressed = await j.say(match.alice, "/shrug@dragonball_test_bot", match.left)
        private = await j.say(match.alice, "Иванов: туда")
        await j.settled()
    answered = {s.reply_to for s in tg.sent_to(match.left)}
    assert not answered & {m["message_id"] for m in chatter}  # nothing said to the chatter
    assert "приказы приняты" in order.text
    assert "Неизвестная команда /shrug" in addressed.text
    assert "Строка оборвалась" in private.text  # a private chat is answered


async def test_a_too_long_message_in_a_team_group_is_answered_as_in_private(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    # issue 17: 100 KB in a team group was stored as ignored and never answered
    long_text = "Иванов: 89 в2\n" * 5000  # about 100 KB, over the order language's limit
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        in_group = await j.say(match.alice, long_text, match.left)
        in_private = await j.say(match.alice, long_text)
        await j.settled()
    for answer in (in_group, in_private):
        assert "сообщение не принято целиком" in answer.text.splitlines()[0]
        assert "Сообщение слишком длинное (105000 байт" in answer.text
        assert "Разбейте его на несколько сообщений" in answer.text
    assert in_group.chat_id == match.left.id and in_private.chat_id == match.alice.id


async def test_a_game_master_and_a_stranger_are_answered_in_their_apps_language(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    # A configured game master's first message made him Russian, whatever his app said.
    async with judge(tg, tmp_path) as j:
        j.gm = tg.user(j.gm.id, "Referee", "referee", language_code="en-GB")
        created = await j.gm_says("/newgame Final players=2 lang=en")
        stranger = tg.user(1007, "Eve", "eve", language_code="en")
        refused = await j.say(stranger, "/start NOSUCHCODE")
        silent = tg.user(1008, "Ann", "ann", language_code=None)
        refused_silent = await j.say(silent, "/start NOSUCHCODE")
    assert created.startswith("Game DB-1 created"), created
    assert not re.search("[а-яА-ЯёЁ]", refused.text), refused.text
    assert re.search("[а-яА-ЯёЁ]", refused_silent.text)  # an app that names none: the judge's


async def test_rules_tell_the_games_own_number_of_players(tg: FakeTelegram, tmp_path: Path) -> None:
    # /rules said «в команде 7 игроков» (the ruleset's) in a game set up with players=2.
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()  # /newgame Финал players=2
        rules = await j.say(match.alice, "/rules")
        await j.say(match.bob, "/lang en")
        rules_en = await j.say(match.bob, "/rules")
    assert "в команде 2 игрока." in rules.text, rules.text
    assert "a team 2 players." in rules_en.text, rules_en.text


async def test_status_of_an_ended_game_gives_its_result(tg: FakeTelegram, tmp_path: Path) -> None:
    # It said «Раунд 2: приказы больше не принимаются» of the round /endgame cancelled.
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        await j.gm_says("/endgame дождь")
        status = await j.say(match.alice, "/status")
    assert status.text == "Игра DB-1 (Драконы — Фениксы) окончена. Итоговый счёт 0:0.", status.text
