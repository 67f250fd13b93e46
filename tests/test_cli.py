"""The ``dragonball`` command line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import cli, main

SUBCOMMANDS = ("serve", "demo", "simulate", "engine", "check-orders", "verify", "db", "gm")

pytestmark = pytest.mark.usefixtures("empty_cwd")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_help_lists_subcommands(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0, result.output
    for name in SUBCOMMANDS:
        assert f"  {name} " in result.output
    assert "--config" in result.output and "--log-level" in result.output


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_has_help(runner: CliRunner, name: str) -> None:
    result = runner.invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ") and f" {name} " in result.output.splitlines()[0]


def test_db_group_has_upgrade_and_current(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["db", "--help"])
    assert "upgrade" in result.output and "current" in result.output


def test_serve_with_missing_config_fails_in_one_line(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--config", "missing.toml", "serve"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "dragonball: config file not found: missing.toml\n"


def test_serve_with_bad_config_names_the_key(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[telegram]\nenabled = true\n")
    result = runner.invoke(cli, ["--config", str(path), "serve"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "dragonball: config error: telegram.token: field required when telegram.enabled is true"
    ]


def test_serve_refuses_a_database_without_the_schema(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--log-level", "error", "serve"])
    assert result.exit_code == 1
    assert "run `dragonball db upgrade`" in result.stderr


def test_config_free_command_ignores_a_missing_config(runner: CliRunner) -> None:
    # engine needs no configuration, so a wrong --config does not matter to it.
    result = runner.invoke(cli, ["--config", "missing.toml", "engine", "--help"])
    assert result.exit_code == 0, result.output


def test_config_path_from_environment(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["serve"], env={"DRAGONBALL_CONFIG": "elsewhere.toml"})
    assert result.exit_code == 2
    assert result.stderr == "dragonball: config file not found: elsewhere.toml\n"


def test_main_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--config", "missing.toml", "serve"])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == "dragonball: config file not found: missing.toml\n"


def test_console_script_missing_config(tmp_path: Path) -> None:
    """The installed ``dragonball`` script, as a user would run it."""
    script = shutil.which("dragonball") or str(Path(sys.executable).with_name("dragonball"))
    assert Path(script).exists(), (
        "the dragonball console script is not installed (pip install -e .)"
    )
    completed = subprocess.run(
        [script, "--config", "missing.toml", "serve"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.splitlines() == ["dragonball: config file not found: missing.toml"]
