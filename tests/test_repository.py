"""Repository conventions that CI relies on."""

from __future__ import annotations

import glob
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


def _locked_versions() -> dict[str, str]:
    """``name -> version`` of every ``name==version`` line in requirements.lock."""
    from packaging.utils import canonicalize_name

    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;\\]+)", text, re.MULTILINE)
    return {canonicalize_name(name): version for name, version in pins}


def test_lock_file_pins_every_dependency_inside_its_range_with_hashes() -> None:
    # The deployment lock (README, Deployment) must stay in step with pyproject.toml:
    # a range changed without refreshing the lock fails here, not on a server.
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    locked = _locked_versions()
    for spec in project["dependencies"]:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in locked, (
            f"{name} is not in requirements.lock: refresh it (README, Deployment)"
        )
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"requirements.lock pins {name}=={locked[name]}, outside {requirement.specifier}"
        )
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pins = len(re.findall(r"^\S+==", text, re.MULTILINE))
    assert pins == len(locked)
    hashed = re.findall(r"^\S+==[^\\\n]+\\\n\s+--hash=sha256:", text, re.MULTILINE)
    assert len(hashed) == pins, "every pin carries its hashes (uv pip compile --generate-hashes)"


def test_every_data_file_of_the_packages_is_installed() -> None:
    # An installed (non-editable) copy holds only what [tool.setuptools.package-data]
    # names: a grammar or catalog left out works from the checkout and fails on a server.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    for package in ("engine", "storage", "bot"):
        base = ROOT / package
        shipped = {
            Path(name)
            for pattern in package_data.get(package, [])
            for name in glob.glob(str(base / pattern), recursive=True)  # as setuptools reads it
        }
        data = {
            path
            for path in base.rglob("*")
            if path.is_file()
            and path.suffix not in {".py", ".pyc", ".pot"}
            and "__pycache__" not in path.parts
        }
        missing = sorted(str(path.relative_to(ROOT)) for path in data - shipped)
        assert not missing, f"not in [tool.setuptools.package-data] {package}: {missing}"
