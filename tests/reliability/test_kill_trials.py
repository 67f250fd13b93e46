"""Kill -9 trials in the default suite: a few SIGKILLs of the judge on a fast clock,
players ordering by Telegram and by mail (real Dovecot, the capturing SMTP server)
(``--kill-trials N``; ``benchmarks/kill_trials.py`` runs 100).  No order lost or
misfiled, no round resolved twice, no report or answer lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.kill_trial import run_trials
from support.mailservers import CaptureSmtp, Dovecot


async def test_kill_trials(
    tmp_path: Path, request: pytest.FixtureRequest, dovecot: Dovecot, smtp_server: CaptureSmtp
) -> None:
    trials = int(request.config.getoption("--kill-trials"))
    report = await run_trials(tmp_path, trials, seed=trials, dovecot=dovecot, smtp=smtp_server)
    print(report.line())
    assert report.problems == [], "\n".join(
        [*report.problems[:30], *report.undelivered[:30], report.details]
    )
    f = report.figures
    assert f["sent_telegram"] > 0 and f["sent_email"] > 0
    assert f["stored"] == f["messages_sent"]
    assert f["rounds_resolved"] >= 1 and f["orders_counted_telegram"] > 0
    assert f["orders_counted_email"] > 0
    assert (f["lost"], f["misfiled"], f["refused_in_time"], f["played_without"]) == (0, 0, 0, 0)
    assert (f["resolved_twice"], f["reports_lost"], f["answers_lost"]) == (0, 0, 0)
    assert f["twice_without_kill"] == 0
