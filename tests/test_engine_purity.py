"""The rules engine is a pure functional core: it imports only the standard
library and itself, and nothing of the standard library that does I/O with
the outside world (network, processes, threads, databases, event loops)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"

# Standard-library modules that have no place in a pure core.
FORBIDDEN_STDLIB = frozenset(
    {
        "asyncio",
        "socket",
        "ssl",
        "select",
        "selectors",
        "subprocess",
        "multiprocessing",
        "threading",
        "concurrent",
        "signal",
        "sqlite3",
        "http",
        "urllib",
        "smtplib",
        "imaplib",
        "poplib",
        "ftplib",
    }
)


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import; relative ones as '.'."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." if node.level else node.module or ""))
    return found


def test_engine_package_exists() -> None:
    assert (ENGINE / "__init__.py").is_file(), "engine/ must be a package"
    assert engine_files(), "engine/ has no Python files"


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ENGINE.parent)))
def test_engine_imports_only_stdlib_and_itself(path: Path) -> None:
    bad = []
    for line, module in imported_modules(path):
        top = module.split(".")[0]
        if module == "." or top == "engine":
            continue
        if top not in sys.stdlib_module_names:
            bad.append(f"{path.name}:{line}: imports {module} (not stdlib)")
        elif top in FORBIDDEN_STDLIB:
            bad.append(f"{path.name}:{line}: imports {module} (I/O in the pure core)")
    assert not bad, "\n".join(bad)


def test_checker_catches_a_third_party_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom . import x\nfrom engine.state import S\nimport lark\n")
    modules = [m for _, m in imported_modules(sample)]
    assert modules == ["os", ".", "engine.state", "lark"]
    assert "lark" not in sys.stdlib_module_names
