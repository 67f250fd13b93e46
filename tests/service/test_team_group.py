"""A team group is for talking: the judge answers there only what reads as
orders (at least one order line, even a wrong one) or a command for it, and
stores the rest without a word.  Private chats keep getting an answer."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.service_table import FIRST_DEADLINE, GM, Table, orders_text

from bot.service import Inbound, Reply
from storage.models import InboundMessage

GROUP = "-100500"
CHATTER = [
    "привет всем!",
    "ну что, 36 в2 пойдём?",
    "Петров, ты где?",
    "Иванов: туда",
    "все стоят",
    "отмена",
    "Я думаю надо лететь на 36",
    "lol 👍",
]


@pytest.fixture
async def group(table: Table) -> Table:
    assert (await table.say(GM, f"/linkchat left {GROUP}")).status == "ok"
    return table


@pytest.mark.parametrize("text", CHATTER)
async def test_chatter_that_looks_like_a_broken_order_is_stored_quietly(
    group: Table, text: str
) -> None:
    before = len(group.outbox())
    reply = await group.say(201, text, chat=GROUP)
    assert (reply.status, reply.outbox_ids) == ("ignored", ())
    assert len(group.outbox()) == before
    [stored] = group.rows(InboundMessage, InboundMessage.text == text)
    assert (stored.status, stored.chat) == ("ignored", GROUP)
    private = await group.say(201, text)  # the same words in private are answered
    assert private.status == "rejected" and private.outbox_ids


async def test_a_broken_or_illegal_order_in_the_group_is_answered(group: Table) -> None:
    state = group.state()
    petrov = state.player("left", 2)
    cell, height = petrov.cell, petrov.height
    order_shaped = (
        f"{petrov.name}: 36",
        f"{petrov.name}: 999 в9",
        "7: 36 в1",
        # A move copied from a report that starts elsewhere; a pass with no target;
        # a pass to a team-mate and a cell; two orders on one line.
        f"{petrov.name} {cell + 1}/{height}→{cell + 2}/{height}",
        f"{petrov.name}: {cell} в{height}, пас красный",
        f"{petrov.name}: {cell} в{height}, пас красный {state.player('left', 1).name} 37",
        f"{petrov.name}: {cell} в{height} {state.player('left', 1).name}: 37 в2",
    )
    for text in order_shaped:
        reply = await group.say(201, text, chat=GROUP)
        assert reply.status == "rejected" and reply.outbox_ids, text
        assert group.outbox(id=reply.outbox_ids[0])[0].destination == GROUP
    mixed = await group.say(201, "привет!\n" + orders_text(state, "left", [2]), chat=GROUP)
    assert mixed.status == "partial" and "1: привет!" in mixed.text  # one order line suffices


async def test_only_the_judges_commands_are_answered_in_the_group(group: Table) -> None:
    assert (await group.say(201, "/shrug", chat=GROUP)).status == "ignored"
    assert (await group.say(201, "/orders", chat=GROUP)).status == "ok"
    assert (await group.say(201, "/приказы", chat=GROUP)).status == "ok"  # an alias is ours
    now = group.clock.now()
    shrug = Inbound("telegram", f"{GROUP}:900", "201", "/shrug", b"{}", now, chat=GROUP)
    addressed = await group.service.receive(replace(shrug, meta={"addressed": "1"}))
    assert addressed.status == "rejected" and "/help" in addressed.text
    assert (await group.say(201, "/shrug")).status == "rejected"  # in private: answered


async def test_after_the_deadline_chatter_stays_quiet_and_orders_hear_too_late(
    group: Table,
) -> None:
    text = orders_text(group.state(), "left", [2])
    late = FIRST_DEADLINE
    quiet: Reply = await group.say(201, "эх, опоздали", chat=GROUP, received_at=late)
    told = await group.say(201, text, chat=GROUP, received_at=late)
    assert quiet.status == "ignored"
    assert told.status == "rejected" and "раунд" in told.text.lower()


async def test_an_edit_that_takes_orders_back_is_answered(group: Table) -> None:
    text = orders_text(group.state(), "left", [2])
    first = await group.say(202, text, chat=GROUP, external_id=f"{GROUP}:77")
    assert first.status == "ok"
    edited = await group.say(
        202, "ой, не то", chat=GROUP, edit_of=f"{GROUP}:77", external_id=f"{GROUP}:77:edit:1"
    )
    assert edited.status == "rejected" and edited.outbox_ids  # the orders went with the edit
    chat = await group.say(202, "спасибо", chat=GROUP, external_id=f"{GROUP}:78")
    again = await group.say(
        202, "спасибо!", chat=GROUP, edit_of=f"{GROUP}:78", external_id=f"{GROUP}:78:edit:2"
    )
    assert (chat.status, again.status) == ("ignored", "ignored")


# ---------------------------------------------------------------- privacy
OTHER_GROUP = "-100600"


async def test_orders_posted_in_the_other_teams_group_are_refused_and_not_echoed(
    group: Table,
) -> None:
    # The left team's group is GROUP; the right team links its own.
    assert (await group.say(GM, f"/linkchat right {OTHER_GROUP}")).status == "ok"
    state = group.state()
    text = orders_text(state, "left", [2])
    reply = await group.say(201, text, chat=OTHER_GROUP)
    assert reply.status == "refused"
    [answer] = group.outbox(id=reply.outbox_ids[0])
    assert answer.destination == OTHER_GROUP
    petrov = state.player("left", 2).name
    assert petrov not in answer.text  # nothing of the left team's orders reaches the right group
    assert "тайна команды" in answer.text
    # Asked for there, the sheet goes to him privately; the group hears only that.
    sheet = await group.say(201, "/orders", chat=OTHER_GROUP)
    here, private = (group.outbox(id=i)[0] for i in sheet.outbox_ids)
    assert (here.destination, private.destination) == (OTHER_GROUP, "201")
    assert petrov not in here.text and "личные" in here.text
    assert petrov in private.text
    # In his own group and in private the same captain is served as before.
    own = await group.say(201, text, chat=GROUP)
    assert own.status == "ok" and petrov in own.text
    assert (await group.say(201, "/orders")).status == "ok"


async def test_orders_in_a_group_that_is_no_team_chat_are_refused(group: Table) -> None:
    reply = await group.say(201, orders_text(group.state(), "left", [2]), chat="-100700")
    assert reply.status == "refused"
    assert not any(o.destination == "-100700" and "в2" in o.text for o in group.outbox())


async def test_a_game_master_may_use_any_team_chat_of_his_game(group: Table) -> None:
    assert (await group.say(GM, "/orders", chat=GROUP)).status == "ok"


async def test_chatter_in_the_other_teams_group_stays_quiet(group: Table) -> None:
    assert (await group.say(GM, f"/linkchat right {OTHER_GROUP}")).status == "ok"
    before = len(group.outbox())
    reply = await group.say(201, "привет, соперники!", chat=OTHER_GROUP)
    assert (reply.status, len(group.outbox())) == ("ignored", before)


async def test_a_message_too_long_to_read_is_answered_in_the_group_as_in_private(
    group: Table,
) -> None:
    state = group.state()
    petrov = state.player("left", 2)
    text = f"{petrov.name}: {petrov.cell} в{petrov.height}\n" + "-- план " * 3000
    reply = await group.say(201, text, chat=GROUP)
    assert reply.status == "rejected" and reply.outbox_ids
    [answer] = group.outbox(id=reply.outbox_ids[0])
    assert answer.destination == GROUP
    assert "слишком длинное" in answer.text and "ничего не принято" in answer.text
    private = await group.say(201, text)
    assert private.status == "rejected" and "слишком длинное" in private.text
