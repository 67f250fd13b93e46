"""The ruleset: every number of the rule book as validated, typed data.

The engine reads probabilities, counts, speeds and positions only from a
:class:`Ruleset`; the classic one lives in ``engine/rulesets/classic.toml``.
A broken file raises :class:`RulesetError` naming the key at fault.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from . import geometry
from .field import HexField, SquareField, field_of
from .geometry import Direction, Side

BALLS: Final = ("black", "green", "blue", "red", "yellow")
EFFECTS: Final = (
    "daze",
    "sneeze",
    "extinguish",
    "pepper",
    "paralyse",
    # the second edition's (seed 001)
    "daze_zone",
    "spit",
    "gape",
    "sleep",
)
PASS_FLIGHTS: Final = ("next_tick", "same_tick")
SIMULTANEOUS_SWALLOWS: Final = ("together", "in_hand_order")


class RulesetError(ValueError):
    """A ruleset file is missing a key or holds a value the rules cannot have."""


@dataclass(frozen=True, slots=True)
class BallRules:
    name: str
    name_ru: str
    colour_ru: str
    value: int
    speed: int
    effect: str
    max_pass_distance: int
    vanish_probability: float


@dataclass(frozen=True, slots=True)
class SpellPair:
    spell: str
    counter: str
    spell_ru: str
    counter_ru: str


@dataclass(frozen=True, slots=True)
class CatchRules:
    first_same_cell_same_height: float
    first_same_cell_other_height: float
    first_adjacent: float
    second_same_cell_same_height: float
    second_same_cell_other_height: float
    second_adjacent: float
    max_balls_held: int
    adjacent_max_height_diff: int


@dataclass(frozen=True, slots=True)
class StealRules:
    one_same_cell_free_hands: float
    one_same_cell_holding: float
    one_adjacent_free_hands: float
    one_adjacent_holding: float
    two_same_cell_free_hands: float
    two_same_cell_holding: float
    two_adjacent_free_hands: float
    two_adjacent_holding: float
    adjacent_max_height_diff: int
    # Team-mates who all succeed against one holder, more of them than he has
    # balls: "draw" (version 3) a fair draw among them; "shirt_order"
    # (version 2, the key absent) the first in shirt order.
    contested: str


@dataclass(frozen=True, slots=True)
class DragonStart:
    head: int
    facing: Direction


@dataclass(frozen=True, slots=True)
class DragonRules:
    start_height: int
    start_left: DragonStart
    start_right: DragonStart
    body_knock_probability: float
    body_same_height_falls: bool
    head_closed_knock_probability: float
    swallow_same_cell_same_height: float
    swallow_same_cell_other_height: float
    swallow_adjacent: float
    adjacent_max_height_diff: int
    ball_swallow_same_height: float
    ball_swallow_other_height: float
    ball_swallow_adjacent: float
    stay_opens_mouth: bool
    height_step_is_a_move: bool
    paralysed_stay_opens_mouth: bool
    paralysed_height: int
    knock_survivor_loses_actions: bool  # §9.3а: "as a collision with a player"
    simultaneous_swallows: str  # "together" (§1) or "in_hand_order" (version 1)

    def start(self, side: Side) -> DragonStart:
        return self.start_left if side == "left" else self.start_right


@dataclass(frozen=True, slots=True)
class FireRules:
    short_cells_depth: int
    volley_cells_depth: int
    short_budget: int
    volley_budget: int
    open_after_short: int
    open_after_volley: int
    height_reach: int
    random_fire_probability: float
    burns_free_balls: bool


@dataclass(frozen=True, slots=True)
class Ruleset:
    """All the numbers of one edition of the rules, at one version.

    ``digest`` is the SHA-256 of the data this version plays by (the file with
    its ``[history]`` overlay applied, ``title`` and ``history`` left out): a
    round records it, so a later change to a released version is seen.
    """

    name: str
    title: str
    version: int
    digest: str
    ticks_per_round: int
    max_rounds: int
    end_when_decided: bool
    # §1 "all players swallowed": "field" (version 3) counts the players who are
    # not reserves; "all" (version 2, the key absent) counts every player
    team_swallowed: str
    players_per_team: int
    reserves_per_team: int
    player_speed: int
    player_height_step: int
    dragon_speed: int
    dragon_height_step: int
    min_height: int
    max_height: int
    ball_order: tuple[str, ...]
    ball_start_cell: int
    balls: dict[str, BallRules]
    pass_min_distance: int
    pass_max_distance: int
    keep_direction_ticks: int
    pass_flight: str  # "next_tick": thrown at step 4, lands at step 1 next tick
    enchanted_per_team: int
    spells: tuple[SpellPair, ...]
    catch: CatchRules
    steal: StealRules
    collision_second_falls: float
    hospital_rounds_per_height: int
    hospital_return_tick: int
    reentry_left: tuple[int, ...]
    reentry_right: tuple[int, ...]
    dragon: DragonRules
    fire: FireRules
    throw_in_cell: int
    max_throw_ins_per_tick: int
    penalty_every_held_ball: bool  # §10: one a tick until the team holds none
    penalty_needs_warning: bool  # §10: only after a warning in the round before
    setup_left: tuple[int, ...]
    setup_right: tuple[int, ...]
    setup_height: int
    # A pass that names no height flies at the thrower's height ("thrower"), or
    # is refused until the height is written ("none"): an order-language reading.
    pass_default_height: str = "thrower"
    # A substitute flies the orders of the player he replaces for the ticks he
    # has none of his own (§8, interpretation; the judge applies it to the sheet).
    substitute_takes_orders: bool = True
    # The field: the classic 13-row hex field, or (a later edition) a square grid.
    field_shape: str = "hex"
    field_rows: int = len(geometry.ROW_LENGTHS)
    field_columns: int = max(geometry.ROW_LENGTHS)
    # The steps of a tick, by name (engine.resolution.pipeline); the classic
    # ruleset names none and plays CLASSIC_STEPS.
    steps: tuple[str, ...] = ()
    # The mechanics of an edition that are not numbers of the classic tables
    # (seed 001's strikes, fire shapes, races …), as read from its file.
    extra: Any = None

    @property
    def field(self) -> HexField | SquareField:
        """The field this edition plays on (engine.field)."""
        return field_of(self.field_shape, self.field_rows, self.field_columns)

    def reentry(self, side: Side) -> tuple[int, ...]:
        return self.reentry_left if side == "left" else self.reentry_right

    def setup_cells(self, side: Side) -> tuple[int, ...]:
        return self.setup_left if side == "left" else self.setup_right

    def counter_for(self, spell: str) -> str | None:
        for pair in self.spells:
            if pair.spell == spell:
                return pair.counter
        return None

    @property
    def spell_names(self) -> tuple[str, ...]:
        return tuple(p.spell for p in self.spells)

    @property
    def counter_names(self) -> tuple[str, ...]:
        return tuple(p.counter for p in self.spells)

    @property
    def heights(self) -> tuple[int, ...]:
        return tuple(range(self.min_height, self.max_height + 1))

    def pass_range(self, ball: str) -> int:
        return self.balls[ball].max_pass_distance

    @property
    def passes_next_tick(self) -> bool:
        """§9 (interpretation): a pass is thrown at step 4 and lands at step 1
        of the next tick; otherwise (version 1) it flies and lands at step 1."""
        return self.pass_flight == "next_tick"

    @property
    def label(self) -> str:
        """``name@version``, as rounds record it."""
        return f"{self.name}@{self.version}"


class _Reader:
    """Reads typed values from nested TOML tables, naming the key on failure."""

    def __init__(
        self, data: dict[str, Any], prefix: str = "", field: HexField | SquareField | None = None
    ) -> None:
        self._data = data
        self._prefix = prefix
        self.field = field if field is not None else field_of("hex", 0, 0)

    def _key(self, key: str) -> str:
        return f"{self._prefix}{key}"

    def _get(self, key: str) -> Any:
        if key not in self._data:
            raise RulesetError(f"ruleset key {self._key(key)}: missing")
        return self._data[key]

    def table(self, key: str) -> _Reader:
        value = self._get(key)
        if not isinstance(value, dict):
            raise RulesetError(f"ruleset key {self._key(key)}: expected a table")
        return _Reader(value, f"{self._key(key)}.", self.field)

    def has(self, key: str) -> bool:
        return key in self._data

    def str_(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str) or not value:
            raise RulesetError(f"ruleset key {self._key(key)}: expected a non-empty string")
        return value

    def int_(self, key: str, low: int = 0, high: int = 10**6) -> int:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesetError(
                f"ruleset key {self._key(key)}: expected a whole number from {low} to {high}"
            )
        return value

    def prob(self, key: str) -> float:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise RulesetError(f"ruleset key {self._key(key)}: expected a probability from 0 to 1")
        return float(value)

    def bool_(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise RulesetError(f"ruleset key {self._key(key)}: expected true or false")
        return value

    def cells(self, key: str) -> tuple[int, ...]:
        value = self._get(key)
        if not isinstance(value, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) and self.field.is_cell(c) for c in value
        ):
            raise RulesetError(
                f"ruleset key {self._key(key)}: expected a list of cells 1..{self.field.cell_count}"
            )
        return tuple(value)

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        value = self.str_(key)
        if value not in allowed:
            raise RulesetError(
                f"ruleset key {self._key(key)}: expected one of {', '.join(allowed)}"
            )
        return value

    def direction(self, key: str) -> Direction:
        value = self.str_(key)
        try:
            return Direction[value]
        except KeyError:
            names = ", ".join(d.name for d in Direction)
            raise RulesetError(f"ruleset key {self._key(key)}: expected one of {names}") from None


def ruleset_versions(data: dict[str, Any]) -> tuple[int, ...]:
    """The versions a ruleset document can play: its own and its history's."""
    current = data.get("version")
    history = data.get("history", {})
    older = sorted(int(k) for k in history) if isinstance(history, dict) else []
    return (*older, current) if isinstance(current, int) else tuple(older)


