"""TelegramChannel.deliver against the local Bot API server."""

from __future__ import annotations

import io
import socket
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from PIL import Image
from support.fake_telegram import ApiError, FakeTelegram
from telegram import Bot

from bot.service.kernel.api import Attachment, OutboxItem
from bot.telegram.channel import TelegramChannel, chat_ref, expand_url


def png(n: int = 0) -> Attachment:
    buffer = io.BytesIO()
    Image.new("RGB", (30 + n, 20), (0, 90, 0)).save(buffer, format="PNG")
    return Attachment(f"tick{n}.png", "image/png", buffer.getvalue())


def gif() -> Attachment:
    buffer = io.BytesIO()
    frames = [Image.new("P", (30, 20), color) for color in (1, 2, 3)]
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:])
    return Attachment("round.gif", "image/gif", buffer.getvalue())


def item(destination: object, text: str = "", **kw: object) -> OutboxItem:
    defaults: dict[str, object] = {"id": 1, "channel": "telegram", "kind": "results"}
    defaults.update(kw)
    return OutboxItem(destination=str(destination), text=text, **defaults)  # type: ignore[arg-type]


@pytest.fixture
async def channel(bot: Bot) -> AsyncIterator[TelegramChannel]:
    yield TelegramChannel(bot)


async def test_text_reply_buttons_and_topic(tg: FakeTelegram, channel: TelegramChannel) -> None:
    forum = tg.group("Лига", forum=True)
    topic = tg.create_topic(forum, "DB-1")
    gm = tg.user(7, "Судья")
    asked = tg.send_text(gm, forum, "/status", thread_id=topic)
    result = await channel.deliver(
        item(
            forum.id,
            "Раунд 2 открыт",
            reply_ref=str(asked["message_id"]),
            thread_id=str(topic),
            buttons=(("Запустить бота", "https://t.me/dragonball_test_bot?start=ABC"),),
        )
    )
    assert result.ok
    [sent] = tg.sent_to(forum)
    assert sent.text == "Раунд 2 открыт"
    assert sent.reply_to == asked["message_id"]
    assert sent.message["message_thread_id"] == topic
    assert sent.buttons == [("Запустить бота", "https://t.me/dragonball_test_bot?start=ABC")]


async def test_long_report_is_split_and_followed_by_the_album(
    tg: FakeTelegram, channel: TelegramChannel
) -> None:
    game = tg.channel("Драконбол", "db_league")
    report = "\n".join(f"Такт {i % 3 + 1}: строка отчёта номер {i}" for i in range(500))
    images = (png(1), png(2), png(3))
    result = await channel.deliver(item("@db_league", report, attachments=(*images, gif())))
    assert result.ok
    sent = tg.sent_to(game)
    texts = [s for s in sent if s.method == "sendMessage"]
    assert len(texts) >= 3
    assert all(len(s.text) <= 4096 for s in texts)
    assert "\n".join(s.text for s in texts) == report
    album = [s for s in sent if s.method == "sendMediaGroup"]
    assert [s.file.filename for s in album if s.file] == ["tick1.png", "tick2.png", "tick3.png"]
    assert len({s.message["media_group_id"] for s in album}) == 1
    # The album is the diagrams; the GIF of the same round is not sent twice.
    assert [s.method for s in sent] == ["sendMessage"] * len(texts) + ["sendMediaGroup"] * 3


@pytest.mark.parametrize(
    ("diagrams", "methods"),
    [
        ("animation", ["sendMessage", "sendAnimation"]),
        ("both", ["sendMessage", "sendMediaGroup", "sendMediaGroup", "sendAnimation"]),
    ],
)
async def test_animation_instead_of_or_beside_the_album(
    tg: FakeTelegram, bot: Bot, diagrams: str, methods: list[str]
) -> None:
    game = tg.channel("Драконбол")
    channel = TelegramChannel(bot, diagrams=diagrams)  # type: ignore[arg-type]
    assert (await channel.deliver(item(game.id, "итоги", attachments=(png(1), png(2), gif())))).ok
    assert [s.method for s in tg.sent_to(game)] == methods


async def test_image_counts_and_documents(tg: FakeTelegram, channel: TelegramChannel) -> None:
    game = tg.channel("Драконбол")
    one = await channel.deliver(item(game.id, "", attachments=(png(0),)))
    assert one.ok
    assert [s.method for s in tg.sent_to(game)] == ["sendPhoto"]
    eleven = tuple(png(i) for i in range(11))
    log = Attachment("round.json", "application/json", b"{}")
    assert (await channel.deliver(item(game.id, "", id=2, attachments=(*eleven, log)))).ok
    methods = [s.method for s in tg.sent_to(game)][1:]
    assert methods == ["sendMediaGroup"] * 10 + ["sendPhoto", "sendDocument"]


