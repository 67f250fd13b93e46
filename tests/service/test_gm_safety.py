"""Game-master commands that cannot hurt a match by accident: an extension
never shortens the round, a quick match has a short minimum, every change says
what it changed and who was told, and every reader gets one copy."""

from __future__ import annotations

from datetime import timedelta

from support.service_table import FIRST_DEADLINE, GM, START, Table, make_table, orders_text

from bot.service.inbound.commands import GM_COMMANDS
from storage.db import Database


async def test_extend_to_a_time_of_day_is_after_the_current_deadline(table: Table) -> None:
    # The deadline is 21:00 Moscow today; "13:00" is tomorrow's 13:00, never today's.
    reply = await table.say(GM, "/extend 13:00")
    assert reply.status == "ok", reply.text
    assert table.rounds()[0].deadline == FIRST_DEADLINE + timedelta(hours=16)
    assert "было" in reply.text or "был срок" in reply.text
    # Extended to 02:00 the day after, "01:00" is the night after that: still later.
    assert (await table.say(GM, "/extend 12h")).status == "ok"
    before = table.rounds()[0].deadline
    assert (await table.say(GM, "/extend 01:00")).status == "ok"
    assert table.rounds()[0].deadline > before


async def test_an_extension_that_would_shorten_the_round_is_refused(table: Table) -> None:
    refused = await table.service.extend(
        table.game_id, until=FIRST_DEADLINE - timedelta(hours=1), by=f"telegram:{GM}"
    )
    assert refused.status == "rejected" and "раньше" in refused.text
    assert table.rounds()[0].deadline == FIRST_DEADLINE
    assert (await table.say(GM, "/extend 0m")).status == "rejected"


async def test_a_quick_match_runs_on_minutes(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    reply = await table.say(GM, "/newgame deadline=every10m mintime=2m Быстрый")
    assert reply.status == "ok", reply.text
    table.game_id = reply.game_id or 0
    for text in ("/addteam left А", "/addteam right Б", "/mintime 3m"):
        answer = await table.say(GM, text)
        assert answer.status == "ok", answer.text
    assert "3 минуты" in answer.text
    assert (await table.say(GM, "/mintime 5s")).status == "rejected"
    assert (await table.say(GM, "/startgame")).status == "ok"
    # 12:00 UTC + 3 minutes: the next ten-minute mark.
    assert table.rounds()[0].deadline == START + timedelta(minutes=10)
    state = table.state()
    await table.clock.set(START + timedelta(minutes=8))
    assert (await table.say(GM, "/resolve")).status == "ok"
    # 12:08 + 3 minutes = 12:11: the next mark is 12:20, not tomorrow.
    assert table.rounds()[1].deadline == START + timedelta(minutes=20)
    assert state.round == 1


async def test_before_the_start_a_deadline_change_is_the_masters_business(
    sqlite_db: Database,
) -> None:
    table = make_table(sqlite_db, channel_chat="@cup")
    reply = await table.say(GM, "/newgame Кубок")
    table.game_id = reply.game_id or 0
    answer = await table.say(GM, "/deadline 20:00")
    assert answer.status == "ok" and "{" not in answer.text
    assert "при старте" in answer.text and "Больше никому не объявлено" in answer.text
    assert not table.outbox(destination="@cup")


async def test_deadline_and_answers_say_who_was_told(table: Table) -> None:
    before = len(table.outbox())
    answer = await table.say(GM, "/deadline 20:00")
    assert answer.status == "ok" and "{" not in answer.text
    assert "Объявлено: 3 участника лично" in answer.text
    new = table.outbox()[before:]
    # One copy per reader: the master's answer, one announcement to each player.
    assert sorted(r.destination for r in new) == ["100", "201", "202", "301"]
    assert [r.kind for r in new if r.destination == "100"] == ["ack"]


async def test_linkchat_posts_once_in_the_group_and_not_in_the_channel(sqlite_db: Database) -> None:
    table = make_table(sqlite_db, channel_chat="@cup")
    from support.service_table import set_up_game

    await set_up_game(table)
    before = len(table.outbox())
    answer = await table.say(GM, "/linkchat left", chat="-1001")
    assert answer.status == "ok", answer.text
    new = table.outbox()[before:]
    assert [(r.destination, r.kind) for r in new] == [("-1001", "ack")]


async def test_help_lists_only_commands_that_exist(table: Table) -> None:
    text = (await table.say(GM, "/help")).text
    listed = {w.strip(",.").lstrip("/") for w in text.split("Команды судьи:")[1].split()
              if w.startswith("/")}  # fmt: skip
    assert listed == set(GM_COMMANDS)
    assert "/as" not in text.split()


async def test_help_gives_a_master_each_command_with_its_usage(table: Table) -> None:
    # A master in chat has no guide at hand: one line a command, its arguments and what it does.
    lines = (await table.say(GM, "/help")).text.splitlines()
    assert "/warn left|right [ПРИЧИНА] — предупреждение" in lines
    assert "/startgame — начать матч" in lines
    assert sum(line.startswith("/") for line in lines) == len(GM_COMMANDS)
    await table.say(GM, "/lang en")
    lines = (await table.say(GM, "/help")).text.splitlines()
    assert "/substitute left|right OUT IN — substitution" in lines
    assert "/resolve — resolve the round now" in lines


async def test_after_a_rollback_at_once_the_results_come_again(table: Table) -> None:
    await table.say(201, orders_text(table.state(), "left"))
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    reply = await table.say(GM, "/rollback")
    assert reply.status == "ok", reply.text
    replays = [r for r in table.outbox(kind="results") if r.text.startswith("Переигровка")]
    assert sorted(r.destination for r in replays) == ["100", "201", "202", "301"]
