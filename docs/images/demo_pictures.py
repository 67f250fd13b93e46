"""Copy two of the demo's diagrams into docs/images for the README: the tick
of the first goal (demo-goal.png) and the tick where most players fell or
were swallowed (demo-falls.png) of ``dragonball demo --seed 2026``.  The
ticks are found from the match's events, so the pictures follow the demo
when the engine or the captains change.  Run from the repository root after
a change to the diagrams, the engine or the demo's captains:

    python docs/images/demo_pictures.py

It prints which ticks it took and the end-of-round table of the goal's
round, as the README quotes them.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from bot.demo.folder import DemoFolder
from bot.demo.record import all_events
from bot.demo.runner import DemoOptions, run_demo
from engine.events import Kind
from storage.db import Database

HERE = Path(__file__).resolve().parent
SEED = "2026"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = DemoFolder(Path(tmp) / "demo")
        asyncio.run(run_demo(DemoOptions(folder=folder, seed=SEED)))
        db = Database(f"sqlite:///{folder.database.resolve()}")
        try:
            events = all_events(db, 1)
        finally:
            db.dispose()
        goal = next((e.round, e.tick) for e in events if e.kind is Kind.GOAL)
        lost = Counter(
            (e.round, e.tick)
            for e in events
            if e.kind in (Kind.FALL, Kind.PLAYER_SWALLOWED) and (e.round, e.tick) != goal
        )
        # the most players lost in one tick; the earliest of those
        falls = min(lost, key=lambda k: (-lost[k], k))
        for name, (rnd, tick) in (("demo-goal.png", goal), ("demo-falls.png", falls)):
            source = folder.diagrams / f"round-{rnd:02d}-tick-{tick}.png"
            shutil.copyfile(source, HERE / name)
            print(f"{name}: round {rnd}, tick {tick}")
        report = (folder.reports / f"round-{goal[0]:02d}.txt").read_text("utf-8")
        table = report[report.index("Позиция после раунда") :]
        print(table[: table.index("Игра по правилам")].rstrip())


if __name__ == "__main__":
    main()
