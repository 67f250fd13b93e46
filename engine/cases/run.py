"""Running a case: resolve its ticks, compare with what it expects."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..events import Event
from ..legality import check_orders
from ..orders import PlayerOrder, RoundOrders
from ..resolve import resolve_tick
from ..state import MatchState
from .case import Case
from .expect import Expect

__all__ = ["CaseResult", "Outcome", "play", "run_case"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One run of a case from one seed."""

    state: MatchState
    events: tuple[Event, ...]
    problems: tuple[str, ...]  # draws the case forced but could not
    unused: tuple[str, ...]  # forced draws that never happened


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    passed: bool
    expected: str
    observed: str
    detail: tuple[str, ...]  # every failure, one a line

    def line(self) -> str:
        """``PASS id: …`` / ``FAIL id: expected …, observed …``, as the runner
        prints it."""
        if not self.passed:
            return f"FAIL {self.case.id}: expected {self.expected}, observed {self.observed}"
        kind = self.case.expect.kind
        if kind == "probability":
            text = f"{self.observed}, expected {self.expected.rpartition(' = ')[2]}"
        elif kind in ("outcomes", "refused"):
            text = self.observed
        else:
            text = f"as expected ({self.expected})"
        if len(text) > 110:
            text = text[:109] + "…" + (")" if text.startswith("as expected") else "")
        return f"PASS {self.case.id}: {text}"


def play(case: Case, seed: str) -> Outcome:
    """Resolve the case's ticks from ``seed``; named players without an order
    for a tick stay where they are, with no action."""
    state = case.position
    forcing = case.forcing()
    events: list[Event] = []
    for moment in case.moments:
        if state.ended or (state.round, state.tick + 1) != moment:
            break
        if state is case.position:  # the first tick: the same for every seed
            orders = case.cache.get("first")
            if orders is None:
                orders = _with_stays(state, case.round_orders(moment[0]), case, moment)
                case.cache["first"] = orders
        else:
            orders = _with_stays(state, case.round_orders(moment[0]), case, moment)
        result = resolve_tick(state, orders, case.ruleset, seed, forcing=forcing)
        events.extend(result.events)
        state = result.state
    return Outcome(state, tuple(events), tuple(forcing.problems), tuple(forcing.unused()))


def _with_stays(
    state: MatchState, given: RoundOrders, case: Case, moment: tuple[int, int]
) -> RoundOrders:
    tick = moment[1]
    have = {(o.side, o.number) for o in given.players if o.tick == tick}
    silent = case.silent.get(moment, frozenset())
    stays = tuple(
        PlayerOrder(p.side, p.number, tick, p.cell, p.height)
        for p in state.players
        if p.status == "active"
        and p.cell is not None
        and p.height is not None
        and (p.side, p.number) not in have
        and p.ref not in silent
    )
    return replace(given, players=given.players + stays)


def run_case(case: Case) -> CaseResult:
    expect = case.expect
    if expect.kind == "refused":
        expected, observed, detail = _refused(case)
    elif expect.kind == "probability":
        expected, observed, detail = _probability(case)
    elif expect.kind == "outcomes":
        expected, observed, detail = _outcomes(case)
    else:
        expected, observed, detail = _exact(case)
    return CaseResult(case, not detail, expected, observed, tuple(detail))


def _describe(case: Case, expect: Expect | None = None) -> str:
    expect = case.expect if expect is None else expect
    parts = [f"{what} = {want!r}" for what, want, _ in expect.checks]
    parts += [f"event {s.text!r}" for s in expect.events]
    parts += [f"no event {s.text!r}" for s in expect.no_events]
    return ", ".join(parts) or "nothing"


def _exact(case: Case) -> tuple[str, str, list[str]]:
    out = play(case, case.seed)
    detail = list(out.problems)
    detail += [f"forced draw {u!r} never happened" for u in out.unused]
    detail += case.expect.failures(out.state, out.events)
    observed = "; ".join(detail) if detail else _describe(case)
    return _describe(case), observed, detail


def _probability(case: Case) -> tuple[str, str, list[str]]:
    expect = case.expect
    assert expect.probability is not None
    hits = 0
    problems: set[str] = set()
    used: set[str] = set(case.forcing().unused())
    for i in range(expect.seeds):
        out = play(case, f"{case.seed}/{i}")
        problems.update(out.problems)
        used &= set(out.unused)
        if not expect.failures(out.state, out.events):
            hits += 1
    share = hits / expect.seeds
    expected = f"P({_describe(case)}) = {expect.probability:g} ± {expect.tolerance:.3f}"
    observed = f"{share:.3f} over {expect.seeds} seeds"
    detail = sorted(problems) + [f"forced draw {u!r} never happened" for u in sorted(used)]
    if abs(share - expect.probability) > expect.tolerance:
        detail.append(f"share {share:.3f} is not {expect.probability:g} ± {expect.tolerance:.3f}")
    return expected, observed, detail


def _outcomes(case: Case) -> tuple[str, str, list[str]]:
    """Each seed meets one of the alternatives at least, and the rest of the
    expectation; each alternative's share is within its tolerance."""
    expect = case.expect
    hits = [0] * len(expect.outcomes)
    problems: set[str] = set()
    used: set[str] = set(case.forcing().unused())
    detail: list[str] = []
    for i in range(expect.seeds):
        seed = f"{case.seed}/{i}"
        out = play(case, seed)
        problems.update(out.problems)
        used &= set(out.unused)
        met = [not o.failures(out.state, out.events) for o in expect.outcomes]
        for k, ok in enumerate(met):
            hits[k] += ok
        missed = expect.failures(out.state, out.events)
        if not any(met) and len(detail) < 3:
            detail.append(f"seed {seed!r} meets none of the outcomes")
        if missed and len(detail) < 3:
            detail.append(f"seed {seed!r}: " + "; ".join(missed))
    wants, shares = [], []
    for k, o in enumerate(expect.outcomes):
        assert o.probability is not None
        share = hits[k] / expect.seeds
        wants.append(f"P({_describe(case, o)}) = {o.probability:g} ± {o.tolerance:.3f}")
        shares.append(f"{share:.3f}")
        if abs(share - o.probability) > o.tolerance:
            detail.append(
                f"outcome {k + 1}: share {share:.3f} is not {o.probability:g} ± {o.tolerance:.3f}"
            )
    rest = _describe(case)
    expected = "; ".join(wants) + ("" if rest == "nothing" else f"; always {rest}")
    observed = f"{' / '.join(shares)} over {expect.seeds} seeds"
    detail = sorted(problems) + [f"forced draw {u!r} never happened" for u in sorted(used)] + detail
    return expected, observed, detail


def _refused(case: Case) -> tuple[str, str, list[str]]:
    expect = case.expect
    assert expect.refused is not None
    orders = case.round_orders(case.position.round)
    problems = check_orders(case.position, orders, case.ruleset, side=expect.refused_by)
    codes = frozenset(p.code.value for p in problems)
    want = ", ".join(sorted(expect.refused)) or "no problem"
    got = ", ".join(sorted(codes)) or "no problem"
    detail = [] if codes == expect.refused else [f"problems {got}, not {want}"]
    return f"refused when saved: {want}", f"refused when saved: {got}", detail
