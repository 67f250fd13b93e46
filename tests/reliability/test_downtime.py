"""Down across a deadline, end to end: the real judge (``dragonball serve``) is
stopped while a round is open, players keep ordering by Telegram and by mail
before and after its deadline, and it starts again several periods later (the
fast-clock hour: the deadline every 15 s, down for about half a minute).  On start it
reads both channels' backlog before it resolves the overdue round: the orders
that reached Telegram or the mailbox before the deadline count in that round
(its played orders hold them); the ones after it are refused plainly, naming
the round that was played (docs/service.md, guarantees 2–4)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import select
from support.fake_telegram import FakeTelegram
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot
from support.trial_check import TrialReport, check
from support.trial_match import MailSide, Match, Player

from storage.models import Round

PERIOD = 15
PLAYERS = [
    Player("left", None, telegram=201, captain=True),
    Player("left", [2], telegram=202),
    Player("right", None, telegram=301, captain=True),
    Player("right", [2], email="sokolov@example.ru"),
]


def _open_round(match: Match) -> Round | None:
    with match.db.transaction() as s:
        return s.exec(
            select(Round).where(Round.game_id == match.tables[0].game_id, Round.status == "open")
        ).first()


async def _until(condition, timeout: float = 300.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.1)
    return found


async def test_down_across_a_deadline_the_backlog_is_read_before_the_round_is_resolved(
    tmp_path: Path, dovecot: Dovecot, smtp_server: CaptureSmtp
) -> None:
    proxy = CuttingProxy(dovecot.imap_port)
    await proxy.start()
    async with FakeTelegram() as tg:
        mail = MailSide(dovecot, smtp_server, dovecot.new_user(), proxy)
        match = Match(tmp_path, tg, period=PERIOD, mail=mail)
        try:
            await match.set_up(lambda n: PLAYERS)
            table = match.tables[0]
            await match.start()
            # Stop the judge just after a round opened, so that its deadline is ahead.
            for _ in range(10):
                first = (await _until(lambda: _open_round(match))).number
                rnd = await _until(lambda n=first: (r := _open_round(match)) and r.number > n and r)
                await match.stop()
                deadline = rnd.deadline.replace(tzinfo=UTC)
                if deadline - datetime.now(UTC) > timedelta(seconds=6):
                    break
                await match.start()  # too close to its deadline on a busy machine: again
            else:
                raise AssertionError("no round with its deadline 6 s ahead after a stop")
            number = rnd.number
            # In time: every player, by Telegram and by mail, while the judge is down.
            for player in PLAYERS:
                await asyncio.to_thread(match.send, table, player)
            in_time = list(match.sent)
            # The deadline passes with nobody reading; then late orders, both channels.
            await _until(lambda: datetime.now(UTC) > deadline + timedelta(seconds=1.5), 120)
            for player in (PLAYERS[1], PLAYERS[3]):
                await asyncio.to_thread(match.send, table, player)
            late = match.sent[len(in_time) :]
            # Down for another period (deadlines pass unseen), then started again.
            await asyncio.sleep(PERIOD)
            await match.start()
            await match.settle()
            report = TrialReport()
            check(match, report)
        finally:
            match.close()
            await proxy.stop()
    f = report.figures
    assert report.problems == [], "\n".join(
        [*report.problems, *report.undelivered, match.details()]
    )
    assert all(m.stamp is not None and m.stamp < deadline for m in in_time)
    assert all(m.stamp is not None and m.stamp >= deadline for m in late)
    with match.db.transaction() as s:
        played = s.exec(
            select(Round).where(
                Round.game_id == table.game_id, Round.number == number, Round.status == "resolved"
            )
        ).one()
    pieces = {(p["side"], p["number"]) for p in (played.orders or {}).get("players", [])}
    # The captains' whole teams and the players' number 2, sent in time while it was down.
    assert {("left", 2), ("right", 2)} <= pieces and len(pieces) >= 4
    assert f["orders_counted"] >= len(in_time) and f["orders_counted_email"] >= 1
    assert (f["lost"], f["misfiled"], f["refused_in_time"], f["played_without"]) == (0, 0, 0, 0)
    # The late ones: refused, by Telegram and by mail, each answer naming the round.
    assert f["refused_late"] >= len(late) == 2
    assert (f["answers_lost"], f["reports_lost"], f["resolved_twice"]) == (0, 0, 0)
