"""The order language's worst case: the most CPU one message ≤ 20 KB can cost.

Issue 14's bound: no message of at most 20 KB may cost more than 50 ms of
CPU in ``parse_message`` (names, legality and every error included).  This
script builds the messages most likely to be expensive — floods of
near-miss keywords and names, unknown spells, one enormous line, thousands
of distinct short lines, descriptions continued line after line, zalgo
text — then fuzzes: random token soup from the whole vocabulary, and the
worst message found so far mutated (hill climbing) for ``--seconds``.
Every message is filled up to the 20 KB limit, read as a team (left) and
as a game master, against a mid-match position.

    python benchmarks/parse_worst.py [--seconds 20] [--seed 1]

Figures are CPU time of this process (``time.process_time``; the machine
is shared), the median of three readings of the same message, each made
distinct from the others where the case has random parts, and every reading
starts with the order language's caches emptied and refilled by typical
messages (so only what a warm judge would already know is cached).  The last line is for scripts:
``worst_ms=… worst_case=… limit_ms=50 cases=…``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from parse_bench import TYPICAL, bench_state

from bot.orderlang import MAX_MESSAGE_BYTES, driver, parse_message, tokens
from bot.orderlang.lexicon import KEYWORD_TYPES
from bot.orderlang.syntax import parser

LIMIT_MS = 50.0
KEYWORDS = sorted(KEYWORD_TYPES)
NAMES = ["Иванов", "Петров", "Сидоров", "Смирнов", "Кузнецов", "Попов", "Соколов", "Волков"]
SPELLS = ["гуллис-дуллис", "цап-царапс", "труллис-запуллис", "щупс-курощупс"]
PIECES = KEYWORDS + NAMES + SPELLS + [
    "57", "2", "211", "999", "1", "0", "-", "->", "/", ":", ",", "//", "--", "#", "(", ")",
    "т2", "в3", "h1", "№3", "т1-3", "красный", "red", "жёлтый", "🐉", "\u0301", "ё",
]  # fmt: skip

Make = Callable[[random.Random], str]


def fill(line: Make, rng: random.Random) -> str:
    """Lines from ``line`` until the message is at the size limit."""
    out: list[str] = []
    size = 0
    while True:
        text = line(rng)
        add = len(text.encode()) + 1
        if size + add > MAX_MESSAGE_BYTES:
            return "\n".join(out)
        out.append(text)
        size += add


def one_line(body: Make, rng: random.Random) -> str:
    """One line of repeated pieces up to the size limit."""
    parts: list[str] = []
    size = 0
    while True:
        piece = body(rng)
        if size + len(piece.encode()) + 1 > MAX_MESSAGE_BYTES:
            return " ".join(parts)
        parts.append(piece)
        size += len(piece.encode()) + 1


def _edit(word: str, rng: random.Random) -> str:
    """``word`` one random edit away (a letter dropped, doubled, changed, swapped)."""
    if len(word) < 2:
        return word + rng.choice("абвгд")
    i = rng.randrange(len(word) - 1)
    match rng.randrange(4):
        case 0:
            return word[:i] + word[i + 1 :]
        case 1:
            return word[:i] + word[i] + word[i:]
        case 2:
            return word[:i] + rng.choice("абвгдежзиклмнопрст") + word[i + 1 :]
        case _:
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def _junk(rng: random.Random, n: int = 6) -> str:
    return "".join(
        rng.choice(string.ascii_lowercase + "абвгдежзиклмнопрстуфхцчшщыэюя") for _ in range(n)
    )


def _cell(rng: random.Random) -> int:
    return rng.randint(1, 211)


# Each case: a name and how to make its message from a random generator.
CASES: dict[str, Make] = {
    "tfel × 4090 (issue 14)": lambda r: "tfel\n" * 4090,
    "a misspelt keyword a line, each different": lambda r: fill(
        lambda r: _edit(r.choice(KEYWORDS), r), r
    ),
    "misspelt keywords after a flight": lambda r: fill(
        lambda r: (
            f"{r.choice(NAMES)}: {_cell(r)} в2, {_edit(r.choice(KEYWORDS), r)} "
            f"{_edit(r.choice(KEYWORDS), r)}"
        ),
        r,
    ),
    "a misspelt name a line": lambda r: fill(lambda r: f"{_edit(r.choice(NAMES), r)}: 89 в2", r),
    "junk words a line": lambda r: fill(lambda r: f"{_junk(r)} {_junk(r, 3)}", r),
    "one-letter lines": lambda r: fill(lambda r: r.choice("йцукенгшщзхфывпролджэячсмить"), r),
    "unknown spells": lambda r: fill(
        lambda r: f"Иванов: 89 в2, пас красный -> 91 в2 {_edit(r.choice(SPELLS), r)}", r
    ),
    "unknown catch words": lambda r: fill(lambda r: f"Петров: 91 в2, ловить {_junk(r)}", r),
    "valid lines, every cell": lambda r: fill(
        lambda r: f"{r.randint(1, 7)}: {_cell(r)} в{r.randint(1, 3)}", r
    ),
    "valid passes and catches": lambda r: fill(
        lambda r: (
            f"т{r.randint(1, 3)} Иванов: 89 в2, пас красный -> {_cell(r)} в2 гуллис-дуллис"
            if r.random() < 0.5
            else f"т{r.randint(1, 3)} Петров: 91 в2, ловить цап-царапс"
        ),
        r,
    ),
    "stay on every tick": lambda r: fill(lambda r: f"т1-3 {r.choice(NAMES)}: на месте, ловить", r),
    "clears": lambda r: fill(
        lambda r: r.choice(
            ["отменить всё", "Иванов: отмена", "Дракон: отмена", "т2 Петров: отмена"]
        ),
        r,
    ),
    "substitutions": lambda r: fill(lambda r: f"замена {r.choice(NAMES)} -> {r.choice(NAMES)}", r),
    "dragon lines": lambda r: fill(
        lambda r: (
            "Дракон: " + " ".join(r.choice(["вперёд", "налево", "вверх", "залп"]) for _ in range(3))
        ),
        r,
    ),
    "description continued on every line": lambda r: (
        "Иванов: 89 в2 // начало\n" + fill(lambda r: "// " + _junk(r, 20), r)[30:]
    ),
    "one line of words, no flight": lambda r: one_line(lambda r: _junk(r, 2), r),
    "one subject of 5,000 words and a flight": lambda r: (
        one_line(lambda r: _junk(r, 2), r)[:-12] + ": 89 в2"
    ),
    "one dragon line of 2,000 moves": lambda r: (
        "Дракон: " + one_line(lambda r: r.choice(["вперёд", "вверх"]), r)[:-20]
    ),
    "one pass with 2,000 ball words": lambda r: (
        "Иванов: 89 в2, пас " + one_line(lambda r: "красный", r)[:-40] + " -> 91 в2"
    ),
    "one catch with 3,000 unknown words": lambda r: (
        "Петров: 91 в2, ловить " + one_line(lambda r: _junk(r, 3), r)[:-30]
    ),
    "punctuation: 1/1/1/…": lambda r: one_line(lambda r: "1/1/1/1", r),
    "arrows and dashes": lambda r: fill(lambda r: "->-—–>" * 5, r),
    "long numbers": lambda r: fill(lambda r: "1234567 " * 4, r),
    "zalgo": lambda r: fill(lambda r: "И\u0301в\u0308а\u0301нов: 89 в2" + "\u0301" * 10, r),
    "mixed scripts": lambda r: fill(lambda r: "Ивaнoв: 89 в2, пac кpacный -> 91 в2", r),
    "emoji": lambda r: fill(lambda r: "🐉🔥" * 10 + " Иванов: 89 в2", r),
    "tick headers": lambda r: fill(lambda r: f"Такт {r.randint(0, 9)}", r),
    "typical message repeated": lambda r: fill(_cycle(TYPICAL.splitlines()[1:]), r),
}


def _cycle(lines: list[str]) -> Make:
    it = itertools.cycle(lines)
    return lambda r: next(it)


_BUILT = {"parser", "_table"}  # the grammar's tables: built once, not data


def _caches() -> list[Any]:
    """The order language's caches (of words, lines, near misses)."""
    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("bot.orderlang"):
            continue
        for value in vars(module).values():
            for obj in (value, getattr(value, "close", None)):
                if (
                    callable(getattr(obj, "cache_clear", None))
                    and getattr(obj, "__name__", "") not in _BUILT
                    and obj not in found
                ):
                    found.append(obj)
    return found


