"""Orders: what teams (and game masters) ask the engine to do in a round.

These are plain values; the order language (outside the engine) parses text
into them and prints them back, and :mod:`engine.legality` checks them
against a position.  Ticks are numbered 1..ticks_per_round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .geometry import Direction, Side
from .state import PlayerRef, StateError, _side

DragonMove = Literal["forward", "left", "right", "stay"]
# short/volley: the classic flames (§6); jet/wall: the second edition's flame
# jet around the head and fire wall ahead (seed 001).
FireKind = Literal["short", "volley", "jet", "wall"]
StrikeKind = Literal["tail", "wings"]
DRAGON_MOVES: tuple[DragonMove, ...] = ("forward", "left", "right", "stay")
FIRE_KINDS: tuple[FireKind, ...] = ("short", "volley")  # the classic flames
SQUARE_FIRE_KINDS: tuple[FireKind, ...] = ("jet", "wall")  # the second edition's
ALL_FIRE_KINDS: tuple[FireKind, ...] = FIRE_KINDS + SQUARE_FIRE_KINDS
STRIKE_KINDS: tuple[StrikeKind, ...] = ("tail", "wings")


class OrdersError(ValueError):
    """An orders document that cannot be read at all (not a legality problem)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass ``ball`` to ``cell`` at ``height``; ``spell`` enchants it (§5)."""

    ball: str
    cell: int
    height: int
    spell: str | None = None


@dataclass(frozen=True, slots=True)
class Steal:
    """Try to take a ball from the opponent with shirt ``target`` (§4)."""

    target: int


@dataclass(frozen=True, slots=True)
class Catch:
    """Try to catch ``ball`` (or the best one in reach), saying ``counter`` (§4, §5)."""

    ball: str | None = None
    counter: str | None = None


Action = Pass | Steal | Catch


@dataclass(frozen=True, slots=True)
class PlayerOrder:
    """One player's flight and action for one tick.

    For a player launching from the hospital on the return tick, ``cell`` and
    ``height`` are where he launches (§2).
    """

    side: Side
    number: int
    tick: int
    cell: int
    height: int
    action: Action | None = None
    description: str = ""
    # The second edition's safety spell «чебурыхнус-парашутис», said in case
    # he falls this tick (seed 001): he comes back next round.
    safety: bool = False

    @property
    def ref(self) -> PlayerRef:
        return PlayerRef(self.side, self.number)


@dataclass(frozen=True, slots=True)
class DragonOrder:
    side: Side
    tick: int
    move: DragonMove = "stay"
    height_step: int = 0  # -1, 0 or +1
    fire: FireKind | None = None
    # The second edition (seed 001): the jet's direction, a tail or wing strike.
    fire_direction: Direction | None = None
    strike: StrikeKind | None = None


@dataclass(frozen=True, slots=True)
class Substitution:
    """A reserve comes on for a player (§8), before the round's first tick."""

    side: Side
    out_number: int
    in_number: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """A game master's penalty throw-in (§10) against ``side`` at ``tick``."""

    side: Side
    tick: int


@dataclass(frozen=True, slots=True)
class TeamWarning:
    """A game master's warning to ``side`` (§10), given during this round: a
    penalty throw-in may follow in the next round."""

    side: Side


