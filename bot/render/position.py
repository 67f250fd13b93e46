"""The moving part of a field picture as a scene: fire, open mouths, dragons,
the tick's flights and passes, players, free balls and the marks of falls.

Everything drawn comes from a :class:`MatchState` and the tick's events; the
hidden parts of a state (spells, the vanished yellow ball's whereabouts) are
never drawn on a public picture.  :func:`position_scene` is painted into the
PNG diagrams (:mod:`bot.render.diagram`) and written as the web page's SVG
(:mod:`bot.render.svg`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.events import Event, Kind
from engine.field import HexField, SquareField, dragon_cells_of, mouth_cells_of
from engine.geometry import SIDES, Direction, Side
from engine.ruleset import Ruleset
from engine.state import BallState, DragonState, MatchState

from .board import HEX_BOARD, Board, board_for
from .course import next_course, pass_landing
from .draw import (
    arrow,
    ball_marker,
    course_trail,
    goal_burst,
    height_badge,
    lost_player,
    player_disc,
    vanished_marker,
)
from .field import draw_cell_number
from .layout import Layout, Point
from .scene import Scene
from .style import (
    BALL_COLOURS,
    DRAGON_COLOURS,
    INK,
    MOUTH_ZONE,
    TEAM_COLOURS,
    TEAM_LIGHT,
    blend,
)
from .values import as_int, as_list, as_side

__all__ = ["fire_cells", "player_label", "position_scene"]

WHITE = (255, 255, 255)

# Pixel unit vector of each direction (pointy-top hexes, rows grow downwards).
_UNIT: dict[Direction, Point] = {
    Direction.E: (1.0, 0.0),
    Direction.SE: (0.5, math.sqrt(3) / 2),
    Direction.SW: (-0.5, math.sqrt(3) / 2),
    Direction.W: (-1.0, 0.0),
    Direction.NW: (-0.5, -math.sqrt(3) / 2),
    Direction.NE: (0.5, -math.sqrt(3) / 2),
}

# Offsets (in hex radii) of n things sharing a cell, and how much to shrink them.
_SLOTS: dict[int, tuple[float, tuple[Point, ...]]] = {
    1: (1.0, ((0.0, 0.0),)),
    2: (0.85, ((-0.42, 0.02), (0.42, 0.02))),
    3: (0.75, ((-0.4, -0.1), (0.4, -0.1), (0.0, 0.34))),
    4: (0.66, ((-0.36, -0.12), (0.36, -0.12), (-0.36, 0.34), (0.36, 0.34))),
}


def _slots(n: int) -> tuple[float, tuple[Point, ...]]:
    if n in _SLOTS:
        return _SLOTS[n]
    # A ring for crowds (five balls at the centre at kick-off).
    angles = [math.radians(-90 + 360 * i / n) for i in range(n)]
    return 0.62, tuple((0.5 * math.cos(a), 0.1 + 0.42 * math.sin(a)) for a in angles)


def player_label(side: Side, number: int) -> str:
    """How a player is named on the page's shapes: ``left:7``."""
    return f"{side}:{number}"


def fire_cells(tick_events: Sequence[Event], board: Board = HEX_BOARD) -> list[int]:
    """The cells a tick's fire reached."""
    return sorted(
        {
            int(c)
            for e in tick_events
            if e.kind is Kind.FIRE
            for c in as_list(e.data.get("cells"))
            if board.is_cell(c)
        }
    )


