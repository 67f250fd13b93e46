"""``dragonball engine new|round|check`` and ``dragonball simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from enginekit import CLASSIC

from bot.cli import cli
from engine.orders import RoundOrders
from engine.policies import greedy_policy, random_policy
from engine.state import MatchState


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _new(runner: CliRunner, *args: str) -> dict:
    result = runner.invoke(cli, ["engine", "new", "--seed", "7", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_engine_new_prints_the_opening_position(runner: CliRunner) -> None:
    doc = _new(runner, "--players-per-team", "4")
    state = MatchState.from_json(doc)
    assert (state.round, state.tick, len(state.players)) == (1, 0, 8)
    assert doc == _new(runner, "--players-per-team", "4")  # deterministic
    assert _new(runner)["players"][6]["number"] == 7


def test_engine_new_refuses_a_bad_team_size(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["engine", "new", "--seed", "1", "--players-per-team", "9"])
    assert result.exit_code == 2 and "players per team" in result.stderr


def _files(tmp_path: Path, runner: CliRunner) -> tuple[Path, Path]:
    state = MatchState.from_json(_new(runner))
    a = random_policy(state, CLASSIC, "left", 1)
    b = greedy_policy(state, CLASSIC, "right", 1)
    orders = RoundOrders(a.players + b.players, a.dragons + b.dragons)
    s, o = tmp_path / "state.json", tmp_path / "orders.json"
    s.write_text(json.dumps(state.to_json()), encoding="utf-8")
    o.write_text(json.dumps(orders.to_json()), encoding="utf-8")
    return s, o


def test_engine_round_resolves_a_round(runner: CliRunner, tmp_path: Path) -> None:
    s, o = _files(tmp_path, runner)
    args = ["engine", "round", "--state", str(s), "--orders", str(o), "--seed", "42"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    after = MatchState.from_json(doc["state"])
    assert after.round == 2 and after.tick == 0
    assert {e["tick"] for e in doc["events"]} == {1, 2, 3}
    assert result.stdout == runner.invoke(cli, args).stdout  # byte-identical
    one = json.loads(runner.invoke(cli, [*args, "--ticks", "1"]).stdout)
    assert MatchState.from_json(one["state"]).tick == 1
    assert {e["tick"] for e in one["events"]} == {1}


def test_engine_round_warns_about_refused_orders(runner: CliRunner, tmp_path: Path) -> None:
    s, _ = _files(tmp_path, runner)
    o = tmp_path / "bad.json"
    o.write_text(
        json.dumps(
            {"players": [{"side": "left", "number": 1, "tick": 1, "cell": 200, "height": 2}]}
        ),
        encoding="utf-8",
    )
    result = runner.invoke(
        cli, ["engine", "round", "--state", str(s), "--orders", str(o), "--seed", "1"]
    )
    assert result.exit_code == 0
    assert "warning: tick 1:" in result.stderr and "cannot fly" in result.stderr
    events = json.loads(result.stdout)["events"]
    assert any(e["kind"] == "no_order" and e["data"]["reason"] == "too_far" for e in events)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read the state file"),
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"version": 99}', "state version 99 is not supported"),
    ],
)
def test_engine_round_explains_bad_state_files(
    runner: CliRunner, tmp_path: Path, content: str | None, message: str
) -> None:
    _, o = _files(tmp_path, runner)
    bad = tmp_path / "bad-state.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    result = runner.invoke(
        cli, ["engine", "round", "--state", str(bad), "--orders", str(o), "--seed", "1"]
    )
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.output


def test_engine_round_explains_bad_orders_files(runner: CliRunner, tmp_path: Path) -> None:
    s, _ = _files(tmp_path, runner)
    bad = tmp_path / "bad-orders.json"
    bad.write_text('{"dragons": [{"side": "left", "tick": 1, "move": "fly"}]}', encoding="utf-8")
    result = runner.invoke(
        cli, ["engine", "round", "--state", str(s), "--orders", str(bad), "--seed", "1"]
    )
    assert result.exit_code == 1 and "dragon move 'fly'" in result.stderr


def test_engine_check_lists_problems(runner: CliRunner, tmp_path: Path) -> None:
    s, o = _files(tmp_path, runner)
    ok = runner.invoke(cli, ["engine", "check", "--state", str(s), "--orders", str(o)])
    assert ok.exit_code == 0 and json.loads(ok.stdout) == []
    mine = runner.invoke(
        cli, ["engine", "check", "--state", str(s), "--orders", str(o), "--side", "left"]
    )
    assert mine.exit_code == 1
    assert {p["code"] for p in json.loads(mine.stdout)} == {"other_team"}


def test_simulate_json_summary_is_byte_identical_for_a_seed(runner: CliRunner) -> None:
    args = ["simulate", "--seed", "5", "--max-rounds", "6", "--json"]
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    doc = json.loads(first.stdout)
    assert {"seed", "rounds", "ticks", "score", "balls", "end_reason", "events"} <= set(doc)
    assert doc["rounds"] <= 6 and doc["policies"] == {"left": "random", "right": "greedy"}
    assert set(doc["balls"]) == {"black", "green", "blue", "red", "yellow"}
    assert runner.invoke(cli, args).stdout == first.stdout
    other = runner.invoke(cli, ["simulate", "--seed", "6", "--max-rounds", "6", "--json"])
    assert other.stdout != first.stdout


def test_simulate_prints_a_summary_in_russian_or_english(runner: CliRunner) -> None:
    ru = runner.invoke(cli, ["simulate", "--seed", "5", "--max-rounds", "2"])
    assert ru.exit_code == 0 and "раундов" in ru.stdout
    # The seed and the balls are called as in the demo and the reports.
    assert ru.stdout.startswith("зерно 5: ") and "  чёрный (одурительный): " in ru.stdout
    assert "посев" not in ru.stdout
    en = runner.invoke(
        cli, ["simulate", "--seed", "5", "--max-rounds", "2", "--lang", "en", "--left", "greedy"]
    )
    assert en.exit_code == 0 and "rounds" in en.stdout and "greedy (left)" in en.stdout


def test_simulate_refuses_bad_options(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["simulate", "--seed", "1", "--left", "clever"])
    assert result.exit_code == 2
    result = runner.invoke(cli, ["simulate", "--seed", "1", "--max-rounds", "0"])
    assert result.exit_code == 2


def test_engine_round_refuses_an_impossible_position(runner: CliRunner, tmp_path: Path) -> None:
    s, o = _files(tmp_path, runner)
    doc = json.loads(s.read_text(encoding="utf-8"))
    doc["players"][0]["cell"] = 999
    s.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(
        cli, ["engine", "round", "--state", str(s), "--orders", str(o), "--seed", "1"]
    )
    assert result.exit_code == 1
    assert "not a possible position" in result.stderr and "999" in result.stderr


def test_simulate_says_whose_dragon_swallowed_a_ball_and_who_scored() -> None:
    from bot.commands.simulate import _fate

    fate = {"state": "swallowed", "by": "left"}
    assert _fate(fate, "ru") == "проглочен драконом левых — очки правым"
    assert _fate(fate, "en") == "swallowed by the left dragon, points to the right"
    assert _fate({"state": "held", "by": "right", "number": 3}, "ru") == (
        "в руках у игрока 3 (правые)"
    )
