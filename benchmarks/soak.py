"""Soak: three games of two teams of seven, 30 rounds each on a fast clock, players
ordering by Telegram and by mail, faults injected at random all along.

The real judge runs as ``dragonball serve`` on a SQLite file against the local
Bot API server of the tests, a real Dovecot (read through a proxy that can cut
the IMAP connections) and the capturing SMTP server (tests/support).  In each
team the captain orders his number 1, the players 2–6 theirs by Telegram and
number 7 his by mail.  Until every game has ended (30 rounds), at random
moments one of these faults:

* the judge SIGKILLed and started again (at once, or after a few seconds);
* Telegram answering 502 to the next few sendMessage calls, or 429 with a
  retry_after, or 502 to the next getUpdates (a dropped poll);
* every IMAP connection of the judge cut;
* the SMTP server refusing the next few mails with 451.

Then the last judge delivers everything and the record is checked as after the
kill -9 trials (tests/support/trial_check.py).  Takes minutes, not hours; not in
the test suite.

    python benchmarks/soak.py [--games 3] [--period 8] [--seed 1] [--fault-gap 4 12]

Prints the faults, the figures (messages in, orders counted, rounds, reports
delivered, duplicates, losses); the last line is ``key=value …`` for scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
os.environ.setdefault("PTB_TIMEDELTA", "1")


from support.fake_telegram import FakeTelegram
from support.fake_telegram_world import ApiError
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot
from support.trial_check import TrialReport, check
from support.trial_match import MailSide, Match, Player

from storage.models import Game

GMS = (100, 101, 102, 103, 104, 105, 106, 107)


def team(game: int, side: str) -> list[Player]:
    base = 10_000 + game * 1_000 + (0 if side == "left" else 100)
    return [
        Player(side, [1], telegram=base + 1, captain=True),
        *(Player(side, [k], telegram=base + k) for k in range(2, 7)),
        Player(side, [7], email=f"p{game}{side}7@example.ru"),
    ]


def _ended(match: Match) -> bool:
    with match.db.transaction() as s:
        games = [s.get(Game, t.game_id) for t in match.tables]
    return all(g is not None and g.status != "running" for g in games)


async def _faults(
    match: Match, mail: MailSide, rng: random.Random, gap: tuple[float, float],
    counts: Counter[str], log: bool,
) -> None:  # fmt: skip
    tg = match.tg
    while not _ended(match):
        await asyncio.sleep(rng.uniform(*gap))
        if _ended(match):
            return
        fault = rng.choice(
            ["kill", "kill", "tg_5xx", "tg_429", "poll_dropped", "imap_cut", "smtp_451"]
        )
        counts[fault] += 1
        if fault == "kill":
            match.kill()
            await asyncio.sleep(rng.uniform(0.0, 4.0))
            await match.start()
        elif fault == "tg_5xx":
            tg.fail_next_with("sendMessage", ApiError(502, "Bad Gateway"), times=rng.randint(1, 4))
        elif fault == "tg_429":
            tg.fail_next("sendMessage", times=rng.randint(1, 3), retry_after=rng.randint(1, 3))
        elif fault == "poll_dropped":
            tg.fail_next_with("getUpdates", ApiError(502, "Bad Gateway"), times=rng.randint(1, 2))
        elif fault == "imap_cut":
            mail.proxy.cut_all()
        else:
            mail.smtp.refuse_next(rng.randint(1, 3))
        if log:
            print(
                f"{time.strftime('%H:%M:%S')} fault {fault}; {len(match.sent)} messages sent",
                flush=True,
            )


async def soak(
    folder: Path, args: argparse.Namespace, dovecot: Dovecot, smtp: CaptureSmtp
) -> tuple[TrialReport, Counter[str]]:
    rng = random.Random(args.seed)
    report = TrialReport()
    counts: Counter[str] = Counter()
    proxy = CuttingProxy(dovecot.imap_port)
    await proxy.start()
    try:
        async with FakeTelegram() as tg:
            mail = MailSide(dovecot, smtp, dovecot.new_user(), proxy)
            match = Match(folder, tg, games=args.games, period=args.period, mail=mail,
                          gms=GMS[: args.games], log_level=args.log_level, retry_horizon=300.0)  # fmt: skip
            try:
                await match.set_up(lambda n: team(n, "left") + team(n, "right"))
                await match.start()
                stop = asyncio.Event()
                # About one order message per player and round, by either channel.
                gap = (args.period * 0.4, args.period * 1.6)
                playing = asyncio.create_task(match.play(stop, rng, telegram_gap=gap, mail_gap=gap))
                try:
                    await _faults(match, mail, rng, tuple(args.fault_gap), counts, log=True)
                    while not _ended(match):
                        await asyncio.sleep(1.0)
                finally:
                    stop.set()
                    await playing
                if not match.judge.running:
                    await match.start()
                await match.settle()
                check(match, report)
                report.details = match.details()
            finally:
                match.close()
    finally:
        await proxy.stop()
    return report, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--period", type=int, default=8, help="seconds between deadlines")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fault-gap", type=float, nargs=2, default=(4.0, 12.0), metavar=("MIN", "MAX")
    )
    parser.add_argument("--log-level", default="WARNING", help="the judge's")
    parser.add_argument("--keep", type=Path, default=None, help="a folder to keep the files in")
    parser.add_argument("--verbose", action="store_true", help="the rounds and the judge's log")
    args = parser.parse_args()
    started = time.monotonic()
    dovecot, smtp = Dovecot(users=2), CaptureSmtp()
    dovecot.start()
    smtp.start()
    try:
        with tempfile.TemporaryDirectory(prefix="soak-") as temporary:
            folder = args.keep or Path(temporary)
            folder.mkdir(parents=True, exist_ok=True)
            report, counts = asyncio.run(soak(folder, args, dovecot, smtp))
    finally:
        smtp.stop()
        dovecot.stop()
    for problem in report.problems[:50]:
        print("PROBLEM:", problem)
    for line in report.undelivered[:50]:
        print("UNDELIVERED:", line)
    if report.problems or args.verbose:
        print(report.details)
    elapsed = time.monotonic() - started
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print("faults: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    f = report.figures
    print(
        f"{args.games} games, {f['rounds_resolved']} rounds; {f['messages_sent']} messages in"
        f" ({f['sent_telegram']} Telegram, {f['sent_email']} mail), {f['orders_counted']} orders"
        f" counted, {f['refused_late']} refused as late; {f['reports_delivered']} of {f['reports']}"
        f" reports delivered; lost {f['lost']} messages, {f['answers_lost']} answers,"
        f" {f['reports_lost']} reports; duplicates {f['answers_twice']} answers,"
        f" {f['reports_twice']} reports; {elapsed:.0f} s, load {load}"
    )
    faults = " ".join(f"fault_{k}={v}" for k, v in sorted(counts.items()))
    print(f"{report.line()} {faults} elapsed_s={elapsed:.0f}")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
