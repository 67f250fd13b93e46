"""What an answer shows is decided by who will read it, not by who asked:
a game master's command in a team group answers with that team's view, the
all-seeing view goes only to his private chat, and a mixed group sees the
public part only (bot/service/kernel/audience.py)."""

from __future__ import annotations

import pytest
from support.service_table import GM, Table, orders_text

from bot.service.kernel.audience import EVERYTHING, PUBLIC, View, team_view
from storage.models import Member, OrderRow, OutboxRow, Team

LEFT_GROUP, RIGHT_GROUP, MIXED, CHANNEL = "-100500", "-100600", "-100700", "-100800"


@pytest.fixture
async def groups(table: Table) -> Table:
    for text in (
        f"/linkchat left {LEFT_GROUP}",
        f"/linkchat right {RIGHT_GROUP}",
        f"/setchannel {CHANNEL}",
    ):
        assert (await table.say(GM, text)).status == "ok", text
    return table


def _names(table: Table, side: str) -> list[str]:
    return [p.name for p in table.state().team_players(side)]  # type: ignore[arg-type]


def _sent(table: Table, ids: tuple[int, ...]) -> list[OutboxRow]:
    return [table.outbox(id=i)[0] for i in ids]


async def _both_teams_ordered(table: Table) -> None:
    state = table.state()
    assert (await table.say(201, orders_text(state, "left", ticks=(1,)))).status == "ok"
    assert (await table.say(301, orders_text(state, "right", ticks=(1,)))).status == "ok"


def test_a_view_covers_what_it_holds_and_meets_another_in_what_both_hold() -> None:
    left, right = team_view("left"), team_view("right")
    assert EVERYTHING.covers(left) and EVERYTHING.covers(EVERYTHING)
    assert left.covers(PUBLIC) and not left.covers(right) and not left.covers(EVERYTHING)
    assert EVERYTHING.meet(left) == left and left.meet(right) == PUBLIC
    assert View(frozenset({"left", "right"})).covers(left)
    assert not View(frozenset({"left", "right"})).covers(EVERYTHING)  # hidden balls are more
    assert (EVERYTHING.name, left.name, PUBLIC.name) == ("gm", "left", "public")
    assert (EVERYTHING.report, left.report, EVERYTHING.picture, left.picture) == (
        "public", "left", "gm", "public",
    )  # fmt: skip


async def test_a_game_masters_orders_in_a_team_group_show_that_teams_sheet_only(
    groups: Table,
) -> None:
    await _both_teams_ordered(groups)
    left, right = _names(groups, "left"), _names(groups, "right")
    reply = await groups.say(GM, "/orders", chat=LEFT_GROUP)
    [here] = _sent(groups, reply.outbox_ids)
    assert here.destination == LEFT_GROUP
    assert all(name in here.text for name in left)
    assert not any(name in here.text for name in right)
    assert "в личном" in here.text  # where the rest is
    # Privately he sees both sheets.
    [private] = _sent(groups, (await groups.say(GM, "/orders")).outbox_ids)
    assert private.destination == str(GM)
    assert all(name in private.text for name in left + right)


async def test_the_other_teams_sheet_asked_for_in_a_team_group_goes_privately(
    groups: Table,
) -> None:
    await _both_teams_ordered(groups)
    right = _names(groups, "right")
    reply = await groups.say(GM, "/orders right", chat=LEFT_GROUP)
    here, private = _sent(groups, reply.outbox_ids)
    assert here.destination == LEFT_GROUP and not any(name in here.text for name in right)
    assert "личные" in here.text
    assert private.destination == str(GM) and all(name in private.text for name in right)
    assert reply.text == here.text  # the adapter's copy is the one in place


async def test_a_game_masters_status_in_a_team_group_has_that_teams_readiness_only(
    groups: Table,
) -> None:
    reply = await groups.say(GM, "/status", chat=LEFT_GROUP)
    [here] = _sent(groups, reply.outbox_ids)
    lines = here.text.splitlines()
    assert any(line.startswith("Без приказов — «Саламандры»") for line in lines)
    assert not any("Виверны»:" in line or "— «Виверны»" in line for line in lines)
    round_id = groups.game().current_round_id
    assert here.pictures == f"position/{round_id}/0/public/ru"  # never the all-seeing picture
    [private] = _sent(groups, (await groups.say(GM, "/status")).outbox_ids)
    assert private.pictures == f"position/{round_id}/0/gm/ru"
    assert any(line.startswith("Без приказов — «Виверны»") for line in private.text.splitlines())


