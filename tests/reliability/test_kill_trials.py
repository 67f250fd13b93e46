"""Kill -9 trials in the default suite: a few SIGKILLs of the judge on a fast clock
(``--kill-trials N``; ``benchmarks/kill_trials.py`` runs 100).  No order lost or
misfiled, no round resolved twice, no report or answer lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.kill_trial import run_trials


async def test_kill_trials(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    trials = int(request.config.getoption("--kill-trials"))
    report = await run_trials(tmp_path, trials, seed=trials)
    print(report.line())
    assert report.problems == [], report.details
    f = report.figures
    print(report.details)
    assert f["messages_sent"] > 0 and f["stored"] == f["messages_sent"]
    assert f["rounds_resolved"] >= 1 and f["orders_counted"] > 0
    assert (f["lost"], f["misfiled"], f["refused_in_time"], f["played_without"]) == (0, 0, 0, 0)
    assert (f["resolved_twice"], f["reports_lost"], f["answers_lost"]) == (0, 0, 0)