async def test_a_429_resends_only_what_is_missing(
    tg: FakeTelegram, channel: TelegramChannel
) -> None:
    game = tg.channel("Драконбол")
    results = item(game.id, "Отчёт о раунде", attachments=(png(1), png(2)))
    tg.fail_next("sendMediaGroup", retry_after=2)
    first = await channel.deliver(results)
    assert not first.ok
    assert first.retry_after == 2
    assert not first.permanent
    second = await channel.deliver(results)
    assert second.ok
    assert tg.texts(game) == ["Отчёт о раунде"]  # the text went once
    assert [s.method for s in tg.sent_to(game)] == [
        "sendMessage",
        "sendMediaGroup",
        "sendMediaGroup",
    ]


class PartsNoted:
    """A :class:`~bot.service.PartLog` that notes with each part how many messages
    the chat had then (what Telegram had accepted when the part was recorded)."""

    def __init__(self, tg: FakeTelegram, chat: object) -> None:
        self.tg, self.chat = tg, chat
        self.noted: list[tuple[str, int]] = []

    async def sent(self, part: str) -> None:
        self.noted.append((part, len(self.tg.sent_to(self.chat))))  # type: ignore[arg-type]


async def test_each_part_but_the_last_is_recorded_as_soon_as_telegram_has_it(
    tg: FakeTelegram, bot: Bot, channel: TelegramChannel
) -> None:
    game = tg.channel("Драконбол")
    report = "\n".join(f"Такт {i % 3 + 1}: строка отчёта номер {i}" for i in range(300))
    results = item(game.id, report, attachments=(png(1), png(2)))
    log = PartsNoted(tg, game)
    assert (await channel.deliver(results, log)).ok
    texts = tg.texts(game)
    # Each text part on record before the next went; the album, the last, is
    # recorded by the outbox's mark of the whole item.
    assert log.noted == [(f"text{i}", i + 1) for i in range(len(texts))]
    # A judge started again with the parts on record sends only the rest.
    again = TelegramChannel(bot)
    recorded = tuple(part for part, _ in log.noted[:-1])
    assert (await again.deliver(replace(results, parts_sent=recorded), PartsNoted(tg, game))).ok
    assert tg.texts(game)[len(texts) :] == texts[-1:]
    assert [s.method for s in tg.sent_to(game)][-2:] == ["sendMediaGroup"] * 2


async def test_the_pieces_of_a_text_cut_again_are_parts_of_their_own(
    tg: FakeTelegram, bot: Bot, channel: TelegramChannel
) -> None:
    team = tg.group("Драконы")
    report = "\n".join(f"Такт {i}: Иванов летит на поле {i + 10}" for i in range(40))
    results = item(team.id, report, attachments=(png(1),))
    tg.fail_next_with("sendMessage", ApiError(400, "Bad Request: message is too long"))
    log = PartsNoted(tg, team)
    assert (await channel.deliver(results, log)).ok
    pieces = tg.texts(team)
    assert len(pieces) >= 2 and "\n".join(pieces) == report
    assert log.noted == [(f"text0.{i}", i + 1) for i in range(len(pieces))]
    # Killed after the first piece: the next judge goes on with the others.
    again = TelegramChannel(bot)
    assert (await again.deliver(replace(results, parts_sent=("text0.0",)), log)).ok
    assert tg.texts(team) == [*pieces, *pieces[1:]]
    assert [s.method for s in tg.sent_to(team)][-1] == "sendPhoto"


async def test_permanent_failures_name_their_reason(
    tg: FakeTelegram, channel: TelegramChannel
) -> None:
    stranger = tg.user(1002, "Боб")
    blocker = tg.user(1003, "Ира")
    tg.send_text(blocker, text="/start")
    tg.block(blocker)
    kicked = tg.group("Бывшая")
    kicked.bot_member = False
    mute = tg.channel("Чужой канал", bot_admin=False)
    cases = {
        stranger.id: "not_started",
        blocker.id: "blocked",
        kicked.id: "kicked",
        mute.id: "no_rights",
        -999: "chat_not_found",
    }
    for destination, reason in cases.items():
        result = await channel.deliver(item(destination, "Ваш ход"))
        assert not result.ok
        assert result.permanent
        assert result.reason.split(":")[0] == reason


