"""The event log: what happened in a tick, in the order of §9, with the dice.

Reports and diagrams are drawn from events and states only.  Each event has a
``kind`` (one of :class:`Kind`), the round/tick/step it belongs to, a ``data``
mapping of JSON values (documented per kind in docs/engine.md), and for a
random draw the probability ``p`` tested, the ``roll`` and whether it
succeeded (``ok``: roll < p).  For a fair pick among n choices ``p`` is 1/n
and ``ok`` is None.

Secret data: ``pass`` events carry ``spell`` (None for an ordinary pass).  It
is the passing team's secret until a ``disenchant`` or ``bludger`` event for
the same ball; public reports must not show it before then (§5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    ROUND_START = "round_start"  # {}
    SUBSTITUTION = "substitution"  # {side, out, in}
    SUBSTITUTION_REFUSED = "substitution_refused"  # {side, out, in, reason}
    PENALTY_THROW_IN = "penalty_throw_in"  # {side, number, ball, cell, height, direction}
    PENALTY_NOTHING = "penalty_nothing"  # {side}: the team held no ball
    PENALTY_REFUSED = "penalty_refused"  # {side, reason}: no warning in the round before (§10)
    WARNING = "warning"  # {side, count}: a game master's warning recorded (§10)
    PLAYER_MOVE = "player_move"  # {side, number, from_cell, from_height, cell, height}
    PLAYER_LAUNCH = "player_launch"  # {side, number, cell, height, ordered}: back from hospital
    NO_ORDER = "no_order"  # {side, number, reason}: stays, drops his balls (§4)
    BALL_DROPPED = "ball_dropped"  # {ball, side, number, cell, height, reason}
    # {side, move, height_step, head, facing, height, cells, ordered, refused}
    DRAGON_MOVE = "dragon_move"
    DRAGON_MOUTH = "dragon_mouth"  # {side, open, reason}
    FIRE = "fire"  # {side, fire, cells, random, short_left, volleys_left}
    FIRE_REFUSED = "fire_refused"  # {side, fire, reason}
    RANDOM_FIRE_ROLL = "random_fire_roll"  # {side} + p/roll/ok
    BALL_MOVE = "ball_move"  # {ball, from_cell, cell, height, direction, visible}
    BALL_BOUNCE = "ball_bounce"  # {ball, cell, direction, reason} + p=1/n
    BALL_DIRECTION = "ball_direction"  # {ball, cell, direction} + p=1/n: a new random course
    BALL_HEIGHT = "ball_height"  # {ball, cell, height} + p=1/n: a random height (throw-in)
    YELLOW_VANISH = "yellow_vanish"  # {ball, cell} + p/roll/ok
    YELLOW_APPEAR = "yellow_appear"  # {ball, cell} + p/roll/ok
    PASS = "pass"  # {ball, side, number, from_cell, cell, height, spell}
    PASS_LANDS = "pass_lands"  # {ball, side, number, from_cell, cell, height}: step 1, a tick later
    BALL_SWALLOW_ROLL = "ball_swallow_roll"  # {ball, dragon, cell, height, where} + p/roll/ok
    GOAL = "goal"  # {ball, dragon, scorer_side, points, score}
    EFFECT_PENDING = "effect_pending"  # {dragon, effect}
    EFFECT_START = "effect_start"  # {dragon, effect}
    PLAYERS_SPAT = "players_spat"  # {dragon, players: [{side, number}], return_round}
    COLLISION = "collision"  # {cell, height, players: [{side, number}]}
    COLLISION_PICK = "collision_pick"  # {cell, height, side, number} + p=1/n
    COLLISION_SECOND = "collision_second"  # {side, number} + p/roll/ok
    HELD_ON = "held_on"  # {side, number} (+ dragon, part after a dragon's knock): loses his actions
    DRAGON_KNOCK_ROLL = "dragon_knock_roll"  # {dragon, side, number, part} + p/roll/ok
    SWALLOW_ROLL = "swallow_roll"  # {dragon, side, number, where} + p/roll/ok
    PLAYER_SWALLOWED = "player_swallowed"  # {dragon, side, number, balls}
    FALL = "fall"  # {side, number, cell, height, cause, return_round}
    CATCH_ROLL = "catch_roll"  # {side, number, ball, where, second} + p/roll/ok
    CATCH_PICK = "catch_pick"  # {ball, side, number, candidates} + p=1/n
    CATCH = "catch"  # {side, number, ball, from_pass}
    CATCH_NOTHING = "catch_nothing"  # {side, number, ball, reason}: nothing to catch
    DISENCHANT = "disenchant"  # {side, number, ball, spell, counter}
    BLUDGER = "bludger"  # {side, number, ball, spell}: knocked down (§5)
    PASS_MISSED = "pass_missed"  # {ball, cell, height, direction}
    STEAL_ROLL = "steal_roll"  # {side, number, target, where} + p/roll/ok
    STEAL = "steal"  # {side, number, target, ball} (+ p=1/n when 2 balls)
    STEAL_NOTHING = "steal_nothing"  # {side, number, target, reason}
    # {side, number, target, rivals, ball?} + p/roll/ok: a team-mate robbed the same
    # holder first; the draw decides whether this one gets a ball (ruleset v3)
    STEAL_PICK = "steal_pick"
    ACTION_LOST = "action_lost"  # {side, number, action, reason}
    BALL_BURNT = "ball_burnt"  # {ball, dragon, cell}
    SCORE = "score"  # {left, right}
    MATCH_END = "match_end"  # {reason, score}
    ROUND_END = "round_end"  # {}
    # the second edition (seed 001)
    TURN_ZONE = "turn_zone"  # {side, cells}: the cells a turning dragon sweeps
    STRIKE = "strike"  # {side, strike, cells}: a tail or wing strike
    THROWN = "thrown"  # {side, number, from_cell, cell, direction, cause}: thrown aside
    DRAGON_FIGHT = "dragon_fight"  # {cells}: the dragons within one cell of each other
    DRAGONS_RESET = "dragons_reset"  # {}: put back where they started
    SHOT = "shot"  # {side, number, ball, dragon} + p/roll/ok: a throw at the head
    RACE = "race"  # {side, number, target, ball} + p/roll/ok: the steal came first
    PLAYER_OUT = "player_out"  # {side, number, reason}: out of the game for good
    SPIT_ROLL = "spit_roll"  # {dragon, side, number} + p/roll/ok: back in the game


@dataclass(frozen=True, slots=True)
class Event:
    round: int
    tick: int
    step: int
    kind: Kind
    data: dict[str, Any] = field(default_factory=dict)
    p: float | None = None
    roll: float | None = None
    ok: bool | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "tick": self.tick,
            "step": self.step,
            "kind": self.kind.value,
            "data": self.data,
        }
        if self.p is not None:
            out["p"] = self.p
            out["roll"] = self.roll
            out["ok"] = self.ok
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> Event:
        return Event(
            round=int(d["round"]),
            tick=int(d["tick"]),
            step=int(d["step"]),
            kind=Kind(d["kind"]),
            data=dict(d.get("data", {})),
            p=d.get("p"),
            roll=d.get("roll"),
            ok=d.get("ok"),
        )
