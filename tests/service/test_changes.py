"""When somebody else changes a team's sheet, its captain and the player
concerned are told privately what changed and by whom."""

from __future__ import annotations

from support.service_table import GM, Table, orders_text

from storage.models import OutboxRow

GROUP = "-100500"


def _notices(table: Table, destination: str) -> list[OutboxRow]:
    return [r for r in table.outbox(destination=destination) if r.kind == "sheet_notice"]


def _petrov(table: Table) -> str:
    return table.state().player("left", 2).name


async def test_the_player_concerned_hears_of_his_captains_change(table: Table) -> None:
    state = table.state()
    reply = await table.say(201, orders_text(state, "left", [2], ticks=(1,)))
    assert reply.status == "ok"
    [notice] = _notices(table, "202")
    assert "изменил(а) капитан" in notice.text
    p = state.player("left", 2)
    assert f"{p.name}: {p.cell} в{p.height}" in notice.text  # what changed
    assert not _notices(table, "201")  # not of his own change
    assert not _notices(table, "301")  # never the other team


async def test_the_captain_hears_of_a_teammates_change(table: Table) -> None:
    await table.say(202, orders_text(table.state(), "left", [2], ticks=(1, 2)))
    [notice] = _notices(table, "201")
    assert "изменил(а) игрок" in notice.text and _petrov(table) in notice.text
    assert not _notices(table, "202")


async def test_a_game_masters_change_is_told_to_captain_and_player(table: Table) -> None:
    text = "Команда left\n" + orders_text(table.state(), "left", ticks=(1,))
    assert (await table.say(GM, text)).status == "ok"
    for who in ("201", "202"):
        [notice] = _notices(table, who)
        assert "изменил(а) судья" in notice.text
    ivanov = table.state().player("left", 1).name
    [for_player] = _notices(table, "202")
    assert ivanov not in for_player.text  # the player hears of his own pieces
    assert ivanov in _notices(table, "201")[0].text  # the captain of the whole team


async def test_a_clear_is_told_as_such(table: Table) -> None:
    await table.say(202, orders_text(table.state(), "left", [2], ticks=(1,)))
    assert (await table.say(201, "/clear 2")).status == "ok"
    [notice] = _notices(table, "202")
    assert f"Стёрты приказы: {_petrov(table)}." in notice.text


async def test_a_change_written_in_the_teams_group_is_not_told_again(table: Table) -> None:
    assert (await table.say(GM, f"/linkchat left {GROUP}")).status == "ok"
    await table.say(201, orders_text(table.state(), "left", [2], ticks=(1,)), chat=GROUP)
    assert not _notices(table, "202")  # he reads the group
    # Written privately, the group never saw it: he is told.
    await table.say(201, orders_text(table.state(), "left", [2], ticks=(2,)))
    assert len(_notices(table, "202")) == 1


async def test_an_email_reader_is_told_also_of_a_change_in_the_group(table: Table) -> None:
    assert (await table.say(GM, f"/linkchat left {GROUP}")).status == "ok"
    code = (await table.say(GM, "/invite player left 3 mail@player.example")).data["code"]
    assert (await table.mail("mail@player.example", f"/start {code}")).status == "ok"
    await table.say(201, orders_text(table.state(), "left", [3], ticks=(1,)), chat=GROUP)
    [notice] = _notices(table, "mail@player.example")
    assert notice.subject is not None and "изменены" in notice.subject
    assert table.state().player("left", 3).name in notice.text
