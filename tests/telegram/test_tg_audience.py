"""Through the local Bot API server: a game master's /orders and /status in a
team group show that team's view only; the all-seeing view reaches only his
private chat."""

from __future__ import annotations

from pathlib import Path

from support.fake_telegram import FakeTelegram
from support.telegram_e2e import judge, start_cell

LEFT = ("Иванов", "Петров")
RIGHT = ("Соколов", "Михайлов")


def _orders(side: str, names: tuple[str, ...]) -> str:
    lines = []
    for number, name in enumerate(names, start=1):
        cell, height = start_cell(side, number)
        lines.append(f"{name}: {cell} в{height}")
    return "\n".join(lines)


async def test_a_game_masters_orders_and_status_in_a_team_group(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match()
        await j.say(match.alice, _orders("left", LEFT), match.left)
        await j.say(match.bob, _orders("right", RIGHT[:1]), match.right)
        sheet_here = await j.say(j.gm, "/orders", match.left)
        status_here = await j.say(j.gm, "/status", match.left)
        redirected = await j.say(j.gm, "/orders right", match.left)
        private_before = len(tg.sent_to(j.gm))
        status_private = await j.say(j.gm, "/status")
        await j.settled()
    # In the left group: the left sheet, and a word where the rest is.
    assert all(f"{name}: " in sheet_here.text for name in LEFT)
    assert not any(name in sheet_here.text for name in RIGHT)
    assert "личном" in sheet_here.text
    # The left team's readiness only (the right team has Михайлов without orders).
    assert "Фениксы" not in status_here.text.split("\n", 1)[1]
    assert "Михайлов" not in status_here.text
    # The other team's sheet asked for there: the group hears only that it went privately.
    assert not any(name in redirected.text for name in RIGHT) and "личные" in redirected.text
    private = "\n".join(tg.texts(j.gm))
    assert f"{RIGHT[0]}: " in private
    # Privately the game master sees both teams' readiness.
    assert "Михайлов" in status_private.text and "Драконы" in status_private.text
    assert len(tg.sent_to(j.gm)) > private_before
    # Nothing of the right team's orders ever reached the left group or the channel.
    for chat in (match.left, match.league):
        assert not any(f"{name}: " in text for text in tg.texts(chat) for name in RIGHT)
