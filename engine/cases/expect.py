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
    R1 = { cell = { not = 89 } }                 # a negative outcome
    R2 = { holds = { exactly_one_of = ["red", "blue"] } }
    right = { jet_ready = "2.1", gaping = true }  # counters (engine.cases.counters)

A value may be a plain value (equal), or a table of tests that must all
hold: ``not``,
``one_of`` (a list of values) and, for a list (``holds``, ``pending``,
``swallowed_players``, ``swallowed_balls``), ``has``, ``lacks`` and
``exactly_one_of`` (of the names given, exactly one is in the list).

Four kinds of expectation:

- **exact** (the default): the outcome of one run from the case's seed.
- **probability**: ``probability = 0.75`` (with ``seeds = 1000`` and
  ``tolerance``, by default four standard errors): the share of seeds whose
  outcome meets the rest of ``[expect]``.
- **refused when saved**: ``refused = "pass_yellow_range"`` (or a list; ``[]``
  for "all legal"): the problem codes :func:`engine.legality.check_orders`
  gives for the case's first round, for ``refused_by`` (a side; by default
  the game master's view).
- **alternative outcomes**: ``outcomes = [{ p = 0.5, L1 = "88/2" }, { p =
  0.5, L1 = "90/2" }]`` (with ``seeds``): every seed meets at least one of
  them, each with its share ``p`` within its tolerance; the rest of
  ``[expect]`` holds on every seed.
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
from .counters import DRAGON_COUNTERS, PLAYER_COUNTERS, Counter, counter_getter
from .forcing import Selector, parse_selector
from .text import CaseError, is_ref, parse_place, parse_ref, ref_label

__all__ = ["Expect", "parse_expect"]

_SPECIAL: Final = frozenset(
    {"events", "no_events", "probability", "tolerance", "seeds", "refused", "refused_by"}
    | {"score", "ended", "left_team", "right_team", "outcomes"}
)
# Keys an alternative outcome may not have: it is one outcome of the runs.
_NOT_IN_OUTCOME: Final = frozenset({"probability", "seeds", "refused", "refused_by", "outcomes"})
_PLAYER: Final = frozenset(
    {"at", "cell", "height", "holds", "status", "return_round", "swallowed_by"}
) | frozenset(PLAYER_COUNTERS)
_BALL: Final = frozenset(
    {"at", "cell", "height", "status", "held_by", "swallowed_by", "direction", "spell"}
    | {"enchanted_by", "pass_to", "pass_ticks_left"}
)
_DRAGON: Final = frozenset(
    {"head", "facing", "height", "mouth_open", "effect", "pending", "extinguished", "paralysed"}
    | {"short_left", "volleys_left", "open_ticks", "swallowed_players", "swallowed_balls"}
) | frozenset(DRAGON_COUNTERS)
_LISTS: Final = frozenset({"holds", "pending", "swallowed_players", "swallowed_balls"})
_TESTS: Final = ("not", "one_of", "has", "lacks", "exactly_one_of")
_TEAM: Final = frozenset({"score", "enchanted_left", "warnings", "warned_round"})

Check = Callable[[MatchState], tuple[bool, str, str]]  # ok, what, observed
Norm = Callable[[Any, str], Any]  # a value as the case writes it → as observed


@dataclass(frozen=True)
class Want:
    """What a key must be: a value, or a test (``not``, ``one_of`` …) with
    the words the failure message shows."""

    test: Callable[[Any], bool]
    text: str

    def __repr__(self) -> str:
        return self.text


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
    outcomes: tuple[Expect, ...] = ()  # alternatives, each with its probability

    @property
    def kind(self) -> str:
        if self.refused is not None:
            return "refused"
        if self.outcomes:
            return "outcomes"
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


