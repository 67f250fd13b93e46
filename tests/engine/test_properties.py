"""Properties over random legal orders (hypothesis): no ball is created or
lost, the score is the value of the balls the other dragon swallowed,
dragons keep to their half, nobody flies more than a cell or a height a
tick, and the same inputs give the same result."""

from __future__ import annotations

import itertools
from dataclasses import replace

from enginekit import CLASSIC
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.bots.common import cells_within, dragon_moves, flight_cells
from engine.events import Kind
from engine.geometry import step
from engine.legality import check_orders
from engine.orders import Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from engine.resolution.geo import DIST, dragon_cells_problem
from engine.resolve import RoundResult, resolve_round
from engine.ruleset import Ruleset
from engine.simulate import simulate_match
from engine.state import MatchState, other_side

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def invariants(state: MatchState, rules: Ruleset = CLASSIC) -> None:
    names = [b.name for b in state.balls]
    assert sorted(names) == sorted(rules.ball_order), "a ball was created or lost"
    for b in state.balls:
        if b.status == "held":
            assert b.holder is not None
            holder = state.player(b.holder.side, b.holder.number)
            assert holder.status == "active" and b.name in holder.balls
            assert (b.cell, b.height) == (holder.cell, holder.height)
        elif b.status in ("free", "vanished"):
            assert b.holder is None and b.cell is not None and 1 <= b.cell <= 211
            assert b.height in rules.heights and b.direction is not None
        elif b.status == "swallowed":
            assert b.swallowed_by is not None
            assert b.name in state.dragon(b.swallowed_by).swallowed_balls
        else:
            assert b.status == "burnt"
    for p in state.players:
        assert len(p.balls) <= rules.catch.max_balls_held
        for name in p.balls:
            ball = state.ball(name)
            assert ball.status == "held" and ball.holder == p.ref
        if p.status == "active":
            assert p.cell is not None and p.height in rules.heights
        else:
            assert p.cell is None and not p.balls
        if p.status == "swallowed":
            assert p.swallowed_by is not None
            assert p.ref in state.dragon(p.swallowed_by).swallowed_players
        if p.status == "hospital":
            assert p.return_round is not None
    for d in state.dragons:
        back = d.facing.opposite
        body = step(d.head, back)
        tail = step(d.head, back, 2)
        assert body is not None and tail is not None
        assert dragon_cells_problem(d.side, (d.head, body, tail)) is None, d
        assert d.height in rules.heights
        assert 0 <= d.short_left <= rules.fire.short_budget
        assert 0 <= d.volleys_left <= rules.fire.volley_budget
    for team in state.teams:
        conceded = sum(
            rules.balls[b.name].value
            for b in state.balls
            if b.status == "swallowed" and b.swallowed_by == other_side(team.side)
        )
        assert team.score == conceded, "score is not the value of the balls swallowed"
        assert 0 <= team.enchanted_left <= rules.enchanted_per_team


def flights_are_one_step(before: MatchState, result: RoundResult) -> None:
    for e in result.events:
        if e.kind == Kind.PLAYER_MOVE:
            d = e.data
            assert DIST[d["from_cell"]][d["cell"]] <= 1
            assert abs(d["height"] - d["from_height"]) <= 1
    states = (before, *result.tick_states)
    for a, b in itertools.pairwise(states):
        launched = {
            (e.data["side"], e.data["number"])
            for e in result.events
            if e.kind == Kind.PLAYER_LAUNCH and e.tick == (a.tick + 1)
        }
        for p in b.players:
            q = a.find_player(p.side, p.number)
            if p.status == q.status == "active" and (p.side, p.number) not in launched:
                assert DIST[q.cell][p.cell] <= 1 and abs(q.height - p.height) <= 1


