"""The second edition's dragon on a square field (seed 001): three cells,
head, body and tail in a straight line, facing one of the four orthogonal
directions («поворачивает в 4 направлениях (по диагонали не может)»).

A 90° turn takes three ticks «При этом его хвост остается на прежней
клетке, а голова перемещается» (interpretation, docs/rules.md): with the
tail T fixed, facing f turning to n, the head goes T+2f → T+2f+n → T+f+2n →
T+2n and the body T+f → T+f → T+f+n → T+n.  While turning the dragon keeps
its old ``facing`` and two marks: ``turn`` (+1 clockwise, −1 counter) and
``turn_step`` (1 or 2 ticks of the turn done).
"""

from __future__ import annotations

from .field import SQUARE_STEP, SquareField
from .geometry import Direction

__all__ = ["dragon_cells", "turn_cells"]


def _add(field: SquareField, cell: int, *steps: tuple[Direction, int]) -> int | None:
    row, col = field.coord(cell)
    for d, k in steps:
        dr, dc = SQUARE_STEP[d]
        row, col = row + dr * k, col + dc * k
    return field.cell_at(row, col)


def turn_cells(
    field: SquareField, tail: int, facing: Direction, turn: int, step: int
) -> tuple[int, int, int] | None:
    """(head, body, tail) ``step`` ticks (0–3) into a turn from ``tail``."""
    n = field.turned(facing, turn)
    shapes = {
        0: (((facing, 2),), ((facing, 1),)),
        1: (((facing, 2), (n, 1)), ((facing, 1),)),
        2: (((facing, 1), (n, 2)), ((facing, 1), (n, 1))),
        3: (((n, 2),), ((n, 1),)),
    }
    head_steps, body_steps = shapes[step]
    head = _add(field, tail, *head_steps)
    body = _add(field, tail, *body_steps)
    if head is None or body is None:
        return None
    return head, body, tail


def dragon_cells(
    field: SquareField, head: int, facing: Direction, turn: int = 0, step: int = 0
) -> tuple[int, int, int] | None:
    """(head, body, tail) of a dragon whose head is at ``head`` (None off the
    field), ``step`` ticks into a ``turn`` (0: not turning)."""
    if turn == 0 or step == 0:
        back = field.opposite(facing)
        body = field.step(head, back)
        tail = field.step(head, back, 2)
        if body is None or tail is None:
            return None
        return head, body, tail
    n = field.turned(facing, turn)
    back_f, back_n = field.opposite(facing), field.opposite(n)
    tail = (
        _add(field, head, (back_f, 2), (back_n, 1))
        if step == 1
        else _add(field, head, (back_f, 1), (back_n, 2))
    )
    if tail is None:
        return None
    return turn_cells(field, tail, facing, turn, step)