def position_scene(
    state: MatchState,
    ruleset: Ruleset,
    layout: Layout,
    *,
    tick_events: Sequence[Event] = (),
    previous: MatchState | None = None,
    gm_view: bool = False,
) -> Scene:
    """Everything of ``state`` (and of the tick that led to it) above the still field."""
    layout = layout.for_board(board_for(ruleset))
    scene = Scene()
    burnt = fire_cells(tick_events, layout.board)
    if burnt:
        with scene.layer("fire"):
            _fire(scene, layout, burnt)
    # A state read from elsewhere may be damaged: draw what is on the field.
    # (Dragon shapes come from the ruleset's field: off it, no dragon is drawn.)
    field = ruleset.field
    dragons = [d for d in state.dragons if layout.board.is_cell(d.head) and field.is_cell(d.head)]
    with scene.layer("mouths"):
        for dragon in dragons:
            if dragon.mouth_open:
                for cell in mouth_cells_of(field, dragon):
                    if not layout.board.is_cell(cell):
                        continue
                    with scene.tagged(cell=cell, role="mouth", label=dragon.side):
                        scene.polygon(
                            layout.hexagon(cell, 0.9), outline=MOUTH_ZONE, width=layout.scaled(3)
                        )
    with scene.layer("dragons"):
        for dragon in dragons:
            _dragon(scene, layout, dragon, dragon_cells_of(field, dragon))
    with scene.layer("arrows"):
        _arrows(scene, layout, state, tick_events, previous, gm_view)
    with scene.layer("courses"):
        _courses(scene, layout, state, ruleset)
    with scene.layer("pieces"):
        _cells(scene, layout, state, gm_view, _lost(layout, tick_events, previous))
        _in_air(scene, layout, state)
    with scene.layer("marks"):
        _goals(scene, layout, field, state, tick_events, previous)
    return scene


def _fire(scene: Scene, layout: Layout, cells: Sequence[int]) -> None:
    for cell in cells:
        with scene.tagged(cell=cell, role="fire"):
            scene.polygon(layout.hexagon(cell, 0.97), pattern="fire")
    for cell in cells:
        draw_cell_number(scene, layout, cell, INK, bold=True, stroke=WHITE, stroke_width=2)


def _dragon(
    scene: Scene, layout: Layout, dragon: DragonState, cells: tuple[int, ...] | None
) -> None:
    if cells is None or not all(layout.board.is_cell(c) for c in cells):
        return
    colour = DRAGON_COLOURS[dragon.side]
    tint = blend(TEAM_LIGHT[dragon.side], colour, 0.3)
    for cell, part in zip(cells, ("head", "body", "tail"), strict=True):
        with scene.tagged(cell=cell, role=f"dragon-{part}", label=dragon.side):
            scene.polygon(layout.hexagon(cell), fill=tint, outline=colour, width=2)
    head, body, tail = (layout.centre(c) for c in cells)
    r = layout.radius
    spine = max(4, round(r * 0.3))
    scene.line((tail, body, head), colour, spine, round_joints=True)
    scene.circle(tail, spine * 0.5, fill=colour)
    if dragon.facing in _UNIT and layout.board.shape == "hex":
        ux, uy = _UNIT[dragon.facing]
    else:  # any other field: the head points away from the body
        dx, dy = head[0] - body[0], head[1] - body[1]
        norm = math.hypot(dx, dy) or 1.0
        ux, uy = dx / norm, dy / norm
    px, py = -uy, ux
    hx, hy = head

    def at(forward: float, side: float) -> Point:
        return (hx + (ux * forward + px * side) * r, hy + (uy * forward + py * side) * r)

    if dragon.mouth_open:
        shape = [at(-0.45, -0.42), at(0.72, -0.4), at(0.12, 0.0), at(0.72, 0.4), at(-0.45, 0.42)]
        scene.polygon(shape, fill=colour, outline=INK, width=1)
        scene.polygon([at(0.66, -0.34), at(0.16, 0.0), at(0.66, 0.34)], fill=MOUTH_ZONE)
    else:
        shape = [at(-0.45, -0.42), at(0.35, -0.36), at(0.8, 0.0), at(0.35, 0.36), at(-0.45, 0.42)]
        scene.polygon(shape, fill=colour, outline=INK, width=1)
    for side in (-0.2, 0.2):
        scene.circle(at(-0.1, side), max(2.0, r * 0.07), fill=WHITE)
    bx, by = body
    height_badge(scene, (bx + r * 0.45, by - r * 0.05), dragon.height, max(10.0, r * 0.34))
    for cell in cells:
        draw_cell_number(scene, layout, cell, WHITE, bold=True, stroke=INK, stroke_width=2)


