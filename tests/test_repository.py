"""Repository conventions that CI relies on."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST_COMMAND = "pip install -e '.[test]' && python -m pytest"


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = next(i for i, line in enumerate(ci) if "README's test command" in line)
    command = [line for line in ci[marker:] if line.strip() and not line.startswith("#")]
    assert command == [TEST_COMMAND], "the test command must be the last line of .ci/run"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quickstart = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.search(r"```sh\n(.*?)```", quickstart, re.DOTALL)
    assert commands is not None
    assert commands[1].splitlines() == ["pip install -e . && dragonball demo", TEST_COMMAND]


def test_ci_script_is_strict_and_executable() -> None:
    path = ROOT / ".ci" / "run"
    assert os.access(path, os.X_OK)
    assert "set -euo pipefail" in path.read_text(encoding="utf-8")


def test_licence_is_gpl3() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "GNU GENERAL PUBLIC LICENSE" in text and "Version 3, 29 June 2007" in text
