"""A recorded match re-run from its seeds gives the same final state and
the same events (tests/engine/data/record_match.py made the recording).

The recording was made under version 1 of the classic ruleset (before the
case book's rulings): replaying it under ``load_ruleset("classic", 1)``
proves that an old version stays exactly reachable."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace
from pathlib import Path

from engine.orders import RoundOrders
from engine.resolve import resolve_round
from engine.ruleset import load_ruleset
from engine.simulate import simulate_match
from engine.state import MatchState

DATA = Path(__file__).parent / "data"
VERSION_1 = load_ruleset("classic", 1)


def _load() -> dict:
    return json.loads((DATA / "replay_match.json").read_text(encoding="utf-8"))


def _digest(events: list[dict]) -> str:
    """The recorder's own digest function, so both hash the same text."""
    spec = importlib.util.spec_from_file_location("record_match", DATA / "record_match.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.events_digest(events)


def test_s9_replay_of_a_recorded_match_gives_the_same_final_state() -> None:
    doc = _load()
    rules = replace(VERSION_1, max_rounds=doc["max_rounds"])
    state = MatchState.from_json(doc["initial"])
    events: list[dict] = []
    for rnd in doc["rounds"]:
        assert state.round == rnd["round"]
        result = resolve_round(state, RoundOrders.from_json(rnd["orders"]), rules, rnd["seed"])
        events.extend(e.to_json() for e in result.events)
        state = result.state
    assert state.to_json() == doc["final"]
    assert len(events) == doc["events"]
    assert _digest(events) == doc["events_sha256"]


def test_s9_the_recorded_match_is_what_the_policies_play_from_its_seed() -> None:
    doc = _load()
    result = simulate_match(
        doc["seed"],
        VERSION_1,
        max_rounds=doc["max_rounds"],
        policies=tuple(doc["policies"]),
        record=True,
    )
    assert result.initial.to_json() == doc["initial"]
    assert [r.orders.to_json() for r in result.history] == [r["orders"] for r in doc["rounds"]]
    assert result.state.to_json() == doc["final"]
