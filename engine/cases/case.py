"""A case of the case book, read from its TOML document (already parsed).

    id = "s4-held-on-loses-pass"        # default: the file's name
    title = "A player who holds on in a collision loses his pass"
    ruleset = "classic"                 # default; "classic@1" plays version 1
    rule = "4.20"                       # the sentence it proves (docs/casebook.md)
    quote = "он потеряет все выбранные на такт действия с мячами"

    [players] … [balls] … [dragons] …   # the position (engine.cases.position)

    [orders]                            # the first tick to resolve
    L1 = "37/2 pass red 39/2"
    R1 = "37/2"
    [orders.2]                          # tick 2 of the round ("2.1": round 2, tick 1)
    left = "forward fire short"         # a dragon
    penalty = "right"                   # game master: penalty, warning, substitute

    [dice] …                            # forced draws (engine.cases.forcing)

    [expect] …                          # what must come out (engine.cases.expect)

A named player without an order for a tick stays where he is with no action
(``"none"`` gives no order at all: he drops his balls, §4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ..geometry import Side
from ..orders import (
    DragonOrder,
    Penalty,
    PlayerOrder,
    RoundOrders,
    Substitution,
    TeamWarning,
)
from ..ruleset import Ruleset, RulesetError, load_ruleset_label
from ..setup import new_match
from ..state import MatchState, PlayerRef
from .expect import Expect, parse_expect
from .forcing import NamedDice
from .position import build_position
from .text import CaseError, is_ref, parse_dragon_order, parse_player_order, parse_ref

__all__ = ["Case", "RuleRef", "parse_case", "ruleset_of"]

_TOP: Final = frozenset(
    {"id", "title", "ruleset", "rule", "quote", "rules", "interpretation", "seed", "ticks"}
    | {"round", "tick", "players", "balls", "dragons", "left_team", "right_team"}
    | {"orders", "dice", "expect", "opening"}
)
_GM: Final = frozenset({"penalty", "warning", "substitute"})


@dataclass(frozen=True, slots=True)
class RuleRef:
    """The sentence of the rule book a case proves, and its words quoted."""

    sentence: str  # "4.20": section 4, sentence 20 of the index
    quote: str


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    ruleset: Ruleset
    rules: tuple[RuleRef, ...]
    interpretation: str | None
    position: MatchState
    # Orders by (round, tick); game masters' orders of a round under tick 0.
    orders: dict[tuple[int, int], RoundOrders]
    moments: tuple[tuple[int, int], ...]  # the ticks resolved, in order
    # Players who give no order at all on a tick ("none"): no stay is added.
    silent: dict[tuple[int, int], frozenset[PlayerRef]]
    dice: dict[str, Any]
    expect: Expect
    seed: str
    source: str = ""
    # What does not change from seed to seed (the first tick's orders).
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def forcing(self) -> NamedDice:
        """A fresh forcing for one run (it counts which rules were used)."""
        return NamedDice(self.dice)

    def round_orders(self, round_: int) -> RoundOrders:
        """Everything the case orders for ``round_`` (without the stays)."""
        parts = [o for (r, _), o in sorted(self.orders.items()) if r == round_]
        out = RoundOrders()
        for part in parts:
            out = RoundOrders(
                out.players + part.players,
                out.dragons + part.dragons,
                out.substitutions + part.substitutions,
                out.penalties + part.penalties,
                out.warnings + part.warnings,
            )
        return out


def ruleset_of(label: str) -> Ruleset:
    """``classic`` or ``classic@1``."""
    try:
        return load_ruleset_label(label)
    except RulesetError as exc:
        raise CaseError(f"ruleset {label!r}: {exc}") from None


def parse_case(doc: dict[str, Any], name: str = "case", source: str = "") -> Case:
    """A :class:`Case` from a parsed TOML document; ``name`` is the id when
    the document gives none."""
    unknown = sorted(set(doc) - _TOP)
    if unknown:
        raise CaseError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_TOP))})")
    label = str(doc.get("ruleset", "classic"))
    try:
        rules = ruleset_of(label)
    except RulesetError as exc:
        raise CaseError(str(exc)) from None
    case_id = str(doc.get("id", name))
    seed = str(doc.get("seed", f"case:{case_id}"))
    position = _opening(doc, rules, seed) if "opening" in doc else build_position(doc, rules)
    orders, silent, last = _orders(doc.get("orders", {}), position, rules)
    count = doc.get("ticks", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise CaseError("ticks: how many ticks to resolve (0: check the position itself)")
    moments = _moments(position, rules, max(count, last))
    dice = doc.get("dice", {})
    if not isinstance(dice, dict):
        raise CaseError("[dice] must be a table")
    NamedDice(dice)  # checked now, so a bad name is an error before any run
    return Case(
        id=case_id,
        title=str(doc.get("title", "")),
        ruleset=rules,
        rules=_rule_refs(doc),
        interpretation=doc.get("interpretation"),
        position=position,
        orders=orders,
        moments=moments,
        silent=silent,
        dice=dice,
        expect=parse_expect(doc.get("expect", {}), rules),
        seed=seed,
        source=source,
    )


def _opening(doc: dict[str, Any], rules: Ruleset, seed: str) -> MatchState:
    """``opening = { players_per_team = 7 }``: the match's opening position
    drawn from the case's seed (§2), instead of a built one."""
    spec = doc["opening"]
    if not isinstance(spec, dict) or set(spec) - {"players_per_team"}:
        raise CaseError("opening: a table, optionally with players_per_team")
    clash = sorted({"players", "balls", "dragons", "round", "tick"} & set(doc))
    if clash:
        raise CaseError(f"opening: the position is the opening one; {clash[0]} cannot be given")
    state, _ = new_match(rules, seed, players_per_team=spec.get("players_per_team"))
    return state