def cold() -> None:
    """Empty every cache, then read the typical traffic, as a judge that has
    been running would have: only the message under test is new to it."""
    for c in _caches():
        c.cache_clear()
    tokens._CLASSIFIED.clear()  # the lexer's word table and the parser's plans
    driver._table(parser()).plans.clear()
    state, ruleset = bench_state()
    for side in ("left", None):
        parse_message(TYPICAL, state=state, ruleset=ruleset, side=side)  # type: ignore[arg-type]


def cost(text: str, side: str | None) -> float:
    """CPU milliseconds of one reading of ``text`` by a warm judge that has
    not seen it before."""
    state, ruleset = bench_state()
    cold()
    start = time.process_time()
    parse_message(text, state=state, ruleset=ruleset, side=side)  # type: ignore[arg-type]
    return (time.process_time() - start) * 1000


def measure(make: Make, seed: int, side: str | None) -> tuple[float, str]:
    """The median cost of three distinct messages of one shape, and one of them."""
    texts = [make(random.Random(seed * 100 + i)) for i in range(3)]
    for text in texts:
        assert len(text.encode()) <= MAX_MESSAGE_BYTES, len(text.encode())
    return statistics.median(cost(t, side) for t in texts), texts[0]


def soup(rng: random.Random) -> str:
    return fill(
        lambda r: " ".join(r.choice(PIECES) for _ in range(r.randint(1, 12))),
        rng,
    )


