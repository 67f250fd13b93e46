"""docs/security.md names, for every credential, the tests that prove each line:
each test it names exists (a renamed or removed test must not leave the page
pointing at nothing)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
CREDENTIALS = ("Telegram identity", "initData", "Personal link", "Pass phrase", "Invitation code")


def test_every_credential_has_its_section_with_tests() -> None:
    sections = re.split(r"^## ", PAGE, flags=re.MULTILINE)[1:]
    for name in CREDENTIALS:
        (section,) = [s for s in sections if s.startswith(name)]
        assert "::test_" in section, name


def test_every_test_the_page_names_exists() -> None:
    named = 0
    current: Path | None = None
    # `file.py::test_x` names a file; a following `::test_y` is in the same file.
    for match in re.finditer(r"`((?:tests/)?[\w/]+\.py)?::(test_\w+)`", PAGE):
        if match[1]:
            current = ROOT / (match[1] if match[1].startswith("tests/") else f"tests/{match[1]}")
        assert current is not None, match[0]
        assert f"def {match[2]}(" in current.read_text(encoding="utf-8"), match[0]
        named += 1
    assert named >= 40
