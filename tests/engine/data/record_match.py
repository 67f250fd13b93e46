"""Record the match that tests/engine/test_replay.py replays.

Run from the repository root after a deliberate change of the rules engine
(the replay test then fails until the recording is renewed):

    python tests/engine/data/record_match.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.ruleset import load_ruleset
from engine.simulate import simulate_match

SEED = "replay-1"
MAX_ROUNDS = 12
POLICIES = ("greedy", "random")
OUT = Path(__file__).with_name("replay_match.json")


def events_digest(events: list[dict]) -> str:
    text = json.dumps(events, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main() -> None:
    rules = load_ruleset("classic", 1)  # the replay test proves version 1 stays reachable
    events: list[dict] = []
    result = simulate_match(
        SEED,
        rules,
        max_rounds=MAX_ROUNDS,
        policies=POLICIES,
        record=True,
        on_round=lambda r: events.extend(e.to_json() for e in r.events),
    )
    doc = {
        "about": "A recorded match: replaying its rounds from their seeds must give this final state.",
        "seed": SEED,
        "policies": list(POLICIES),
        "max_rounds": MAX_ROUNDS,
        "initial": result.initial.to_json(),
        "rounds": [
            {"round": r.round, "seed": r.seed, "orders": r.orders.to_json()} for r in result.history
        ],
        "final": result.state.to_json(),
        "events": len(events),
        "events_sha256": events_digest(events),
    }
    OUT.write_text(
        json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n",
        encoding="utf-8",
    )
    print(f"{OUT}: {len(result.history)} rounds, {len(events)} events")


if __name__ == "__main__":
    main()
