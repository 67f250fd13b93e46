"""The few words of a case file: places, players, orders, outcomes.

A case names a place ``36/2`` (cell 36, height 2), a player ``L1`` / ``R7``
(left or right team, shirt number), and writes an order the way a referee
would say it: ``37/2 pass red 39/2``, ``36/2 catch green counter
tsap-tsaraps``, ``37/1 steal R3``, ``none`` (no order at all); a dragon's
``forward up fire short``.  Everything here is pure parsing; a problem is a
:class:`CaseError` naming what was wrong.
"""

from __future__ import annotations

import re
from typing import Any, Final

from ..geometry import Direction, Side
from ..orders import (
    ALL_FIRE_KINDS,
    DRAGON_MOVES,
    STRIKE_KINDS,
    Action,
    Catch,
    DragonMove,
    DragonOrder,
    FireKind,
    Pass,
    PlayerOrder,
    Steal,
    StrikeKind,
)
from ..state import PlayerRef

__all__ = [
    "CaseError",
    "parse_dragon_order",
    "parse_outcome",
    "parse_place",
    "parse_player_order",
    "parse_ref",
    "ref_label",
]


class CaseError(ValueError):
    """A case file that cannot be read: the message names the key at fault."""


_REF: Final = re.compile(r"^([LRlr])(\d{1,2})$")
_PLACE: Final = re.compile(r"^(\d{1,4})/(\d)$")
YES: Final = frozenset({"yes", "true", "succeeds", "success", "ok"})
NO: Final = frozenset({"no", "false", "fails", "failure"})


def parse_ref(text: str, where: str) -> PlayerRef:
    """``L1`` → the left team's number 1."""
    m = _REF.match(text.strip())
    if m is None:
        raise CaseError(f"{where}: {text!r} is not a player (L1, R7, …)")
    side: Side = "left" if m.group(1).upper() == "L" else "right"
    return PlayerRef(side, int(m.group(2)))


def is_ref(text: str) -> bool:
    return _REF.match(text.strip()) is not None


def ref_label(ref: PlayerRef) -> str:
    return f"{ref.side[0].upper()}{ref.number}"


def parse_place(value: Any, where: str) -> tuple[int, int]:
    """``"36/2"`` → (36, 2)."""
    m = _PLACE.match(str(value).strip()) if isinstance(value, str) else None
    if m is None:
        raise CaseError(f'{where}: {value!r} is not a place CELL/HEIGHT (e.g. "36/2")')
    return int(m.group(1)), int(m.group(2))


def parse_outcome(value: Any, where: str) -> bool | str:
    """A forced draw's outcome: true/false (yes, no, succeeds, fails) for a
    chance, a name (a player, a direction, a ball, a height) for a pick."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise CaseError(f"{where}: {value!r} is not an outcome")
    word = value.strip()
    if word.lower() in YES:
        return True
    if word.lower() in NO:
        return False
    return word


def parse_player_order(text: Any, ref: PlayerRef, tick: int, where: str) -> PlayerOrder | None:
    """One player's order for one tick; None for ``none`` (he gives no order)."""
    if not isinstance(text, str) or not text.split():
        raise CaseError(f'{where}: an order is a text such as "37/2 pass red 39/2"')
    words = text.split()
    if words == ["none"]:
        return None
    # the second edition's safety spell, said beside any action
    safety = any(w.lower() == "safety" for w in words)
    words = [w for w in words if w.lower() != "safety"]
    cell, height = parse_place(words[0], where)
    action = _action(words[1:], where)
    return PlayerOrder(ref.side, ref.number, tick, cell, height, action, safety=safety)


def _action(words: list[str], where: str) -> Action | None:
    if not words:
        return None
    verb, rest = words[0].lower(), words[1:]
    if verb == "pass":
        if len(rest) not in (2, 4) or (len(rest) == 4 and rest[2].lower() != "spell"):
            raise CaseError(f'{where}: a pass is "pass BALL CELL/HEIGHT [spell SPELL]"')
        cell, height = parse_place(rest[1], where)
        return Pass(rest[0], cell, height, rest[3] if len(rest) == 4 else None)
    if verb == "catch":
        ball: str | None = None
        counter: str | None = None
        if rest and rest[0].lower() != "counter":
            ball, rest = rest[0], rest[1:]
        if rest:
            if len(rest) != 2 or rest[0].lower() != "counter":
                raise CaseError(f'{where}: a catch is "catch [BALL] [counter COUNTER]"')
            counter = rest[1]
        return Catch(ball, counter)
    if verb == "steal":
        if len(rest) != 1:
            raise CaseError(f'{where}: a steal is "steal R3"')
        target = rest[0]
        return Steal(parse_ref(target, where).number if is_ref(target) else _int(target, where))
    raise CaseError(f"{where}: {verb!r} is not pass, catch or steal")


def _int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CaseError(f"{where}: {text!r} is not a number") from None


def parse_dragon_order(text: Any, side: Side, tick: int, where: str) -> DragonOrder:
    """``forward``, ``left``, ``right`` or ``stay``, then ``up``/``down`` (a
    height step) and ``fire short``/``fire volley``."""
    if not isinstance(text, str) or not text.split():
        raise CaseError(f'{where}: a dragon order is a text such as "forward up fire short"')
    words = [w.lower() for w in text.split()]
    move = words.pop(0)
    if move not in DRAGON_MOVES:
        raise CaseError(f"{where}: {move!r} is not one of {', '.join(DRAGON_MOVES)}")
    step = 0
    fire: str | None = None
    direction: Direction | None = None
    strike: str | None = None
    while words:
        w = words.pop(0)
        if w in ("up", "+1"):
            step = 1
        elif w in ("down", "-1"):
            step = -1
        elif w == "fire" and words and words[0] in ALL_FIRE_KINDS:
            fire = words.pop(0)
            if fire == "jet" and words and words[0].upper() in Direction.__members__:
                direction = Direction[words.pop(0).upper()]
        elif w == "strike" and words and words[0] in STRIKE_KINDS:
            strike = words.pop(0)
        else:
            raise CaseError(
                f"{where}: {w!r}: expected up, down, fire short|volley|jet [DIR]|wall"
                " or strike tail|wings"
            )
    dm: DragonMove = move
    fk: FireKind | None = fire  # type: ignore[assignment]
    sk: StrikeKind | None = strike  # type: ignore[assignment]
    return DragonOrder(side, tick, dm, step, fk, direction, sk)
