"""engine.odds: every figure is the rule book's table value in a position
built for it (§4 catch and steal tables, §6 dragons and fire, §7 shots)."""

from __future__ import annotations

import pytest
from enginekit import CLASSIC, STILL, dragon, free_ball, player, position, still_rules, with_stays

from engine.dice import Dice
from engine.geometry import Direction
from engine.odds import Chance, ball_places, catch_share, order_odds, steal_share
from engine.orders import Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from engine.resolve import resolve_tick
from engine.ruleset import load_ruleset


def _odds(state, orders, rules=STILL, side="left"):  # type: ignore[no-untyped-def]
    return order_odds(state, rules, RoundOrders(players=tuple(orders)), side)


def _only(chances: tuple[Chance, ...], what: str) -> Chance:
    found = [c for c in chances if c.what == what]
    assert len(found) == 1, chances
    return found[0]


@pytest.mark.parametrize(
    ("cell", "height", "held", "expected"),
    [
        (106, 2, (), 1.0),  # first ball, same cell and height
        (106, 1, (), 0.75),  # same cell, other height
        (107, 2, (), 0.5),  # adjacent
        (106, 2, ("green",), 0.9),  # second ball
        (106, 3, ("green",), 0.65),
        (107, 3, ("green",), 0.4),
    ],
)
def test_catch_table(cell: int, height: int, held: tuple[str, ...], expected: float) -> None:
    state = position(
        [player("left", 1, 106, height, held)], [free_ball("red", 106, 2, direction=None)]
    )
    [line] = _odds(state, [PlayerOrder("left", 1, 1, cell, height, Catch("red"))])
    chance = _only(line.chances, "catch")
    assert chance.probability == pytest.approx(expected)
    assert chance.params["second"] == int(bool(held))


def test_a_ball_he_passes_earlier_in_the_round_no_longer_counts() -> None:
    """§4: after passing his only ball on tick 1, his catch on tick 2 is a
    first ball's (100%), not a second's (90%)."""
    state = position(
        [player("left", 1, 106, 2, ("green",)), player("left", 2, 109, 2)],
        [free_ball("red", 106, 2, direction=None)],
    )
    orders = [
        PlayerOrder("left", 1, 1, 106, 2, Pass("green", 109, 2)),
        PlayerOrder("left", 1, 2, 106, 2, Catch("red")),
    ]
    line = next(x for x in _odds(state, orders) if x.order.tick == 2)
    chance = _only(line.chances, "catch")
    assert chance.probability == pytest.approx(1.0)
    assert chance.params["second"] == 0


def test_two_claimants_share_the_ball() -> None:
    """§4: both make it (1.0 each), one of them is picked at random."""
    state = position(
        [player("left", 1, 106, 2), player("left", 2, 107, 2)],
        [free_ball("red", 106, 2, direction=None)],
    )
    lines = _odds(
        state,
        [
            PlayerOrder("left", 1, 1, 106, 2, Catch("red")),
            PlayerOrder("left", 2, 1, 106, 2, Catch("red")),
        ],
    )
    assert [_only(x.chances, "catch").probability for x in lines] == [0.5, 0.5]
    assert catch_share(0.5, [0.5]) == pytest.approx(0.5 * (0.5 + 0.5 / 2))


@pytest.mark.parametrize(
    ("cell", "held", "target_balls", "expected"),
    [
        (106, (), ("red",), 0.30),
        (106, ("green",), ("red",), 0.22),
        (107, (), ("red",), 0.15),
        (107, ("green",), ("red",), 0.10),
        (106, (), ("red", "blue"), 0.40),
        (106, ("green",), ("red", "blue"), 0.30),
        (107, (), ("red", "blue"), 0.25),
        (107, ("green",), ("red", "blue"), 0.15),
    ],
)
def test_steal_table(
    cell: int, held: tuple[str, ...], target_balls: tuple[str, ...], expected: float
) -> None:
    state = position([player("left", 1, cell, 2, held), player("right", 4, 106, 2, target_balls)])
    [line] = _odds(state, [PlayerOrder("left", 1, 1, cell, 2, Steal(4))])
    chance = _only(line.chances, "steal")
    assert chance.probability == pytest.approx(expected)
    assert not chance.known  # the target's own flight is secret


def test_a_catch_with_no_ball_in_reach_says_so() -> None:
    """No free ball comes near him: a 0% catch, not a line with no figure
    (which read as «nothing threatens» only)."""
    state = position([player("left", 1, 36, 2)], [free_ball("red", 106, 2, direction=None)])
    [line] = _odds(state, [PlayerOrder("left", 1, 1, 36, 2, Catch())])
    chance = _only(line.chances, "catch")
    assert chance.probability == 0.0 and chance.known and "ball" not in chance.params


def test_team_mates_robbing_one_holder_draw_for_his_ball() -> None:
    """§4 with ``steal.contested = "draw"``: each robs with his own table chance,
    those who made it draw for the one ball."""
    state = position(
        [player("left", 1, 106, 3), player("left", 2, 107, 2), player("right", 4, 106, 2, ("red",))]
    )
    steals = [
        PlayerOrder("left", 1, 1, 106, 3, Steal(4)),
        PlayerOrder("left", 2, 1, 107, 2, Steal(4)),
    ]
    first, second = (_only(x.chances, "steal").probability for x in _odds(state, steals))
    assert first == pytest.approx(0.30 * (0.85 + 0.15 / 2))
    assert second == pytest.approx(0.15 * (0.70 + 0.30 / 2))
    # Two balls: both may have one; under version 2 the first in shirt order comes first.
    assert steal_share(0.4, [0.25], 2) == pytest.approx(0.4)
    old = still_rules(load_ruleset("classic", 2))
    assert [_only(x.chances, "steal").probability for x in _odds(state, steals, old)] == [
        pytest.approx(0.30),
        pytest.approx(0.15 * 0.70),
    ]


