"""The match position: immutable value types and their versioned JSON form.

A :class:`MatchState` is the whole truth between two ticks; the engine never
mutates one, it builds the next.  ``to_json``/``from_json`` give the stable
form the database stores and the CLI prints (``"version": 1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from .geometry import Direction, Side

STATE_VERSION: Final = 1
LASTING_EFFECTS: Final = ("daze", "sneeze")  # last until the next ball (§1)

# "out": out of the game for good (the second edition: a fall without the
# safety spell, the dome, the flame).
PlayerStatus = Literal["active", "hospital", "swallowed", "reserve", "out"]
# "out": not in this position at all — only hand-built case-book positions
# have such balls (they count as in play for §1's end conditions).
BallStatus = Literal["free", "held", "vanished", "swallowed", "burnt", "out"]
MatchStatus = Literal["playing", "ended"]
PLAYER_STATUSES: Final = ("active", "hospital", "swallowed", "reserve", "out")
Marks = tuple[tuple[str, int], ...]
BALL_STATUSES: Final = ("free", "held", "vanished", "swallowed", "burnt", "out")


class StateError(ValueError):
    """A state document that does not describe a possible position."""


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player by team side and shirt number: what orders and events name."""

    side: Side
    number: int

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "number": self.number}

    @staticmethod
    def from_json(data: dict[str, Any]) -> PlayerRef:
        return PlayerRef(_side(data["side"]), int(data["number"]))


@dataclass(frozen=True, slots=True)
class PlayerState:
    side: Side
    number: int
    name: str
    status: PlayerStatus = "active"
    cell: int | None = None  # None while off the field
    height: int | None = None
    balls: tuple[str, ...] = ()  # ball names held, at most two
    return_round: int | None = None  # hospital: the round whose return tick launches him
    swallowed_by: Side | None = None
    # An edition's own counters, sorted by name (the second edition: where
    # and at which tick a fallen player comes back).  In JSON only when set.
    marks: Marks = ()

    def mark(self, name: str) -> int | None:
        return dict(self.marks).get(name)

    @property
    def ref(self) -> PlayerRef:
        return PlayerRef(self.side, self.number)

    @property
    def on_field(self) -> bool:
        return self.status == "active" and self.cell is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "number": self.number,
            "name": self.name,
            "status": self.status,
            "cell": self.cell,
            "height": self.height,
            "balls": list(self.balls),
            "return_round": self.return_round,
            "swallowed_by": self.swallowed_by,
        } | ({"marks": dict(self.marks)} if self.marks else {})

    @staticmethod
    def from_json(d: dict[str, Any]) -> PlayerState:
        status = d.get("status", "active")
        if status not in PLAYER_STATUSES:
            raise StateError(f"player status {status!r} is not one of {PLAYER_STATUSES}")
        return PlayerState(
            side=_side(d["side"]),
            number=int(d["number"]),
            name=str(d.get("name", "")),
            status=status,
            cell=_opt_int(d.get("cell")),
            height=_opt_int(d.get("height")),
            balls=tuple(str(b) for b in d.get("balls", ())),
            return_round=_opt_int(d.get("return_round")),
            swallowed_by=_opt_side(d.get("swallowed_by")),
            marks=_marks(d.get("marks")),
        )


@dataclass(frozen=True, slots=True)
class BallState:
    name: str  # black, green, blue, red, yellow
    status: BallStatus = "free"
    cell: int | None = None  # free/vanished: where it is; else where it was last
    height: int | None = None
    holder: PlayerRef | None = None  # held: who has it
    direction: Direction | None = None  # free flight direction
    pass_ticks_left: int = 0  # ticks it still keeps a pass's direction (§5)
    spell: str | None = None  # enchanted with this spell (secret, §5)
    enchanted_by: Side | None = None  # the team that enchanted it (secret, §5)
    swallowed_by: Side | None = None  # swallowed: which dragon
    # In the air on a pass (§9: thrown at step 4, lands at step 1 of the next
    # tick): where it will land and who threw it; cell/height are the thrower's.
    pass_to: tuple[int, int] | None = None
    passer: PlayerRef | None = None

    @property
    def in_air(self) -> bool:
        return self.pass_to is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "status": self.status,
            "cell": self.cell,
            "height": self.height,
            "holder": self.holder.to_json() if self.holder else None,
            "direction": self.direction.name if self.direction is not None else None,
            "pass_ticks_left": self.pass_ticks_left,
            "spell": self.spell,
            "enchanted_by": self.enchanted_by,
            "swallowed_by": self.swallowed_by,
        }
        # Only while in the air, so positions written before passes took a
        # tick (ruleset version 1) keep their exact form and digests.
        if self.pass_to is not None:
            out["pass_to"] = {"cell": self.pass_to[0], "height": self.pass_to[1]}
            out["passer"] = self.passer.to_json() if self.passer else None
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> BallState:
        status = d.get("status", "free")
        if status not in BALL_STATUSES:
            raise StateError(f"ball status {status!r} is not one of {BALL_STATUSES}")
        direction = d.get("direction")
        target = d.get("pass_to")
        return BallState(
            name=str(d["name"]),
            status=status,
            cell=_opt_int(d.get("cell")),
            height=_opt_int(d.get("height")),
            holder=PlayerRef.from_json(d["holder"]) if d.get("holder") else None,
            direction=Direction[direction] if direction else None,
            pass_ticks_left=int(d.get("pass_ticks_left", 0)),
            spell=d.get("spell"),
            enchanted_by=_opt_side(d.get("enchanted_by")),
            swallowed_by=_opt_side(d.get("swallowed_by")),
            pass_to=(int(target["cell"]), int(target["height"])) if target else None,
            passer=PlayerRef.from_json(d["passer"]) if target and d.get("passer") else None,
        )