def parse_expect(table: Any, rules: Ruleset, where: str = "expect") -> Expect:
    if not isinstance(table, dict):
        raise CaseError(f"[{where}] must be a table")
    checks: list[tuple[str, Any, Check]] = []
    for key, value in table.items():
        at = f"{where}.{key}"
        if key in _SPECIAL:
            continue
        if is_ref(key):
            checks += _player_checks(key, value, at, rules)
        elif key in rules.ball_order:
            checks += _ball_checks(key, value, at)
        elif key in SIDES:
            checks += _dragon_checks(key, value, at, rules)
        else:
            raise CaseError(f"{at}: not a player, ball, dragon nor one of {sorted(_SPECIAL)}")
    for side in SIDES:
        if f"{side}_team" in table:
            checks += _team_checks(side, table[f"{side}_team"], f"{where}.{side}_team")
    if "score" in table:
        checks.append(_score_check(table["score"], f"{where}.score"))
    if "ended" in table:
        checks.append(_ended_check(table["ended"]))
    probability = table.get("probability")
    if probability is not None and not (
        isinstance(probability, float | int) and 0 <= probability <= 1
    ):
        raise CaseError(f"{where}.probability: a number from 0 to 1")
    seeds = table.get("seeds", 1000)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise CaseError(f"{where}.seeds: how many seeds, at least 1")
    p = 0.0 if probability is None else float(probability)
    tolerance = table.get("tolerance", max(0.01, 4 * math.sqrt(p * (1 - p) / seeds)))
    refused = table.get("refused")
    if refused is not None:
        refused = frozenset([refused] if isinstance(refused, str) else refused)
    by = table.get("refused_by")
    if by not in (None, "left", "right"):
        raise CaseError(f"{where}.refused_by: left or right (default: the game master)")
    outcomes = _outcomes(table, rules, where, seeds)
    if outcomes and (probability is not None or refused is not None):
        raise CaseError(
            f"{where}.outcomes: each outcome gives its own p; no probability or refused beside them"
        )
    return Expect(
        tuple(checks),
        tuple(parse_selector(t, f"{where}.events") for t in _texts(table, "events", where)),
        tuple(parse_selector(t, f"{where}.no_events") for t in _texts(table, "no_events", where)),
        None if probability is None else float(probability),
        float(tolerance),
        seeds,
        refused,
        by,
        outcomes,
    )


def _outcomes(table: dict[str, Any], rules: Ruleset, where: str, seeds: int) -> tuple[Expect, ...]:
    """``outcomes = [{ p = 0.5, L1 = "88/2" }, …]``: the alternatives."""
    items = table.get("outcomes", [])
    if not isinstance(items, list) or (items == [] and "outcomes" in table):
        raise CaseError(f'{where}.outcomes: a list of tables such as {{ p = 0.5, L1 = "88/2" }}')
    out = []
    for i, item in enumerate(items):
        at = f"{where}.outcomes.{i + 1}"
        if not isinstance(item, dict):
            raise CaseError(f'{at}: a table such as {{ p = 0.5, L1 = "88/2" }}')
        p = item.get("p")
        if isinstance(p, bool) or not isinstance(p, float | int) or not 0 <= p <= 1:
            raise CaseError(f"{at}.p: the outcome's probability, a number from 0 to 1")
        bad = sorted(_NOT_IN_OUTCOME & set(item))
        if bad:
            raise CaseError(f"{at}: {bad[0]} belongs to [{where}], not to one outcome")
        rest = {k: v for k, v in item.items() if k != "p"}
        rest["probability"], rest["seeds"] = p, seeds
        out.append(parse_expect(rest, rules, at))
    return tuple(out)


def _texts(table: dict[str, Any], key: str, where: str) -> list[str]:
    value = table.get(key, [])
    value = [value] if isinstance(value, str) else value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CaseError(f'{where}.{key}: a list of texts such as "held_on L1"')
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


def _plain(value: Any, where: str) -> Any:
    # TOML has no null: "none" stands for "no value"
    return None if isinstance(value, str) and value.lower() == "none" else value


def _names(value: Any, item: Norm, where: str) -> list[Any]:
    values = [value] if not isinstance(value, list) else value
    return [item(v, where) for v in values]


def _want(value: Any, norm: Norm, where: str, item: Norm | None = None) -> Want:
    """A plain value, or a table of tests that must all hold; ``item``
    normalises the names in a list (a list key only)."""
    if not isinstance(value, dict):
        want = norm(value, where)
        return Want(lambda o: bool(o == want), repr(want))
    tests = _TESTS if item is not None else _TESTS[:2]
    if not value or set(value) - set(tests):
        raise CaseError(f"{where}: a value or a table of tests: {', '.join(tests)}")
    wants = [_test(test, arg, norm, f"{where}.{test}", item) for test, arg in value.items()]
    return Want(lambda o: all(w.test(o) for w in wants), " and ".join(w.text for w in wants))


def _test(test: str, arg: Any, norm: Norm, at: str, item: Norm | None) -> Want:
    if test == "not":
        other = norm(arg, at)
        return Want(lambda o: bool(o != other), f"not {other!r}")
    if test == "one_of":
        if not isinstance(arg, list) or not arg:
            raise CaseError(f"{at}: a list of values")
        choices = [norm(v, at) for v in arg]
        return Want(lambda o: o in choices, "one of " + ", ".join(map(repr, choices)))
    assert item is not None
    names = _names(arg, item, at)
    if test == "has":
        return Want(lambda o: all(n in o for n in names), f"has {', '.join(map(str, names))}")
    if test == "lacks":
        return Want(lambda o: not any(n in o for n in names), f"lacks {', '.join(map(str, names))}")
    if len(names) < 2:
        raise CaseError(f"{at}: a list of at least two names")
    text = "exactly one of " + ", ".join(map(str, names))
    return Want(lambda o: sum(n in o for n in names) == 1, text)


def _field(name: str, want: Want, get: Callable[[MatchState], Any]) -> tuple[str, Any, Check]:
    def check(state: MatchState) -> tuple[bool, str, str]:
        observed = get(state)
        return want.test(observed), name, repr(observed)

    return name, want, check


