"""The privacy sweep's handful of real-Telegram cases: through the local Bot
API server and the real python-telegram-bot, with both teams' orders on file
(each with a marker nothing else says) and a round resolved, nothing the bot
sent to a chat — texts, captions of the pictures, buttons — carries the other
team's orders, and nothing of either team's orders or readiness reaches a
group both teams read (tests/service/test_privacy_sweep.py sweeps the rest)."""

from __future__ import annotations

from pathlib import Path

from support.fake_telegram import FakeTelegram
from support.telegram_e2e import judge, start_cell

LEFT = ("Иванов", "Петров")
RIGHT = ("Соколов", "Михайлов")


def _orders(side: str, names: tuple[str, ...], marker: str, tick: int = 1) -> str:
    lines = [f"Такт {tick}"]
    for number, name in enumerate(names, start=1):
        cell, height = start_cell(side, number)
        lines.append(f"{name}: {cell} в{height} // {marker}")
    return "\n".join(lines)


def _everything(tg: FakeTelegram, chat: object) -> str:
    sent = tg.sent_to(chat)  # type: ignore[arg-type]
    return "\n".join([s.text for s in sent] + [label for s in sent for label, _ in s.buttons])


async def test_no_chat_gets_what_its_readers_may_not_see(tg: FakeTelegram, tmp_path: Path) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        both = tg.group("Болельщики", [match.alice, match.bob, j.gm])
        # Round 1 resolved: its orders are told in the reports, as they should be.
        await j.say(match.alice, _orders("left", LEFT, "первый-раунд-драконов"), match.left)
        await j.say(match.bob, _orders("right", RIGHT, "первый-раунд-фениксов"), match.right)
        await j.gm_says("/resolve")
        await j.settled()
        # Round 2: orders on file with markers, then everybody asks everywhere.
        await j.say(match.alice, _orders("left", LEFT[:1], "тайна-драконов", 2), match.left)
        await j.say(match.bob, _orders("right", RIGHT[:1], "тайна-фениксов", 2), match.right)
        for user, chat in (
            (j.gm, match.left),
            (j.gm, match.right),
            (j.gm, both),
            (match.alice, both),
            (match.bob, both),
            (match.alice, match.left),
            (match.bob, match.right),
        ):
            for command in ("/orders", "/status", "/orders right", "/ready"):
                await j.say(user, command, chat)
        private_status = await j.say(j.gm, "/status")
        await j.settled()
    left, right, mixed = (_everything(tg, c) for c in (match.left, match.right, both))
    # Each group has its own team's orders and readiness, never the other's.
    assert "тайна-драконов" in left and "тайна-фениксов" not in left
    assert "тайна-фениксов" in right and "тайна-драконов" not in right
    assert "Михайлов" not in left.split("тайна-драконов", 1)[1]  # no right readiness after
    # A group of both teams: neither team's orders nor who has ordered.
    assert "тайна-" not in mixed and "Без приказов" not in mixed and "приказы есть" not in mixed
    # The channel: the public reports only (the orders played are told there).
    league = _everything(tg, match.league)
    assert "тайна-" not in league and "первый-раунд-фениксов" in league
    assert private_status.text and "Драконы" in private_status.text
    # The other captain's private chat never had the left team's markers.
    assert "тайна-драконов" not in _everything(tg, match.bob)
    assert "тайна-фениксов" not in _everything(tg, match.alice)