@pytest.mark.parametrize("version", [2, 3])
def test_the_odds_of_a_contested_steal_are_the_engines(version: int) -> None:
    """The figures /odds gives three robbers of one holder against the engine
    itself, over 3,000 seeded ticks (4 standard errors apart at most); version 2
    gives the ball to the first in shirt order, version 3 draws."""
    rules = still_rules(load_ruleset("classic", version))
    state = position(
        [
            player("left", 1, 106, 3),
            player("left", 2, 107, 2),
            player("left", 3, 106, 1),
            player("right", 4, 106, 2, ("red",)),
        ]
    )
    steals = [
        PlayerOrder("left", 1, 1, 106, 3, Steal(4)),
        PlayerOrder("left", 2, 1, 107, 2, Steal(4)),
        PlayerOrder("left", 3, 1, 106, 1, Steal(4)),
    ]
    lines = _odds(state, steals, rules)
    odds = {x.order.number: _only(x.chances, "steal").probability for x in lines}
    runs = 3000
    won = dict.fromkeys(odds, 0)
    for seed in range(runs):
        after = resolve_tick(
            state, with_stays(state, RoundOrders(players=tuple(steals)), 1), rules, dice=Dice(seed)
        ).state
        for number in won:
            won[number] += "red" in after.find_player("left", number).balls  # type: ignore[union-attr]
    for number, p in odds.items():
        assert p is not None
        assert abs(won[number] / runs - p) <= 4 * (p * (1 - p) / runs) ** 0.5, (number, won, odds)


@pytest.mark.parametrize(
    ("cell", "height", "expected"),
    [(110, 2, 1.0), (110, 1, 0.75), (109, 3, 0.5)],
)
def test_shot_at_an_open_mouth(cell: int, height: int, expected: float) -> None:
    """§7: a pass landing on the head (same height 100 %, other 75 %) or next
    to it (50 %) of a dragon whose mouth is surely open (catching its breath)."""
    state = position(
        [player("left", 1, 106, 2, ("red",))],
        dragons=[dragon("left"), dragon("right", 110, Direction.W, 2, open_ticks=2)],
    )
    [line] = _odds(state, [PlayerOrder("left", 1, 1, 106, 2, Pass("red", cell, height))])
    chance = _only(line.chances, "shot")
    assert (chance.probability, chance.known) == (pytest.approx(expected), True)


def test_shot_when_the_mouth_is_secret() -> None:
    """The other dragon's move decides its mouth: the figure holds if it opens."""
    state = position([player("left", 1, 106, 2, ("red",))])
    [line] = _odds(state, [PlayerOrder("left", 1, 1, 106, 2, Pass("red", 109, 2))])
    chance = _only(line.chances, "shot")
    assert (chance.probability, chance.known) == (0.5, False)


def test_danger_of_a_dragons_body_and_mouth() -> None:
    """§6: an opponent's body at another height knocks with 50 %; its head at
    another height swallows with 75 % if open, knocks with 50 % if closed."""
    state = position(
        [player("left", 1, 112, 1), player("left", 2, 109, 3)],
        dragons=[dragon("left"), dragon("right", 110, Direction.W, 2)],
    )
    body, head = _odds(
        state,
        [PlayerOrder("left", 1, 1, 111, 1), PlayerOrder("left", 2, 1, 110, 3)],
    )
    assert _only(body.chances, "dragon_body").probability == 0.5
    assert _only(head.chances, "swallow").probability == 0.75
    assert _only(head.chances, "dragon_head").probability == 0.5


def test_own_dazed_dragon_is_a_danger() -> None:
    """§1 black ball: a dazed dragon swallows its own players (mouth cell: 50 %)
    and spits short flames at random (1 in 6)."""
    state = position(
        [player("left", 1, 86, 2)],
        dragons=[dragon("left", 102, Direction.E, 2, effect="daze"), dragon("right")],
    )
    orders = RoundOrders(
        players=(PlayerOrder("left", 1, 1, 86, 2),),
        dragons=(DragonOrder("left", 1, "stay"),),
    )
    [line] = order_odds(state, STILL, orders, "left")
    assert _only(line.chances, "swallow").probability == 0.5
    fire = _only(line.chances, "fire")
    assert fire.probability == CLASSIC.fire.random_fire_probability


def test_own_fire_is_certain() -> None:
    state = position(
        [player("left", 1, 103, 2)],
        dragons=[dragon("left", 102, Direction.E, 2), dragon("right")],
    )
    orders = RoundOrders(
        players=(PlayerOrder("left", 1, 1, 104, 2),),
        dragons=(DragonOrder("left", 1, "stay", fire="short"),),
    )
    [line] = order_odds(state, STILL, orders, "left")
    assert _only(line.chances, "fire").probability == 1.0


def test_a_free_ball_flies_on_its_public_course_then_at_random() -> None:
    ball = free_ball("red", 106, 2, Direction.E)
    assert ball_places(CLASSIC, ball, 1) == {(108, 2): 1.0}
    later = ball_places(CLASSIC, ball, 2)
    assert sum(later.values()) == pytest.approx(1.0)
    assert len(later) == 6


def test_the_vanished_yellow_ball_is_never_used() -> None:
    state = position(
        [player("left", 1, 106, 2)],
        [free_ball("yellow", 106, 2, direction=None, status="vanished")],
    )
    [line] = _odds(state, [PlayerOrder("left", 1, 1, 106, 2, Catch("yellow"))])
    assert [c for c in line.chances if c.what == "catch"] == []
