"""Keyed sequencing of updates and the mapping from updates to Inbound."""

from __future__ import annotations

import asyncio

from support.fake_telegram_world import World
from telegram import Update

from bot.telegram.inbound import command_text, to_inbound
from bot.telegram.ordering import GameIndex, KeyedSequencer


async def test_jobs_sharing_a_key_run_in_ticket_order() -> None:
    sequencer = KeyedSequencer()
    log: list[str] = []

    async def job(name: str, keys: list[str], pause: float) -> None:
        ticket = sequencer.ticket(keys)  # taken now, in call order
        await asyncio.sleep(0)
        async with ticket:
            log.append(f"start {name}")
            await asyncio.sleep(pause)
            log.append(f"end {name}")

    await asyncio.gather(
        job("a", ["u:1"], 0.05),
        job("b", ["u:1", "g:7"], 0.0),
        job("c", ["u:2"], 0.0),
        job("d", ["g:7"], 0.0),
    )
    assert log.index("end a") < log.index("start b") < log.index("end b") < log.index("start d")
    assert log.index("start c") < log.index("end a")  # another key did not wait
    assert sequencer.busy_keys == 0


async def test_a_cancelled_waiter_lets_the_next_one_go() -> None:
    sequencer = KeyedSequencer()
    first = sequencer.ticket(["k"])
    second = sequencer.ticket(["k"])
    third = sequencer.ticket(["k"])
    await first.__aenter__()
    waiting = asyncio.create_task(second.__aenter__())
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    await first.__aexit__(None, None, None)
    async with third:
        pass
    assert sequencer.busy_keys == 0


def test_game_index_learns_from_replies() -> None:
    index = GameIndex()
    assert index.keys(5, 5) == ["u:5", "c:5"]
    index.learn(5, -100, 12)
    assert index.keys(5, 5) == ["u:5", "g:12", "c:5"]
    assert index.keys(6, -100) == ["u:6", "c:-100", "g:12"]
    index.learn(6, None, None)  # a reply without a game teaches nothing
    assert index.keys(6, 6) == ["u:6", "c:6"]
    assert index.keys(None, None) == ["other"]


def test_command_text() -> None:
    assert command_text("/orders@Dragonball_Test_Bot", "dragonball_test_bot") == "/orders"
    assert command_text("/verify@dragonball_test_bot 3", "dragonball_test_bot") == "/verify 3"
    assert command_text("/orders@other_bot", "dragonball_test_bot") is None
    assert command_text("  /ready", "dragonball_test_bot") == "  /ready"
    assert command_text("1: 40 h2\nmail me@example.org", "dragonball_test_bot") == (
        "1: 40 h2\nmail me@example.org"
    )


def test_inbound_of_a_topic_message_and_its_edit() -> None:
    world = World("1:t")
    alice = world.user(1001, "Алиса", "alice", language_code="en")
    forum = world.group("Лига", forum=True)
    thread = world.create_topic(forum, "DB-3")
    message = world.send_text(alice, forum, "/orders", thread_id=thread)
    world.edit_text(message, "/status")
    first, edit = (Update.de_json(u, None) for u in world.updates)
    inbound = to_inbound(first, "/orders")
    assert inbound.chat == str(forum.id)
    assert inbound.meta["thread_id"] == str(thread)
    assert inbound.meta["language_code"] == "en"
    changed = to_inbound(edit, "/status")
    assert changed.edit_of == inbound.external_id
    assert changed.external_id == f"{inbound.external_id}:edit:{edit.update_id}"


def test_inbound_of_media_messages_says_what_they_carry() -> None:
    world = World("1:t")
    alice = world.user(1001, "Алиса", "alice")
    world.send_text(alice, text="Иванов: 12")
    for kind in ("photo", "document", "sticker", "voice"):
        world.send_media(alice, kind=kind)
    text, *media = (Update.de_json(u, None) for u in world.updates)
    assert "media" not in to_inbound(text, "Иванов: 12").meta
    kinds = [to_inbound(update, "").meta["media"] for update in media]
    assert kinds == ["photo", "document", "sticker", "voice"]
