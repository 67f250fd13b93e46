"""Kill -9 trials: a match on a fast clock, players ordering by Telegram and by
mail, and the judge SIGKILLed at random moments and started again.

The real judge runs as ``dragonball serve`` (:mod:`support.trial_match`) against
the local Bot API server in this process and, with mail, a real Dovecot and the
capturing SMTP server, on a SQLite file.  While the judge is killed (at a random
moment: mid-start, mid-receive, mid-resolution, mid-delivery — whatever it is
doing) and restarted, three players keep ordering by Telegram and one by mail;
Telegram and the mailbox hold what nobody reads.  At the end the judge runs
until it has caught up, and :func:`support.trial_check.check` compares the
record with what was sent and delivered (none lost, none misfiled, none wrongly
refused, no round twice, no report or answer lost; copies counted).

The last judge is waited for as long as it gets on with its work: the players
send faster than Telegram lets one chat be answered (about a message a second),
so it starts with a backlog of hundreds of answers.

Used by ``tests/reliability/test_kill_trials.py`` (a few trials) and
``benchmarks/kill_trials.py`` (100).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from support.fake_telegram import FakeTelegram
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot
from support.trial_check import TrialReport, check
from support.trial_match import MailSide, Match, Player

__all__ = ["PLAYERS", "TrialReport", "run_trials"]

# Who orders what: the left captain his whole team, a left player his number 2,
# the right captain his whole team (by Telegram), a right player his number 2 by mail.
PLAYERS = [
    Player("left", None, telegram=201, captain=True),
    Player("left", [2], telegram=202),
    Player("right", None, telegram=301, captain=True),
    Player("right", [2], email="sokolov@example.ru"),
]


async def run_trials(
    folder: Path, trials: int, *, seed: int = 1, period: int | None = None,
    log: Any = None, log_level: str = "WARNING",
    dovecot: Dovecot | None = None, smtp: CaptureSmtp | None = None,
) -> TrialReport:  # fmt: skip
    """Play a match with ``trials`` SIGKILLs of the judge; returns the figures and
    problems.  With ``dovecot`` and ``smtp`` one player orders by mail."""
    rng = random.Random(seed)
    period = period or max(5, trials * 7 // 25)  # about 25 rounds however many trials
    report = TrialReport()
    proxy = None
    async with FakeTelegram() as tg:
        mail = None
        if dovecot is not None and smtp is not None:
            proxy = CuttingProxy(dovecot.imap_port)
            await proxy.start()
            mail = MailSide(dovecot, smtp, dovecot.new_user(), proxy)
        players = PLAYERS if mail is not None else [p for p in PLAYERS if p.telegram]
        match = Match(folder, tg, period=period, mail=mail, log_level=log_level)
        try:
            await match.set_up(lambda n: players)
            stop = asyncio.Event()
            playing = asyncio.create_task(
                match.play(stop, rng, telegram_gap=(0.6, 2.7), mail_gap=(1.0, 3.0))
            )
            try:
                for i in range(trials):
                    # Killed at a random moment: mid-start (catching up), or once it
                    # polls: mid-receive, mid-resolution, mid-delivery, whatever it does.
                    if rng.random() < 0.2:
                        match.judge.start()
                        await asyncio.sleep(rng.uniform(0.5, 3.0))
                    else:
                        await match.start()
                        await asyncio.sleep(rng.uniform(0.0, 6.0))
                    match.kill()
                    if log is not None:
                        log(f"trial {i + 1}/{trials}: killed, {len(match.sent)} messages sent")
                    await asyncio.sleep(rng.uniform(0.0, 1.5))
                await match.start()
                await asyncio.sleep(rng.uniform(1.0, 3.0))
            finally:
                stop.set()
                await playing
            await match.settle()
            check(match, report)
            report.figures = {"trials": trials, "period_s": period, **report.figures}
            report.details = match.details()
        finally:
            match.close()
            if proxy is not None:
                await proxy.stop()
    return report
