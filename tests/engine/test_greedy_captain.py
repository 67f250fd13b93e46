"""The greedy captain plays with purpose: its dragon keeps its mouth shut
only when a shot could come, rests otherwise, never turns back and forth,
never burns a team-mate; its players rob carriers and shoot only into a
mouth that will be open (docs/engine.md, *The built-in captains*)."""

from __future__ import annotations

import itertools

import pytest
from enginekit import CLASSIC, dragon, player, position

from engine.bots.common import dragon_body
from engine.bots.foresight import foresee
from engine.events import Kind
from engine.geometry import Direction
from engine.orders import DragonOrder, Pass, RoundOrders, Steal
from engine.policies import greedy_policy
from engine.resolution.geo import DIST, danger_cells, dragon_after, fire_cells
from engine.resolve import resolve_round
from engine.simulate import simulate_match
from engine.state import MatchState


def _positions(seeds: range) -> list[MatchState]:
    states: list[MatchState] = []
    for seed in seeds:
        result = simulate_match(
            seed,
            CLASSIC,
            policies=("greedy", "greedy"),
            max_rounds=12,
            on_round=lambda r: states.append(r.state),
        )
        states.append(result.initial)
    return [s for s in states if not s.ended]


def _rests(orders: RoundOrders) -> list[DragonOrder]:
    return [d for d in orders.dragons if d.move == "stay" and d.height_step == 0]


def test_a_dragon_keeps_its_mouth_shut_while_a_carrier_could_shoot() -> None:
    # A Wyvern with the red ball three cells from the Salamanders' dragon (head 102).
    state = position([player("right", 1, 104, 2, balls=("red",)), player("left", 1, 36)])
    assert DIST[104][102] <= CLASSIC.pass_range("red")
    orders = greedy_policy(state, CLASSIC, "left", "threat")
    assert len(orders.dragons) == 3 and _rests(orders) == []
    # Far away, it may rest with its mouth open.
    calm = position([player("right", 1, 13, 2, balls=("red",)), player("left", 1, 36)])
    assert _rests(greedy_policy(calm, CLASSIC, "left", "calm"))


def test_with_nobody_in_its_half_a_dragon_rests() -> None:
    state = position([player("right", 1, 110 + 15, 2), player("left", 1, 36)])
    orders = greedy_policy(state, CLASSIC, "left", "rest")
    assert [(d.move, d.height_step) for d in orders.dragons] == [("stay", 0)] * 3


@pytest.mark.parametrize("side", ["left", "right"])
def test_a_dragon_never_turns_back_and_forth_nor_burns_or_knocks_down_its_own(side: str) -> None:
    checked = fires = hovers = bobs = 0
    for state in _positions(range(6)):
        orders = greedy_policy(state, CLASSIC, side, f"{state.round}")  # type: ignore[arg-type]
        d = state.dragon(side)  # type: ignore[arg-type]
        head, facing, height = d.head, d.facing, d.height
        moves = [o.move for o in orders.dragons]
        for a, b in itertools.pairwise(moves):
            assert {a, b} != {"left", "right"}, moves
        # Up and down again only keeps the mouth shut: done only to spare a
        # team-mate or keep a shot out, so seldom.
        for a, b in itertools.pairwise(orders.dragons):
            if a.move == b.move == "stay" and a.height_step:
                hovers += 1
                bobs += b.height_step == -a.height_step
        for o in orders.dragons:
            if o.move != "stay":
                after = dragon_after(head, facing, o.move)
                assert after is not None
                head, facing = after[0], after[1]
            height += o.height_step
            # Its cells at its height knock a team-mate down for sure (§6): it
            # keeps off where they fly, and they off it.  (Dazed, it knocks them
            # at other heights too, with 50%: a risk it may run.)
            cells = dragon_body(head, facing)
            hit = [
                p
                for p in orders.players
                if p.tick == o.tick and p.cell in cells and p.height == height
            ]
            assert not hit, (state.round, o, hit)
            if o.fire is None:
                continue
            fires += 1
            depth = (
                CLASSIC.fire.short_cells_depth
                if o.fire == "short"
                else CLASSIC.fire.volley_cells_depth
            )
            flame = set(fire_cells(head, facing, depth))
            mates = [
                p
                for p in orders.players
                if p.tick == o.tick and abs(p.height - height) <= CLASSIC.fire.height_reach
            ]
            assert not [p for p in mates if p.cell in flame], (state.round, o)
        checked += 1
    assert checked > 20 and fires > 0 and hovers > 0
    assert bobs * 20 <= checked * 3, (bobs, checked)  # at most 1 in 20 of its moves