def effect_names(entry: str | None) -> tuple[str, ...]:
    """The effects of one lasting-effect or pending entry: balls swallowed at
    the same moment are one entry, their effects joined by ``+`` (§1)."""
    return tuple(entry.split("+")) if entry else ()


def after_pending(
    effect: str | None, pending: tuple[str, ...]
) -> tuple[str | None, frozenset[str]]:
    """The lasting effect once ``pending`` takes hold (a new ball ends the last
    one's, §1), and every effect the pending entries start."""
    started: set[str] = set()
    for entry in pending:
        names = effect_names(entry)
        effect = "+".join(e for e in names if e in LASTING_EFFECTS) or None
        started.update(names)
    return effect, frozenset(started)


@dataclass(frozen=True, slots=True)
class DragonState:
    side: Side
    head: int
    facing: Direction
    height: int
    mouth_open: bool = True  # as it was during the last tick resolved
    # Lasting effect of the last ball: daze or sneeze ("daze+sneeze" when both
    # balls were swallowed at the same moment).
    effect: str | None = None
    # Start at the next tick (§9.3б); one entry a moment, "+" joining balls
    # swallowed together.
    pending_effects: tuple[str, ...] = ()
    extinguished: bool = False  # blue ball: no fire ever again
    paralysed: bool = False  # yellow ball: never moves again
    short_left: int = 0  # fire budget (§6)
    volleys_left: int = 0
    open_ticks: int = 0  # ticks the mouth stays open to catch breath
    swallowed_players: tuple[PlayerRef, ...] = ()
    swallowed_balls: tuple[str, ...] = ()
    # An edition's own counters, sorted by name (the second edition: a turn
    # under way, when the next jet may come, the deep breath …); in JSON only
    # when set.
    marks: Marks = ()

    def mark(self, name: str) -> int | None:
        return dict(self.marks).get(name)

    @property
    def effects(self) -> tuple[str, ...]:
        """The lasting effects in force (daze, sneeze or both)."""
        return effect_names(self.effect)

    @property
    def dazed(self) -> bool:
        return "daze" in self.effects

    @property
    def sneezing(self) -> bool:
        return "sneeze" in self.effects

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "head": self.head,
            "facing": self.facing.name,
            "height": self.height,
            "mouth_open": self.mouth_open,
            "effect": self.effect,
            "pending_effects": list(self.pending_effects),
            "extinguished": self.extinguished,
            "paralysed": self.paralysed,
            "short_left": self.short_left,
            "volleys_left": self.volleys_left,
            "open_ticks": self.open_ticks,
            "swallowed_players": [p.to_json() for p in self.swallowed_players],
            "swallowed_balls": list(self.swallowed_balls),
        } | ({"marks": dict(self.marks)} if self.marks else {})

    @staticmethod
    def from_json(d: dict[str, Any]) -> DragonState:
        return DragonState(
            side=_side(d["side"]),
            head=int(d["head"]),
            facing=Direction[d["facing"]],
            height=int(d["height"]),
            mouth_open=bool(d.get("mouth_open", True)),
            effect=d.get("effect"),
            pending_effects=tuple(d.get("pending_effects", ())),
            extinguished=bool(d.get("extinguished", False)),
            paralysed=bool(d.get("paralysed", False)),
            short_left=int(d.get("short_left", 0)),
            volleys_left=int(d.get("volleys_left", 0)),
            open_ticks=int(d.get("open_ticks", 0)),
            swallowed_players=tuple(PlayerRef.from_json(p) for p in d.get("swallowed_players", ())),
            swallowed_balls=tuple(str(b) for b in d.get("swallowed_balls", ())),
            marks=_marks(d.get("marks")),
        )


