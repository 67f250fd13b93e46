"""The answer to an order message is the whole sheet (issue 17): the team's
orders on file for the round with this message's lines marked, who still
lacks an order for which tick, a first line that says plainly what was
taken, and what an edit or a clear took off."""

from __future__ import annotations

from support.service_table import FIRST_DEADLINE, GM, Table, make_table, orders_text

from bot.service.kernel import textblocks
from storage.db import Database
from storage.models import EventRow


def _lines(text: str) -> list[str]:
    return textblocks.plain(text).splitlines()


async def test_a_players_answer_shows_his_captains_orders_too(table: Table) -> None:
    state = table.state()
    ivanov, petrov = state.player("left", 1), state.player("left", 2)
    assert (await table.say(201, orders_text(state, "left", [1]))).status == "ok"
    reply = await table.say(202, orders_text(state, "left", [2], ticks=(1,)))
    assert reply.status == "ok"
    lines = _lines(reply.text)
    assert lines[0].startswith("Раунд 1: приказы приняты (строк: 1)")
    assert "Лист приказов команды «Саламандры» на раунд 1:" in lines
    # the captain's orders for his player, every tick, unmarked; this message's marked
    assert lines.count(f"  {ivanov.name}: {ivanov.cell} в{ivanov.height}") == 3
    assert f"✎ {petrov.name}: {petrov.cell} в{petrov.height}" in lines
    assert "✎ — строки, которые дало или изменило это сообщение." in lines
    # who lacks which tick: Petrov has tick 1 only
    missing = lines[lines.index("Ещё нет приказа:") + 1 :]
    assert missing[0].startswith("такт 1: ") and petrov.name not in missing[0]
    assert petrov.name in missing[1] and missing[1].startswith("такт 2: ")
    assert ivanov.name not in " ".join(missing)


async def test_the_sheet_and_the_carets_are_preformatted_blocks(table: Table) -> None:
    state = table.state()
    p = state.player("left", 1)
    reply = await table.say(201, f"{p.name}: {p.cell} в{p.height}\nКузнецв: 169 в2")
    blocks = reply.text.count(textblocks.PRE_OPEN)
    assert blocks == 2 == reply.text.count(textblocks.PRE_CLOSE)  # the caret, the sheet
    caret = reply.text.split(textblocks.PRE_OPEN)[1].split(textblocks.PRE_CLOSE)[0]
    assert caret == "2: Кузнецв: 169 в2\n   ^^^^^^^"


async def test_the_first_line_says_which_lines_were_refused(table: Table) -> None:
    state = table.state()
    p = state.player("left", 1)
    text = f"Такт 1\n{p.name}: {p.cell} в{p.height}\nКузнецв: 169 в2\n{p.name} т2: 1 в1"
    reply = await table.say(201, text)
    assert reply.status == "partial"
    first = _lines(reply.text)[0]
    assert first.startswith("Раунд 1: приняты не все строки.")
    assert "Не приняты (почему — ниже): 3, 4;" in first  # line 4 flies too far
    assert "(строк: 1)" in first
    nothing = await table.say(201, "Кузнецв: 169 в2\nпас")
    assert nothing.status == "rejected"
    first = _lines(nothing.text)[0]
    assert first.startswith("Раунд 1: ничего не принято — ошибки в строках: 1, 2")
    assert "Лист приказов команды не изменился." in first
    # the sheet shown is still the one on file (nothing marked: nothing is new)
    assert f"{p.name}: {p.cell} в{p.height}" in _lines(nothing.text)


async def test_an_edit_that_takes_the_orders_back_says_what_it_took(table: Table) -> None:
    state = table.state()
    p = state.player("left", 1)
    order = f"{p.name}: {p.cell} в{p.height}"
    first = await table.say(201, order, external_id="201:77")
    assert first.status == "ok"
    edited = await table.say(201, "# передумал", edit_of="201:77")
    lines = _lines(edited.text)
    assert lines[0].startswith("Раунд 1: в изменённом сообщении приказов больше нет")
    at = lines.index("Сообщение изменено — сняты приказы, которые оно давало раньше:")
    assert f"{order}" in lines[at + 1 : at + 5]
    assert "Приказов нет." in lines  # the sheet is empty again


