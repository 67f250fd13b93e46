"""Dice forced by name, and the words that pick out an event.

A case forces a draw by what it is about, not by its place in the stream:

    [dice]
    "steal L2" = true             # L2's steal roll succeeds
    "collision" = "R1"            # the collision picks R1 to fall
    "second_falls" = false        # ... and the other one holds on
    "direction green" = "NE"      # the green ball's next course
    "catch L3 tick=2" = false     # only on tick 2
    first = "R1"                  # the second edition's race: R1 spoke first

The key is a draw's name (an event kind or its short alias, below) and
words that must all fit the draw: a player (``L2``), a ball, a side
(``left``), a number (a cell), or ``key=value`` for any field of the
event's data (``where=adjacent``) and ``tick=``/``round=``/``step=``.  The value is
the outcome: true/false for a chance, a name for a fair pick (a player for a
collision or catch pick, a direction, a ball, a height).  A draw no rule
fits comes from the seed.  The same words pick out events in a case's
``events`` and ``no_events`` (there also ``step=`` and ``yes``/``no``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..events import Event, Kind
from ..resolution.context import player_label
from .text import CaseError, is_ref, parse_outcome

__all__ = ["ALIASES", "WHO_FIRST", "DiceRule", "NamedDice", "Selector", "parse_selector"]

# Short names a case may use for the draws (any event kind also works).
ALIASES: Final[dict[str, Kind]] = {
    "catch": Kind.CATCH_ROLL,
    "catch_pick": Kind.CATCH_PICK,
    "steal": Kind.STEAL_ROLL,
    "steal_ball": Kind.STEAL,
    "collision": Kind.COLLISION_PICK,
    "second_falls": Kind.COLLISION_SECOND,
    "knock": Kind.DRAGON_KNOCK_ROLL,
    "swallow": Kind.SWALLOW_ROLL,
    "ball_swallow": Kind.BALL_SWALLOW_ROLL,
    "vanish": Kind.YELLOW_VANISH,
    "appear": Kind.YELLOW_APPEAR,
    "random_fire": Kind.RANDOM_FIRE_ROLL,
    "direction": Kind.BALL_DIRECTION,
    "bounce": Kind.BALL_BOUNCE,
    "height": Kind.BALL_HEIGHT,
    "first": Kind.RACE,
}
_CONTEXT: Final = ("round", "tick", "step", "first")


def _race_sides(data: dict[str, Any]) -> tuple[str, str] | None:
    """(the stealer, the passer) of a race: who is first when it comes out
    yes, and when no."""
    side, number, target = data.get("side"), data.get("number"), data.get("target")
    if side not in ("left", "right") or not isinstance(number, int) or not isinstance(target, int):
        return None
    other = "right" if side == "left" else "left"
    return player_label(side, number), player_label(other, target)


# A chance that says who came first: the players its yes and its no name.
WHO_FIRST: Final[dict[Kind, Callable[[dict[str, Any]], tuple[str, str] | None]]] = {
    Kind.RACE: _race_sides,
}


@dataclass(frozen=True, slots=True)
class Selector:
    """``kind word word …``: an event kind and words its data must fit."""

    text: str
    kind: Kind
    words: tuple[str, ...]

    def fits(self, kind: Kind, data: dict[str, Any], context: dict[str, Any]) -> bool:
        return kind == self.kind and all(_fits(w, data, context) for w in self.words)

    def fits_event(self, e: Event) -> bool:
        context: dict[str, Any] = {"round": e.round, "tick": e.tick, "step": e.step, "ok": e.ok}
        who = WHO_FIRST.get(e.kind)
        pair = None if who is None or e.ok is None else who(e.data)
        if pair is not None:
            context["first"] = pair[0] if e.ok else pair[1]
        return self.fits(e.kind, e.data, context)


def parse_selector(text: str, where: str, *, draw: bool = False) -> Selector:
    """``kind word …``; a forced ``draw`` reads the short names first
    (``catch`` is the catch roll), an event selector the event kinds first
    (``catch`` is the catch itself)."""
    words = text.split()
    if not words:
        raise CaseError(f"{where}: an empty name")
    head = words[0].lower()
    kind = ALIASES.get(head) if draw else None
    if kind is None:
        try:
            kind = Kind(head)
        except ValueError:
            kind = ALIASES.get(head)
        if kind is None:
            names = ", ".join(sorted(ALIASES))
            raise CaseError(
                f"{where}: {words[0]!r} is not an event kind nor a draw's name ({names})"
            )
    return Selector(text, kind, tuple(words[1:]))


def _fits(word: str, data: dict[str, Any], context: dict[str, Any]) -> bool:
    if "=" in word:
        key, value = word.split("=", 1)
        found = context[key] if key in _CONTEXT and key in context else data.get(key)
        if key == "first" and is_ref(value):
            return isinstance(found, str) and found == value.upper()
        return _matches(found, value)
    low = word.lower()
    if low in ("yes", "no") and "ok" in context:
        return context["ok"] is (low == "yes")
    if is_ref(word) and _is_player(data, word):
        return True
    return any(_matches(v, word) for v in data.values())


def _is_player(data: dict[str, Any], word: str) -> bool:
    """``data`` is about the player ``word`` (its side and number)."""
    if "side" not in data or not isinstance(data.get("number"), int):
        return False
    return player_label(str(data["side"]), int(data["number"])) == word.upper()


def _matches(found: Any, word: str) -> bool:
    if isinstance(found, list):
        return any(_matches(x, word) for x in found)
    if isinstance(found, dict):
        return is_ref(word) and _is_player(found, word)
    return _same(found, word)


def _same(value: Any, word: str) -> bool:
    if value is None or isinstance(value, dict | list):
        return False
    if isinstance(value, bool):
        return word.lower() == str(value).lower()
    return str(value).lower() == word.lower()


def _is_chance(rule: DiceRule) -> bool:
    """A true/false rule, or a player named as the first of a race."""
    if isinstance(rule.outcome, bool):
        return True
    return rule.selector.kind in WHO_FIRST and is_ref(rule.outcome)


@dataclass(slots=True)
class DiceRule:
    selector: Selector
    outcome: bool | str
    used: int = 0


class NamedDice:
    """The :class:`engine.resolution.context.Forcing` of a case's ``[dice]``.

    ``problems`` collects what could not be forced (a certain roll forced to
    fail, a pick forced to a name that is not among the choices)."""

    def __init__(self, table: dict[str, Any], where: str = "dice") -> None:
        rules = [
            DiceRule(parse_selector(k, f"{where}.{k}", draw=True), parse_outcome(v, f"{where}.{k}"))
            for k, v in table.items()
        ]
        # The most specific rule first: "catch L2" before "catch".
        self.rules = sorted(rules, key=lambda r: -len(r.selector.words))
        self.problems: list[str] = []

    def _rule(
        self, moment: tuple[int, int, int], kind: Kind, data: dict[str, Any], chance: bool
    ) -> DiceRule | None:
        """The rule for a draw; a chance takes true/false, a pick a name, so a
        rule of the other sort is passed over: a contest's chance and its pick,
        about the same player, are forced apart (``"steal_pick L3" = true``,
        ``"steal_pick L3 target=1" = "blue"``)."""
        context = {"round": moment[0], "tick": moment[1], "step": moment[2]}
        other: DiceRule | None = None
        for rule in self.rules:
            if rule.selector.fits(kind, data, context):
                if _is_chance(rule) is chance:
                    rule.used += 1
                    return rule
                other = other or rule
        if other is not None:  # only of the other sort: the caller says so
            other.used += 1
        return other

    def chance(
        self, moment: tuple[int, int, int], kind: Kind, data: dict[str, Any], p: float
    ) -> bool | None:
        rule = self._rule(moment, kind, data, chance=True)
        if rule is None:
            return None
        outcome: bool | str | None = rule.outcome
        who = WHO_FIRST.get(kind)
        if who is not None and isinstance(outcome, str):
            outcome = self._first(rule, who(data), outcome)
            if outcome is None:
                return None
        if not isinstance(outcome, bool):
            self.problems.append(f"{rule.selector.text}: a chance is true or false")
            return None
        if (outcome and p <= 0) or (not outcome and p >= 1):
            self.problems.append(f"{rule.selector.text} = {rule.outcome}: its chance is {p:g}")
            return None
        return outcome

    def _first(self, rule: DiceRule, pair: tuple[str, str] | None, name: str) -> bool | None:
        """``first = "R1"``: yes when R1 is the one a yes puts first."""
        if pair is not None and name.upper() in pair:
            return name.upper() == pair[0]
        among = "" if pair is None else f" of {pair[0]} (the steal) and {pair[1]} (the spell)"
        self.problems.append(f"{rule.selector.text} = {name}: {name} is not in the race{among}")
        return None

    def pick(
        self, moment: tuple[int, int, int], kind: Kind, data: dict[str, Any], labels: Sequence[str]
    ) -> int | None:
        rule = self._rule(moment, kind, data, chance=False)
        if rule is None:
            return None
        wanted = str(rule.outcome).upper()
        for i, label in enumerate(labels):
            if label.upper() == wanted:
                return i
        self.problems.append(
            f"{rule.selector.text} = {rule.outcome}: not one of {', '.join(labels)}"
        )
        return None

    def unused(self) -> list[str]:
        return [r.selector.text for r in self.rules if r.used == 0]
