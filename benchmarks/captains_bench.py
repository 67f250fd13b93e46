"""How lively the demo's built-in captains play: goals, steals, dragons.

For each of ``--seeds`` demo seeds (2026, 2027, …) plays the match
``dragonball demo --seed S`` plays — the same setup, round and policy seeds
(``bot.demo.runner``: the judge's seeds derived from ``judge/…``, the
captains' from ``policy/roundN``), the greedy policy on both sides — with the
engine alone (no service, no pictures: the judge resolves exactly this), and
counts per match:

* goals and points of each team;
* steals that took a ball, and steal attempts;
* the dragons' moves: forward, left, right, hover (a height change alone: the
  mouth stays shut), rest (no move: the mouth opens); *zigzags* (a turn
  undone by the opposite turn the next tick: moving only to keep the mouth shut);
  *bobs* (the same with a height step: up, then down again); fires; players
  swallowed; players the dragons knocked down or burnt, and of them those
  knocked down or swallowed by their own team's dragon.

``--check`` also runs the real demo for the first seed (pictures and all)
and compares its final score and event count, so the figures are the demo's.

``--play-out`` plays decided matches on (§1's «явное преимущество» ending
off): how many scoreless sides are only the matches the book ends early.

Run: ``python benchmarks/captains_bench.py [--seeds 20] [--first 2026] [--check] [--play-out]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.dice import derive_seed
from engine.events import Event, Kind
from engine.geometry import SIDES
from engine.orders import RoundOrders
from engine.policies import POLICIES
from engine.resolve import resolve_round
from engine.ruleset import load_ruleset
from engine.setup import DEFAULT_NAMES, DEFAULT_TEAM_NAMES, new_match


@dataclass
class Match:
    seed: str
    score: tuple[int, int] = (0, 0)
    goals: Counter[str] = field(default_factory=Counter)
    steals: Counter[str] = field(default_factory=Counter)
    steal_tries: Counter[str] = field(default_factory=Counter)
    moves: Counter[str] = field(default_factory=Counter)
    own_goals: int = 0  # into the scorer's opponents' own dragon, by their own last touch
    zigzags: int = 0
    bobs: int = 0
    fires: int = 0
    swallowed: int = 0
    knocked: int = 0
    own_knocked: int = 0  # knocked down or swallowed by their own dragon
    rounds: int = 0
    events: int = 0
    end: str = ""


_MOVES = ("forward", "left", "right", "hover", "rest")


def play(
    seed: str, policies: tuple[str, str] = ("greedy", "greedy"), play_out: bool = False
) -> Match:
    """The demo's match for ``seed`` (game 1, every round at its first attempt);
    ``play_out``: not ended when decided (§1 «явное преимущество»), to see how
    many of the matches a team ends without a point only because they end then."""
    rules = load_ruleset()
    if play_out:
        rules = replace(rules, end_when_decided=False)
    judge = "judge/game1"
    state, _ = new_match(
        rules,
        derive_seed(seed, f"{judge}/setup"),
        reserves_per_team=0,
        team_names=dict(DEFAULT_TEAM_NAMES),
        rosters={side: DEFAULT_NAMES[side][: rules.players_per_team] for side in SIDES},
    )
    match = Match(seed)
    events: list[Event] = []
    while not state.ended and state.round <= rules.max_rounds:
        number = state.round
        policy_seed = derive_seed(seed, f"policy/round{number}")
        a = POLICIES[policies[0]](state, rules, "left", policy_seed)
        b = POLICIES[policies[1]](state, rules, "right", policy_seed)
        orders = RoundOrders(players=a.players + b.players, dragons=a.dragons + b.dragons)
        round_seed = derive_seed(seed, f"{judge}/round{number}/attempt1")
        result = resolve_round(state, orders, rules, round_seed)
        events.extend(result.events)
        state = result.state
        match.rounds = number
    match.score = (state.teams[0].score, state.teams[1].score)
    match.end = str(state.end_reason)
    match.events = len(events)
    _count(match, events)
    return match


def _count(match: Match, events: list[Event]) -> None:
    last: dict[str, str] = {}
    touched: dict[str, str] = {}  # ball → the side that last had it
    cells: dict[str, list[int]] = {}  # side → its dragon's cells this tick
    for e in events:
        d = e.data
        if e.kind is Kind.DRAGON_MOVE:
            cells[str(d.get("side"))] = list(d.get("cells") or [])
        own = e.kind is Kind.PLAYER_SWALLOWED and d.get("dragon") == d.get("side")
        if e.kind is Kind.FALL and str(d.get("cause", "")).startswith("dragon"):
            own = d.get("cell") in cells.get(str(d.get("side")), [])
        match.own_knocked += own
        if e.kind in (Kind.PASS, Kind.CATCH, Kind.STEAL, Kind.BALL_DROPPED):
            touched[str(d.get("ball"))] = str(d.get("side"))
        if e.kind is Kind.GOAL:
            match.goals[str(d.get("scorer_side"))] += 1
            if touched.get(str(d.get("ball"))) == str(d.get("dragon")):
                match.own_goals += 1
        elif e.kind is Kind.STEAL:
            match.steals[str(d.get("side"))] += 1
        elif e.kind is Kind.STEAL_ROLL:
            match.steal_tries[str(d.get("side"))] += 1
        elif e.kind is Kind.DRAGON_MOVE and not d.get("refused"):
            side, move = str(d.get("side")), str(d.get("move", "stay"))
            if move == "stay":  # a height change alone is a move too (the mouth stays shut)
                move = "hover" if d.get("height_step") else "rest"
            match.moves[move] += 1
            if {last.get(side), move} == {"left", "right"}:
                match.zigzags += 1
            step = int(d.get("height_step") or 0)
            if move == "hover" and last.get(side) == f"hover{-step}":
                match.bobs += 1
            last[side] = f"hover{step}" if move == "hover" else move
        elif e.kind is Kind.FIRE:
            match.fires += 1
        elif e.kind is Kind.PLAYER_SWALLOWED:
            match.swallowed += 1
        elif e.kind is Kind.FALL and str(d.get("cause", "")).startswith(("dragon", "fire")):
            match.knocked += 1


def _demo_check(seed: str, match: Match) -> bool:
    from bot.demo import DemoFolder, DemoOptions, run_demo

    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run_demo(DemoOptions(DemoFolder(Path(tmp) / "demo"), seed=seed)))
    same = result.score == match.score and result.rounds == match.rounds
    print(
        f"check: the real demo --seed {seed} ended {result.score[0]}:{result.score[1]} after "
        f"{result.rounds} rounds; this script {match.score[0]}:{match.score[1]} after "
        f"{match.rounds}: {'the same' if same else 'DIFFERENT'}"
    )
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=2026)
    parser.add_argument("--check", action="store_true")
    parser.add_argument(
        "--play-out",
        action="store_true",
        help="play decided matches on to the last ball or round (not the judge's rule)",
    )
    args = parser.parse_args()
    matches = [play(str(args.first + i), play_out=args.play_out) for i in range(args.seeds)]
    print(
        "seed   score  goals L/R  steals L/R (tries)  dragon fwd/left/right/hover/rest  "
        "zigzags fires swallowed knocked (own)  end"
    )
    for m in matches:
        moves = "/".join(str(m.moves[k]) for k in _MOVES)
        print(
            f"{m.seed}  {m.score[0]:>2}:{m.score[1]:<2}  {m.goals['left']}/{m.goals['right']}"
            f"        {m.steals['left']}/{m.steals['right']} ({m.steal_tries['left']}/"
            f"{m.steal_tries['right']})           {moves:<22}  {m.zigzags:>5} {m.fires:>5} "
            f"{m.swallowed:>6} {m.knocked:>7} ({m.own_knocked})  round {m.rounds}, {m.end}"
        )
    both = sum(1 for m in matches if m.score[0] > 0 and m.score[1] > 0)
    scoreless = sum(1 for m in matches for s in m.score if s == 0)
    goals = [m.goals["left"] + m.goals["right"] for m in matches]
    steals = [m.steals["left"] + m.steals["right"] for m in matches]
    moves = Counter[str]()
    for m in matches:
        moves.update(m.moves)
    total = sum(moves.values()) or 1
    print(
        f"\n{len(matches)} matches: both teams scored in {both}; a team without a point "
        f"{scoreless} times; goals a match {statistics.mean(goals):.1f} "
        f"(min {min(goals)}, max {max(goals)}; own goals {sum(m.own_goals for m in matches)}); "
        f"steals a match {statistics.mean(steals):.1f} "
        f"(min {min(steals)}, max {max(steals)}), in {sum(1 for s in steals if s)} matches"
    )
    print(
        "dragon moves: "
        + ", ".join(f"{k} {100 * moves[k] / total:.0f}%" for k in _MOVES)
        + f"; zigzags {100 * sum(m.zigzags for m in matches) / total:.0f}% of moves, "
        f"bobs {100 * sum(m.bobs for m in matches) / total:.0f}%; "
        f"fires a match {statistics.mean(m.fires for m in matches):.1f}, "
        f"players swallowed {statistics.mean(m.swallowed for m in matches):.1f}, "
        f"knocked down or burnt {statistics.mean(m.knocked for m in matches):.1f}; "
        f"knocked down or swallowed by their own dragon "
        f"{statistics.mean(m.own_knocked for m in matches):.1f}"
    )
    check = f" demo_same={_demo_check(matches[0].seed, matches[0])}" if args.check else ""
    print(
        f"matches={len(matches)} both_scored={both} scoreless_teams={scoreless} "
        f"goals_mean={statistics.mean(goals):.1f} steals_mean={statistics.mean(steals):.1f} "
        + " ".join(f"dragon_{k}_pct={100 * moves[k] / total:.0f}" for k in _MOVES)
        + check
    )


if __name__ == "__main__":
    main()
