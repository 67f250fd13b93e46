"""Rendering speed: milliseconds per tick picture and per round animation.

Replays the recorded round of the rendering tests (a real resolved round
with passes, a goal, falls and fire) and times, on one core:

* a tick picture: ``render_position`` with the tick's arrows, then
  ``png_bytes`` (what the service sends);
* a round animation: ``render_round`` — three tick PNGs plus the GIF with
  the start position and the three ticks;
* the text side for comparison: ``round_report`` and ``text_diagram``.

Targets: under 150 ms a picture and under 600 ms an animation.  Run:
``python benchmarks/render_bench.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.render import png_bytes, render_position, render_round, round_report, text_diagram
from engine import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "render"))
from render_fixtures import load_round

TARGETS_MS = {"tick picture (render + PNG)": 150.0, "round animation (3 PNG + GIF)": 600.0}


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    fn()  # warm the caches (fonts, the still background), as a running service has them
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(samples), max(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    ruleset = load_ruleset()
    rec = load_round("recorded_round.json")
    tick = rec.states[1]
    tick_events = [e for e in rec.events if e.tick == 1]

    def picture() -> bytes:
        image = render_position(tick, ruleset, tick_events=tick_events, previous=rec.before)
        return png_bytes(image)

    def draw_only() -> object:
        return render_position(tick, ruleset, tick_events=tick_events, previous=rec.before)

    def animation() -> object:
        return render_round(rec.states, rec.events, ruleset)

    def report() -> str:
        return round_report(
            rec.events,
            before=rec.before,
            after=rec.after,
            ruleset=ruleset,
            descriptions=rec.descriptions,
        )

    cases = {
        "tick picture (render + PNG)": picture,
        "  of which drawing": draw_only,
        "round animation (3 PNG + GIF)": animation,
        "round report (text)": report,
        "text diagram": lambda: text_diagram(rec.after, ruleset),
    }
    sizes = {
        "tick PNG bytes": len(picture()),
        "GIF bytes": len(render_round(rec.states, rec.events, ruleset).gif),
    }
    print(f"render benchmark: {len(rec.events)} events, median of {args.repeat} runs, one process")
    figures = {}
    for name, fn in cases.items():
        median, worst = _time(fn, args.repeat)
        key = name.strip().split(" (")[0].replace(" ", "_")
        figures[f"{key}_ms"] = f"{median:.1f}"
        target = TARGETS_MS.get(name)
        verdict = (
            ""
            if target is None
            else f"  (target < {target:.0f} ms: {'ok' if median < target else 'MISSED'})"
        )
        print(f"{name:32} {median:8.1f} ms  (max {worst:.1f}){verdict}")
    for name, size in sizes.items():
        print(f"{name:32} {size:8d}")
        figures[name.replace(" ", "_")] = str(size)
    print(" ".join(f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