@dataclass(frozen=True, slots=True)
class TeamState:
    side: Side
    name: str
    score: int = 0
    enchanted_left: int = 0
    warnings: int = 0
    warned_round: int | None = None  # the round of the last warning (§10)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "side": self.side,
            "name": self.name,
            "score": self.score,
            "enchanted_left": self.enchanted_left,
            "warnings": self.warnings,
        }
        if self.warned_round is not None:  # absent before warnings were recorded
            out["warned_round"] = self.warned_round
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> TeamState:
        return TeamState(
            side=_side(d["side"]),
            name=str(d.get("name", d["side"])),
            score=int(d.get("score", 0)),
            enchanted_left=int(d.get("enchanted_left", 0)),
            warnings=int(d.get("warnings", 0)),
            warned_round=_opt_int(d.get("warned_round")),
        )


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole position between two ticks.

    ``round`` is the round being played (1-based) and ``tick`` how many of its
    ticks are already resolved (0 before the round starts, 3 when it is over;
    the engine then moves on to ``round + 1, tick 0``).
    """

    ruleset: str
    round: int
    tick: int
    teams: tuple[TeamState, TeamState]
    players: tuple[PlayerState, ...]
    balls: tuple[BallState, ...]
    dragons: tuple[DragonState, DragonState]
    status: MatchStatus = "playing"
    end_reason: str | None = None
    _index: dict[tuple[Side, int], int] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        index = {(p.side, p.number): i for i, p in enumerate(self.players)}
        if len(index) != len(self.players):
            raise StateError("two players share a team and shirt number")
        object.__setattr__(self, "_index", index)

    # -- look-ups -------------------------------------------------------
    def team(self, side: Side) -> TeamState:
        return self.teams[0] if side == "left" else self.teams[1]

    def dragon(self, side: Side) -> DragonState:
        return self.dragons[0] if side == "left" else self.dragons[1]

    def player(self, side: Side, number: int) -> PlayerState:
        try:
            return self.players[self._index[(side, number)]]
        except KeyError:
            raise StateError(f"no player {number} in the {side} team") from None

    def find_player(self, side: Side, number: int) -> PlayerState | None:
        i = self._index.get((side, number))
        return None if i is None else self.players[i]

    def ball(self, name: str) -> BallState:
        for b in self.balls:
            if b.name == name:
                return b
        raise StateError(f"no ball {name!r}")

    def team_players(self, side: Side) -> tuple[PlayerState, ...]:
        return tuple(p for p in self.players if p.side == side)

    @property
    def ended(self) -> bool:
        return self.status == "ended"

    # -- functional updates ---------------------------------------------
    def with_player(self, player: PlayerState) -> MatchState:
        i = self._index[(player.side, player.number)]
        players = self.players[:i] + (player,) + self.players[i + 1 :]
        return replace(self, players=players)

    def with_ball(self, ball: BallState) -> MatchState:
        return replace(self, balls=tuple(ball if b.name == ball.name else b for b in self.balls))

    def with_dragon(self, dragon: DragonState) -> MatchState:
        pair = (dragon, self.dragons[1]) if dragon.side == "left" else (self.dragons[0], dragon)
        return replace(self, dragons=pair)

    def with_team(self, team: TeamState) -> MatchState:
        pair = (team, self.teams[1]) if team.side == "left" else (self.teams[0], team)
        return replace(self, teams=pair)

    # -- JSON -----------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "ruleset": self.ruleset,
            "round": self.round,
            "tick": self.tick,
            "status": self.status,
            "end_reason": self.end_reason,
            "teams": [t.to_json() for t in self.teams],
            "dragons": [d.to_json() for d in self.dragons],
            "players": [p.to_json() for p in self.players],
            "balls": [b.to_json() for b in self.balls],
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> MatchState:
        try:
            version = d.get("version")
            if version != STATE_VERSION:
                raise StateError(
                    f"state version {version!r} is not supported (expected {STATE_VERSION})"
                )
            teams = [TeamState.from_json(t) for t in d["teams"]]
            dragons = [DragonState.from_json(x) for x in d["dragons"]]
            if [t.side for t in teams] != ["left", "right"] or [x.side for x in dragons] != [
                "left",
                "right",
            ]:
                raise StateError("teams and dragons must be listed left, then right")
            status = d.get("status", "playing")
            if status not in ("playing", "ended"):
                raise StateError(f"match status {status!r} is not playing or ended")
            return MatchState(
                ruleset=str(d["ruleset"]),
                round=int(d["round"]),
                tick=int(d["tick"]),
                status=status,
                end_reason=d.get("end_reason"),
                teams=(teams[0], teams[1]),
                dragons=(dragons[0], dragons[1]),
                players=tuple(PlayerState.from_json(p) for p in d["players"]),
                balls=tuple(BallState.from_json(b) for b in d["balls"]),
            )
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"malformed state document: {type(exc).__name__}: {exc}") from None


def _side(value: Any) -> Side:
    if value == "left":
        return "left"
    if value == "right":
        return "right"
    raise StateError(f"side {value!r} is not left or right")


def _opt_side(value: Any) -> Side | None:
    return None if value is None else _side(value)


def _marks(value: Any) -> Marks:
    if not value:
        return ()
    return tuple(sorted((str(k), int(v)) for k, v in dict(value).items()))


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def other_side(side: Side) -> Side:
    return "right" if side == "left" else "left"