def mutate(text: str, rng: random.Random) -> str:
    """A variation of ``text``: one of its lines replaced by soup, or lines swapped."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        lines[i] = " ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    out = "\n".join(lines)
    while len(out.encode()) > MAX_MESSAGE_BYTES:
        out = out[: out.rfind("\n")]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="time for the fuzzing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write the worst fuzzed message to this file")
    args = parser.parse_args()
    state, ruleset = bench_state()
    parse_message(TYPICAL, state=state, ruleset=ruleset, side="left")  # builds the parser

    results: list[tuple[float, str]] = []
    for name, make in CASES.items():
        for side in ("left", None):
            ms, _ = measure(make, args.seed, side)
            label = f"{name} ({'team' if side else 'game master'})"
            results.append((ms, label))
            print(f"{ms:8.1f} ms  {label}")

    rng = random.Random(args.seed)
    worst_ms, worst = 0.0, ""
    fuzzed = 0
    half = time.monotonic() + args.seconds / 2
    stop = half + args.seconds / 2
    while time.monotonic() < half:
        text = soup(rng)
        ms = cost(text, rng.choice(["left", None]))
        fuzzed += 1
        if ms > worst_ms:
            worst_ms, worst = ms, text
    while time.monotonic() < stop:
        text = mutate(worst, rng)
        ms = statistics.median(cost(text, "left") for _ in range(3))
        fuzzed += 1
        if ms > worst_ms:
            worst_ms, worst = ms, text
    if args.save:
        args.save.write_text(worst, encoding="utf-8")
    results.append((worst_ms, f"fuzzed: worst of {fuzzed} random and mutated messages"))
    print(f"{worst_ms:8.1f} ms  fuzzed: worst of {fuzzed} random and mutated messages")

    ms, label = max(results)
    print(f"worst: {ms:.1f} ms CPU for {label!r} (limit {LIMIT_MS:.0f} ms)")
    print(f"worst_ms={ms:.1f} worst_case={label!r} limit_ms={LIMIT_MS:.0f} cases={len(results)}")


if __name__ == "__main__":
    main()