def _rule_refs(doc: dict[str, Any]) -> tuple[RuleRef, ...]:
    items: list[Any] = list(doc.get("rules", []))
    if "rule" in doc:
        items.insert(0, {"rule": doc["rule"], "quote": doc.get("quote", "")})
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("rule"), str):
            raise CaseError(f'rules[{i}]: {{ rule = "4.20", quote = "…" }}')
        out.append(RuleRef(item["rule"], str(item.get("quote", ""))))
    if not out:
        raise CaseError('rule: the sentence of the rule book the case proves ("4.20")')
    return tuple(out)


def _moments(state: MatchState, rules: Ruleset, count: int) -> tuple[tuple[int, int], ...]:
    out = []
    r, t = state.round, state.tick
    for _ in range(count):
        r, t = (r, t + 1) if t < rules.ticks_per_round else (r + 1, 1)
        out.append((r, t))
    return tuple(out)


def _moment_of(key: str, state: MatchState, rules: Ruleset) -> tuple[int, int]:
    r, _, t = key.rpartition(".")
    try:
        moment = (int(r) if r else state.round, int(t))
    except ValueError:
        raise CaseError(f'orders.{key}: a tick is "2" or "2.1" (round 2, tick 1)') from None
    if not 1 <= moment[1] <= rules.ticks_per_round or moment <= (state.round, state.tick):
        raise CaseError(f"orders.{key}: not a tick after the position's")
    return moment


def _index(moment: tuple[int, int], state: MatchState, rules: Ruleset) -> int:
    """How many ticks from the position to ``moment`` (1: the next one)."""
    r, t = moment
    return (r - state.round) * rules.ticks_per_round + t - state.tick


Moment = tuple[int, int]


def _orders(
    table: Any, state: MatchState, rules: Ruleset
) -> tuple[dict[Moment, RoundOrders], dict[Moment, frozenset[PlayerRef]], int]:
    if not isinstance(table, dict):
        raise CaseError("[orders] must be a table")
    first = _moments(state, rules, 1)[0]
    groups: dict[tuple[int, int], dict[str, Any]] = {first: {}}
    for key, value in table.items():
        if isinstance(value, dict):
            groups.setdefault(_moment_of(key, state, rules), {}).update(value)
        else:
            groups[first][key] = value
    out: dict[Moment, RoundOrders] = {}
    silent: dict[Moment, frozenset[PlayerRef]] = {}
    last = 0
    for moment, items in groups.items():
        if items:
            where = f"orders.{moment[0]}.{moment[1]}"
            out[moment], silent[moment] = _tick_orders(items, moment, where)
            last = max(last, _index(moment, state, rules))
    return out, silent, last


def _tick_orders(
    items: dict[str, Any], moment: Moment, where: str
) -> tuple[RoundOrders, frozenset[PlayerRef]]:
    tick = moment[1]
    none: set[PlayerRef] = set()
    players: list[PlayerOrder] = []
    dragons: list[DragonOrder] = []
    penalties: list[Penalty] = []
    warnings: list[TeamWarning] = []
    subs: list[Substitution] = []
    for key, value in items.items():
        at = f"{where}.{key}"
        if is_ref(key):
            ref = parse_ref(key, at)
            o = parse_player_order(value, ref, tick, at)
            if o is None:
                none.add(ref)
            else:
                players.append(o)
        elif key in ("left", "right"):
            dragons.append(parse_dragon_order(value, _side(key), tick, at))
        elif key in _GM:
            for text in value if isinstance(value, list) else [value]:
                words = str(text).split()
                if key == "penalty" and len(words) == 1:
                    penalties.append(Penalty(_side(words[0]), tick))
                elif key == "warning" and len(words) == 1:
                    warnings.append(TeamWarning(_side(words[0])))
                elif key == "substitute" and len(words) == 3:
                    subs.append(Substitution(_side(words[0]), int(words[1]), int(words[2])))
                else:
                    raise CaseError(
                        f'{at}: penalty = "right", warning = "left", substitute = "left 2 8"'
                    )
        else:
            raise CaseError(f"{at}: a player (L1), a dragon (left, right) or {', '.join(_GM)}")
    orders = RoundOrders(
        tuple(players), tuple(dragons), tuple(subs), tuple(penalties), tuple(warnings)
    )
    return orders, frozenset(none)


def _side(word: str) -> Side:
    if word == "left":
        return "left"
    if word == "right":
        return "right"
    raise CaseError(f"{word!r} is not left or right")
