"""Provably fair dice: seeds, commitments and the result digest.

When a round opens the judge draws a fresh 256-bit seed and publishes only
its SHA-256 (the commitment); with the results it publishes the seed and a
digest of what the engine made of it.  Anyone holding the position before the
round, the orders and the seed can rerun the engine and compare.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.dice import commitment
from engine.events import Event
from engine.state import MatchState

__all__ = [
    "Verification",
    "canonical_json",
    "commitment",
    "new_seed",
    "result_digest",
]


def new_seed(source: Callable[[str], str] | None = None, purpose: str = "") -> str:
    """A fresh 256-bit seed as 64 hex digits (the engine reads it as 32 bytes).

    ``source`` (``ServiceSettings.seed_source``) replaces the random draw by a
    seed derived from ``purpose``: only the demo uses it, so that the same
    demo seed plays the same match; a real judge never sets it.
    """
    if source is None:
        return secrets.token_hex(32)
    seed = source(purpose)
    if len(seed) != 64 or any(c not in "0123456789abcdef" for c in seed):
        raise ValueError(f"seed_source gave {seed!r}, not 64 lower-case hex digits")
    return seed


def canonical_json(value: Any) -> bytes:
    """One byte string per JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def result_digest(state: MatchState, events: Sequence[Event]) -> str:
    """SHA-256 over the position after the round and every event of it."""
    document = {"state": state.to_json(), "events": [e.to_json() for e in events]}
    return hashlib.sha256(canonical_json(document)).hexdigest()


@dataclass(frozen=True)
class Verification:
    """The outcome of rerunning one resolved round."""

    game_id: int
    round_number: int
    seed: str
    commitment: str  # as published when the round opened
    digest: str  # as published with the results
    recomputed_digest: str
    commitment_ok: bool  # sha256(seed) == commitment
    result_ok: bool  # the rerun gives the published digest
    state_ok: bool  # ... and the stored position after the round
    # Per team, the digest of the orders it was played with (bot.service.rounds.receipts),
    # recomputed from the stored orders; orders_ok: equal to the published ones.
    order_digests: Mapping[str, str] = field(default_factory=dict)
    orders_ok: bool = True
    ruleset: str = ""  # the rules it was re-played under: classic@1
    # Their data are the data the round recorded (by digest).  Not part of
    # ``ok``: a setting added since (an order-language reading, say) changes
    # the digest without changing the result; when the result differs too,
    # this says why.
    ruleset_ok: bool = True
    attempt: int = 1  # the attempt checked (a round rolled back was played again)
    rolled_back: bool = False  # that attempt was undone by a game master

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.result_ok and self.state_ok and self.orders_ok
