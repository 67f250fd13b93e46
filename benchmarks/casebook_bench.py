"""How long the case book takes: every case of cases/ read and run, as
`dragonball engine case cases/` does, several times in one process.

    python benchmarks/casebook_bench.py [--runs 3]

Prints wall-clock and CPU seconds per run (CPU time is what the machine's
other load does not inflate).
"""

from __future__ import annotations

import argparse
import time
import tomllib
from pathlib import Path

from engine.cases import parse_case, run_case

BOOK = Path(__file__).resolve().parent.parent / "cases"


def run_once() -> tuple[int, int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    files = sorted(p for p in BOOK.rglob("*.toml") if not p.name.startswith("_"))
    passed = 0
    for path in files:
        case = parse_case(tomllib.loads(path.read_text(encoding="utf-8")), name=path.stem)
        passed += run_case(case).passed
    return len(files), passed, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    walls, cpus = [], []
    for i in range(args.runs):
        cases, passed, wall, cpu = run_once()
        walls.append(wall)
        cpus.append(cpu)
        print(f"run {i + 1}: {cases} cases, {passed} passed, {wall:.1f} s wall, {cpu:.1f} s CPU")
    print(
        f"cases={cases} passed={passed} runs={args.runs} wall_s_min={min(walls):.2f} "
        f"wall_s_max={max(walls):.2f} cpu_s_min={min(cpus):.2f} cpu_s_max={max(cpus):.2f}"
    )


if __name__ == "__main__":
    main()
