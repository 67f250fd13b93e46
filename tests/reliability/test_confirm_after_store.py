"""No update is confirmed to Telegram, and no mail flagged or moved, before it is
stored: a judge killed between fetching a message and storing it finds the message
again when it restarts."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sqlmodel import select
from support.fake_telegram import FakeTelegram
from support.judge_process import JudgeProcess
from support.mailservers import CaptureSmtp, Dovecot

from storage.db import Database
from storage.models import InboundMessage

GM = 7
GM_MAIL = "referee@example.org"


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


def _inbound_rows(folder: Path, external_id: str) -> list[InboundMessage]:
    db = Database(f"sqlite:///{folder / 'judge.db'}")
    try:
        with db.transaction() as s:
            return list(
                s.exec(select(InboundMessage).where(InboundMessage.external_id == external_id))
            )
    finally:
        db.dispose()


async def _until(condition: object, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        assert loop.time() < end, "condition not reached in time"
        await asyncio.sleep(0.05)


async def test_a_mail_fetched_but_not_stored_survives_a_kill(
    dovecot: Dovecot, smtp_server: CaptureSmtp, tmp_path: Path
) -> None:
    mailbox = dovecot.new_user()
    imap = dovecot.imap_config(mailbox)
    judge = JudgeProcess(
        tmp_path,
        {
            "database": {"url": f"sqlite:///{tmp_path / 'judge.db'}"},
            "game_masters": {"emails": [GM_MAIL]},
            "imap": {
                "enabled": True, "host": "127.0.0.1", "port": imap.port, "security": "none",
                "username": mailbox.name, "password": imap.password.get_secret_value(),  # type: ignore[union-attr]
            },
            "logging": {"level": "INFO"},
        },
    )  # fmt: skip
    judge.upgrade()
    judge.start()
    try:
        await _until(lambda: "imap connected" in judge.log_text(), timeout=60)
        lock = sqlite3.connect(tmp_path / "judge.db", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the judge will fetch the mail and wait to store it
        raw = (
            f"From: <{GM_MAIL}>\r\nTo: {mailbox.address}\r\nSubject: help\r\n"
            "Message-ID: <kill@example.org>\r\n\r\n/help\r\n"
        ).encode()
        dovecot.deliver(mailbox, raw)
        # The judge's IMAP session has seen it (Dovecot moves it from new/ to cur/) …
        await _until(lambda: any(p.parent.name == "cur" for p in mailbox.files()), timeout=30)
        await asyncio.sleep(1.0)  # … and fetched it (a tiny mail: one round trip)
        (path,) = mailbox.files()
        assert ":2," in path.name and "S" not in path.name.split(":2,")[1]  # not \\Seen
        assert mailbox.files("Processed") == []  # nor moved
        judge.kill()
        lock.rollback()
        lock.close()
        assert _inbound_rows(tmp_path, "<kill@example.org>") == []

        judge.start()
        await _until(lambda: len(mailbox.files("Processed")) == 1, timeout=60)
    finally:
        judge.stop()
    assert mailbox.files() == []
    rows = _inbound_rows(tmp_path, "<kill@example.org>")
    assert len(rows) == 1 and rows[0].status != "received"
