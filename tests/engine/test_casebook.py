"""The case book: every case in cases/ passes, as `dragonball engine case`
runs it, and the index in docs/casebook.md is in step with the cases."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

from bot.cli import cli
from engine.cases.index import parse_sentences

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "cases"
CLASSIC = BOOK / "classic"
INDEX = ROOT / "docs" / "casebook.md"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["engine", "case", *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_every_case_of_the_book_passes(tmp_path: Path) -> None:
    index = tmp_path / "casebook.md"
    code, out = _run(str(CLASSIC), "--index", str(index))
    lines = out.splitlines()
    assert code == 0, "\n".join(line for line in lines if not line.startswith("PASS"))
    summary = lines[-1]
    m = re.match(r"(\d+) cases: (\d+) passed, 0 failed \([0-9.]+ s\)$", summary)
    assert m is not None, summary  # (no "sentences without a case" either)
    assert int(m.group(1)) == int(m.group(2)) == sum(1 for x in lines if x.startswith("PASS "))
    assert int(m.group(1)) >= 150
    # docs/casebook.md is what the runner writes from these cases.
    assert index.read_text(encoding="utf-8") == INDEX.read_text(encoding="utf-8"), (
        "docs/casebook.md is stale: dragonball engine case --index docs/casebook.md cases/classic"
    )


def test_every_case_of_the_second_edition_passes_and_covers_every_sentence(
    tmp_path: Path,
) -> None:
    index = tmp_path / "casebook-001.md"
    code, out = _run(str(BOOK / "variant-001"), "--index", str(index))
    lines = out.splitlines()
    assert code == 0, "\n".join(line for line in lines if not line.startswith("PASS"))
    assert re.match(r"(\d+) cases: \1 passed, 0 failed \([0-9.]+ s\)$", lines[-1]), lines[-1]
    assert index.read_text(encoding="utf-8") == (ROOT / "docs" / "casebook-001.md").read_text(
        encoding="utf-8"
    ), (
        "docs/casebook-001.md is stale: dragonball engine case --index docs/casebook-001.md cases/variant-001"
    )


def test_a_failing_case_fails_the_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        (CLASSIC / "s04" / "collision-survivor-loses-pass.toml")
        .read_text(encoding="utf-8")
        .replace("second_falls = false", "second_falls = true"),
        encoding="utf-8",
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("rule = 1\n[players]\nL1 = 36\n", encoding="utf-8")
    code, out = _run(str(bad), str(broken))
    assert code == 1
    assert "FAIL " in out and "ERROR " in out
    assert out.splitlines()[-1].startswith("2 cases: 0 passed, 2 failed")


def test_the_sentence_list_numbers_every_sentence_once() -> None:
    doc = tomllib.loads((CLASSIC / "_sentences.toml").read_text(encoding="utf-8"))
    sentences = parse_sentences(doc)
    sections = [s.section for s in sentences]
    assert sections == sorted(sections) and set(sections) == set(range(1, 11))
    for s in sentences:
        assert s.text.strip(), s.id
        assert s.rule or s.note, f"{s.id} states no rule but does not say why"
        if s.tests:
            # A sentence the engine cannot show (a service or report rule)
            # names the test that proves it; that test must exist.
            path, _, name = s.tests.partition("::")
            assert name and f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), s.tests


def test_every_interpretation_a_case_proves_is_written_in_the_rules() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set()
    for path in CLASSIC.rglob("*.toml"):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        if "interpretation" in doc:
            named.add(doc["interpretation"])
    assert len(named) >= 20
    missing = sorted(n for n in named if f"**Interpretation**: {n} |" not in rules)
    assert not missing, f"docs/rules.md, Interpretations at a glance, lacks: {missing}"