def _place(cell: int | None, height: int | None) -> str | None:
    return None if cell is None else f"{cell}/{height}"


def _place_norm(value: Any, where: str) -> Any:
    if _plain(value, where) is None:
        return None
    parse_place(value, where)
    return value.strip()


def _ref_norm(value: Any, where: str) -> Any:
    return None if _plain(value, where) is None else ref_label(parse_ref(str(value), where))


def _list_norm(item: Norm) -> Norm:
    def norm(value: Any, where: str) -> Any:
        return sorted(_names(value, item, where))

    return norm


def _in_order(item: Norm) -> Norm:
    def norm(value: Any, where: str) -> Any:
        return _names(value, item, where)

    return norm


def _counter_norm(counter: Counter, rules: Ruleset) -> Norm:
    def norm(value: Any, where: str) -> Any:
        if _plain(value, where) is None:
            return None
        counter.write(value, rules, where)  # the same form as in a position
        return value

    return norm


Getter = Callable[[MatchState], Any]


def _player_checks(
    key: str, value: Any, where: str, rules: Ruleset
) -> list[tuple[str, Any, Check]]:
    ref = parse_ref(key, where)
    spec = _spec(value, _PLAYER, where, "at")
    label = ref_label(ref)

    def attr(k: str) -> Getter:
        counter = PLAYER_COUNTERS.get(k)
        read = None if counter is None else counter_getter(counter, rules, f"{where}.{k}")

        def get(s: MatchState) -> Any:
            p = s.player(ref.side, ref.number)
            if read is not None:
                return read(p)
            if k == "at":
                return _place(p.cell, p.height)
            if k == "holds":
                return sorted(p.balls)
            return getattr(p, k)

        return get

    out = []
    for k, v in spec.items():
        at = f"{where}.{k}"
        get = attr(k)
        if k == "holds":
            want = _want(v, _list_norm(_plain), at, _plain)
        elif k in PLAYER_COUNTERS:
            want = _want(v, _counter_norm(PLAYER_COUNTERS[k], rules), at)
        else:
            want = _want(v, _place_norm if k == "at" else _plain, at)
        out.append(_field(f"{label}.{k}", want, get))
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

    norms: dict[str, Norm] = {"at": _place_norm, "pass_to": _place_norm, "held_by": _ref_norm}
    return [
        _field(f"{name}.{k}", _want(v, norms.get(k, _plain), f"{where}.{k}"), attr(k))
        for k, v in spec.items()
    ]


def _dragon_checks(
    side: Side, value: Any, where: str, rules: Ruleset
) -> list[tuple[str, Any, Check]]:
    spec = _spec(value, _DRAGON, where, "effect")

    def attr(k: str) -> Getter:
        counter = DRAGON_COUNTERS.get(k)
        read = None if counter is None else counter_getter(counter, rules, f"{where}.{k}")

        def get(s: MatchState) -> Any:
            d = s.dragon(side)
            if read is not None:
                return read(d)
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
        at = f"{where}.{k}"
        if k in _LISTS:
            item = _ref_norm if k == "swallowed_players" else _plain
            # the order of a dragon's lists is the order things happened in
            want = _want(v, _in_order(item), at, item)
        elif k in DRAGON_COUNTERS:
            want = _want(v, _counter_norm(DRAGON_COUNTERS[k], rules), at)
        else:
            want = _want(v, _plain, at)
        out.append(_field(f"{side} dragon.{k}", want, attr(k)))
    return out


def _team_checks(side: Side, value: Any, where: str) -> list[tuple[str, Any, Check]]:
    spec = _spec(value, _TEAM, where, "score")

    def attr(k: str) -> Getter:
        def get(s: MatchState) -> Any:
            return getattr(s.team(side), k)

        return get

    return [
        _field(f"{side} team.{k}", _want(v, _plain, f"{where}.{k}"), attr(k))
        for k, v in spec.items()
    ]


def _score_check(value: Any, where: str) -> tuple[str, Any, Check]:
    def norm(v: Any, at: str) -> Any:
        text = str(v).replace(" ", "")
        if ":" not in text:
            raise CaseError(f'{at}: "LEFT:RIGHT", e.g. "0:5"')
        return text

    return _field(
        "score",
        _want(value, norm, where),
        lambda s: f"{s.team('left').score}:{s.team('right').score}",
    )


def _ended_check(value: Any) -> tuple[str, Any, Check]:
    if value is False:
        return _field(
            "ended", _want(False, _plain, "ended"), lambda s: s.end_reason if s.ended else False
        )
    if value is True:
        return _field("ended", _want(True, _plain, "ended"), lambda s: s.ended)
    return _field(
        "ended", _want(str(value), _plain, "ended"), lambda s: s.end_reason if s.ended else False
    )
