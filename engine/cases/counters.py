"""The counters the rules turn on, by readable names, for a case to set in
its position and to expect.

The classic rules keep their counters in the state's own fields (a dragon's
``effect``, ``open_ticks``, ``short_left`` …, a player's ``return_round``),
which a case names directly.  The second edition keeps its own in ``marks``
(whole numbers, engine/resolution/square/); a case names them so:

    [dragons]
    left = { head = 108, facing = "E", jet_ready = "2.1", last_wall = 1, breath_until = 2 }
    right = { turning = "right", turn_step = 1, gaping = true }

    [expect]
    left = { jet_ready = "2.1", dazing_until = 1 }
    L1 = { return_at = "60/2", return_tick = 3 }

A counter of one edition named in a case of the other is an error: the
classic dragon has no jet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..field import SquareField
from ..ruleset import Ruleset
from ..state import DragonState, PlayerState
from .text import CaseError, parse_place

__all__ = ["DRAGON_COUNTERS", "PLAYER_COUNTERS", "Counter", "counter_getter", "read_counters"]

Marks = dict[str, int]


@dataclass(frozen=True, slots=True)
class Counter:
    """A readable name for one or two marks: ``write`` turns the case's value
    into marks, ``read`` the marks into the value a case expects."""

    name: str
    write: Callable[[Any, Ruleset, str], Marks]
    read: Callable[[Marks, Ruleset], Any]


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(f"{where}: expected a whole number, not {value!r}")
    return value


def _whole_mark(name: str, mark: str) -> Counter:
    def write(value: Any, rules: Ruleset, where: str) -> Marks:
        return {mark: _whole(value, where)}

    def read(marks: Marks, rules: Ruleset) -> Any:
        return marks.get(mark)

    return Counter(name, write, read)


def _flag(name: str, mark: str) -> Counter:
    def write(value: Any, rules: Ruleset, where: str) -> Marks:
        if not isinstance(value, bool):
            raise CaseError(f"{where}: true or false, not {value!r}")
        return {mark: 1} if value else {}

    def read(marks: Marks, rules: Ruleset) -> Any:
        return bool(marks.get(mark))

    return Counter(name, write, read)


def _moment_text(value: Any, where: str) -> tuple[int, int]:
    text = value if isinstance(value, str) else ""
    r, dot, t = text.partition(".")
    if not (dot and r.isdigit() and t.isdigit()):
        raise CaseError(f'{where}: a tick is "ROUND.TICK" in quotes (e.g. "2.1"), not {value!r}')
    return int(r), int(t)


def _jet_ready() -> Counter:
    """The absolute tick from which a jet may come, as round and tick."""

    def write(value: Any, rules: Ruleset, where: str) -> Marks:
        r, t = _moment_text(value, where)
        if not 1 <= t <= rules.ticks_per_round:
            raise CaseError(f"{where}: tick {t} is not 1–{rules.ticks_per_round}")
        return {"jet_ready": (r - 1) * rules.ticks_per_round + t}

    def read(marks: Marks, rules: Ruleset) -> Any:
        ready = marks.get("jet_ready")
        if ready is None:
            return None
        r, t = divmod(ready - 1, rules.ticks_per_round)
        return f"{r + 1}.{t + 1}"

    return Counter("jet_ready", write, read)


def _turning() -> Counter:
    def write(value: Any, rules: Ruleset, where: str) -> Marks:
        if value not in ("left", "right"):
            raise CaseError(f'{where}: "left" or "right" (a turn under way), not {value!r}')
        return {"turn": -1 if value == "left" else 1}

    def read(marks: Marks, rules: Ruleset) -> Any:
        turn = marks.get("turn")
        return None if not turn else ("left" if turn < 0 else "right")

    return Counter("turning", write, read)


def _turn_step() -> Counter:
    def write(value: Any, rules: Ruleset, where: str) -> Marks:
        step = _whole(value, where)
        if step not in (1, 2):
            raise CaseError(f"{where}: 1 or 2 ticks of the turn done, not {step}")
        return {"turn_step": step}

    def read(marks: Marks, rules: Ruleset) -> Any:
        return marks.get("turn_step")

    return Counter("turn_step", write, read)


def _return_at() -> Counter:
    def write(value: Any, rules: Ruleset, where: str) -> Marks:
        cell, height = parse_place(value, where)
        return {"return_cell": cell, "return_height": height}

    def read(marks: Marks, rules: Ruleset) -> Any:
        cell, height = marks.get("return_cell"), marks.get("return_height")
        return None if cell is None else f"{cell}/{height}"

    return Counter("return_at", write, read)


# The second edition's dragon: name → counter (mark in engine/resolution/square/).
DRAGON_COUNTERS: Final[dict[str, Counter]] = {
    "jet_ready": _jet_ready(),  # the first tick a jet may come (jet_ready)
    "last_wall": _whole_mark("last_wall", "wall_round"),  # a wall again from round +2
    "breath_until": _whole_mark("breath_until", "breath_round"),  # no flame to its end
    "dazing_until": _whole_mark("dazing_until", "daze_round"),  # the black ball's zone
    "gaping": _flag("gaping", "gape"),  # the red ball: every shot goes in
    "asleep": _flag("asleep", "asleep"),  # the yellow ball
    "turning": _turning(),  # a 90° turn under way (turn)
    "turn_step": _turn_step(),  # how many of its three ticks are done
}
# The second edition's player: where and when a saved fall brings him back.
PLAYER_COUNTERS: Final[dict[str, Counter]] = {
    "return_at": _return_at(),  # return_cell, return_height
    "return_tick": _whole_mark("return_tick", "return_tick"),  # of return_round
}


def _edition_check(rules: Ruleset, name: str, where: str) -> None:
    if not isinstance(rules.field, SquareField):
        raise CaseError(
            f"{where}: {name} is a counter of the second edition (variant-001); "
            f"the {rules.name} ruleset has none"
        )


def read_counters(
    spec: dict[str, Any], table: dict[str, Counter], rules: Ruleset, where: str
) -> tuple[tuple[str, int], ...]:
    """The marks the counters of ``spec`` (a dragon's or player's table)
    set, beside its raw ``marks`` table, sorted as the state keeps them."""
    out: Marks = {}
    for name, counter in table.items():
        if name in spec:
            _edition_check(rules, name, f"{where}.{name}")
            for mark, value in counter.write(spec[name], rules, f"{where}.{name}").items():
                out[mark] = value
    raw = spec.get("marks", {})
    if not isinstance(raw, dict):
        raise CaseError(f"{where}.marks must be a table of whole numbers")
    for k, v in raw.items():
        if str(k) in out:
            raise CaseError(f"{where}.marks.{k}: set twice (by name and in marks)")
        out[str(k)] = _whole(v, f"{where}.marks.{k}")
    return tuple(sorted(out.items()))


def counter_getter(
    counter: Counter, rules: Ruleset, where: str
) -> Callable[[DragonState | PlayerState], Any]:
    """What a case expects of the counter, read from a dragon or player."""
    _edition_check(rules, counter.name, where)

    def get(piece: DragonState | PlayerState) -> Any:
        return counter.read(dict(piece.marks), rules)

    return get
