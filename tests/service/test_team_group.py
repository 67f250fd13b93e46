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
    for text in (f"{petrov.name}: 36", f"{petrov.name}: 999 в9", "7: 36 в1"):
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
