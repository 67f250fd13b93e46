"""§5: passes, catching them, uncaught passes, enchanted passes and
counter-spells, the bludger, the quota."""

from __future__ import annotations

from enginekit import STILL, fly, free_ball, of, one, orders, player, position, resolve

from engine.events import Kind
from engine.geometry import Direction
from engine.orders import Catch, Pass
from engine.state import PlayerRef

SPELL, COUNTER = STILL.spells[0].spell, STILL.spells[0].counter
WRONG = STILL.spells[1].counter


def _throw(target_cell=40, spell=None, catchers=(), enchanted_left=(5, 5)):
    """Tick 1: left 1 at 36 passes the red ball to ``target_cell`` at height 2."""
    players = [player("left", 1, 36, 2, balls=("red",))]
    players += [player(side, number, cell, height) for side, number, cell, height, _ in catchers]
    state = position(players, enchanted_left=enchanted_left)
    return resolve(state, orders(fly("left", 1, 36, 2, Pass("red", target_cell, 2, spell))))


def _pass(target_cell=40, spell=None, catchers=(), enchanted_left=(5, 5), rolls=(), then=None):
    """The pass of :func:`_throw` lands at step 1 of tick 2, where the
    ``catchers`` try for it (§9: thrown at step 4, lands a tick later)."""
    thrown = _throw(target_cell, spell, catchers, enchanted_left)
    given = [
        fly(side, number, cell, height, Catch(None, counter), tick=2)
        for side, number, cell, height, counter in catchers
    ]
    return resolve(thrown.state, orders(*given), rolls, then=then)


def test_s5_pass_is_thrown_at_step_4_and_lands_a_tick_later() -> None:
    thrown = _throw()
    p = one(thrown.events, Kind.PASS)
    assert (p.step, p.data["from_cell"], p.data["cell"], p.data["spell"]) == (4, 36, 40, None)
    red = thrown.state.ball("red")
    assert (red.status, red.cell, red.pass_to, red.passer) == (
        "free",
        36,
        (40, 2),
        PlayerRef("left", 1),
    )
    landed = resolve(thrown.state)
    lands = one(landed.events, Kind.PASS_LANDS)
    assert (lands.step, lands.data["from_cell"], lands.data["cell"]) == (1, 36, 40)
    assert landed.state.ball("red").pass_to is None


def test_s5_pass_is_caught_by_a_team_mate() -> None:
    result = _pass(catchers=[("left", 2, 40, 2, None)], rolls=[0.999])
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
    spent = _throw(spell=SPELL, enchanted_left=(0, 5))
    lost = one(spent.events, Kind.ACTION_LOST)
    assert lost.data["reason"] == "enchant_quota"
    assert spent.state.player("left", 1).balls == ("red",)
    one_left = _throw(spell=SPELL, enchanted_left=(1, 5))
    assert one_left.state.team("left").enchanted_left == 0
    assert one(one_left.events, Kind.PASS).data["spell"] == SPELL


def test_s5_a_passer_who_holds_on_in_a_collision_loses_his_pass() -> None:
    # §4 "он потеряет все выбранные на такт действия с мячами (но сами мячи не
    # потеряет)": the pass (step 4) comes after the collision (step 3).
    state = position([player("left", 1, 36, 2, balls=("red",)), player("right", 1, 37, 2)])
    given = orders(fly("left", 1, 37, 2, Pass("red", 39, 2)), fly("right", 1, 37, 2))
    # pick index 1 (right 1) falls; left 1 holds on (0.9 ≥ 50%).
    result = resolve(state, given, [0.9, 0.9])
    assert one(result.events, Kind.HELD_ON).data["side"] == "left"
    lost = one(result.events, Kind.ACTION_LOST)
    assert (lost.step, lost.data["action"], lost.data["reason"]) == (3, "pass", "held_on")
    assert not of(result.events, Kind.PASS)
    assert result.state.player("left", 1).balls == ("red",)


def test_s5_a_passer_who_falls_in_a_collision_drops_the_ball_he_was_to_pass() -> None:
    # §4 "все имеющиеся у него на момент столкновения мячи отправляются в
    # свободный полет": he still holds it at step 3.
    state = position([player("left", 1, 36, 2, balls=("red",)), player("right", 1, 37, 2)])
    given = orders(fly("left", 1, 37, 2, Pass("red", 39, 2)), fly("right", 1, 37, 2))
    result = resolve(state, given, [0.0, 0.0], then=0.5)  # pick left 1; right 1 falls too
    drop = one(result.events, Kind.BALL_DROPPED)
    assert (drop.step, drop.data["reason"], drop.data["cell"]) == (3, "fall", 37)
    lost = one(result.events, Kind.ACTION_LOST)
    assert (lost.step, lost.data["action"], lost.data["reason"]) == (4, "pass", "fell")
    assert not of(result.events, Kind.PASS)
    assert result.state.ball("red").status == "free"