@st.composite
def random_orders(draw: st.DrawFn, state: MatchState, rules: Ruleset = CLASSIC) -> RoundOrders:
    """Random orders for both teams, then everything check_orders refuses dropped."""
    players: list[PlayerOrder] = []
    ticks = range(state.tick + 1, rules.ticks_per_round + 1)
    balls = list(rules.ball_order)
    for p in state.players:
        if p.status == "hospital":
            if draw(st.booleans()):
                cell = draw(st.sampled_from(rules.reentry(p.side)))
                players.append(
                    PlayerOrder(p.side, p.number, 3, cell, draw(st.sampled_from(rules.heights)))
                )
            continue
        if p.status != "active" or p.cell is None or p.height is None:
            continue
        cell, height = p.cell, p.height
        foes = [q.number for q in state.team_players(other_side(p.side))]
        for tick in ticks:
            if draw(st.integers(0, 9)) == 0:
                continue  # no order: he drops his balls
            cell = draw(st.sampled_from(flight_cells(cell)))
            height = draw(st.sampled_from([h for h in rules.heights if abs(h - height) <= 1]))
            kind = draw(st.sampled_from(["none", "pass", "catch", "steal"]))
            action = None
            if kind == "pass":
                spell = draw(st.sampled_from([None, None, None, *rules.spell_names]))
                action = Pass(
                    draw(st.sampled_from(list(p.balls) * 3 + balls)),
                    draw(st.sampled_from(cells_within(cell, 1, 4))),
                    draw(st.sampled_from(rules.heights)),
                    spell,
                )
            elif kind == "catch":
                action = Catch(
                    draw(st.sampled_from([None, *balls])),
                    draw(st.sampled_from([None, *rules.counter_names])),
                )
            elif kind == "steal" and foes:
                action = Steal(draw(st.sampled_from(foes)))
            players.append(PlayerOrder(p.side, p.number, tick, cell, height, action))
    dragons: list[DragonOrder] = []
    for d in state.dragons:
        head, facing = d.head, d.facing
        for tick in ticks:
            move, head, facing = draw(st.sampled_from(dragon_moves(d.side, head, facing)))
            fire = draw(st.sampled_from([None, None, None, "short", "volley"]))
            dragons.append(DragonOrder(d.side, tick, move, draw(st.sampled_from([-1, 0, 1])), fire))
    orders = RoundOrders(players=tuple(players), dragons=tuple(dragons))
    for _ in range(12):
        problems = check_orders(state, orders, rules)
        if not problems:
            return orders
        # A refused action is taken out of its order; an order refused
        # without an action (or a dragon's) is dropped.
        bad = {id(p.order) for p in problems}
        orders = RoundOrders(
            players=tuple(
                (replace(o, action=None) if o.action is not None else None) if id(o) in bad else o
                for o in orders.players
            ),
            dragons=tuple(o for o in orders.dragons if id(o) not in bad),
        )
        orders = replace(orders, players=tuple(o for o in orders.players if o is not None))
    assume(False)
    return orders


@st.composite
def positions(draw: st.DrawFn) -> MatchState:
    seed = draw(st.integers(0, 10_000))
    rounds = draw(st.integers(1, 8))
    per_team = draw(st.sampled_from([2, 4, 7]))
    policies = draw(
        st.sampled_from([("random", "greedy"), ("greedy", "random"), ("random", "random")])
    )
    state = simulate_match(
        seed, CLASSIC, max_rounds=rounds, players_per_team=per_team, policies=policies
    ).state
    assume(state.end_reason == "max_rounds")
    # Play on into the next round as if the limit had not been reached.
    doc = state.to_json()
    doc.update(status="playing", end_reason=None, round=state.round + 1, tick=0)
    return MatchState.from_json(doc)


@SETTINGS
@given(data=st.data())
def test_properties_of_a_round_of_random_legal_orders(data: st.DataObject) -> None:
    state = data.draw(positions())
    orders = data.draw(random_orders(state))
    result = resolve_round(state, orders, CLASSIC, "prop")
    invariants(state)
    for s in result.tick_states:
        invariants(s)
    flights_are_one_step(state, result)
    again = resolve_round(state, orders, CLASSIC, "prop")
    assert again.state == result.state and again.events == result.events
    assert [e.to_json() for e in again.events] == [e.to_json() for e in result.events]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), left=st.sampled_from(["random", "greedy"]))
def test_properties_hold_through_whole_matches(seed: int, left: str) -> None:
    seen: list[RoundResult] = []
    result = simulate_match(seed, CLASSIC, policies=(left, "greedy"), on_round=seen.append)
    state = result.initial
    for r in seen:
        for s in r.tick_states:
            invariants(s)
        flights_are_one_step(state, r)
        state = r.state
    assert result.state.ended