@pytest.mark.parametrize("chat", [MIXED, CHANNEL, RIGHT_GROUP])
async def test_a_players_status_in_a_group_not_his_teams_shows_no_readiness(
    groups: Table, chat: str
) -> None:
    reply = await groups.say(201, "/status", chat=chat)
    [here] = _sent(groups, reply.outbox_ids)
    assert here.destination == chat
    assert "Без приказов" not in here.text and "приказы есть у всех" not in here.text
    assert not any(name in here.text for name in _names(groups, "left"))
    assert here.pictures is not None and "/public/" in here.pictures
    assert "Счёт 0:0" in here.text  # the public part is shown


async def test_readiness_said_in_a_mixed_group_is_answered_privately(groups: Table) -> None:
    reply = await groups.say(201, "/ready", chat=MIXED)
    here, private = _sent(groups, reply.outbox_ids)
    assert here.destination == MIXED and "Саламандры" not in here.text
    assert private.destination == "201" and "Саламандры" in private.text


async def test_a_game_master_orders_in_a_team_group_for_that_team_only(groups: Table) -> None:
    state = groups.state()
    text = "Команда right\n" + orders_text(state, "right", ticks=(1,))
    reply = await groups.say(GM, text, chat=LEFT_GROUP)
    [here] = _sent(groups, reply.outbox_ids)
    assert not groups.rows(OrderRow, OrderRow.side == "right")  # not taken in the left group
    assert not any(name in here.text for name in _names(groups, "right") if name not in text)
    own = await groups.say(GM, "Команда left\n" + orders_text(state, "left", ticks=(1,)),
                           chat=LEFT_GROUP)  # fmt: skip
    assert own.status == "ok", own.text
    assert groups.rows(OrderRow, OrderRow.side == "left")
    # His /clear there clears that team's orders only.
    await groups.say(GM, "Команда right\n" + orders_text(state, "right", ticks=(1,)))
    assert (await groups.say(GM, "/clear", chat=LEFT_GROUP)).status == "ok"
    current = groups.rows(OrderRow, OrderRow.current == True)  # noqa: E712
    assert {r.side for r in current} == {"right"}


async def test_an_invitation_made_in_a_group_is_handed_over_privately(groups: Table) -> None:
    reply = await groups.say(GM, "/invite player left 3", chat=LEFT_GROUP)
    here, private = _sent(groups, reply.outbox_ids)
    code = str(reply.data["code"])
    assert code not in here.text and here.buttons == []
    assert private.destination == str(GM) and code in private.text and private.buttons


async def test_a_pass_phrase_written_in_a_group_is_refused(groups: Table) -> None:
    reply = await groups.say(201, "/passphrase очень тайная фраза", chat=LEFT_GROUP)
    assert reply.status == "refused" and "больше не тайна" in reply.text
    [member] = [m for m in groups.rows(Member) if m.telegram_user_id == 201]
    assert member.passphrase_hash is None


async def test_a_team_chat_is_neither_the_public_channel_nor_the_other_teams(
    groups: Table,
) -> None:
    assert (await groups.say(GM, f"/linkchat left {CHANNEL}")).status == "rejected"
    assert (await groups.say(GM, f"/linkchat left {RIGHT_GROUP}")).status == "rejected"
    chats = {t.side: t.chat for t in groups.rows(Team)}
    assert chats == {"left": LEFT_GROUP, "right": RIGHT_GROUP}


async def test_a_group_speaks_its_own_language_not_its_writers(groups: Table) -> None:
    assert (await groups.say(202, "/lang ru", chat=LEFT_GROUP)).status == "refused"  # no captain
    assert (await groups.say(201, "/lang en", chat=LEFT_GROUP)).status == "ok"
    state = groups.state()
    ack = await groups.say(202, orders_text(state, "left", [2], ticks=(1,)), chat=LEFT_GROUP)
    assert ack.status == "ok" and "Tick 1" in ack.text and "Такт" not in ack.text, ack.text
    assert (await groups.say(202, "/status")).text.startswith("Игра")  # privately: his own
    await groups.say(GM, "/pause гроза")
    [paused] = [r for r in groups.outbox(destination=LEFT_GROUP) if r.kind == "announce"][-1:]
    assert "paused" in paused.text.lower()
    [other] = [r for r in groups.outbox(destination=RIGHT_GROUP) if r.kind == "announce"][-1:]
    assert "приостановил" in other.text
