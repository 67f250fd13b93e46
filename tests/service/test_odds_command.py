"""/odds (/шансы): the chances of the sheet on file, line by line, in the
reader's language, for the asker's own team only."""

from __future__ import annotations

from support.service_table import make_table, set_up_game

from storage.db import Database


async def test_odds_answer_for_the_sheet_on_file(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    state = table.state()
    left = next(p for p in state.team_players("left") if p.cell == 104)
    right = next(p for p in state.team_players("right") if p.cell == 108)
    reply = await table.say(201, f"Такт 1\n{left.name}: 105 в2, ловить красный")
    assert reply.status == "ok", reply.text
    reply = await table.say(301, f"Такт 1\n{right.name}: 107 в2, ловить голубой")
    assert reply.status == "ok", reply.text

    ru = await table.say(201, "/шансы")
    assert ru.status == "ok", ru.text
    assert "Шансы приказов" in ru.text and "«Саламандры»" in ru.text
    assert "поймать красный мяч — " in ru.text and " %" in ru.text
    # Only the asker's team: the other captain's orders are not in it.
    assert f"{right.name}: 107" not in ru.text and "команда «Виверны»" not in ru.text

    await table.say(301, "/lang en")
    en = await table.say(301, "/odds")
    assert en.status == "ok", en.text
    assert "Chances of the orders" in en.text and "catch the blue ball: " in en.text
    assert f"{left.name}: 105" not in en.text


async def test_odds_without_orders(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    reply = await table.say(202, "/odds")
    assert reply.status == "ok", reply.text
    assert "Приказов пока нет." in reply.text


async def test_a_catch_with_nothing_in_reach_is_told(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    far = max(table.state().team_players("left"), key=lambda p: abs((p.cell or 0) - 106))
    reply = await table.say(201, f"Такт 1\n{far.name}: {far.cell} в{far.height}, ловить")
    assert reply.status == "ok", reply.text
    ru = await table.say(201, "/odds")
    lines = ru.text.splitlines()
    at = next(i for i, x in enumerate(lines) if f"{far.name}:" in x)
    assert lines[at + 1].strip() == "поймать нечего: ни один мяч на виду не будет в досягаемости"
