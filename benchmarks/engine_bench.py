"""Speed of the rules engine: ticks per second and whole simulated matches
per second, seven players a team (issue 3's targets on one core: at least
5,000 ticks/s and 50 matches/s).

    python benchmarks/engine_bench.py [--matches 200] [--json]

Ticks/s times ``resolve_round`` alone on rounds recorded from bot matches
(their states and orders made beforehand).  Matches/s times
``simulate_match`` end to end: opening, both policies ordering every round,
resolution, up to 30 rounds; once as the classic rules play (a match ends
early when the result can no longer change) and once played out (that end
switched off, so nearly every match lasts 30 rounds).  Python runs on one core; the figures are the
best of ``--repeat`` runs, in CPU time of this process.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import replace

from engine.orders import RoundOrders
from engine.resolve import resolve_round
from engine.ruleset import load_ruleset
from engine.simulate import simulate_match
from engine.state import MatchState

PLAYERS = 7


def recorded_rounds(matches: int) -> list[tuple[MatchState, RoundOrders, str]]:
    rules = load_ruleset("classic")
    rounds: list[tuple[MatchState, RoundOrders, str]] = []
    for seed in range(matches):
        result = simulate_match(f"bench/{seed}", rules, players_per_team=PLAYERS, record=True)
        state = result.initial
        for rec in result.history:
            rounds.append((state, rec.orders, rec.seed))
            state = resolve_round(state, rec.orders, rules, rec.seed).state
    return rounds


def ticks_per_second(
    rounds: list[tuple[MatchState, RoundOrders, str]], repeat: int
) -> tuple[float, int]:
    rules = load_ruleset("classic")
    best = float("inf")
    ticks = 0
    for _ in range(repeat):
        ticks = 0
        start = time.process_time()
        for state, orders, seed in rounds:
            ticks += len(resolve_round(state, orders, rules, seed).tick_states)
        best = min(best, time.process_time() - start)
    return ticks / best, ticks


def matches_per_second(
    matches: int, repeat: int, *, full_length: bool = False
) -> tuple[float, float, float]:
    rules = load_ruleset("classic")
    if full_length:
        # Never "decided": nearly every match runs its 30 rounds.
        rules = replace(rules, end_when_decided=False)
    best = float("inf")
    rounds = ticks = 0
    for _ in range(repeat):
        rounds = ticks = 0
        start = time.process_time()
        for seed in range(matches):
            result = simulate_match(seed, rules, players_per_team=PLAYERS)
            rounds += result.rounds
            ticks += result.ticks
        best = min(best, time.process_time() - start)
    return matches / best, rounds / matches, ticks / matches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best counts")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    # Warm the look-up caches (fire cones, rings) as a long-running judge would be.
    simulate_match("warm-up", load_ruleset("classic"), players_per_team=PLAYERS)
    rounds = recorded_rounds(max(10, args.matches // 4))
    tps, ticks = ticks_per_second(rounds, args.repeat)
    mps, avg_rounds, avg_ticks = matches_per_second(args.matches, args.repeat)
    full, full_rounds, _ = matches_per_second(args.matches, args.repeat, full_length=True)
    figures = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "players_per_team": PLAYERS,
        "ticks_per_second": round(tps),
        "ticks_measured": ticks,
        "matches_per_second": round(mps, 1),
        "matches_measured": args.matches,
        "average_rounds_per_match": round(avg_rounds, 1),
        "average_ticks_per_match": round(avg_ticks, 1),
        "full_length_matches_per_second": round(full, 1),
        "full_length_average_rounds": round(full_rounds, 1),
        "targets": {"ticks_per_second": 5000, "matches_per_second": 50},
    }
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        print(f"Python {figures['python']} on {figures['machine']}, {PLAYERS} players a team")
        print(f"resolution: {tps:,.0f} ticks/s over {ticks} ticks (target 5,000)")
        print(
            f"whole matches: {mps:.1f} matches/s over {args.matches} matches, "
            f"{avg_rounds:.1f} rounds and {avg_ticks:.1f} ticks a match on average (target 50)"
        )
        print(
            f"matches played out (never decided early): {full:.1f} matches/s, "
            f"{full_rounds:.1f} rounds a match on average"
        )
        flat = {k: v for k, v in figures.items() if not isinstance(v, dict)}
        print(" ".join(f"{k}={v}" for k, v in flat.items()) + " target_ticks_per_second=5000 "
              "target_matches_per_second=50")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
