"""Legality problems: why an order cannot be saved (§7 "checked when saved").

A :class:`Problem` names the order it is about, a stable ``code`` and the
``params`` a message needs.  ``message`` is a plain English sentence for
tools and logs; the order language renders codes in Russian and English for
players (bot/orderlang).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .orders import DragonOrder, Penalty, PlayerOrder, Substitution

Order = PlayerOrder | DragonOrder | Substitution | Penalty


class Code(StrEnum):
    MATCH_ENDED = "match_ended"  # the match is over
    TICK_RANGE = "tick_range"  # {tick, ticks}: no such tick in a round
    TICK_PAST = "tick_past"  # {tick}: that tick is already resolved
    UNKNOWN_PLAYER = "unknown_player"  # {number}
    OTHER_TEAM = "other_team"  # {number}: orders for the other team's player
    NOT_ACTIVE = "not_active"  # {number, status}: hospital, swallowed, reserve
    LAUNCH_TICK = "launch_tick"  # {number, tick, return_round, return_tick}
    LAUNCH_CELL = "launch_cell"  # {number, cell}: not a re-entry cell of his half
    CELL_INVALID = "cell_invalid"  # {cell}
    HEIGHT_INVALID = "height_invalid"  # {height, min, max}
    TOO_FAR = "too_far"  # {number, from_cell, cell, distance, max}
    HEIGHT_STEP = "height_step"  # {number, from_height, height, max}
    PASS_NO_BALL = "pass_no_ball"  # {number, ball}: does not hold it (and cannot by then)
    PASS_RANGE = "pass_range"  # {ball, from_cell, cell, distance, min, max}
    PASS_YELLOW_RANGE = "pass_yellow_range"  # {from_cell, cell, distance, max}
    SPELL_UNKNOWN = "spell_unknown"  # {spell}
    COUNTER_UNKNOWN = "counter_unknown"  # {counter}
    ENCHANT_QUOTA = "enchant_quota"  # {left, ordered}
    BALL_UNKNOWN = "ball_unknown"  # {ball}
    BALL_OUT_OF_PLAY = "ball_out_of_play"  # {ball, status}: swallowed or burnt
    HANDS_FULL = "hands_full"  # {number, max}: already holds two balls
    STEAL_TEAMMATE = "steal_teammate"  # {target}
    STEAL_UNKNOWN = "steal_unknown"  # {target}
    STEAL_TARGET_OUT = "steal_target_out"  # {target, status}
    STEAL_OUT_OF_REACH = "steal_out_of_reach"  # {target, distance}: cannot be adjacent by then
    DRAGON_OFF_HALF = (
        "dragon_off_half"  # {side, cells}: would leave its half or touch the centre line
    )
    DRAGON_EDGE = "dragon_edge"  # {side, cells}: would enter an edge cell
    DRAGON_OFF_FIELD = "dragon_off_field"  # {side}
    DRAGON_HEIGHT = "dragon_height"  # {height, min, max}
    DRAGON_HEIGHT_STEP = "dragon_height_step"  # {step, max}
    DRAGON_PARALYSED = "dragon_paralysed"  # {side}: cannot move or change height
    FIRE_EXTINGUISHED = "fire_extinguished"  # {side}
    FIRE_BUDGET = "fire_budget"  # {fire, left, ordered}
    FIRE_DAZED = "fire_dazed"  # {side}: a dazed dragon only fires at random
    FIRE_KIND = "fire_kind"  # {fire, kinds}: a flame the ruleset's dragons do not have
    SUBST_SWALLOWED = "subst_swallowed"  # {number}
    SUBST_NOT_RESERVE = "subst_not_reserve"  # {number}
    SUBST_UNKNOWN = "subst_unknown"  # {number}
    SUBST_TICK = "subst_tick"  # {}: only before the round's first tick
    SUBST_INJURED = "subst_injured"  # {number, return_round}: the reserve is still in hospital
    PENALTY_TICK = "penalty_tick"  # {tick}
    PENALTY_NO_WARNING = "penalty_no_warning"  # {side, round}: §10, no warning in the round before
    GM_ONLY = "gm_only"  # {}: only a game master may order this (penalties)
    # the second edition (seed 001)
    PASS_NOT_A_LINE = "pass_not_a_line"  # {from_cell, cell}: not along a row, column or diagonal
    DRAGON_ONE_ACTION = "dragon_one_action"  # {side}: a strike and a flame in one tick
    FIRE_BREATH = "fire_breath"  # {side}: the deep breath after a fire wall
    DUPLICATE = (
        "duplicate"  # {number, tick}: a second order for the same player (or dragon) and tick
    )


@dataclass(frozen=True, slots=True)
class Problem:
    code: Code
    message: str
    order: Order | None = None
    tick: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
