"""Every probability of every table, measured over many seeds with the real
dice: the share of successes must lie within 4.5 standard deviations of the
rule book's number (a false alarm about once in 150,000 runs per entry)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import pytest
from enginekit import (
    STILL,
    dragon,
    drg,
    fly,
    free_ball,
    in_air,
    moving,
    orders,
    player,
    position,
    with_stays,
)

from engine.events import Event, Kind
from engine.orders import Catch, RoundOrders, Steal
from engine.resolve import resolve_tick
from engine.ruleset import Ruleset
from engine.state import MatchState

N = 400


def measure(
    state: MatchState,
    given: RoundOrders,
    kind: Kind,
    rules: Ruleset = STILL,
    keep: Callable[[Event], bool] = lambda e: True,
) -> tuple[float, set[float]]:
    """(share of ok among the ``kind`` events, the probabilities they tested)."""
    given = with_stays(state, given, state.tick + 1)
    ok = total = 0
    ps: set[float] = set()
    for i in range(N):
        for e in resolve_tick(state, given, rules, f"stat/{i}").events:
            if e.kind == kind and keep(e):
                total += 1
                ok += bool(e.ok)
                assert e.p is not None
                ps.add(e.p)
    assert total >= N
    return ok / total, ps


def within(share: float, p: float, n: int = N) -> bool:
    sigma = math.sqrt(max(p * (1 - p), 1e-9) / n)
    return abs(share - p) <= 4.5 * sigma + 1e-9


A, B = 36, 37

CATCH = [
    ("first same cell same height", (), A, 2, A, 2, 1.0),
    ("first same cell other height", (), A, 1, A, 2, 0.75),
    ("first adjacent", (), A, 2, B, 3, 0.5),
    ("second same cell same height", ("black",), A, 2, A, 2, 0.9),
    ("second same cell other height", ("black",), A, 3, A, 2, 0.65),
    ("second adjacent", ("black",), A, 2, B, 2, 0.4),
]


@pytest.mark.parametrize(
    ("name", "held", "cell", "height", "b_cell", "b_height", "p"), CATCH, ids=[c[0] for c in CATCH]
)
def test_s4_catch_table_statistics(name, held, cell, height, b_cell, b_height, p) -> None:
    state = position(
        [player("left", 1, cell, height, balls=held)], [free_ball("green", b_cell, b_height)]
    )
    share, ps = measure(
        state, orders(fly("left", 1, cell, height, Catch("green"))), Kind.CATCH_ROLL
    )
    assert ps == {p} and within(share, p), (name, share)


STEAL = [
    (("red",), (), A, 0.30),
    (("red",), ("black",), A, 0.22),
    (("red",), (), B, 0.15),
    (("red",), ("black",), B, 0.10),
    (("red", "blue"), (), A, 0.40),
    (("red", "blue"), ("black",), A, 0.30),
    (("red", "blue"), (), B, 0.25),
    (("red", "blue"), ("black",), B, 0.15),
]


@pytest.mark.parametrize(("holder", "stealer", "target_cell", "p"), STEAL)
def test_s4_steal_table_statistics(holder, stealer, target_cell, p) -> None:
    state = position(
        [player("left", 1, A, 1, balls=stealer), player("right", 5, target_cell, 2, balls=holder)]
    )
    share, ps = measure(state, orders(fly("left", 1, A, 1, Steal(5))), Kind.STEAL_ROLL)
    assert ps == {p} and within(share, p), share


def test_s4_collision_statistics() -> None:
    state = position([player("left", 1, A, 2), player("right", 1, B, 2)])
    given = orders(fly("left", 1, A, 2), fly("right", 1, A, 2))
    share, ps = measure(state, given, Kind.COLLISION_SECOND)
    assert ps == {STILL.collision_second_falls} and within(share, STILL.collision_second_falls)
    picks = Counter(
        e.data["side"]
        for i in range(N)
        for e in resolve_tick(state, given, STILL, f"pick/{i}").events
        if e.kind == Kind.COLLISION_PICK
    )
    assert within(picks["left"] / N, 0.5)


def test_s4_several_claimants_are_picked_fairly() -> None:
    state = position(
        [player("left", 1, A, 2), player("right", 1, A, 3)], [free_ball("green", A, 2)]
    )
    given = orders(fly("left", 1, A, 2, Catch()), fly("right", 1, A, 3, Catch()))
    winners = Counter(
        e.data["side"]
        for i in range(N)
        for e in resolve_tick(state, given, STILL, f"claim/{i}").events
        if e.kind == Kind.CATCH_PICK
    )
    total = sum(winners.values())
    assert total > N / 2 and within(winners["left"] / total, 0.5, total)


HEAD = 102  # left dragon's head; it stays with its mouth open unless ordered


@pytest.mark.parametrize(("cell", "height", "p"), [(HEAD, 2, 1.0), (HEAD, 1, 0.75), (85, 3, 0.5)])
def test_s6_swallow_table_statistics(cell: int, height: int, p: float) -> None:
    state = position([player("right", 1, cell, height)])
    share, ps = measure(state, RoundOrders(), Kind.SWALLOW_ROLL)
    assert ps == {p} and within(share, p)


@pytest.mark.parametrize(("cell", "closed"), [(100, False), (HEAD, True)])
def test_s6_knock_statistics(cell: int, closed: bool) -> None:
    state = position([player("right", 1, cell, 3)], dragons=[dragon("left", height=1)])
    given = orders(drg("left", "stay", 1)) if closed else RoundOrders()
    share, ps = measure(state, given, Kind.DRAGON_KNOCK_ROLL)
    p = (
        STILL.dragon.head_closed_knock_probability
        if closed
        else STILL.dragon.body_knock_probability
    )
    assert ps == {p} and within(share, p)


def test_s6_random_fire_statistics() -> None:
    state = position(dragons=[dragon("left", effect="daze")])
    share, ps = measure(state, RoundOrders(), Kind.RANDOM_FIRE_ROLL)
    p = STILL.fire.random_fire_probability
    assert ps == {p} and within(share, p)


@pytest.mark.parametrize(("cell", "height", "p"), [(HEAD, 2, 1.0), (HEAD, 3, 0.75), (119, 1, 0.5)])
def test_s7_ball_swallow_statistics(cell: int, height: int, p: float) -> None:
    state = position([player("right", 1, 70, 2)], [in_air("red", 70, cell, height)])
    share, ps = measure(state, RoundOrders(), Kind.BALL_SWALLOW_ROLL, keep=lambda e: e.step == 2)
    assert ps == {p} and within(share, p)


@pytest.mark.parametrize(
    ("status", "kind"), [("free", Kind.YELLOW_VANISH), ("vanished", Kind.YELLOW_APPEAR)]
)
def test_s3_yellow_vanish_statistics(status: str, kind: Kind) -> None:
    rules = moving("yellow", vanish=True)
    state = position([], [free_ball("yellow", A, 2, status=status)])
    share, ps = measure(state, RoundOrders(), kind, rules)
    p = rules.balls["yellow"].vanish_probability
    assert ps == {p} and within(share, p)


def test_s3_random_courses_are_fair() -> None:
    rules = moving("red")
    state = position([], [free_ball("red", 106, 2, None)])
    counts: Counter[str] = Counter()
    for i in range(6 * N):
        for e in resolve_tick(state, RoundOrders(), rules, f"dir/{i}").events:
            if e.kind == Kind.BALL_DIRECTION and e.data["cell"] == 106:
                assert e.p == 1 / 6
                counts[e.data["direction"]] += 1
    assert len(counts) == 6
    for n in counts.values():
        assert within(n / (6 * N), 1 / 6, 6 * N)
