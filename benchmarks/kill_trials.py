"""Kill -9 trials: 100 SIGKILLs of the judge during a match on a fast clock.

The judge runs as ``dragonball serve`` against the local Bot API server of
the tests (tests/support) on a SQLite file; three players keep ordering by
Telegram while it is killed at random moments (mid-start, mid-receive,
mid-resolution, mid-delivery) and started again; one player orders by mail
(a real Dovecot and the capturing SMTP server of the tests; ``--no-mail``:
Telegram only).  At the end the inbound
record is compared with what was sent and delivered (tests/support/kill_trial.py
says exactly what is checked).  The default test suite runs a few trials
(``pytest tests/reliability/test_kill_trials.py --kill-trials N``).

    python benchmarks/kill_trials.py [--trials 100] [--seed 1] [--period S]

Each report delivered more than once is listed (``TWICE:``, its outbox row and
its copies' times against the nearest kill; ``reports_twice_in_flight``: the
first copy reached the server after the kill).  Takes about 8 seconds a trial.
The last line is for scripts:
``trials=… messages_sent=… lost=… misfiled=… resolved_twice=… reports_lost=… …``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
os.environ.setdefault("PTB_TIMEDELTA", "1")

from support.kill_trial import run_trials
from support.mailservers import CaptureSmtp, Dovecot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--period", type=int, default=None, help="seconds between deadlines")
    parser.add_argument("--verbose", action="store_true", help="the rounds and the judge's log")
    parser.add_argument("--log-level", default="WARNING", help="the judge's (INFO: every batch)")
    parser.add_argument("--keep", type=Path, default=None, help="a folder to keep the files in")
    parser.add_argument("--no-mail", action="store_true", help="Telegram players only")
    args = parser.parse_args()
    started = time.monotonic()
    dovecot, smtp = (None, None) if args.no_mail else (Dovecot(users=2), CaptureSmtp())
    try:
        if dovecot is not None and smtp is not None:
            dovecot.start()
            smtp.start()
        with tempfile.TemporaryDirectory(prefix="kill-trials-") as temporary:
            folder = args.keep or Path(temporary)
            folder.mkdir(parents=True, exist_ok=True)
            report = asyncio.run(
                run_trials(
                    folder, args.trials, seed=args.seed, period=args.period,
                    log=lambda text: print(text, flush=True), log_level=args.log_level,
                    dovecot=dovecot, smtp=smtp,
                )
            )  # fmt: skip
    finally:
        if dovecot is not None and smtp is not None:
            smtp.stop()
            dovecot.stop()
    for problem in report.problems[:50]:
        print("PROBLEM:", problem)
    for line in report.undelivered:
        print("UNDELIVERED:", line)
    for line in report.twice:
        print("TWICE:", line)
    if report.problems or args.verbose:
        print(report.details)
    print(f"elapsed {time.monotonic() - started:.0f} s")
    print(report.line())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
