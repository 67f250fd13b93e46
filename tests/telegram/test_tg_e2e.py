"""End to end: players and game masters on (fake) Telegram, the real service on SQLite."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from support.fake_telegram import FakeTelegram
from support.telegram_e2e import GM_ID, judge, start_cell


async def test_a_player_joins_by_invitation_and_submits_orders(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        cell, height = start_cell("left", 1)
        answer = await j.say(match.alice, f"Иванов: {cell} в{height}\nДракон: стоять")
    # The canonical sheet on file and the deadline in the game's time zone.
    assert "приказы приняты" in answer.text
    assert f"Иванов: {cell} в{height}" in answer.text
    assert "Дракон: стоять" in answer.text
    assert "(Europe/Moscow)" in answer.text
    assert answer.chat_id == match.alice.id


async def test_errors_are_answered_line_by_line(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        cell, height = start_cell("left", 2)
        answer = await j.say(
            match.alice, f"Иванов: 999 в2\nПетров: {cell} в{height}\nДракон: летать кругами"
        )
    text = answer.text
    assert "Петров" in text  # the valid line is kept
    assert "1: Иванов: 999 в2" in text
    assert "999" in text.split("1: Иванов: 999 в2", 1)[1]
    assert "3: Дракон: летать кругами" in text
    assert "2: Петров" not in text  # a valid line is no error


async def test_an_edited_message_replaces_its_orders(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        ivanov = start_cell("left", 1)
        petrov = start_cell("left", 2)
        message = tg.send_text(match.alice, text=f"Иванов: {ivanov[0]} в{ivanov[1]}")
        first = await j.answer_to(message)
        tg.edit_text(message, f"Петров: {petrov[0]} в{petrov[1]}")
        second = await j.answer_to(message, nth=2)
        sheet = (await j.say(match.alice, "/orders")).text
    assert "Иванов: " in first.text
    assert f"Петров: {petrov[0]} в{petrov[1]}" in second.text
    assert f"Петров: {petrov[0]} в{petrov[1]}" in sheet
    assert f"Иванов: {ivanov[0]} в{ivanov[1]}" not in sheet


async def test_a_non_master_is_refused_a_master_command(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        refused_private = await j.say(match.alice, "/pause")
        await j.say(match.bob, "/lang en")
        refused_group = await j.say(match.bob, "/endgame", match.right)
        # The group speaks its own language, whatever its writer's: its captain sets it.
        switched = await j.say(match.bob, "/lang en", match.right)
        refused_english = await j.say(match.bob, "/endgame", match.right)
        status = await j.say(match.alice, "/status")
    assert refused_private.text == "Это может только судья."
    assert refused_group.text == "Это может только судья."  # Bob chose English, the group not
    assert switched.text == "This chat's language: English."
    assert refused_english.text == "Only a game master can do that."
    assert "идёт" in status.text  # the match was neither paused nor ended


async def test_a_team_chat_never_sees_the_other_teams_answers(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        ivanov = start_cell("left", 1)
        sokolov = start_cell("right", 1)
        left_answer = await j.say(match.alice, f"Иванов: {ivanov[0]} в{ivanov[1]}", match.left)
        right_answer = await j.say(match.bob, f"Соколов: {sokolov[0]} в{sokolov[1]}", match.right)
        await j.say(match.alice, "/orders", match.left)
        await j.say(match.bob, "/orders", match.right)
    assert left_answer.chat_id == match.left.id
    assert right_answer.chat_id == match.right.id
    left_texts = "\n".join(tg.texts(match.left))
    right_texts = "\n".join(tg.texts(match.right))
    assert "Иванов: " in left_texts and "Соколов: " not in left_texts
    assert "Соколов: " in right_texts and "Иванов: " not in right_texts
    # Nor does the public channel carry anyone's orders.
    public = "\n".join(tg.texts(match.league))
    assert "Иванов: " not in public and "Соколов: " not in public


async def test_at_the_deadline_the_channel_gets_report_and_album(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        opened = await tg.wait_for(
            lambda: [t for t in tg.texts(match.league) if "раунд 1" in t and "SHA-256" in t]
        )
        assert "(Europe/Moscow)" in opened[0]  # deadline and seed commitment announced
        await j.resolve_at_deadline()
        await tg.wait_for(lambda: any("раунд 1: отчёт" in t for t in tg.texts(match.league)), 20)
        sent = await tg.wait_for(
            lambda: [s for s in tg.sent_to(match.league) if s.method == "sendMediaGroup"]
        )
    assert len(sent) >= 2
    assert len({s.message["media_group_id"] for s in sent}) == 1
    assert all(s.file is not None and s.file.data.startswith(b"\x89PNG") for s in sent)


async def test_a_429_delays_then_delivers_everything_once(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        before = len(tg.sent_to(match.league))
        tg.fail_next("sendMessage", times=1, retry_after=1)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await j.gm_says("/announce Завтра играем в 20:00")
        await tg.wait_for(
            lambda: (
                any("Завтра играем" in t for t in tg.texts(match.league))
                and any("Завтра играем" in t for t in tg.texts(match.left))
                and any("Завтра играем" in t for t in tg.texts(match.right))
            )
        )
        waited = loop.time() - started
        await asyncio.sleep(0.3)  # room for a duplicate to show up, if any
    refused = [c for c in tg.calls_of("sendMessage") if c.status == 429]
    assert len(refused) == 1
    assert waited >= 1.0  # the 429's retry_after was honoured
    for chat in (match.league, match.left, match.right):
        copies = [t for t in tg.texts(chat) if "Завтра играем" in t]
        assert len(copies) == 1, f"{chat.title}: {copies}"
    assert len(tg.sent_to(match.league)) == before + 1


async def test_a_blocked_user_is_reported_to_the_masters(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match(start=False, groups=False)  # captains read in private
        tg.block(match.bob)
        await j.gm_says("/announce Матч начнётся завтра")
        alert = await tg.wait_for(
            lambda: [t for t in tg.texts(GM_ID) if str(match.bob.id) in t and "blocked" in t]
        )
    assert "telegram" in alert[0]
    assert any("Матч начнётся" in t for t in tg.texts(match.alice))
    assert not any("Матч начнётся" in t for t in tg.texts(match.bob))


async def test_the_team_chat_hears_of_a_member_the_bot_cannot_reach(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        tg.block(match.alice)
        deadline = await j.service.next_deadline()
        assert deadline is not None
        j.clock.jump_to(deadline - timedelta(hours=1))  # reminder time
        assert await j.service.send_reminders() == 2
        notice = await tg.wait_for(lambda: [s for s in tg.sent_to(match.left) if s.buttons])
        reminded = await tg.wait_sent(match.bob)  # Bob's reminder went through
    assert "Алиса" in notice[0].text
    assert notice[0].buttons == [("Запустить бота", "https://t.me/dragonball_test_bot")]
    assert not any(s.buttons for s in tg.sent_to(match.right))
    assert all(s.chat_id == match.bob.id for s in reminded)


async def test_a_team_group_upgraded_to_a_supergroup_is_followed(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        supergroup = tg.migrate(match.left)
        await j.gm_says("/announce Перерыв 10 минут")
        await tg.wait_for(lambda: any("Перерыв" in t for t in tg.texts(supergroup)))
        # The team's chat is the supergroup from now on: orders written there are answered there.
        ivanov = start_cell("left", 1)
        answer = await j.say(match.alice, f"Иванов: {ivanov[0]} в{ivanov[1]}", supergroup)
    assert answer.chat_id == supergroup.id
    assert "приказы приняты" in answer.text
    assert not any("Перерыв" in t for t in tg.texts(match.left))