def at_version(data: dict[str, Any], version: int | None) -> dict[str, Any]:
    """The document as version ``version`` played it: ``[history.N]`` maps
    dotted keys ("passes.flight") to the values version N had; its
    ``added_later`` lists the keys a later version added, which version N had
    not (so its data, and the digest its rounds recorded, stay as they were)."""
    current = data.get("version")
    out = {k: v for k, v in data.items() if k != "history"}
    if version is None or version == current:
        return out
    history = data.get("history", {})
    overlay = history.get(str(version)) if isinstance(history, dict) else None
    if not isinstance(overlay, dict):
        name = data.get("name", "?")
        raise RulesetError(f"ruleset {name} has no version {version}")
    out = copy.deepcopy(out)
    added = overlay.get("added_later", [])
    if not isinstance(added, list) or not all(isinstance(k, str) for k in added):
        raise RulesetError(f"ruleset key history.{version}.added_later: expected a list of keys")
    changes = [(k, v, False) for k, v in overlay.items() if k != "added_later"]
    for dotted, value, drop in [*changes, *((k, None, True) for k in added)]:
        *path, last = dotted.split(".")
        table: Any = out
        for part in path:
            table = table.get(part)
            if not isinstance(table, dict):
                raise RulesetError(f"ruleset key history.{version}.{dotted}: no such table")
        if last not in table:
            raise RulesetError(f"ruleset key history.{version}.{dotted}: no such key")
        if drop:
            del table[last]
        else:
            table[last] = value
    out["version"] = version
    return out


