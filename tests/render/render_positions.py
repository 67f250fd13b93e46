"""Hand-built positions and event lists for the rendering tests."""

from __future__ import annotations

from dataclasses import replace

from engine.events import Event, Kind
from engine.geometry import Direction, fire_cone
from engine.ruleset import Ruleset
from engine.state import BallState, MatchState, PlayerRef

__all__ = ["busy_position", "busy_tick_events", "place"]


def place(
    state: MatchState,
    side: str,
    number: int,
    cell: int | None,
    height: int | None,
    *,
    status: str = "active",
    balls: tuple[str, ...] = (),
    return_round: int | None = None,
    swallowed_by: str | None = None,
) -> MatchState:
    """The state with one player moved (and his status and balls set)."""
    p = state.player(side, number)  # type: ignore[arg-type]
    return state.with_player(
        replace(
            p,
            cell=cell,
            height=height,
            status=status,  # type: ignore[arg-type]
            balls=balls,
            return_round=return_round,
            swallowed_by=swallowed_by,  # type: ignore[arg-type]
        )
    )


def busy_position(start: MatchState) -> MatchState:
    """Round 2 after tick 2: players at all heights, balls free, held,
    vanished and swallowed, a player in hospital and one swallowed, the right
    dragon's mouth open, the left dragon dazed."""
    s = replace(start, round=2, tick=2)
    s = place(s, "left", 1, 57, 2)
    s = place(s, "left", 2, 58, 3, balls=("green",))
    s = place(s, "left", 3, 58, 1)
    s = place(s, "left", 4, None, None, status="hospital", return_round=3)
    s = place(s, "right", 2, None, None, status="swallowed", swallowed_by="left")
    s = place(s, "right", 1, 57, 1, balls=("black", "blue"))
    s = place(s, "right", 3, 109, 2)
    s = s.with_ball(BallState("green", "held", 58, 3, holder=PlayerRef("left", 2)))
    s = s.with_ball(BallState("black", "held", 57, 1, holder=PlayerRef("right", 1)))
    s = s.with_ball(BallState("blue", "held", 57, 1, holder=PlayerRef("right", 1)))
    s = s.with_ball(
        BallState(
            "red", "free", 90, 3, direction=Direction.E, spell="gullis-dullis", enchanted_by="left"
        )
    )
    s = s.with_ball(BallState("yellow", "vanished", 124, 2, direction=Direction.W))
    left = replace(s.dragon("left"), head=103, facing=Direction.NE, effect="daze", short_left=5)
    right = replace(s.dragon("right"), mouth_open=True, volleys_left=2)
    return s.with_dragon(left).with_dragon(right)


def busy_tick_events(ruleset: Ruleset, state: MatchState) -> list[Event]:
    """Events of the tick that led to :func:`busy_position`: moves, a pass, a
    ball's flight, the right dragon's volley and a fall."""
    r, t = state.round, state.tick
    right = state.dragon("right")
    cone = list(fire_cone(right.head, right.facing, ruleset.fire.volley_cells_depth))
    return [
        Event(
            r,
            t,
            1,
            Kind.PLAYER_MOVE,
            {
                "side": "left",
                "number": 1,
                "from_cell": 56,
                "from_height": 2,
                "cell": 57,
                "height": 2,
            },
        ),
        Event(
            r,
            t,
            1,
            Kind.PLAYER_MOVE,
            {
                "side": "right",
                "number": 3,
                "from_cell": 108,
                "from_height": 2,
                "cell": 109,
                "height": 2,
            },
        ),
        Event(
            r,
            t,
            1,
            Kind.FIRE,
            {
                "side": "right",
                "fire": "volley",
                "cells": cone,
                "random": False,
                "short_left": 7,
                "volleys_left": 2,
            },
        ),
        Event(
            r,
            t,
            1,
            Kind.PASS,
            {
                "ball": "red",
                "side": "left",
                "number": 5,
                "from_cell": 87,
                "cell": 90,
                "height": 3,
                "spell": "gullis-dullis",
            },
        ),
        Event(
            r,
            t,
            1,
            Kind.BALL_MOVE,
            {
                "ball": "yellow",
                "from_cell": 123,
                "cell": 124,
                "height": 2,
                "direction": "E",
                "visible": False,
            },
        ),
        Event(
            r,
            t,
            3,
            Kind.FALL,
            {
                "side": "left",
                "number": 4,
                "cell": 107,
                "height": 1,
                "cause": "fire",
                "return_round": 3,
            },
        ),
    ]
