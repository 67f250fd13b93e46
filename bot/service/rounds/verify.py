"""``/verify``: re-play a stored round and compare it with what was published."""

from __future__ import annotations

from engine.orders import RoundOrders
from engine.resolve import resolve_round
from storage import repo

from ..kernel.context import ServiceError, Tx
from .fairness import Verification, commitment, result_digest
from .receipts import team_digests
from .stored import load_state, round_ruleset

__all__ = ["verify"]


def verify(tx: Tx, game_id: int, number: int, attempt: int | None = None) -> Verification:
    """Re-play round ``number`` (its resolved attempt, or the ``attempt`` named,
    which may be one a game master rolled back) and compare with what was published."""
    if attempt is None:
        rnd = repo.resolved_round(tx.s, game_id, number)
    else:
        rnd = next(
            (r for r in repo.played_rounds(tx.s, game_id)
             if r.number == number and r.attempt == attempt),
            None,
        )  # fmt: skip
    game = repo.get_game(tx.s, game_id)
    if rnd is None or game is None or rnd.orders is None or rnd.result_digest is None:
        raise ServiceError("verify_no_round", round=number)
    assert rnd.id is not None
    before = load_state(tx, rnd)
    orders = RoundOrders.from_json(rnd.orders)
    # Re-played under its own rules: a ruling changed since does not touch it.
    rules = round_ruleset(game, rnd)
    result = resolve_round(before, orders, rules, rnd.seed)
    digest = result_digest(result.state, result.events)
    state_ok = all(
        repo.snapshot(tx.s, rnd.id, i) == s.to_json()
        for i, s in enumerate(result.tick_states, start=1)
    )
    played = team_digests(rnd.orders)
    return Verification(
        game_id=game_id,
        round_number=number,
        seed=rnd.seed,
        commitment=rnd.commitment,
        digest=rnd.result_digest,
        recomputed_digest=digest,
        commitment_ok=commitment(rnd.seed) == rnd.commitment,
        result_ok=digest == rnd.result_digest,
        state_ok=state_ok,
        order_digests=played,
        orders_ok=rnd.order_digests is None or rnd.order_digests == played,
        ruleset=rules.label,
        ruleset_ok=rnd.ruleset_digest is None or rnd.ruleset_digest == rules.digest,
        attempt=rnd.attempt,
        rolled_back=rnd.status == "rolled_back",
    )
