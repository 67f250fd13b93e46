"""Through the local Bot API server: an invitation bound to a Telegram username
or to an e-mail address is not redeemed by somebody else who has the code."""

from __future__ import annotations

import re
from pathlib import Path

from sqlmodel import select
from support.fake_telegram import FakeTelegram
from support.telegram_e2e import judge

from storage.models import OutboxRow


async def test_bound_invitations_on_telegram(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        await j.setup_match()
        mallory = tg.user(1666, "Мэллори", "mallory")
        carol = tg.user(1003, "Кэрол", "Carol_Plays")
        for_carol = await j.gm_says("/invite player left 2 @carol_plays")
        code = re.search(r"/start (\w+)", for_carol)
        assert code is not None and "@carol_plays" in for_carol
        stolen = await j.say(mallory, f"/start {code[1]}")
        joined = await j.say(carol, f"/start {code[1]}")
        # An address-bound one: on Telegram only with the code mailed to the address.
        for_mail = await j.gm_says("/invite player right 2 petrov@players.example")
        mail_code = re.search(r"/start (\w+)", for_mail)
        assert mail_code is not None
        asked = await j.say(mallory, f"/start {mail_code[1]}")
        guessed = await j.say(mallory, f"/start {mail_code[1]} ABCDEFGH")
        orders = await j.say(mallory, "Соколов: 1 в1")
        with j.service.db.transaction() as s:
            letters = s.exec(select(OutboxRow).where(OutboxRow.channel == "email")).all()
        listing = await j.gm_says("/invitations")
    assert "другому пользователю" in stolen.text
    assert "Добро пожаловать" in joined.text and "«Драконы»" in joined.text
    assert "p…@players.example" in asked.text
    assert "не подходит" in guessed.text
    assert "Я вас не знаю" in orders.text  # still nobody: he orders for no one
    [letter] = letters
    assert letter.destination == "petrov@players.example" and mail_code[1] in letter.text
    assert "Мэллори (@mallory)" in letter.text  # the owner learns who asked
    assert "telegram:1003 @carol_plays" in listing