def test_behind_a_dragon_risks_no_goal_level_or_ahead_a_small_one() -> None:
    # A Wyvern beside the Salamanders' dragon's head (102, facing E) to burn or
    # swallow, another with the black ball three cells away: a shot can come in
    # from the second tick on.
    def orders_at(score: tuple[int, int]) -> list[DragonOrder]:
        state = position(
            [
                player("right", 1, 103, 2),
                player("right", 2, 99, 2, balls=("black",)),
                player("left", 1, 36),
            ],
            score=score,
        )
        assert DIST[99][102] == 3
        return list(greedy_policy(state, CLASSIC, "left", "risk").dragons)

    def opens_after_first_tick(orders: list[DragonOrder]) -> bool:
        # A flame opens the mouth for the next tick too (§6); a rest for its own.
        return any(o.fire is not None for o in orders) or any(
            o.tick > 1 for o in _rests(RoundOrders(dragons=tuple(orders)))
        )

    for score in ((0, 0), (5, 0)):
        assert opens_after_first_tick(orders_at(score)), score
    behind = orders_at((0, 5))
    assert not opens_after_first_tick(behind), behind


def test_two_players_go_for_a_carrier_in_their_half_and_steal() -> None:
    # A Wyvern carries the green ball through the Salamanders' half.
    state = position(
        [
            player("right", 2, 70, 2, balls=("green",)),
            player("left", 1, 72, 2),
            player("left", 2, 37, 1),
            player("right", 1, 13, 2),
        ]
    )
    orders = greedy_policy(state, CLASSIC, "left", "guard")
    steals = [o for o in orders.players if isinstance(o.action, Steal)]
    assert steals and {o.action.target for o in steals if isinstance(o.action, Steal)} == {2}
    # Never onto his cell at his height (a collision), however near.
    assert all((o.cell, o.height) != (70, 2) for o in steals)
    assert all(DIST[o.cell][70] <= 1 + o.tick for o in steals)


def _shots(orders: RoundOrders, state: MatchState) -> list[tuple[int, Pass]]:
    enemy = state.dragon("right")
    near = danger_cells(enemy.head, enemy.facing) | {
        c for c in range(1, 212) if DIST[c][enemy.head] <= 2
    }
    return [
        (o.tick, o.action)
        for o in orders.players
        if isinstance(o.action, Pass) and o.action.cell in near
    ]


def test_a_shot_goes_only_into_a_mouth_that_will_be_open() -> None:
    carrier = player("left", 1, 93, 2, balls=("red",))
    assert DIST[93][110] <= CLASSIC.pass_range("red")
    # The Wyverns' dragon, its fire put out, sees the carrier: it will keep its
    # mouth shut whenever his shot could land (from the second tick: a pass
    # lands the tick after it is thrown, §9), so he never shoots.
    shut = position(
        [carrier, player("right", 1, 13, 2)],
        dragons=[dragon("right", extinguished=True)],
    )
    forecast = foresee(shut, CLASSIC, "right")
    assert not any(f.mouth_open for tick, f in forecast.items() if tick > 1)
    assert _shots(greedy_policy(shut, CLASSIC, "left", "shot"), shut) == []
    # Sneezing, its mouth stays open (§1): the carrier shoots into it.
    sneezing = position(
        [carrier, player("right", 1, 13, 2)],
        dragons=[dragon("right", 110, Direction.W, effect="sneeze")],
    )
    forecast = foresee(sneezing, CLASSIC, "right")
    shots = _shots(greedy_policy(sneezing, CLASSIC, "left", "shot"), sneezing)
    assert shots
    tick, shot = shots[0]
    landing = forecast.get(tick + 1) or forecast[tick]
    assert shot.cell in danger_cells(landing.head, landing.facing)


def test_a_carrier_behind_dives_into_an_open_mouth() -> None:
    # A Salamander with the red ball beside the Wyverns' dragon's head (110,
    # facing W, no fire left): it rests on the first tick (no pass can land then), so a shot
    # would land in a shut mouth — but flown into the head, he is swallowed
    # with the ball and it scores (§6, §7).
    def at(score: tuple[int, int]) -> MatchState:
        return position(
            [player("left", 1, 93, 2, balls=("red",)), player("right", 1, 13, 2)],
            dragons=[dragon("right", 110, Direction.W, extinguished=True)],
            score=score,
        )

    behind = at((0, 5))
    assert foresee(behind, CLASSIC, "right")[1].mouth_open
    orders = greedy_policy(behind, CLASSIC, "left", "dive")
    first = next(o for o in orders.players if o.number == 1 and o.tick == 1)
    assert (first.cell, first.height, first.action) == (110, 2, None)
    both = RoundOrders(
        players=orders.players + greedy_policy(behind, CLASSIC, "right", "dive").players,
        dragons=orders.dragons + greedy_policy(behind, CLASSIC, "right", "dive").dragons,
    )
    events = resolve_round(behind, both, CLASSIC, "dive").events
    goals = [e.data for e in events if e.kind is Kind.GOAL]
    assert [(g["ball"], g["scorer_side"]) for g in goals] == [("red", "left")]
    # Level or ahead, a player is not thrown away for it: never where the
    # open mouth would swallow him (the head may leave 110 later on).
    for score in ((0, 0), (5, 0)):
        state = at(score)
        forecast = foresee(state, CLASSIC, "right")
        calm = greedy_policy(state, CLASSIC, "left", "dive")
        mine = [o for o in calm.players if o.number == 1]
        assert len(mine) == 3
        for o in mine:
            f = forecast[o.tick]
            assert not (f.mouth_open and o.cell in danger_cells(f.head, f.facing)), o
