"""Record the rounds the rendering tests replay, and write the golden reports.

    python tests/render/record_fixture.py            # fixtures and goldens
    python tests/render/record_fixture.py --goldens  # goldens only, from the stored fixtures

The fixtures are real rounds resolved by the engine (bot policies, fixed
seeds), stored as JSON so the tests do not change when the engine does.
The goldens are the reports rendered from them: read them before
committing, they are what players will read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine import load_ruleset, simulate_match
from engine.resolve import RoundResult

DATA = Path(__file__).resolve().parent / "data"

# (file, match seed, policies, round): a round with a goal, an enchanted pass
# revealed by a bludger, falls, catches and players' descriptions; a round
# with two enchanted passes that stay secret; a whole short match.
ROUNDS = (
    ("recorded_round.json", "render-19", ("greedy", "random"), 3),
    ("secret_round.json", "render-10", ("greedy", "random"), 7),
)
MATCH = ("recorded_match.json", "render-4", ("greedy", "random"))
MAX_ROUNDS = 20


def record_round(seed: str, policies: tuple[str, str], number: int) -> dict[str, Any]:
    ruleset = load_ruleset()
    results: list[RoundResult] = []
    match = simulate_match(
        seed,
        ruleset,
        policies=policies,
        record=True,
        on_round=results.append,
        max_rounds=MAX_ROUNDS,
    )
    before = match.initial if number == 1 else results[number - 2].state
    result = results[number - 1]
    orders = match.history[number - 1].orders
    return {
        "seed": seed,
        "policies": list(policies),
        "round": number,
        "round_seed": match.history[number - 1].seed,
        "before": before.to_json(),
        "tick_states": [s.to_json() for s in result.tick_states],
        "events": [e.to_json() for e in result.events],
        "descriptions": [
            [o.side, o.number, o.tick, o.description] for o in orders.players if o.description
        ],
    }


def record_match(seed: str, policies: tuple[str, str]) -> dict[str, Any]:
    ruleset = load_ruleset()
    results: list[RoundResult] = []
    match = simulate_match(
        seed, ruleset, policies=policies, on_round=results.append, max_rounds=MAX_ROUNDS
    )
    return {
        "seed": seed,
        "policies": list(policies),
        "final": match.state.to_json(),
        "events": [e.to_json() for r in results for e in r.events],
    }


def write_goldens() -> None:
    from render_fixtures import golden_reports  # the tests' own loader

    for name, text in golden_reports().items():
        (DATA / name).write_text(text, encoding="utf-8")
        print(f"wrote {name}")


def _dump(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.name}")


def main(argv: list[str]) -> None:
    DATA.mkdir(exist_ok=True)
    if "--goldens" not in argv:
        for name, seed, policies, number in ROUNDS:
            _dump(DATA / name, record_round(seed, policies, number))
        _dump(DATA / MATCH[0], record_match(MATCH[1], MATCH[2]))
    write_goldens()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main(sys.argv[1:])
