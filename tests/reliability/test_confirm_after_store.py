"""No update is confirmed to Telegram before it is stored: a judge killed between
fetching an update and storing it finds the update again when it restarts."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sqlmodel import select
from support.fake_telegram import FakeTelegram
from support.judge_process import JudgeProcess

from storage.db import Database
from storage.models import InboundMessage

GM = 7


def telegram_judge(tg: FakeTelegram, folder: Path) -> JudgeProcess:
    return JudgeProcess(
        folder,
        {
            "database": {"url": f"sqlite:///{folder / 'judge.db'}"},
            "game_masters": {"telegram_ids": [GM]},
            "telegram": {"enabled": True, "token": tg.token, "base_url": tg.base_url},
            "logging": {"level": "WARNING"},
        },
    )


async def test_an_update_fetched_but_not_stored_survives_a_kill(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    judge = telegram_judge(tg, tmp_path)
    judge.upgrade()
    gm = tg.user(GM, "Судья", "referee")
    judge.start()
    try:
        await tg.wait_for(lambda: tg.calls_of("getUpdates"), timeout=60)
        # The database is busy (another writer holds it): the judge fetches the
        # update and waits to store it.
        lock = sqlite3.connect(tmp_path / "judge.db", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        message = tg.send_text(gm, text="/help")
        update_id = tg.world.history[-1]["update_id"]
        await tg.wait_for(lambda: update_id in tg.world.delivered_at, timeout=30)
        calls = len(tg.calls_of("getUpdates"))
        await asyncio.sleep(1.0)  # PTB's Updater would have asked for more by now
        # Not confirmed: Telegram still holds it, and nobody asked past it.
        assert [u["update_id"] for u in tg.world.updates] == [update_id]
        assert len(tg.calls_of("getUpdates")) == calls
        judge.kill()
        lock.rollback()
        lock.close()

        judge.start()
        answers = await tg.wait_for(
            lambda: [s for s in tg.sent_to(gm) if s.reply_to == message["message_id"]],
            timeout=60,
        )
        await asyncio.sleep(0.5)  # a second answer would be as quick as the first
    finally:
        judge.stop()
    assert len(answers) == 1
    db = Database(f"sqlite:///{tmp_path / 'judge.db'}")
    try:
        with db.transaction() as s:
            rows = s.exec(
                select(InboundMessage).where(
                    InboundMessage.external_id == f"{GM}:{message['message_id']}"
                )
            ).all()
    finally:
        db.dispose()
    assert len(rows) == 1 and rows[0].status != "received"