async def test_a_migrated_group_names_its_new_id(
    tg: FakeTelegram, channel: TelegramChannel
) -> None:
    team = tg.group("Левые")
    supergroup = tg.migrate(team)
    result = await channel.deliver(item(team.id, "приказы приняты"))
    assert not result.ok
    assert not result.permanent
    assert result.new_destination == str(supergroup.id)
    assert (await channel.deliver(item(result.new_destination, "приказы приняты"))).ok
    assert tg.texts(supergroup) == ["приказы приняты"]
    # Another item still naming the old group (claimed before the move) goes to the new one.
    assert (await channel.deliver(item(team.id, "срок: 21:00", id=2))).ok
    assert tg.texts(supergroup) == ["приказы приняты", "срок: 21:00"]
    assert len([c for c in tg.calls_of("sendMessage") if c.status == 400]) == 1


async def test_other_errors_are_retried_later(tg: FakeTelegram, channel: TelegramChannel) -> None:
    team = tg.group("Левые")
    tg.fail_next_with("sendMessage", ApiError(500, "Internal Server Error"))
    result = await channel.deliver(item(team.id, "x"))
    assert not result.ok
    assert not result.permanent
    assert result.retry_after is None
    assert (await channel.deliver(item(team.id, "x"))).ok


async def test_an_unreachable_server_is_a_temporary_failure(tg: FakeTelegram) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on the port any more (as when Telegram cannot be reached).
    unreachable = Bot(tg.token, base_url=f"http://127.0.0.1:{port}/bot")
    try:
        result = await TelegramChannel(unreachable).deliver(item(-5, "x"))
    finally:
        await unreachable.shutdown()
    assert not result.ok
    assert not result.permanent
    assert result.reason.startswith("network")


async def test_an_item_no_retry_can_fix_is_permanent(
    tg: FakeTelegram, channel: TelegramChannel
) -> None:
    team = tg.group("Левые")
    result = await channel.deliver(item(team.id, "x", thread_id="general"))
    assert result.permanent
    assert tg.sent_to(team) == []


def test_chat_references() -> None:
    assert chat_ref("-100123") == -100123
    assert chat_ref(" 42 ") == 42
    assert chat_ref("@db_league") == "@db_league"
    assert chat_ref("db_league") == "@db_league"


async def test_start_links_name_this_bot(tg: FakeTelegram, channel: TelegramChannel) -> None:
    team = tg.group("Левые")
    buttons = (("Запустить бота", "bot:start"), ("Вступить", "bot:start?K7Q2"))
    assert (await channel.deliver(item(team.id, "Нажмите кнопку", buttons=buttons))).ok
    [sent] = tg.sent_to(team)
    assert sent.buttons == [
        ("Запустить бота", "https://t.me/dragonball_test_bot"),
        ("Вступить", "https://t.me/dragonball_test_bot?start=K7Q2"),
    ]


def test_expand_url() -> None:
    assert expand_url("https://example.org/x", None) == "https://example.org/x"
    assert expand_url("bot:start", "judge_bot") == "https://t.me/judge_bot"
    assert expand_url("bot:start?ABC", "judge_bot") == "https://t.me/judge_bot?start=ABC"
    assert expand_url("bot:start", None) is None


async def test_preformatted_blocks_are_sent_as_pre_entities(
    tg: FakeTelegram, channel: TelegramChannel
) -> None:
    from bot.service.kernel.textblocks import pre

    player = tg.user(11, "Игрок")
    tg.send_text(player, text="Кузнецв: 169 в2")  # he wrote first
    caret = "1: Кузнецв: 169 в2\n   ^^^^^^^"
    text = f"Ошибки (1):\n\n{pre(caret)}\nНет игрока «Кузнецв»."
    assert (await channel.deliver(item(player.id, text, kind="ack"))).ok
    [sent] = tg.sent_to(player)
    assert sent.text == "Ошибки (1):\n\n1: Кузнецв: 169 в2\n   ^^^^^^^\nНет игрока «Кузнецв»."
    [entity] = sent.message["entities"]
    assert entity["type"] == "pre" and entity["offset"] == len("Ошибки (1):\n\n")
    shown = sent.text[entity["offset"] : entity["offset"] + entity["length"]]
    assert shown == "1: Кузнецв: 169 в2\n   ^^^^^^^"
    assert "parse_mode" not in sent.params  # nothing to escape
