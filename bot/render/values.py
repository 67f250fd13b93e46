"""Reading event data defensively: a malformed value never breaks a report."""

from __future__ import annotations

from typing import Any, TypeGuard

from engine import geometry
from engine.geometry import Side

__all__ = ["as_int", "as_list", "as_people", "as_side", "is_cell"]


def as_int(value: Any) -> int:
    """The value as a whole number; 0 when it is none."""
    if isinstance(value, bool):
        return int(value)
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return 0


def as_side(value: Any) -> Side | None:
    if value == "left":
        return "left"
    if value == "right":
        return "right"
    return None


def is_cell(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and geometry.is_cell(value)


def as_list(value: Any) -> list[Any]:
    """A JSON list as a list; anything else as an empty one."""
    return list(value) if isinstance(value, list | tuple) else []


def as_people(value: Any) -> list[tuple[str, int]]:
    """``[{side, number}, ...]`` as (side, number) pairs, skipping what is not one."""
    return [
        (str(p.get("side")), as_int(p.get("number"))) for p in as_list(value) if isinstance(p, dict)
    ]
