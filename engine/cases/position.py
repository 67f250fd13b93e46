"""The test-position builder: a position from only what a case names.

Players not named are not in the match; a ball not named is *out*: nowhere
on the field, but still in play for §1's end conditions (so swallowing the
one ball a case is about does not end the match); a dragon not named is
parked on its own half where it is farthest from everything the case names
(it has no orders, so it stays with its mouth open).  A held ball is named
once, in its holder's ``holds``.

    [players]
    L1 = { at = "36/2", holds = ["red"] }
    R1 = "37/2"                                  # just a place
    L2 = { status = "hospital", return_round = 2 }

    [balls]
    green = { at = "40/2", direction = "E" }
    black = { at = "36/2", pass_to = "40/2", passer = "L1" }   # in the air

    [dragons]
    left = { head = 102, facing = "E", height = 2, effect = "sneeze" }
    # the second edition's counters by name (engine.cases.counters):
    # right = { head = 114, facing = "W", jet_ready = "2.1", breath_until = 2 }

    left_team = { score = 3, warnings = 1, warned_round = 1 }
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, Final

from ..consistency import state_problems
from ..field import SquareField
from ..geometry import HEX_DIRECTIONS, SIDES, Direction, Side, direction_between
from ..resolution.geo import DIST, dragon_after, dragon_cells_problem, mouth_of
from ..ruleset import Ruleset
from ..square_dragon import dragon_cells as square_dragon_cells
from ..state import BallState, DragonState, MatchState, PlayerRef, PlayerState, TeamState
from .counters import DRAGON_COUNTERS, PLAYER_COUNTERS, read_counters
from .text import CaseError, parse_place, parse_ref, ref_label

__all__ = ["PARK_DISTANCE", "build_position"]

PARK_DISTANCE: Final = 4  # an unnamed dragon keeps at least this far from the case
TEAM_NAMES: Final[dict[Side, str]] = {"left": "Левые", "right": "Правые"}
_PLAYER_KEYS: Final = frozenset(
    {"at", "holds", "status", "return_round", "swallowed_by", "name", "marks"}
    | set(PLAYER_COUNTERS)
)
_BALL_KEYS: Final = frozenset(
    {"at", "status", "direction", "pass_ticks_left", "spell", "enchanted_by", "swallowed_by"}
    | {"pass_to", "passer"}
)
_DRAGON_KEYS: Final = frozenset(
    {"head", "facing", "height", "mouth_open", "effect", "pending", "extinguished", "paralysed"}
    | {"short_left", "volleys_left", "open_ticks", "swallowed_players", "swallowed_balls"}
    | {"marks"}
    | set(DRAGON_COUNTERS)
)
_TEAM_KEYS: Final = frozenset({"score", "enchanted_left", "warnings", "warned_round", "name"})


def build_position(doc: dict[str, Any], rules: Ruleset) -> MatchState:
    """The position a case describes (its ``players``, ``balls``, ``dragons``,
    ``left_team``/``right_team``, ``round`` and ``tick``), checked with
    :func:`engine.consistency.state_problems`."""
    players, held = _players(_table(doc, "players"))
    places = {p.ref: (p.cell, p.height) for p in players}
    balls = _balls(_table(doc, "balls"), held, places, rules)
    named_cells = {p.cell for p in players if p.cell is not None}
    for b in balls:
        if b.cell is not None and b.status != "out":
            named_cells.add(b.cell)
        if b.pass_to is not None:
            named_cells.add(b.pass_to[0])
    dragons = _dragons(_table(doc, "dragons"), rules, named_cells)
    marks = {
        parse_ref(k, f"players.{k}"): read_counters(v, PLAYER_COUNTERS, rules, f"players.{k}")
        for k, v in _table(doc, "players").items()
        if isinstance(v, dict)
    }
    if marks:
        players = [replace(p, marks=marks.get(p.ref, p.marks)) for p in players]
    teams = tuple(_team(side, doc.get(f"{side}_team", {}), rules) for side in SIDES)
    state = MatchState(
        ruleset=rules.name,
        round=_int(doc.get("round", 1), "round"),
        tick=_int(doc.get("tick", 0), "tick"),
        teams=(teams[0], teams[1]),
        players=tuple(players),
        balls=tuple(balls),
        dragons=(dragons["left"], dragons["right"]),
    )
    problems = state_problems(state, rules)
    if problems:
        raise CaseError("the position is not possible: " + "; ".join(problems[:3]))
    return state


def _table(doc: dict[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise CaseError(f"[{key}] must be a table")
    return value


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(f"{where}: expected a whole number, not {value!r}")
    return value


def _keys(spec: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(spec) - allowed)
    if unknown:
        raise CaseError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})"
        )


def _players(table: dict[str, Any]) -> tuple[list[PlayerState], dict[str, PlayerRef]]:
    players: list[PlayerState] = []
    held: dict[str, PlayerRef] = {}
    for key, raw in table.items():
        where = f"players.{key}"
        ref = parse_ref(key, where)
        spec: dict[str, Any] = {"at": raw} if isinstance(raw, str) else raw
        if not isinstance(spec, dict):
            raise CaseError(f'{where}: a place "36/2" or a table')
        _keys(spec, _PLAYER_KEYS, where)
        status = spec.get("status", "active")
        if status not in ("active", "hospital", "swallowed", "reserve"):
            raise CaseError(
                f"{where}.status: {status!r} is not active, hospital, swallowed, reserve"
            )
        cell = height = None
        if "at" in spec:
            cell, height = parse_place(spec["at"], f"{where}.at")
        elif status == "active":
            raise CaseError(f'{where}: an active player needs at = "CELL/HEIGHT"')
        holds = spec.get("holds", [])
        holds = [holds] if isinstance(holds, str) else holds
        if not isinstance(holds, list) or not all(isinstance(b, str) for b in holds):
            raise CaseError(f"{where}.holds: a ball or a list of balls")
        for ball in holds:
            if ball in held:
                raise CaseError(
                    f"{where}: the {ball} ball is already held by {ref_label(held[ball])}"
                )
            held[ball] = ref
        swallowed_by = spec.get("swallowed_by")
        if swallowed_by not in (None, "left", "right"):
            raise CaseError(f"{where}.swallowed_by: left or right")
        players.append(
            PlayerState(
                ref.side,
                ref.number,
                str(spec.get("name", key.upper())),
                status,
                cell,
                height,
                tuple(holds),
                _opt_int(spec.get("return_round"), f"{where}.return_round"),
                swallowed_by,
            )
        )
    return players, held


def _opt_int(value: Any, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _direction(value: Any, where: str) -> Direction:
    try:
        return Direction[str(value).upper()]
    except KeyError:
        names = ", ".join(d.name for d in Direction)
        raise CaseError(f"{where}: {value!r} is not a direction ({names})") from None


def _balls(
    table: dict[str, Any],
    held: dict[str, PlayerRef],
    places: dict[PlayerRef, tuple[int | None, int | None]],
    rules: Ruleset,
) -> list[BallState]:
    unknown = sorted((set(table) | set(held)) - set(rules.ball_order))
    if unknown:
        raise CaseError(f"no ball {unknown[0]!r} in the {rules.name} ruleset")
    out: list[BallState] = []
    for name in rules.ball_order:
        where = f"balls.{name}"
        if name in held:
            if name in table:
                raise CaseError(f"{where}: a held ball is named once, in its holder's holds")
            cell, height = places[held[name]]
            out.append(BallState(name, "held", cell, height, holder=held[name]))
            continue
        if name not in table:
            out.append(BallState(name, "out"))
            continue
        raw = table[name]
        spec: dict[str, Any] = {"at": raw} if isinstance(raw, str) else raw
        if not isinstance(spec, dict):
            raise CaseError(f'{where}: a place "40/2" or a table')
        _keys(spec, _BALL_KEYS, where)
        status = spec.get("status", "free")
        cell = height = None
        if "at" in spec:
            cell, height = parse_place(spec["at"], f"{where}.at")
        direction = spec.get("direction")
        target = spec.get("pass_to")
        passer = spec.get("passer")
        pass_to = None if target is None else parse_place(target, f"{where}.pass_to")
        course = None if direction is None else _direction(direction, f"{where}.direction")
        if course is None and pass_to is not None and cell is not None:
            # In the air: its course is the pass's, as when it was thrown (§5).
            course = direction_between(cell, pass_to[0]) or Direction.E
        out.append(
            BallState(
                name,
                status,
                cell,
                height,
                None,
                course,
                _int(spec.get("pass_ticks_left", 0), f"{where}.pass_ticks_left"),
                spec.get("spell"),
                spec.get("enchanted_by"),
                spec.get("swallowed_by"),
                pass_to,
                None if passer is None else parse_ref(passer, f"{where}.passer"),
            )
        )
    return out


def _team(side: Side, spec: Any, rules: Ruleset) -> TeamState:
    where = f"{side}_team"
    if not isinstance(spec, dict):
        raise CaseError(f"{where} must be a table")
    _keys(spec, _TEAM_KEYS, where)
    return TeamState(
        side,
        str(spec.get("name", TEAM_NAMES[side])),
        _int(spec.get("score", 0), f"{where}.score"),
        _int(spec.get("enchanted_left", rules.enchanted_per_team), f"{where}.enchanted_left"),
        _int(spec.get("warnings", 1 if spec.get("warned_round") else 0), f"{where}.warnings"),
        _opt_int(spec.get("warned_round"), f"{where}.warned_round"),
    )


def _dragons(table: dict[str, Any], rules: Ruleset, named: set[int]) -> dict[Side, DragonState]:
    unknown = sorted(set(table) - set(SIDES))
    if unknown:
        raise CaseError(f"[dragons]: {unknown[0]!r} is not left or right")
    out: dict[Side, DragonState] = {}
    square = rules.field if isinstance(rules.field, SquareField) else None
    for side in SIDES:
        if side in table:
            out[side] = _dragon(side, table[side], rules)
            named |= _dragon_cells(out[side], square)
    for side in SIDES:
        if side not in table:
            out[side] = (
                _parked_square(side, rules, square, named)
                if square is not None
                else _parked(side, rules, named)
            )
            named |= _dragon_cells(out[side], square)
    return out


def _dragon(side: Side, spec: Any, rules: Ruleset) -> DragonState:
    where = f"dragons.{side}"
    if not isinstance(spec, dict):
        raise CaseError(f"{where} must be a table")
    _keys(spec, _DRAGON_KEYS, where)
    start = rules.dragon.start(side)
    pending = spec.get("pending", [])
    eaten = spec.get("swallowed_players", [])
    return DragonState(
        side,
        _int(spec.get("head", start.head), f"{where}.head"),
        _direction(spec["facing"], f"{where}.facing") if "facing" in spec else start.facing,
        _int(spec.get("height", rules.dragon.start_height), f"{where}.height"),
        bool(spec.get("mouth_open", True)),
        spec.get("effect"),
        tuple(pending if isinstance(pending, list) else [pending]),
        bool(spec.get("extinguished", False)),
        bool(spec.get("paralysed", False)),
        _int(spec.get("short_left", rules.fire.short_budget), f"{where}.short_left"),
        _int(spec.get("volleys_left", rules.fire.volley_budget), f"{where}.volleys_left"),
        _int(spec.get("open_ticks", 0), f"{where}.open_ticks"),
        tuple(parse_ref(r, f"{where}.swallowed_players") for r in eaten),
        tuple(spec.get("swallowed_balls", [])),
        read_counters(spec, DRAGON_COUNTERS, rules, where),
    )


def _dragon_cells(d: DragonState, square: SquareField | None = None) -> set[int]:
    if square is not None:
        cells = square_dragon_cells(
            square, d.head, d.facing, d.mark("turn") or 0, d.mark("turn_step") or 0
        )
        if cells is None:
            return {d.head}
        return {n for c in cells for n in (c, *square.neighbours(c))}
    after = dragon_after(d.head, d.facing, "stay")
    if after is None:
        return {d.head}
    return {after[0], after[2], after[3]} | set(mouth_of(d.head, d.facing))


@cache
def _places(side: Side) -> tuple[tuple[int, Direction, frozenset[int]], ...]:
    """Every lawful (head, facing) of a dragon of ``side``, with its cells and mouth."""
    out = []
    for head in range(1, len(DIST)):
        for facing in HEX_DIRECTIONS:
            after = dragon_after(head, facing, "stay")
            if after is None or dragon_cells_problem(side, (after[0], after[2], after[3])):
                continue
            cells = frozenset({after[0], after[2], after[3]} | mouth_of(head, facing))
            out.append((head, facing, cells))
    return tuple(out)


def _parked_square(side: Side, rules: Ruleset, square: SquareField, named: set[int]) -> DragonState:
    """On squares: the place on the side's half, facing its start, farthest
    from the case's pieces."""
    start = rules.dragon.start(side)
    best: int | None = None
    best_gap = -1
    for head in range(1, square.cell_count + 1):
        cells = square_dragon_cells(square, head, start.facing)
        if cells is None or any(square.half_of(c) != side or square.is_edge(c) for c in cells):
            continue
        gap = min((square.distance(c, n) for c in cells for n in named), default=99)
        if gap > best_gap:
            best, best_gap = head, gap
    if best is None or best_gap < PARK_DISTANCE:
        raise CaseError(
            f"the case does not name the {side} dragon and there is no place for it "
            f"{PARK_DISTANCE} cells from the case's pieces: name it in [dragons]"
        )
    return DragonState(side, best, start.facing, rules.dragon.start_height)


def _parked(side: Side, rules: Ruleset, named: set[int]) -> DragonState:
    best: tuple[int, Direction] | None = None
    best_gap = -1
    for head, facing, cells in _places(side):
        gap = min((DIST[c][n] for c in cells for n in named), default=99)
        if gap > best_gap:
            best, best_gap = (head, facing), gap
    if best is None or best_gap < PARK_DISTANCE:
        raise CaseError(
            f"the case does not name the {side} dragon and there is no place for it "
            f"{PARK_DISTANCE} cells from the case's pieces: name it in [dragons]"
        )
    return DragonState(
        side,
        best[0],
        best[1],
        rules.dragon.start_height,
        short_left=rules.fire.short_budget,
        volleys_left=rules.fire.volley_budget,
    )
