"""Where a free ball flies next: the course drawn for its next flight.

The engine draws a free ball's ``direction`` in advance (docs/rules.md §3,
*when the course is drawn*), so the cells of its next flight are known
unless something gets in the way: the dome (a new random course there) or
an open mouth's reach (the same).  :func:`next_course` gives the straight
part and says whether it ends at the dome; the diagram draws it and the
end-of-round table lists it.

A ball in the air on a pass (§9: thrown at step 4, it lands at step 1 of the
next tick) has no free course yet: :func:`pass_landing` says where it lands.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import geometry
from engine.geometry import Direction
from engine.ruleset import Ruleset
from engine.state import BallState

from .values import is_cell

__all__ = ["Course", "next_course", "pass_landing"]


@dataclass(frozen=True)
class Course:
    """``cells``: the cells the ball enters, in order (at most its speed);
    ``dome``: it reaches the edge before its speed is spent and will take a
    new random course there."""

    start: int
    direction: Direction
    cells: tuple[int, ...]
    dome: bool


def next_course(ball: BallState, ruleset: Ruleset) -> Course | None:
    """The course of a free ball's next flight, None for a ball that is not
    free, is in the air on a pass, stands still or has no course drawn."""
    if ball.status != "free" or not is_cell(ball.cell) or ball.direction is None:
        return None
    if ball.pass_to is not None:  # its next flight is the pass's landing
        return None
    if ruleset.field_shape != "hex":  # the straight line of another field is its own
        return None
    spec = ruleset.balls.get(ball.name)
    speed = spec.speed if spec is not None else 0
    if speed <= 0:
        return None
    cells: list[int] = []
    cell = ball.cell
    for _ in range(speed):
        nxt = geometry.step(cell, ball.direction)
        if nxt is None:
            return Course(ball.cell, ball.direction, tuple(cells), True)
        cells.append(nxt)
        cell = nxt
    return Course(ball.cell, ball.direction, tuple(cells), False)


def pass_landing(ball: BallState) -> tuple[int, int] | None:
    """Where a ball in the air on a pass lands next tick (cell, height); None
    for any other ball.  Its ``cell`` is only the thrower's, not where it is."""
    # (any field's cell: the callers check it against the board they draw)
    if ball.status != "free" or ball.pass_to is None or ball.pass_to[0] < 1:
        return None
    return ball.pass_to
