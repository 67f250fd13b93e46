"""Answers of the service as Telegram shows them, end to end through the real
PTB client, the local Bot API server and the game service on SQLite."""

from __future__ import annotations

from pathlib import Path

from support.fake_telegram import FakeTelegram
from support.telegram_e2e import judge


async def test_status_shows_the_field_and_only_the_own_teams_missing_names(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        asked = tg.send_text(match.alice, match.left, "/status")
        answer = await j.answer_to(asked)
        photo = await tg.wait_for(
            lambda: [s for s in tg.sent_to(match.left) if s.method == "sendPhoto"]
        )
    assert "Счёт 0:0" in answer.text and "(Europe/Moscow)" in answer.text
    assert "Без приказов — «Драконы»: Иванов, Петров." in answer.text.splitlines()
    assert "Соколов" not in answer.text and "Фениксы»:" not in answer.text
    [picture] = photo
    assert picture.file is not None and picture.file.data.startswith(b"\x89PNG")
    assert picture.file.filename == "position-round1.png"
