"""What a case expects, and the check of an outcome against it.

    [expect]
    L1 = { at = "37/2", holds = ["red"] }       # only the keys given are checked
    R1 = { status = "hospital", return_round = 3 }
    red = { status = "free", at = "37/2" }       # or held_by = "L1", swallowed_by = "left"
    left = { effect = "sneeze", mouth_open = true }          # a dragon
    right_team = { warnings = 1 }
    score = "0:5"                                # left:right
    ended = "decided"                            # an end reason, or false
    events = ["held_on L1", "action_lost L1 pass reason=held_on"]
    no_events = ["pass"]

Three kinds of expectation:

- **exact** (the default): the outcome of one run from the case's seed.
- **probability**: ``probability = 0.75`` (with ``seeds = 1000`` and
  ``tolerance``, by default four standard errors): the share of seeds whose
  outcome meets the rest of ``[expect]``.
- **refused when saved**: ``refused = "pass_yellow_range"`` (or a list; ``[]``
  for "all legal"): the problem codes :func:`engine.legality.check_orders`
  gives for the case's first round, for ``refused_by`` (a side; by default
  the game master's view).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..events import Event
from ..geometry import SIDES, Side
from ..ruleset import Ruleset
from ..state import MatchState
from .forcing import Selector, parse_selector
from .text import CaseError, is_ref, parse_place, parse_ref, ref_label

__all__ = ["Expect", "parse_expect"]

_SPECIAL: Final = frozenset(
    {"events", "no_events", "probability", "tolerance", "seeds", "refused", "refused_by"}
    | {"score", "ended", "left_team", "right_team"}
)
_PLAYER: Final = frozenset(
    {"at", "cell", "height", "holds", "status", "return_round", "swallowed_by"}
)
_BALL: Final = frozenset(
    {"at", "cell", "height", "status", "held_by", "swallowed_by", "direction", "spell"}
    | {"enchanted_by", "pass_to", "pass_ticks_left"}
)
_DRAGON: Final = frozenset(
    {"head", "facing", "height", "mouth_open", "effect", "pending", "extinguished", "paralysed"}
    | {"short_left", "volleys_left", "open_ticks", "swallowed_players", "swallowed_balls"}
)
_TEAM: Final = frozenset({"score", "enchanted_left", "warnings", "warned_round"})

Check = Callable[[MatchState], tuple[bool, str, str]]  # ok, what, observed


@dataclass(frozen=True)
class Expect:
    checks: tuple[tuple[str, Any, Check], ...]  # (what, expected, check)
    events: tuple[Selector, ...]
    no_events: tuple[Selector, ...]
    probability: float | None
    tolerance: float
    seeds: int
    refused: frozenset[str] | None
    refused_by: Side | None

    @property
    def kind(self) -> str:
        if self.refused is not None:
            return "refused"
        return "exact" if self.probability is None else "probability"

    def failures(self, state: MatchState, events: Sequence[Event]) -> list[str]:
        """What in the outcome differs from the expectation (empty: it holds)."""
        out = []
        for _, expected, check in self.checks:
            ok, name, observed = check(state)
            if not ok:
                out.append(f"{name}: expected {expected!r}, observed {observed}")
        for sel in self.events:
            if not any(sel.fits_event(e) for e in events):
                out.append(f"no event {sel.text!r}")
        for sel in self.no_events:
            found = next((e for e in events if sel.fits_event(e)), None)
            if found is not None:
                out.append(f"unexpected event {sel.text!r}: {found.kind.value} {found.data}")
        return out


def parse_expect(table: Any, rules: Ruleset) -> Expect:
    if not isinstance(table, dict):
        raise CaseError("[expect] must be a table")
    checks: list[tuple[str, Any, Check]] = []
    for key, value in table.items():
        where = f"expect.{key}"
        if key in _SPECIAL:
            continue
        if is_ref(key):
            checks += _player_checks(key, value, where)
        elif key in rules.ball_order:
            checks += _ball_checks(key, value, where)
        elif key in SIDES:
            checks += _dragon_checks(key, value, where)
        else:
            raise CaseError(f"{where}: not a player, ball, dragon nor one of {sorted(_SPECIAL)}")
    for side in SIDES:
        if f"{side}_team" in table:
            checks += _team_checks(side, table[f"{side}_team"], f"expect.{side}_team")
    if "score" in table:
        checks.append(_score_check(table["score"]))
    if "ended" in table:
        checks.append(_ended_check(table["ended"]))
    probability = table.get("probability")
    if probability is not None and not (
        isinstance(probability, float | int) and 0 <= probability <= 1
    ):
        raise CaseError("expect.probability: a number from 0 to 1")
    seeds = table.get("seeds", 1000)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise CaseError("expect.seeds: how many seeds, at least 1")
    p = 0.0 if probability is None else float(probability)
    tolerance = table.get("tolerance", max(0.01, 4 * math.sqrt(p * (1 - p) / seeds)))
    refused = table.get("refused")
    if refused is not None:
        refused = frozenset([refused] if isinstance(refused, str) else refused)
    by = table.get("refused_by")
    if by not in (None, "left", "right"):
        raise CaseError("expect.refused_by: left or right (default: the game master)")
    return Expect(
        tuple(checks),
        tuple(parse_selector(t, "expect.events") for t in _texts(table, "events")),
        tuple(parse_selector(t, "expect.no_events") for t in _texts(table, "no_events")),
        None if probability is None else float(probability),
        float(tolerance),
        seeds,
        refused,
        by,
    )


def _texts(table: dict[str, Any], key: str) -> list[str]:
    value = table.get(key, [])
    value = [value] if isinstance(value, str) else value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CaseError(f'expect.{key}: a list of texts such as "held_on L1"')
    return value


def _spec(value: Any, allowed: frozenset[str], where: str, short: str) -> dict[str, Any]:
    spec = {short: value} if isinstance(value, str) else value
    if not isinstance(spec, dict):
        raise CaseError(f"{where}: a table of {', '.join(sorted(allowed))}")
    unknown = sorted(set(spec) - allowed)
    if unknown:
        raise CaseError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})"
        )
    return spec


def _field(name: str, expected: Any, get: Callable[[MatchState], Any]) -> tuple[str, Any, Check]:
    if isinstance(expected, str) and expected.lower() == "none":
        expected = None  # TOML has no null: "none" stands for "no value"

    def check(state: MatchState) -> tuple[bool, str, str]:
        observed = get(state)
        return observed == expected, name, repr(observed)

    return name, expected, check


def _place(cell: int | None, height: int | None) -> str | None:
    return None if cell is None else f"{cell}/{height}"


Getter = Callable[[MatchState], Any]


def _player_checks(key: str, value: Any, where: str) -> list[tuple[str, Any, Check]]:
    ref = parse_ref(key, where)
    spec = _spec(value, _PLAYER, where, "at")
    label = ref_label(ref)

    def attr(k: str) -> Getter:
        def get(s: MatchState) -> Any:
            p = s.player(ref.side, ref.number)
            if k == "at":
                return _place(p.cell, p.height)
            if k == "holds":
                return sorted(p.balls)
            return getattr(p, k)

        return get

    out = []
    for k, v in spec.items():
        if k == "at":
            parse_place(v, f"{where}.at")
        want = sorted([v] if isinstance(v, str) else v) if k == "holds" else v
        out.append(_field(f"{label}.{k}", want, attr(k)))
    return out


def _ball_checks(name: str, value: Any, where: str) -> list[tuple[str, Any, Check]]:
    spec = _spec(value, _BALL, where, "status")

    def attr(k: str) -> Getter:
        def get(s: MatchState) -> Any:
            b = s.ball(name)
            if k == "at":
                return _place(b.cell, b.height)
            if k == "held_by":
                return None if b.holder is None or b.status != "held" else ref_label(b.holder)
            if k == "pass_to":
                return None if b.pass_to is None else f"{b.pass_to[0]}/{b.pass_to[1]}"
            if k == "direction":
                return None if b.direction is None else b.direction.name
            return getattr(b, k)

        return get

    out = []
    for k, v in spec.items():
        if k == "at":
            parse_place(v, f"{where}.at")
        want = ref_label(parse_ref(v, f"{where}.held_by")) if k == "held_by" else v
        out.append(_field(f"{name}.{k}", want, attr(k)))
    return out


def _dragon_checks(side: Side, value: Any, where: str) -> list[tuple[str, Any, Check]]:
    spec = _spec(value, _DRAGON, where, "effect")

    def attr(k: str) -> Getter:
        def get(s: MatchState) -> Any:
            d = s.dragon(side)
            if k == "facing":
                return d.facing.name
            if k == "pending":
                return list(d.pending_effects)
            if k == "swallowed_players":
                return [ref_label(r) for r in d.swallowed_players]
            if k == "swallowed_balls":
                return list(d.swallowed_balls)
            return getattr(d, k)

        return get

    out = []
    for k, v in spec.items():
        want = [v] if k == "pending" and isinstance(v, str) else v
        out.append(_field(f"{side} dragon.{k}", want, attr(k)))
    return out


def _team_checks(side: Side, value: Any, where: str) -> list[tuple[str, Any, Check]]:
    spec = _spec(value, _TEAM, where, "score")

    def attr(k: str) -> Getter:
        def get(s: MatchState) -> Any:
            return getattr(s.team(side), k)

        return get

    return [_field(f"{side} team.{k}", v, attr(k)) for k, v in spec.items()]


def _score_check(value: Any) -> tuple[str, Any, Check]:
    text = str(value).replace(" ", "")
    if ":" not in text:
        raise CaseError('expect.score: "LEFT:RIGHT", e.g. "0:5"')
    return _field("score", text, lambda s: f"{s.team('left').score}:{s.team('right').score}")


def _ended_check(value: Any) -> tuple[str, Any, Check]:
    if value is False:
        return _field("ended", False, lambda s: s.end_reason if s.ended else False)
    if value is True:
        return _field("ended", True, lambda s: s.ended)
    return _field("ended", str(value), lambda s: s.end_reason if s.ended else False)