def _arrows(
    scene: Scene,
    layout: Layout,
    state: MatchState,
    events: Sequence[Event],
    previous: MatchState | None,
    gm_view: bool,
) -> None:
    r = layout.radius
    head = r * 0.34
    if previous is not None:
        for side in SIDES:
            before, after = previous.dragon(side), state.dragon(side)
            if (
                before.head != after.head
                and layout.board.is_cell(before.head)
                and layout.board.is_cell(after.head)
            ):
                arrow(
                    scene,
                    layout.centre(before.head),
                    _short(layout, before.head, after.head, 0.45),
                    DRAGON_COLOURS[side],
                    width=layout.scaled(5),
                    head=head,
                    outline=WHITE,
                )
    for e in events:
        d = e.data
        if e.kind is Kind.PLAYER_MOVE:
            who = as_side(d.get("side"))
            start, end = d.get("from_cell"), d.get("cell")
            if start is None and previous is not None and who is not None:
                p = previous.find_player(who, as_int(d.get("number")))
                start = p.cell if p else None
            if (
                who is not None
                and layout.board.is_cell(start)
                and layout.board.is_cell(end)
                and start != end
            ):
                side = who
                arrow(
                    scene,
                    _short(layout, end, start, 0.3),
                    _short(layout, start, end, 0.42),
                    TEAM_COLOURS[side],
                    width=layout.scaled(5),
                    head=head,
                    outline=WHITE,
                )
        elif e.kind is Kind.BALL_MOVE:
            start, end = d.get("from_cell"), d.get("cell")
            visible = d.get("visible", True)
            if (
                (visible or gm_view)
                and layout.board.is_cell(start)
                and layout.board.is_cell(end)
                and start != end
            ):
                arrow(
                    scene,
                    layout.centre(start),
                    _short(layout, start, end, 0.3),
                    BALL_COLOURS.get(str(d.get("ball")), INK),
                    width=layout.scaled(3),
                    head=head * 0.8,
                    outline=INK,
                    dashed=not visible,
                )
        elif e.kind in (Kind.PASS, Kind.PASS_LANDS):
            # The throw on its tick, and (passes landing a tick later) the
            # same flight again on the tick it comes down.
            start, end = d.get("from_cell"), d.get("cell")
            if layout.board.is_cell(start) and layout.board.is_cell(end) and start != end:
                arrow(
                    scene,
                    _short(layout, end, start, 0.2),
                    _short(layout, start, end, 0.3),
                    BALL_COLOURS.get(str(d.get("ball")), INK),
                    width=layout.scaled(5),
                    head=head,
                    outline=INK,
                    dashed=True,
                )


def _short(layout: Layout, start: int, end: int, by: float) -> Point:
    """The centre of ``end`` pulled back towards ``start`` by ``by`` hex radii."""
    ax, ay = layout.centre(start)
    bx, by_ = layout.centre(end)
    length = math.hypot(bx - ax, by_ - ay) or 1.0
    k = by * layout.radius / length
    return (bx - (bx - ax) * k, by_ - (by_ - ay) * k)


Lost = tuple[Side, int, bool]  # side, shirt number, swallowed (else fell)


