"""A game master's answers read in his language: no raw codes (``left``,
``player``, ``game_master``) and no ``-`` placeholders in Russian, no Russian
in English (team names aside, which are the game's own)."""

from __future__ import annotations

import re

from support.service_table import GM, make_table

from storage.db import Database

# Commands, invitation codes, game codes, seeds, links and time zones are not words of the text.
_CODE = re.compile(
    r"\b[A-Z]\w+/[A-Z]\w+|/\w+|--\w+|\b[A-Z0-9]{8,}\b|\b[0-9a-f]{16,}\b|DB-\d+|https?://\S+"
)
_LATIN = re.compile(r"[A-Za-z]{2,}")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


async def _setup_answers(db: Database, lang: str) -> list[str]:
    table = make_table(db)
    if lang == "en":
        assert (await table.say(GM, "/lang en")).status == "ok"
    reply = await table.say(GM, "/newgame players=1")
    table.game_id = reply.game_id or 0
    answers = [reply.text]
    for text in (
        "/status",
        "/addteam left Саламандры",
        "/addteam right Виверны",
        "/addplayer left Иванов",
        "/startgame",  # refused: the right team has no player
        "/invite player left 1",
        "/invite game_master",
    ):
        answers.append((await table.say(GM, text)).text)
    return answers


async def test_russian_answers_have_no_english_codes(sqlite_db: Database) -> None:
    for answer in await _setup_answers(sqlite_db, "ru"):
        words = _LATIN.findall(_CODE.sub(" ", answer))
        assert not words, (words, answer)
        assert " -," not in answer and " - " not in answer and "(-" not in answer, answer


async def test_english_answers_have_no_russian_but_the_names(sqlite_db: Database) -> None:
    for answer in await _setup_answers(sqlite_db, "en"):
        text = answer.replace("Саламандры", "").replace("Виверны", "").replace("Иванов", "")
        assert not _CYRILLIC.search(text), answer
