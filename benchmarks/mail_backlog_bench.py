"""First start on a mailbox with a backlog: how long the judge takes to read 5,000 old mails.

The same run as ``tests/mail/test_mail_backlog.py`` (``tests/support/mail_backlog.py``),
at full size: a real Dovecot whose fresh mailbox holds ``--old`` mails that
reached it 40 days ago (half Petya's orders with his pass phrase, half
strangers' mail; written into the Maildir, so Dovecot indexes them on the
judge's first SELECT) and two that came an hour ago, then ``ImapInbound`` →
``MailAdapter`` → the real ``GameService`` on SQLite started on it. Each old
mail is fetched, read, stored (pass phrases masked) and moved to
``Processed``, and none is answered (``mail.old_mail_days``); the two recent
ones are answered.

Reported per run: the seconds from the loop's start until it has read
everything, mails per second, the growth of the process's peak resident
memory, and the load average. ``python benchmarks/mail_backlog_bench.py``
(default 5,000 old mails, 3 runs; ``--json`` for one line per run;
``--passphrase-mail masked|deleted|moved``: what the mailbox keeps of the
mails with a pass phrase, ``moved`` the mail as it came, as before issue 33).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "mail"))

from support.mail_backlog import first_start
from support.mailservers import Dovecot

from bot.logging import configure_logging
from storage.testing import temporary_database


async def _run(old: int, passphrase_mail: str | None) -> dict[str, float]:
    dovecot = Dovecot(users=2)
    dovecot.start()
    try:
        with tempfile.TemporaryDirectory() as tmp, temporary_database("sqlite", Path(tmp)) as db:
            run = await first_start(
                db, dovecot, old=old, recent=2, timeout=1800, passphrase_mail=passphrase_mail
            )
            stored = run.stored()
            answered = {a.reply_ref for a in run.answers()}
            assert len(stored) == old + 2, len(stored)
            assert answered == {f"<p{old}>", f"<p{old + 1}>"}, answered
            return {
                "old": old,
                "seconds": round(run.read_seconds, 2),
                "mails_per_s": round((old + 2) / run.read_seconds, 1),
                "rss_growth_mb": round(run.rss_growth_kb / 1024, 1),
                "fill_seconds": round(run.append_seconds, 2),
                "load1": round(os.getloadavg()[0], 2),
            }
    finally:
        dovecot.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", type=int, default=5000, help="old mails in the mailbox")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--passphrase-mail", choices=("masked", "deleted", "moved"), default="masked",
        help="what the mailbox keeps of a mail with a pass phrase (imap.passphrase_mail); "
        "moved: the mail as it came, as before issue 33",
    )  # fmt: skip
    args = parser.parse_args()
    kept = None if args.passphrase_mail == "moved" else args.passphrase_mail
    configure_logging("WARNING")
    results = []
    for _ in range(args.runs):
        if args.runs == 1:
            figures = asyncio.run(_run(args.old, kept))
        else:  # each run in a process of its own: the peak memory is per run
            command = [sys.executable, __file__, "--old", str(args.old), "--runs", "1", "--json",
                       "--passphrase-mail", args.passphrase_mail]  # fmt: skip
            child = subprocess.run(command, check=True, capture_output=True, text=True)
            figures = json.loads(child.stdout.strip().splitlines()[-1])
        results.append(figures)
        if args.json:
            print(json.dumps(figures))
        else:
            print(
                f"{figures['old']} old mails: read in {figures['seconds']} s "
                f"({figures['mails_per_s']} mails/s), peak RSS +{figures['rss_growth_mb']} MB, "
                f"load {figures['load1']}"
            )
    if not args.json and len(results) > 1:
        times = sorted(r["seconds"] for r in results)
        print(f"range {times[0]}–{times[-1]} s over {len(results)} runs")


if __name__ == "__main__":
    main()