def _cells(
    scene: Scene,
    layout: Layout,
    state: MatchState,
    gm_view: bool,
    lost: dict[int, list[Lost]],
) -> None:
    """Players, those who fell or were swallowed this tick, and free balls,
    grouped by cell: each gets a place of its own, nothing hides another."""
    content: dict[int, list[tuple[str, Any]]] = {}
    for p in sorted(state.players, key=lambda p: (-(p.height or 0), p.side, p.number)):
        if p.on_field and layout.board.is_cell(p.cell):
            content.setdefault(p.cell, []).append(("player", p))
    for cell, people in lost.items():
        content.setdefault(cell, []).extend(("lost", who) for who in people)
    for b in state.balls:
        if not layout.board.is_cell(b.cell) or _airborne(layout, b) is not None:
            continue
        if b.status == "free" or (b.status == "vanished" and gm_view):
            content.setdefault(b.cell, []).append(("ball", b))
    for cell, things in content.items():
        scale, slots = _slots(len(things))
        cx, cy = layout.content_centre(cell)
        r = layout.radius
        s = scale * layout.scale
        for (kind, thing), (ox, oy) in zip(things, slots, strict=True):
            at = (cx + ox * r, cy + oy * r)
            if kind == "player":
                with scene.tagged(
                    cell=cell, role="player", label=player_label(thing.side, thing.number)
                ):
                    player_disc(
                        scene,
                        at,
                        colour=TEAM_COLOURS[thing.side],
                        number=thing.number,
                        height=thing.height,
                        balls=thing.balls,
                        scale=s,
                    )
            elif kind == "lost":
                side, number, swallowed = thing
                role = "swallowed" if swallowed else "fallen"
                with scene.tagged(cell=cell, role=role, label=player_label(side, number)):
                    lost_player(
                        scene,
                        at,
                        colour=TEAM_COLOURS[side],
                        number=number,
                        scale=s,
                        swallowed=swallowed,
                    )
            elif thing.status == "vanished":
                with scene.tagged(cell=cell, role="ball", label=thing.name):
                    vanished_marker(scene, at, 10.0 * s, thing.height)
            else:
                # Balls shrink less than players: their figure must stay legible.
                with scene.tagged(cell=cell, role="ball", label=thing.name):
                    ball_marker(scene, at, thing.name, 9.5 * max(s, 0.8), thing.height)


def _airborne(layout: Layout, ball: BallState) -> tuple[Point, int, int] | None:
    """A ball in the air on a pass, drawn on its way: the point half-way from
    the thrower's cell to where it lands, and the landing cell and height.
    None for a ball on a cell (a pass to the thrower's own cell lies there)."""
    landing = pass_landing(ball)
    if landing is None or not layout.board.is_cell(ball.cell):
        return None
    cell, height = landing
    if cell == ball.cell or not layout.board.is_cell(cell):
        return None
    (ax, ay), (bx, by) = layout.centre(ball.cell), layout.content_centre(cell)
    return ((ax + bx) / 2, (ay + by) / 2), cell, height


def _in_air(scene: Scene, layout: Layout, state: MatchState) -> None:
    for b in state.balls:
        air = _airborne(layout, b)
        if air is None:
            continue
        at, cell, height = air
        with scene.tagged(cell=cell, role="ball", label=b.name):
            ball_marker(scene, at, b.name, 9.5 * max(layout.scale, 0.8), height)


def _lost(
    layout: Layout, events: Sequence[Event], previous: MatchState | None
) -> dict[int, list[Lost]]:
    """Where each player who fell or was swallowed this tick was when it happened."""
    where: dict[tuple[Side | None, int], int] = {}
    for e in events:
        cell = e.data.get("cell")
        if e.kind in (Kind.PLAYER_MOVE, Kind.PLAYER_LAUNCH) and layout.board.is_cell(cell):
            where[(as_side(e.data.get("side")), as_int(e.data.get("number")))] = cell
    out: dict[int, list[Lost]] = {}
    seen: set[tuple[Side, int]] = set()
    for e in events:
        if e.kind not in (Kind.FALL, Kind.PLAYER_SWALLOWED):
            continue
        side, number = as_side(e.data.get("side")), as_int(e.data.get("number"))
        if side is None or (side, number) in seen:
            continue
        cell = e.data.get("cell") if e.kind is Kind.FALL else where.get((side, number))
        if cell is None and previous is not None:
            p = previous.find_player(side, number)
            cell = p.cell if p else None
        if not layout.board.is_cell(cell):
            continue
        seen.add((side, number))
        out.setdefault(cell, []).append((side, number, e.kind is Kind.PLAYER_SWALLOWED))
    return out


