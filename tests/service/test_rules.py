"""/rules: the edition of the game, the rules in short and where to read them
— a configured link, or the players' rule book itself with the field's
picture; never a path of the repository."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from support.service_table import GM, make_table, set_up_game

from bot.service import DeliveryResult, OutboxItem, OutboxWorker, PartLog
from engine.ruleset import load_ruleset
from storage.db import Database

DOCS = Path(__file__).resolve().parents[2] / "docs"


class Inbox:
    name = "telegram"

    def __init__(self) -> None:
        self.items: list[OutboxItem] = []

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        self.items.append(item)
        return DeliveryResult(ok=True)


async def test_rules_name_the_edition_and_send_the_rule_book(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    inbox = Inbox()
    worker = OutboxWorker(table.service, {"telegram": inbox}, table.clock)
    await worker.drain("telegram")
    ru = await table.say(201, "/rules")
    await table.say(301, "/lang en")
    en = await table.say(301, "/rules")
    await worker.drain("telegram")
    assert ru.status == en.status == "ok"
    version = load_ruleset("classic").version
    assert f"Игра идёт по правилам: классические правила (classic, версия {version})." in ru.text
    assert f"The game is played by the classic rules (classic, version {version})." in en.text
    assert "Раунд — 3 такта, в матче до 30 раундов, в команде 7 игроков." in ru.text
    assert "гуллис-дуллис → цап-царапс" in ru.text and "gullis-dullis → tsap-tsaraps" in en.text
    for reply in (ru, en):
        assert "docs/" not in reply.text and "shared" not in reply.text
    by_id = {i.id: i for i in inbox.items}
    for reply, lang in ((ru, "ru"), (en, "en")):
        book, field = by_id[reply.outbox_ids[0]].attachments
        assert book.content_type.startswith("text/markdown") and book.filename.endswith(".md")
        assert book.data == (DOCS / f"rules-{lang}.md").read_bytes()
        assert field.content_type == "image/png"
        assert Image.open(io.BytesIO(field.data)).size[0] > 1000


async def test_a_game_of_the_second_edition_sends_its_own_rule_book(
    sqlite_db: Database,
) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table, ruleset="variant-001")
    inbox = Inbox()
    worker = OutboxWorker(table.service, {"telegram": inbox}, table.clock)
    await worker.drain("telegram")
    ru = await table.say(201, "/rules")
    await table.say(301, "/lang en")
    en = await table.say(301, "/rules")
    await worker.drain("telegram")
    assert ru.status == en.status == "ok"
    version = load_ruleset("variant-001").version
    assert (
        f"второе издание правил (001), на квадратном поле (variant-001, версия {version})"
        in ru.text
    )
    assert "Поле квадратное, 13 × 17 клеток." in ru.text
    assert "The field is square, 13 × 17 cells." in en.text
    for reply in (ru, en):  # not the classic book's mouth
        assert "Пасть открыта" not in reply.text and "mouth is open" not in reply.text
    by_id = {i.id: i for i in inbox.items}
    for reply, lang in ((ru, "ru"), (en, "en")):
        book, field = by_id[reply.outbox_ids[0]].attachments
        assert book.data == (DOCS / f"rules-001-{lang}.md").read_bytes()
        assert (
            book.filename
            == {
                "ru": "Драконбол — правила второго издания.md",
                "en": "Dragonball — rules of the second edition.md",
            }[lang]
        )
        assert field.content_type == "image/png"
        assert Image.open(io.BytesIO(field.data)).size[0] > 1000


async def test_a_configured_address_is_given_instead(sqlite_db: Database) -> None:
    table = make_table(sqlite_db, rules_url="https://example.org/dragonball/rules-{lang}.md")
    await set_up_game(table)
    reply = await table.say(GM, "/rules")
    assert "Правила целиком: https://example.org/dragonball/rules-ru.md" in reply.text
    assert table.outbox(id=reply.outbox_ids[0])[0].pictures is None


async def test_the_address_names_the_book_of_the_game_s_edition(sqlite_db: Database) -> None:
    table = make_table(sqlite_db, rules_url="https://example.org/docs/{book}-{lang}.md")
    await set_up_game(table, ruleset="variant-001")
    ru = await table.say(GM, "/rules")
    await table.say(301, "/lang en")
    en = await table.say(301, "/rules")
    assert "Правила целиком: https://example.org/docs/rules-001-ru.md" in ru.text
    assert "The whole rule book: https://example.org/docs/rules-001-en.md" in en.text


async def test_a_quick_game_says_its_period_in_words(sqlite_db: Database) -> None:
    """A deadline every few minutes (``/deadline every 10m``) is told in words,
    and ``/rules`` in such a game answers (it used to fail on the period)."""
    table = make_table(sqlite_db)
    await set_up_game(table)
    set_ru = await table.say(GM, "/deadline every 10m")
    assert set_ru.status == "ok" and "срок приказов теперь каждые 10 минут" in set_ru.text
    ru = await table.say(201, "/rules")
    assert ru.status == "ok", ru.text
    assert "до срока: каждые 10 минут (Europe/Moscow)" in ru.text
    await table.say(301, "/lang en")
    en = await table.say(301, "/rules")
    assert en.status == "ok" and "due every 10 minutes (Europe/Moscow)" in en.text
    created = await table.say(GM, "/newgame Блиц deadline=every30s")
    assert "срок каждые 30 секунд (Europe/Moscow)" in created.text
    await table.say(GM, "/lang en")
    later = await table.say(GM, "/deadline every 2h")
    assert "orders are due every 2 hours (Europe/Moscow)" in later.text