async def test_a_clear_says_what_it_cleared(table: Table) -> None:
    state = table.state()
    assert (await table.say(201, orders_text(state, "left", [1, 2], ticks=(1, 2)))).status == "ok"
    petrov = state.player("left", 2)
    reply = await table.say(201, f"{petrov.name}: отмена")
    lines = _lines(reply.text)
    assert lines[0].startswith("Раунд 1: приказы приняты")
    at = lines.index("Отменены (сняты с листа):")
    cleared = lines[at + 1 : at + 6]
    assert sum(petrov.name in line for line in cleared) == 2
    sheet = lines[lines.index("Лист приказов команды «Саламандры» на раунд 1:") :]
    assert not any(line.strip().startswith(f"{petrov.name}:") for line in sheet)


async def test_status_says_which_tick_a_player_lacks(table: Table) -> None:
    state = table.state()
    ivanov = state.player("left", 1)
    await table.say(201, orders_text(state, "left", [1], ticks=(1, 2)))
    status = await table.say(201, "/status")
    missing = next(line for line in status.text.splitlines() if line.startswith("Без приказов"))
    assert f"{ivanov.name} (такт 3)" in missing
    petrov = state.player("left", 2)
    assert f"{petrov.name}," in missing or missing.endswith(f"{petrov.name}.")


# -- a substitution carries the orders over ------------------------------------------


async def _game_with_a_reserve(db: Database) -> Table:
    table = make_table(db)
    reply = await table.say(GM, "/newgame players=3")
    table.game_id = reply.game_id or 0
    for text in (
        "/addteam left Саламандры", "/addteam right Виверны", "/addplayer left Иванов",
        "/addplayer left Петров", "/addplayer left Козлов", "/addplayer left Орлов",
        "/addplayer right Соколов", "/addplayer right Волков", "/addplayer right Морозов",
    ):  # fmt: skip
        assert (await table.say(GM, text)).status == "ok", text
    code = (await table.say(GM, "/invite captain left")).data["code"]
    assert (await table.say(201, f"/start {code}")).status == "ok"
    assert (await table.say(GM, "/startgame")).status == "ok"
    return table


async def test_the_substitute_takes_the_orders_of_the_player_he_replaces(
    sqlite_db: Database,
) -> None:
    table = await _game_with_a_reserve(sqlite_db)
    state = table.state()
    kozlov = state.player("left", 3)
    assert state.player("left", 4).status == "reserve"
    where = f"{kozlov.cell} в{kozlov.height}"
    assert (await table.say(201, orders_text(state, "left"))).status == "ok"
    reply = await table.say(201, "замена Козлов -> Орлов")
    lines = _lines(reply.text)
    assert "✎ Замена Козлов -> Орлов" in lines
    # the sheet shows Orlov flying Kozlov's orders, and nobody lacks one
    assert lines.count(f"  Орлов: {where} -- по замене, приказ игрока Козлов") == 3
    assert not any(line.strip().startswith("Козлов:") for line in lines)
    assert "Ещё нет приказа:" not in lines or not any(
        "Орлов" in line or "Козлов" in line for line in lines[lines.index("Ещё нет приказа:") :]
    )
    sheet = await table.say(201, "/orders")
    assert f"Орлов: {where} -- по замене, приказ игрока Козлов" in textblocks.plain(sheet.text)
    # the round is played so: Orlov comes on and flies Kozlov's orders
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    played = table.rounds()[0].orders
    assert {(o["number"], o["tick"]) for o in played["players"] if o["side"] == "left"} >= {
        (4, 1),
        (4, 2),
        (4, 3),
    }
    assert not any(o["number"] == 3 for o in played["players"] if o["side"] == "left")
    events = table.rows(EventRow, EventRow.round_id == table.rounds()[0].id)
    assert not [e for e in events if e.kind == "no_order" and e.data.get("number") == 4]
    after = table.state()
    assert (
        after.player("left", 4).status == "active" and after.player("left", 4).cell == kozlov.cell
    )


async def test_the_substitutes_own_order_wins_and_the_missing_list_names_him(
    sqlite_db: Database,
) -> None:
    table = await _game_with_a_reserve(sqlite_db)
    state = table.state()
    kozlov = state.player("left", 3)
    text = (
        orders_text(state, "left", [1, 2])
        + f"\nзамена Козлов -> Орлов\nт1 Козлов: {kozlov.cell} в{kozlov.height}"
    )
    reply = await table.say(201, text)
    lines = _lines(reply.text)
    missing = lines[lines.index("Ещё нет приказа:") + 1 :]
    assert missing == [
        "такт 1: дракон (будет стоять)",
        "такт 2: Орлов, дракон (будет стоять)",
        "такт 3: Орлов, дракон (будет стоять)",
    ]
    own = await table.say(201, f"т1 Орлов: {kozlov.cell} в{kozlov.height}")
    assert f"✎ Орлов: {kozlov.cell} в{kozlov.height}" in _lines(own.text)
