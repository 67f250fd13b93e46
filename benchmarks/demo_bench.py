"""The demo's speed and output size: ``dragonball demo`` as a newcomer runs it.

Runs the README's first command (``dragonball demo``, the default seed and the
whole match) ``--runs`` times as a separate process, each into a fresh
folder, and reports the wall time from start to exit (interpreter start-up
and imports included), the rounds played, and the size of what it wrote.
Target (issue 9): the whole demo in under two minutes.

Run: ``python benchmarks/demo_bench.py [--runs N] [--seed S]``
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 120.0


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _run(folder: Path, seed: str) -> tuple[float, str]:
    # The command of the interpreter running this script (its venv), not whichever
    # `dragonball` is first on PATH: that may be another checkout's.
    beside = Path(sys.executable).with_name("dragonball")
    command = str(beside) if beside.exists() else shutil.which("dragonball")
    argv = [command] if command else [sys.executable, "-m", "bot.cli"]
    start = time.perf_counter()
    done = subprocess.run(
        [*argv, "demo", "--out", str(folder), "--seed", seed, "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"dragonball demo failed ({done.returncode}):\n{done.stderr}")
    return elapsed, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", default="2026")
    args = parser.parse_args()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            folder = Path(tmp) / f"run{n}"
            elapsed, out = _run(folder, args.seed)
            times.append(elapsed)
            rounds = re.search(r"(?:Сыграно раундов|Rounds played): (\d+)", out)
            print(
                f"run {n + 1}: {elapsed:.1f} s, {rounds[1] if rounds else '?'} rounds", flush=True
            )
        pngs = sorted((folder / "diagrams").glob("*.png"), key=lambda p: p.stat().st_size)
        gifs = sorted((folder / "diagrams").glob("*.gif"), key=lambda p: p.stat().st_size)
        print(
            f"wall time: median {statistics.median(times):.1f} s, max {max(times):.1f} s "
            f"(target under {TARGET_S:.0f} s)"
        )
        print(
            f"output folder: {_size(folder) / 2**20:.1f} MiB in all; database "
            f"{(folder / 'dragonball.db').stat().st_size / 2**20:.1f} MiB; diagrams "
            f"{_size(folder / 'diagrams') / 2**20:.1f} MiB ({len(pngs)} PNG, largest "
            f"{pngs[-1].stat().st_size // 1024} KB; {len(gifs)} GIF, largest "
            f"{gifs[-1].stat().st_size // 1024} KB); transcript "
            f"{(folder / 'transcript.txt').stat().st_size // 1024} KB"
        )
        print(
            f"runs={args.runs} median_s={statistics.median(times):.1f} max_s={max(times):.1f} "
            f"folder_mib={_size(folder) / 2**20:.1f} largest_png_kb="
            f"{pngs[-1].stat().st_size // 1024} largest_gif_kb={gifs[-1].stat().st_size // 1024} "
            f"target_s={TARGET_S:.0f}"
        )


if __name__ == "__main__":
    main()
