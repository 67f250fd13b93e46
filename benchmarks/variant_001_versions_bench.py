"""How often variant-001's version 4 plays differently from version 3.

For ``--seeds`` match seeds (``--first``, ``--first``+1, …) plays the same
match under ``variant-001@3`` and ``variant-001@4`` (the built-in captains,
``--left``/``--right``), and counts, under version 4, the moments its four
rulings decide (docs/rules.md, 001 · Versions):

* ``put_back``: a player swallowed at step 3 after the dragons were put back
  (``dragons_reset``) in the same tick;
* ``knockback``: a player who held on in a collision after being thrown aside
  in the same tick (he goes back one cell along his throw);
* ``gape_head``: a free ball on a gaping head (a ``ball_swallow_roll`` with
  p = 1);
* ``race_two``: a robber first against a holder of two balls (a step-7
  ``steal_roll`` with p = 1);

and the matches whose final score or end differ between the versions, and
the wall time of the whole run.

Run: ``python benchmarks/variant_001_versions_bench.py [--seeds 200] [--first 1]``
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable

from engine.events import Event, Kind
from engine.resolve import RoundResult
from engine.ruleset import load_ruleset
from engine.simulate import simulate_match


def _moments(events: list[Event]) -> Counter[str]:
    seen: Counter[str] = Counter()
    reset: set[tuple[int, int]] = set()
    thrown: set[tuple[int, int, str, int]] = set()
    for e in events:
        when = (e.round, e.tick)
        who = (e.round, e.tick, str(e.data.get("side")), int(e.data.get("number") or 0))
        if e.kind is Kind.DRAGONS_RESET:
            reset.add(when)
        elif e.kind is Kind.PLAYER_SWALLOWED and e.step == 3 and when in reset:
            seen["put_back"] += 1
        elif e.kind is Kind.THROWN:
            thrown.add(who)
        elif e.kind is Kind.HELD_ON and who in thrown:
            seen["knockback"] += 1
        elif e.kind is Kind.BALL_SWALLOW_ROLL and e.p == 1.0:
            seen["gape_head"] += 1
        elif e.kind is Kind.STEAL_ROLL and e.step == 7 and e.p == 1.0:
            seen["race_two"] += 1
    return seen


def _keeper(events: list[Event]) -> Callable[[RoundResult], None]:
    return lambda result: events.extend(result.events)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--left", default="greedy")
    ap.add_argument("--right", default="greedy")
    args = ap.parse_args()
    v3, v4 = load_ruleset("variant-001", 3), load_ruleset("variant-001", 4)
    started = time.perf_counter()
    totals: Counter[str] = Counter()
    with_moment = differ = 0
    for seed in range(args.first, args.first + args.seeds):
        events: list[Event] = []
        policies = (args.left, args.right)
        old = simulate_match(seed, v3, policies=policies).summary()
        new = simulate_match(seed, v4, policies=policies, on_round=_keeper(events)).summary()
        seen = _moments(events)
        totals.update(seen)
        with_moment += bool(seen)
        if (old["score"], old["end_reason"], old["rounds"]) != (
            new["score"],
            new["end_reason"],
            new["rounds"],
        ):
            differ += 1
    wall = time.perf_counter() - started
    counts = " ".join(
        f"{k}={totals[k]}" for k in ("put_back", "knockback", "gape_head", "race_two")
    )
    print(
        f"seeds={args.seeds} first={args.first} {counts} "
        f"matches_with_a_v4_moment={with_moment} matches_differing={differ} wall_s={wall:.1f}"
    )


if __name__ == "__main__":
    main()
