"""§5: passes, catching them, uncaught passes, enchanted passes and
counter-spells, the bludger, the quota."""

from __future__ import annotations

from enginekit import STILL, fly, free_ball, of, one, orders, player, position, resolve

from engine.events import Kind
from engine.geometry import Direction
from engine.orders import Catch, Pass

SPELL, COUNTER = STILL.spells[0].spell, STILL.spells[0].counter
WRONG = STILL.spells[1].counter


def _pass(target_cell=40, spell=None, catchers=(), enchanted_left=(5, 5), rolls=(), then=None):
    """Left 1 at 36 holds the red ball and passes it to ``target_cell`` at height 2."""
    players = [player("left", 1, 36, 2, balls=("red",))]
    given = [fly("left", 1, 36, 2, Pass("red", target_cell, 2, spell))]
    for side, number, cell, height, counter in catchers:
        players.append(player(side, number, cell, height))
        given.append(fly(side, number, cell, height, Catch(None, counter)))
    state = position(players, enchanted_left=enchanted_left)
    return resolve(state, orders(*given), rolls, then=then)


def test_s5_pass_is_caught_by_a_team_mate() -> None:
    result = _pass(catchers=[("left", 2, 40, 2, None)], rolls=[0.999])
    p = one(result.events, Kind.PASS)
    assert (p.step, p.data["from_cell"], p.data["cell"], p.data["spell"]) == (1, 36, 40, None)
    roll = one(result.events, Kind.CATCH_ROLL)
    assert (roll.step, roll.p, roll.data["where"]) == (4, 1.0, "same_cell_same_height")
    catch = one(result.events, Kind.CATCH)
    assert catch.data == {"side": "left", "number": 2, "ball": "red", "from_pass": True}
    assert result.state.player("left", 2).balls == ("red",)


def test_s5_pass_can_be_intercepted_by_an_opponent() -> None:
    result = _pass(catchers=[("right", 1, 39, 2, None)], rolls=[0.0])
    assert one(result.events, Kind.CATCH).data["side"] == "right"


def test_s5_uncaught_pass_flies_on_keeping_its_direction() -> None:
    result = _pass()
    missed = one(result.events, Kind.PASS_MISSED)
    assert missed.step == 4 and missed.data == {
        "ball": "red",
        "cell": 40,
        "height": 2,
        "direction": "E",
    }
    red = result.state.ball("red")
    assert (red.status, red.direction, red.pass_ticks_left) == ("free", Direction.E, 2)


def test_s5_pass_is_thrown_from_where_the_passer_flew() -> None:
    # 36 → 37 first; from 37 the target 41 is four cells away (from 36, five).
    state = position([player("left", 1, 36, 2, balls=("red",))])
    result = resolve(state, orders(fly("left", 1, 37, 2, Pass("red", 41, 2))))
    assert one(result.events, Kind.PASS).data["from_cell"] == 37


def test_s5_pass_of_a_ball_he_does_not_hold_is_lost() -> None:
    state = position([player("left", 1, 36, 2)])
    result = resolve(state, orders(fly("left", 1, 36, 2, Pass("red", 38, 2))))
    lost = one(result.events, Kind.ACTION_LOST)
    assert (lost.data["action"], lost.data["reason"]) == ("pass", "no_ball")
    assert not of(result.events, Kind.PASS)


def test_s5_pass_out_of_range_is_lost_when_resolved() -> None:
    state = position([player("left", 1, 36, 2, balls=("yellow",))])
    result = resolve(state, orders(fly("left", 1, 36, 2, Pass("yellow", 40, 2))))
    assert one(result.events, Kind.ACTION_LOST).data["reason"] == "range"


def test_s5_enchanted_pass_with_the_right_counter_is_disenchanted_and_caught() -> None:
    result = _pass(spell=SPELL, catchers=[("left", 2, 40, 2, COUNTER)], rolls=[0.0])
    assert one(result.events, Kind.PASS).data["spell"] == SPELL
    d = one(result.events, Kind.DISENCHANT)
    assert d.data == {
        "side": "left",
        "number": 2,
        "ball": "red",
        "spell": SPELL,
        "counter": COUNTER,
    }
    red = result.state.ball("red")
    assert (red.status, red.spell, red.enchanted_by) == ("held", None, None)
    assert result.state.team("left").enchanted_left == 4


def test_s5_enchanted_pass_knocks_down_a_catcher_without_the_counter() -> None:
    # Both catch by their chances; the fair pick (0.99) falls on right 1, who
    # said the wrong counter-spell: the ball knocks him down and flies on.
    result = _pass(
        spell=SPELL,
        catchers=[("left", 2, 40, 2, COUNTER), ("right", 1, 40, 3, WRONG)],
        rolls=[0.0, 0.0, 0.99, 0.0],
    )
    bludger = one(result.events, Kind.BLUDGER)
    assert bludger.data == {"side": "right", "number": 1, "ball": "red", "spell": SPELL}
    assert one(result.events, Kind.FALL).data["cause"] == "bludger"
    assert one(result.events, Kind.PASS_MISSED).data["ball"] == "red"
    red = result.state.ball("red")
    assert (red.status, red.spell, red.enchanted_by, red.pass_ticks_left) == (
        "free",
        SPELL,
        "left",
        2,
    )
    assert result.state.player("right", 1).status == "hospital"


def test_s5_free_enchanted_ball_knocks_down_who_catches_it_wrongly() -> None:
    state = position(
        [player("right", 1, 36, 2)],
        [free_ball("green", 36, 2, spell=SPELL, enchanted_by="left")],
    )
    result = resolve(state, orders(fly("right", 1, 36, 2, Catch())), [0.0, 0.0])
    assert one(result.events, Kind.BLUDGER).step == 6
    assert result.state.ball("green").spell == SPELL


def test_s5_counter_spell_on_an_ordinary_ball_does_nothing() -> None:
    result = _pass(catchers=[("left", 2, 40, 2, COUNTER)], rolls=[0.0])
    assert one(result.events, Kind.CATCH).data["number"] == 2
    assert not of(result.events, Kind.DISENCHANT)


def test_s5_enchanted_passes_are_counted_when_thrown() -> None:
    spent = _pass(spell=SPELL, enchanted_left=(0, 5))
    lost = one(spent.events, Kind.ACTION_LOST)
    assert lost.data["reason"] == "enchant_quota"
    assert spent.state.player("left", 1).balls == ("red",)
    one_left = _pass(spell=SPELL, enchanted_left=(1, 5))
    assert one_left.state.team("left").enchanted_left == 0


def test_s5_pass_stays_thrown_when_the_passer_holds_on_in_a_collision() -> None:
    state = position([player("left", 1, 36, 2, balls=("red",)), player("right", 1, 37, 2)])
    given = orders(fly("left", 1, 37, 2, Pass("red", 39, 2)), fly("right", 1, 37, 2))
    # pick index 1 (right 1) falls; left 1 holds on (0.9 ≥ 50%).
    result = resolve(state, given, [0.9, 0.9])
    assert one(result.events, Kind.HELD_ON).data["side"] == "left"
    assert one(result.events, Kind.PASS_MISSED).data["ball"] == "red"
    assert result.state.ball("red").status == "free"
