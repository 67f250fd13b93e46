"""Messages that are no text (photos, documents, stickers) are stored like any
other, their caption read as text: the real service on SQLite, the real PTB
bot, the local Bot API server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlmodel import select
from support.fake_telegram import FakeTelegram
from support.telegram_e2e import Judge, judge, start_cell

from storage.models import InboundMessage


def _finished(j: Judge, external_id: str) -> InboundMessage | None:
    with j.service.db.transaction() as s:
        query = select(InboundMessage).where(InboundMessage.external_id == external_id)
        row = s.exec(query).first()
        return row if row is not None and row.status != "received" else None


async def stored(j: Judge, message: dict[str, Any]) -> InboundMessage:
    """The row of ``message``, once the service has finished with it."""
    external_id = f"{message['chat']['id']}:{message['message_id']}"
    row = await j.tg.wait_for(lambda: _finished(j, external_id))
    assert row is not None
    return row


async def test_a_photo_with_orders_in_its_caption_is_stored_and_read(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        cell, height = start_cell("left", 1)
        caption = f"Иванов: {cell} в{height}"
        photo = tg.send_media(match.alice, kind="photo", caption=caption)
        answer = await j.answer_to(photo)
        row = await stored(j, photo)
    assert "приказы приняты" in answer.text
    assert caption in answer.text
    assert (row.text, row.status, row.sender) == (caption, "ok", str(match.alice.id))
    update = json.loads(row.raw)
    assert update["message"]["photo"][0]["file_id"]  # the whole update, as received


async def test_a_sticker_is_stored_and_not_read(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        sticker = tg.send_media(match.alice, kind="sticker")
        row = await stored(j, sticker)
        await j.settled()
        # Orders sent afterwards are read as usual.
        cell, height = start_cell("left", 2)
        answer = await j.say(match.alice, f"Петров: {cell} в{height}")
    assert (row.text, row.status) == ("", "ignored")
    assert "sticker" in json.loads(row.raw)["message"]
    # Nothing to read, and (so far) the service answers nothing to it.
    assert not [s for s in tg.sent_to(match.alice) if s.reply_to == sticker["message_id"]]
    assert "приказы приняты" in answer.text


async def test_a_document_from_a_stranger_is_stored_and_answered(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        stranger = tg.user(2001, "Мэллори")
        document = tg.send_media(stranger, kind="document")
        answer = await j.answer_to(document)
        row = await stored(j, document)
    assert "/start" in answer.text  # who are you: ask for an invitation
    assert (row.text, row.status) == ("", "unknown_sender")


async def test_a_photo_in_a_team_group_is_stored_silently(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        before = len(tg.sent_to(match.left))
        photo = tg.send_media(match.alice, match.left, kind="photo")
        row = await stored(j, photo)
        await j.settled()
    assert (row.text, row.status, row.chat) == ("", "ignored", str(match.left.id))
    assert len(tg.sent_to(match.left)) == before  # team chatter is not answered


async def test_a_photo_without_caption_in_private_is_answered_text_only(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        photo = tg.send_media(match.alice, kind="photo")
        row = await stored(j, photo)
        await j.settled()
    assert (row.text, row.status) == ("", "rejected")
    answers = [s for s in tg.sent_to(match.alice) if s.reply_to == photo["message_id"]]
    assert answers and "только текст" in answers[0].text