@dataclass(frozen=True, slots=True)
class RoundOrders:
    """Everything ordered for one round, both teams and the game master."""

    players: tuple[PlayerOrder, ...] = ()
    dragons: tuple[DragonOrder, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    warnings: tuple[TeamWarning, ...] = ()

    def player_order(self, side: Side, number: int, tick: int) -> PlayerOrder | None:
        for o in self.players:
            if o.side == side and o.number == number and o.tick == tick:
                return o
        return None

    def dragon_order(self, side: Side, tick: int) -> DragonOrder | None:
        for o in self.dragons:
            if o.side == side and o.tick == tick:
                return o
        return None

    def for_side(self, side: Side) -> RoundOrders:
        """Only what one team ordered (penalties are the game master's)."""
        return RoundOrders(
            players=tuple(o for o in self.players if o.side == side),
            dragons=tuple(o for o in self.dragons if o.side == side),
            substitutions=tuple(s for s in self.substitutions if s.side == side),
        )

    def merged(self, other: RoundOrders) -> RoundOrders:
        """``other``'s orders replace ours for the same player/dragon and tick."""
        p_keys = {(o.side, o.number, o.tick) for o in other.players}
        d_keys = {(o.side, o.tick) for o in other.dragons}
        s_keys = {(s.side, s.out_number) for s in other.substitutions}
        return RoundOrders(
            players=tuple(o for o in self.players if (o.side, o.number, o.tick) not in p_keys)
            + other.players,
            dragons=tuple(o for o in self.dragons if (o.side, o.tick) not in d_keys)
            + other.dragons,
            substitutions=tuple(
                s for s in self.substitutions if (s.side, s.out_number) not in s_keys
            )
            + other.substitutions,
            penalties=self.penalties + other.penalties,
            warnings=self.warnings + other.warnings,
        )

    def sorted(self) -> RoundOrders:
        """A canonical order, so equal order sets compare and print equal."""
        return RoundOrders(
            players=tuple(sorted(self.players, key=lambda o: (o.side, o.tick, o.number))),
            dragons=tuple(sorted(self.dragons, key=lambda o: (o.side, o.tick))),
            substitutions=tuple(sorted(self.substitutions, key=lambda s: (s.side, s.out_number))),
            penalties=tuple(sorted(self.penalties, key=lambda p: (p.tick, p.side))),
            warnings=tuple(sorted(self.warnings, key=lambda w: w.side)),
        )

    # -- JSON -----------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": [_player_order_json(o) for o in self.players],
            "dragons": [_dragon_order_json(o) for o in self.dragons],
            "substitutions": [
                {"side": s.side, "out": s.out_number, "in": s.in_number} for s in self.substitutions
            ],
            "penalties": [{"side": p.side, "tick": p.tick} for p in self.penalties],
        }
        if self.warnings:  # absent from documents written before warnings were orders
            out["warnings"] = [{"side": w.side} for w in self.warnings]
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> RoundOrders:
        try:
            return RoundOrders(
                players=tuple(_player_order_from_json(o) for o in d.get("players", ())),
                dragons=tuple(
                    DragonOrder(
                        side=_side(o["side"]),
                        tick=int(o["tick"]),
                        move=_choice(o.get("move", "stay"), DRAGON_MOVES, "dragon move"),
                        height_step=int(o.get("height_step", 0)),
                        fire=None
                        if o.get("fire") is None
                        else _choice(o["fire"], ALL_FIRE_KINDS, "fire"),
                        fire_direction=None
                        if o.get("fire_direction") is None
                        else Direction[_choice(o["fire_direction"], _DIRS, "fire direction")],
                        strike=None
                        if o.get("strike") is None
                        else _choice(o["strike"], STRIKE_KINDS, "strike"),
                    )
                    for o in d.get("dragons", ())
                ),
                substitutions=tuple(
                    Substitution(_side(s["side"]), int(s["out"]), int(s["in"]))
                    for s in d.get("substitutions", ())
                ),
                penalties=tuple(
                    Penalty(_side(p["side"]), int(p["tick"])) for p in d.get("penalties", ())
                ),
                warnings=tuple(TeamWarning(_side(w["side"])) for w in d.get("warnings", ())),
            )
        except (KeyError, TypeError, ValueError, StateError) as exc:
            raise OrdersError(f"malformed orders document: {exc}") from None


_DIRS: tuple[str, ...] = tuple(d.name for d in Direction)


def _dragon_order_json(o: DragonOrder) -> dict[str, Any]:
    out: dict[str, Any] = {
        "side": o.side,
        "tick": o.tick,
        "move": o.move,
        "height_step": o.height_step,
        "fire": o.fire,
    }
    # Only when given, so classic documents keep their exact form.
    if o.fire_direction is not None:
        out["fire_direction"] = o.fire_direction.name
    if o.strike is not None:
        out["strike"] = o.strike
    return out


def _choice(value: Any, allowed: tuple[Any, ...], what: str) -> Any:
    if value not in allowed:
        raise OrdersError(f"{what} {value!r} is not one of {', '.join(map(str, allowed))}")
    return value


def _player_order_json(o: PlayerOrder) -> dict[str, Any]:
    action: dict[str, Any] | None
    match o.action:
        case Pass(ball, cell, height, spell):
            action = {"type": "pass", "ball": ball, "cell": cell, "height": height, "spell": spell}
        case Steal(target):
            action = {"type": "steal", "target": target}
        case Catch(ball, counter):
            action = {"type": "catch", "ball": ball, "counter": counter}
        case None:
            action = None
    out: dict[str, Any] = {
        "side": o.side,
        "number": o.number,
        "tick": o.tick,
        "cell": o.cell,
        "height": o.height,
        "action": action,
    }
    if o.description:
        out["description"] = o.description
    if o.safety:
        out["safety"] = True
    return out


def _player_order_from_json(o: dict[str, Any]) -> PlayerOrder:
    a = o.get("action")
    action: Action | None
    if a is None:
        action = None
    elif a["type"] == "pass":
        action = Pass(str(a["ball"]), int(a["cell"]), int(a["height"]), a.get("spell"))
    elif a["type"] == "steal":
        action = Steal(int(a["target"]))
    elif a["type"] == "catch":
        action = Catch(a.get("ball"), a.get("counter"))
    else:
        raise OrdersError(f"action type {a['type']!r} is not pass, steal or catch")
    return PlayerOrder(
        side=_side(o["side"]),
        number=int(o["number"]),
        tick=int(o["tick"]),
        cell=int(o["cell"]),
        height=int(o["height"]),
        action=action,
        description=str(o.get("description", "")),
        safety=bool(o.get("safety", False)),
    )
