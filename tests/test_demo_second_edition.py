"""`dragonball demo --ruleset variant-001`: the second edition's match through
the whole judge (orders as messages, the square field's pictures, reports),
and `verify` reruns its rounds to their published results."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import cli


def test_a_second_edition_demo_plays_and_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["demo", "--out", str(out), "--rounds", "2", "--ruleset", "variant-001", "-q"]
    )
    assert result.exit_code == 0, result.output
    # The line to play it again names the edition (without it, a classic match).
    assert result.output.rstrip().endswith(
        "dragonball demo --seed 2026 --rounds 2 --ruleset variant-001"
    )
    transcript = (out / "transcript.txt").read_text(encoding="utf-8")
    assert "чебурыхнус-парашутис" in transcript  # the captains' safety spell, read back
    assert sorted(p.name for p in (out / "diagrams").glob("round-*.gif")) == [
        "round-01.gif",
        "round-02.gif",
    ]
    monkeypatch.chdir(out)
    monkeypatch.setenv("DRAGONBALL_DATABASE__URL", "sqlite:///dragonball.db")
    verified = CliRunner().invoke(cli, ["verify", "--game", "DB-1"])
    assert verified.exit_code == 0, verified.output
    assert [line.split(" (")[0] for line in verified.output.splitlines() if "OK" in line] == [
        "round 1: OK",
        "round 2: OK",
    ]
