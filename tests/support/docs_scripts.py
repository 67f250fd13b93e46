"""The picture scripts of docs/images, loaded as modules (they are not a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def load_docs_script(name: str) -> ModuleType:
    """``docs/images/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, IMAGES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
