"""The layers of docs/architecture.md hold: the import-linter contracts of
pyproject.toml are kept, and they would catch a service module that reaches
up into a channel."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_a_service_module_importing_a_channel_breaks_the_layers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A copy of the layers contract on a tiny package shaped like ours, with one
    # service module importing the web channel.
    pkg = tmp_path / "judge"
    for part in ("web", "service", "render"):
        (pkg / part).mkdir(parents=True)
        (pkg / part / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "service" / "links.py").write_text("from judge.web import auth\n")
    (pkg / "web" / "auth.py").write_text("")
    config = tmp_path / "pyproject.toml"
    config.write_text(
        textwrap.dedent(
            """
            [tool.importlinter]
            root_packages = ["judge"]

            [[tool.importlinter.contracts]]
            name = "layers"
            type = "layers"
            layers = ["judge.web", "judge.service", "judge.render"]
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert lint_imports(config_filename=str(config), no_cache=True) == 1