def _courses(scene: Scene, layout: Layout, state: MatchState, ruleset: Ruleset) -> None:
    """Each free ball's next flight (docs/rules.md §3: its course is drawn in
    advance), as far as the dome."""
    for b in state.balls:
        air = _airborne(layout, b)
        if air is not None:  # in the air on a pass: to the ring where it lands
            at, cell, _ = air
            with scene.tagged(cell=cell, role="course", label=b.name):
                course_trail(
                    scene,
                    [at, layout.content_centre(cell)],
                    BALL_COLOURS.get(b.name, INK),
                    dot=3.0 * layout.scale,
                    ring=layout.radius * 0.62,
                )
            continue
        course = next_course(b, ruleset)
        if course is None or not course.cells:
            continue
        cells = (course.start, *course.cells)
        if not all(layout.board.is_cell(c) for c in cells):
            continue
        points = [layout.content_centre(c) for c in cells]
        with scene.tagged(cell=course.cells[-1], role="course", label=b.name):
            course_trail(
                scene,
                points,
                BALL_COLOURS.get(b.name, INK),
                dot=3.0 * layout.scale,
                ring=layout.radius * 0.62,  # round a piece standing there
            )


def _goals(
    scene: Scene,
    layout: Layout,
    field: HexField | SquareField,
    state: MatchState,
    events: Sequence[Event],
    previous: MatchState | None,
) -> None:
    """A gold star with the points by the head of the dragon that swallowed a
    goal, on the side of the head where it covers no piece; two goals into
    one dragon in a tick (two passes landing in its mouth) get a star each,
    side by side."""
    busy = _busy_cells(layout, state, events, previous)
    for e in events:
        if e.kind is not Kind.GOAL:
            continue
        side = as_side(e.data.get("dragon"))
        if side is None:
            continue
        dragon = state.dragon(side)
        head = dragon.head
        if not layout.board.is_cell(head) or not field.is_cell(head):
            continue
        r = layout.radius
        spot, beside = _goal_spot(layout, field, dragon, busy)
        with scene.tagged(cell=head, role="goal", label=str(e.data.get("ball"))):
            goal_burst(scene, spot, as_int(e.data.get("points")), r * 0.62)
        # The star covers the near half of that neighbour: the next goal's
        # star goes elsewhere (it was drawn on the same spot, hiding this one).
        busy[beside] = busy.get(beside, 0) + 1


def _goal_spot(
    layout: Layout, field: HexField | SquareField, dragon: DragonState, busy: dict[int, int]
) -> tuple[Point, int]:
    """Towards the neighbour of the head with the fewest pieces (never the
    dragon's own body): the star covers the near half of that cell, which is
    returned with the spot.  Among equally free ones, above the head first,
    then beside it (right before left), below it last."""
    hx, hy = layout.centre(dragon.head)
    r = layout.radius
    body = set(dragon_cells_of(field, dragon) or ())
    best: tuple[int, float, float, int] | None = None
    for cell in field.neighbours(dragon.head):
        if cell in body or not layout.board.is_cell(cell):
            continue
        cx, cy = layout.centre(cell)
        score = (busy.get(cell, 0), round(cy - hy, 1), round(hx - cx, 1), cell)
        best = score if best is None or score < best else best
    if best is None:
        return (hx + r * 0.9, hy - r * 0.7), dragon.head
    cx, cy = layout.centre(best[3])
    return (hx + (cx - hx) * 0.7, hy + (cy - hy) * 0.7), best[3]


def _busy_cells(
    layout: Layout, state: MatchState, events: Sequence[Event], previous: MatchState | None
) -> dict[int, int]:
    """How many pieces each cell shows: players, those lost this tick, balls."""
    busy: dict[int, int] = {}
    cells = [p.cell for p in state.players if p.on_field]
    cells += [b.cell for b in state.balls if b.status == "free" and pass_landing(b) is None]
    cells += [c for c, who in _lost(layout, events, previous).items() for _ in who]
    for cell in cells:
        if cell is not None and layout.board.is_cell(cell):
            busy[cell] = busy.get(cell, 0) + 1
    return busy