def data_digest(data: dict[str, Any]) -> str:
    """SHA-256 of a ruleset document's rule data (title and history aside)."""
    body = {k: v for k, v in data.items() if k not in ("title", "history")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_ruleset(data: dict[str, Any], version: int | None = None) -> Ruleset:
    """Build a validated :class:`Ruleset` from a parsed TOML document, at its
    own version or at an older ``version`` listed in its history."""
    data = at_version(data, version)
    shape = _field(_Reader(data))
    field = field_of(
        shape.get("field_shape", "hex"), shape.get("field_rows", 0), shape.get("field_columns", 0)
    )
    root = _Reader(data, "", field)
    match = root.table("match")
    movement = root.table("movement")
    balls_t = root.table("balls")
    passes = root.table("passes")
    catch_t = root.table("catch")
    steal_t = root.table("steal")
    hospital = root.table("hospital")
    dragon_t = root.table("dragon")
    fire_t = root.table("fire")
    penalty = root.table("penalty")
    setup = root.table("setup")

    max_height = movement.int_("max_height", 1, 9)
    min_height = movement.int_("min_height", 1, max_height)
    order_raw = balls_t._get("order")
    if not isinstance(order_raw, list) or sorted(order_raw) != sorted(BALLS):
        raise RulesetError(f"ruleset key balls.order: expected the five balls {', '.join(BALLS)}")
    pass_max = passes.int_("max_distance", 1, 20)
    balls: dict[str, BallRules] = {}
    for ball in BALLS:
        b = balls_t.table(ball)
        effect = b.str_("effect")
        if effect not in EFFECTS:
            raise RulesetError(f"ruleset key balls.{ball}.effect: expected one of {EFFECTS}")
        balls[ball] = BallRules(
            name=ball,
            name_ru=b.str_("name_ru"),
            colour_ru=b.str_("colour_ru"),
            value=b.int_("value", 0, 1000),
            speed=b.int_("speed", 0, 10),
            effect=effect,
            max_pass_distance=b.int_("max_pass_distance", 1, pass_max)
            if b.has("max_pass_distance")
            else pass_max,
            vanish_probability=b.prob("vanish_probability") if b.has("vanish_probability") else 0.0,
        )
    spells_raw = passes._get("spells")
    if not isinstance(spells_raw, list) or not spells_raw:
        raise RulesetError("ruleset key passes.spells: expected a list of spell tables")
    spells = []
    for i, item in enumerate(spells_raw):
        if not isinstance(item, dict):
            raise RulesetError(f"ruleset key passes.spells[{i}]: expected a table")
        s = _Reader(item, f"passes.spells[{i}].")
        spells.append(
            SpellPair(s.str_("spell"), s.str_("counter"), s.str_("spell_ru"), s.str_("counter_ru"))
        )

    def starts(key: str) -> DragonStart:
        t = dragon_t.table(key)
        return DragonStart(head=t.int_("head", 1, field.cell_count), facing=t.direction("facing"))

    ruleset = Ruleset(
        name=root.str_("name"),
        title=root.str_("title"),
        version=root.int_("version", 1),
        digest=data_digest(data),
        ticks_per_round=match.int_("ticks_per_round", 1, 10),
        max_rounds=match.int_("max_rounds", 1, 10_000),
        end_when_decided=match.bool_("end_when_decided"),
        team_swallowed=(
            match.choice("team_swallowed", ("field", "all"))
            if match.has("team_swallowed")
            else "all"
        ),
        players_per_team=match.int_("players_per_team", 1, 21),
        reserves_per_team=match.int_("reserves_per_team", 0, 21),
        substitute_takes_orders=(
            match.bool_("substitute_takes_orders") if match.has("substitute_takes_orders") else True
        ),
        player_speed=movement.int_("player_speed", 1, 1),
        player_height_step=movement.int_("player_height_step", 0, 9),
        dragon_speed=movement.int_("dragon_speed", 1, 1),
        dragon_height_step=movement.int_("dragon_height_step", 0, 9),
        min_height=min_height,
        max_height=max_height,
        ball_order=tuple(order_raw),
        ball_start_cell=balls_t.int_("start_cell", 1, field.cell_count),
        balls=balls,
        pass_min_distance=passes.int_("min_distance", 0, pass_max),
        pass_max_distance=pass_max,
        keep_direction_ticks=passes.int_("keep_direction_ticks", 0, 100),
        pass_flight=passes.choice("flight", PASS_FLIGHTS),
        enchanted_per_team=passes.int_("enchanted_per_team", 0, 1000),
        pass_default_height=(
            passes.choice("default_height", ("thrower", "none"))
            if passes.has("default_height")
            else "thrower"
        ),
        spells=tuple(spells),
        catch=CatchRules(
            first_same_cell_same_height=catch_t.prob("first_same_cell_same_height"),
            first_same_cell_other_height=catch_t.prob("first_same_cell_other_height"),
            first_adjacent=catch_t.prob("first_adjacent"),
            second_same_cell_same_height=catch_t.prob("second_same_cell_same_height"),
            second_same_cell_other_height=catch_t.prob("second_same_cell_other_height"),
            second_adjacent=catch_t.prob("second_adjacent"),
            max_balls_held=catch_t.int_("max_balls_held", 1, 5),
            adjacent_max_height_diff=catch_t.int_("adjacent_max_height_diff", 0, 9),
        ),
        steal=StealRules(
            **{
                k: steal_t.prob(k)
                for k in (
                    "one_same_cell_free_hands",
                    "one_same_cell_holding",
                    "one_adjacent_free_hands",
                    "one_adjacent_holding",
                    "two_same_cell_free_hands",
                    "two_same_cell_holding",
                    "two_adjacent_free_hands",
                    "two_adjacent_holding",
                )
            },
            adjacent_max_height_diff=steal_t.int_("adjacent_max_height_diff", 0, 9),
            contested=(
                steal_t.choice("contested", ("draw", "shirt_order"))
                if steal_t.has("contested")
                else "shirt_order"
            ),
        ),
        collision_second_falls=root.table("collision").prob("second_falls"),
        hospital_rounds_per_height=hospital.int_("rounds_per_height", 0, 100),
        hospital_return_tick=hospital.int_("return_tick", 1, 10),
        reentry_left=hospital.cells("reentry_left"),
        reentry_right=hospital.cells("reentry_right"),
        dragon=DragonRules(
            start_height=dragon_t.int_("start_height", min_height, max_height),
            start_left=starts("start_left"),
            start_right=starts("start_right"),
            body_knock_probability=dragon_t.prob("body_knock_probability"),
            body_same_height_falls=dragon_t.bool_("body_same_height_falls"),
            head_closed_knock_probability=dragon_t.prob("head_closed_knock_probability"),
            swallow_same_cell_same_height=dragon_t.prob("swallow_same_cell_same_height"),
            swallow_same_cell_other_height=dragon_t.prob("swallow_same_cell_other_height"),
            swallow_adjacent=dragon_t.prob("swallow_adjacent"),
            adjacent_max_height_diff=dragon_t.int_("adjacent_max_height_diff", 0, 9),
            ball_swallow_same_height=dragon_t.prob("ball_swallow_same_height"),
            ball_swallow_other_height=dragon_t.prob("ball_swallow_other_height"),
            ball_swallow_adjacent=dragon_t.prob("ball_swallow_adjacent"),
            stay_opens_mouth=dragon_t.bool_("stay_opens_mouth"),
            height_step_is_a_move=dragon_t.bool_("height_step_is_a_move"),
            paralysed_stay_opens_mouth=dragon_t.bool_("paralysed_stay_opens_mouth"),
            paralysed_height=dragon_t.int_("paralysed_height", min_height, max_height),
            knock_survivor_loses_actions=dragon_t.bool_("knock_survivor_loses_actions"),
            simultaneous_swallows=dragon_t.choice("simultaneous_swallows", SIMULTANEOUS_SWALLOWS),
        ),
        fire=FireRules(
            short_cells_depth=fire_t.int_("short_cells_depth", 1, 10),
            volley_cells_depth=fire_t.int_("volley_cells_depth", 1, 10),
            short_budget=fire_t.int_("short_budget", 0, 1000),
            volley_budget=fire_t.int_("volley_budget", 0, 1000),
            open_after_short=fire_t.int_("open_after_short", 0, 10),
            open_after_volley=fire_t.int_("open_after_volley", 0, 10),
            height_reach=fire_t.int_("height_reach", 0, 9),
            random_fire_probability=fire_t.prob("random_fire_probability"),
            burns_free_balls=fire_t.bool_("burns_free_balls"),
        ),
        throw_in_cell=penalty.int_("throw_in_cell", 1, field.cell_count),
        max_throw_ins_per_tick=penalty.int_("max_throw_ins_per_tick", 1, 5),
        penalty_every_held_ball=penalty.bool_("every_held_ball"),
        penalty_needs_warning=penalty.bool_("needs_warning"),
        setup_left=setup.cells("left_cells"),
        setup_right=setup.cells("right_cells"),
        setup_height=setup.int_("start_height", min_height, max_height),
        **shape,
        steps=_steps(root),
        extra=data.get("variant"),
    )
    _check_variant(data.get("variant"))
    if field.shape == "hex":
        _check_positions(ruleset)
    return ruleset


# The [variant] settings that choose between rulings (the rest are numbers and
# zones the 001 steps read as they are).
_VARIANT_CHOICES: Final = {
    "own_cell_catch": ("any_height", "within_own_height"),
    "penalties": ("classic", "none"),
    "thrown_onto_dragon": ("swallowed", "next_tick"),
    "ball_move_east": ("named", "none"),
    "put_back_onto": ("swallowed", "next_tick"),
    "knockback_way": ("way_in", "tick_start"),
    "gape_head_balls": ("certain", "die"),
    "race_two_balls": ("certain", "die"),
}


def _check_variant(extra: Any) -> None:
    if not isinstance(extra, dict):
        return
    for key, allowed in _VARIANT_CHOICES.items():
        if key in extra and extra[key] not in allowed:
            raise RulesetError(f"ruleset key variant.{key}: expected one of {', '.join(allowed)}")


def _steps(root: _Reader) -> tuple[str, ...]:
    """The optional ``[resolution] steps``: the names of a tick's steps in
    order (checked against the known steps when the ruleset is resolved)."""
    if not root.has("resolution"):
        return ()
    raw = root.table("resolution")._get("steps")
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        raise RulesetError("ruleset key resolution.steps: expected a list of step names")
    return tuple(raw)


def _field(root: _Reader) -> dict[str, Any]:
    """The optional ``[field]`` table: ``shape`` (hex or square), ``rows``, ``columns``."""
    if not root.has("field"):
        return {}
    t = root.table("field")
    shape = t.str_("shape") if t.has("shape") else "hex"
    if shape == "hex":
        # The engine knows one hex field; its size is not a setting.
        if t.has("rows") or t.has("columns"):
            raise RulesetError("ruleset key field.rows: the hex field has a fixed size")
        return {"field_shape": shape}
    if shape != "square":
        raise RulesetError(f"ruleset key field.shape: expected hex or square, not {shape!r}")
    return {
        "field_shape": shape,
        "field_rows": t.int_("rows", 2, 100),
        "field_columns": t.int_("columns", 2, 100),
    }


def _check_positions(r: Ruleset) -> None:
    for side in geometry.SIDES:
        start = r.dragon.start(side)
        cells = geometry.dragon_cells(start.head, start.facing)
        key = f"dragon.start_{side}"
        if cells is None or any(geometry.half_of(c) != side or geometry.is_edge(c) for c in cells):
            raise RulesetError(
                f"ruleset key {key}: the dragon must lie on its own half, off edge cells"
            )
        setup = r.setup_cells(side)
        if len(setup) < r.players_per_team:
            raise RulesetError(
                f"ruleset key setup.{side}_cells: needs {r.players_per_team} cells, has {len(setup)}"
            )
        if any(geometry.half_of(c) != side for c in setup):
            raise RulesetError(
                f"ruleset key setup.{side}_cells: every cell must be on the {side} half"
            )
        if any(geometry.half_of(c) != side for c in r.reentry(side)):
            raise RulesetError(
                f"ruleset key hospital.reentry_{side}: every cell must be on the {side} half"
            )


def load_ruleset_file(path: Path, version: int | None = None) -> Ruleset:
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise RulesetError(f"ruleset file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"ruleset file {path}: not valid TOML: {exc}") from None
    return parse_ruleset(data, version)


@cache
def _shipped(name: str) -> dict[str, Any]:
    if not name.replace("-", "_").isidentifier():
        raise RulesetError(f"unknown ruleset: {name!r}")
    resource = resources.files("engine.rulesets").joinpath(f"{name}.toml")
    if not resource.is_file():
        raise RulesetError(f"unknown ruleset: {name!r}")
    try:
        return tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"ruleset {name}: not valid TOML: {exc}") from None


@cache
def load_ruleset(name: str = "classic", version: int | None = None) -> Ruleset:
    """A ruleset shipped with the engine, by name (``classic``), at its
    current version or at an older released ``version``."""
    return parse_ruleset(copy.deepcopy(_shipped(name)), version)


def load_ruleset_label(label: str) -> Ruleset:
    """``classic`` (the current version) or ``classic@1`` (an older one)."""
    name, _, version = label.partition("@")
    if version and not version.isdigit():
        raise RulesetError(f"ruleset {label!r}: the version after @ is a number")
    return load_ruleset(name, int(version) if version else None)


def shipped_versions(name: str) -> tuple[int, ...]:
    """The versions of a shipped ruleset that can be loaded."""
    return ruleset_versions(_shipped(name))
