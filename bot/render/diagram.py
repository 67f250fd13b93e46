"""The field picture of a position, with a tick's movements, passes and fire.

Everything drawn comes from a :class:`MatchState` and the tick's events; the
hidden parts of a state (spells, the vanished yellow ball's whereabouts) are
never drawn on a public picture.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine import geometry
from engine.events import Event, Kind
from engine.geometry import SIDES, Direction, Side
from engine.ruleset import Ruleset
from engine.state import DragonState, MatchState

from .draw import (
    arrow,
    ball_marker,
    centred_text,
    cross,
    height_badge,
    player_disc,
    vanished_marker,
)
from .field import field_background, hatch
from .layout import LAYOUT, Layout, Point
from .names import check_lang
from .panel import draw_header, draw_panel
from .style import (
    BALL_COLOURS,
    DRAGON_COLOURS,
    INK,
    MOUTH_ZONE,
    TEAM_COLOURS,
    TEAM_LIGHT,
    blend,
    font,
)
from .values import as_int, as_list, as_side, is_cell

__all__ = ["MAX_BYTES", "paletted", "png_bytes", "render_position", "shared_palette"]

MAX_BYTES = 1_000_000
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


def render_position(
    state: MatchState,
    ruleset: Ruleset,
    *,
    tick_events: Sequence[Event] = (),
    previous: MatchState | None = None,
    gm_view: bool = False,
    lang: str = "ru",
    title: str | None = None,
    layout: Layout = LAYOUT,
) -> Image.Image:
    """The picture of ``state``; with the events of the tick that led to it
    (and the position before it) also that tick's flights, passes and fire."""
    check_lang(lang)
    image = field_background(layout, ruleset, lang)
    draw = ImageDraw.Draw(image)
    fire_cells = sorted(
        {
            int(c)
            for e in tick_events
            if e.kind is Kind.FIRE
            for c in as_list(e.data.get("cells"))
            if is_cell(c)
        }
    )
    if fire_cells:
        _fire(image, layout, fire_cells)
        draw = ImageDraw.Draw(image)
    # A state read from elsewhere may be damaged: draw what is on the field.
    dragons = [d for d in state.dragons if is_cell(d.head)]
    for dragon in dragons:
        if dragon.mouth_open:
            for cell in geometry.mouth_cells(dragon.head, dragon.facing):
                draw.polygon(layout.hexagon(cell, 0.9), outline=MOUTH_ZONE, width=layout.scaled(3))
    for dragon in dragons:
        _dragon(draw, layout, dragon)
    _arrows(draw, layout, state, tick_events, previous, gm_view)
    _cells(draw, layout, state, gm_view)
    _lost_marks(draw, layout, tick_events, previous)
    draw_header(draw, layout, state, lang, title)
    draw_panel(draw, layout, state, lang, gm_view)
    return image


def paletted(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """The picture in 256 colours: the pictures are flat colour, so nothing
    visible is lost and PNG and GIF both get small and fast to write.  With
    ``palette`` (see :func:`shared_palette`) it is mapped onto those colours."""
    if image.mode == "P":
        return image
    if palette is None:
        palette = shared_palette([image])
    return image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def shared_palette(images: Sequence[Image.Image], step: int = 3) -> Image.Image:
    """One 256-colour palette for several pictures (the frames of a round).

    Built from every ``step``-th pixel of each: the colours of a field
    picture come in areas, so a sample finds them all, at a fraction of the
    cost of quantizing each picture on its own."""
    w, h = images[0].size
    sw, sh = max(1, w // step), max(1, h // step)
    sheet = Image.new("RGB", (sw, sh * len(images)))
    for i, image in enumerate(images):
        small = image.convert("RGB").resize((sw, sh), Image.Resampling.NEAREST)
        sheet.paste(small, (0, i * sh))
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image) -> bytes:
    """An optimised PNG: a 256-colour palette, or full colour if the palette
    would somehow not keep it under :data:`MAX_BYTES` and full colour does better."""
    out = io.BytesIO()
    paletted(image).save(out, format="PNG", optimize=False, compress_level=3)
    data = out.getvalue()
    if len(data) > MAX_BYTES and image.mode != "P":
        full = io.BytesIO()
        image.save(full, format="PNG", optimize=True)
        if len(full.getvalue()) < len(data):
            data = full.getvalue()
    return data


def _fire(image: Image.Image, layout: Layout, cells: Sequence[int]) -> None:
    mask = Image.new("L", image.size, 0)
    mdraw = ImageDraw.Draw(mask)
    for cell in cells:
        mdraw.polygon(layout.hexagon(cell, 0.97), fill=255)
    image.paste(hatch(layout), (0, 0), mask)
    draw = ImageDraw.Draw(image)
    for cell in cells:
        cx, cy = layout.centre(cell)
        centred_text(
            draw,
            (cx, cy - layout.radius * 0.6),
            str(cell),
            font(layout.scaled(13), bold=True),
            INK,
            WHITE,
            2,
        )


def _dragon(draw: ImageDraw.ImageDraw, layout: Layout, dragon: DragonState) -> None:
    cells = geometry.dragon_cells(dragon.head, dragon.facing)
    if cells is None:
        return
    colour = DRAGON_COLOURS[dragon.side]
    tint = blend(TEAM_LIGHT[dragon.side], colour, 0.3)
    for cell in cells:
        draw.polygon(layout.hexagon(cell), fill=tint, outline=colour, width=2)
    head, body, tail = (layout.centre(c) for c in cells)
    r = layout.radius
    spine = max(4, round(r * 0.3))
    draw.line((tail, body, head), fill=colour, width=spine, joint="curve")
    draw.ellipse(
        (
            tail[0] - spine * 0.5,
            tail[1] - spine * 0.5,
            tail[0] + spine * 0.5,
            tail[1] + spine * 0.5,
        ),
        fill=colour,
    )
    ux, uy = _UNIT[dragon.facing]
    px, py = -uy, ux
    hx, hy = head

    def at(forward: float, side: float) -> Point:
        return (hx + (ux * forward + px * side) * r, hy + (uy * forward + py * side) * r)

    if dragon.mouth_open:
        shape = [at(-0.45, -0.42), at(0.72, -0.4), at(0.12, 0.0), at(0.72, 0.4), at(-0.45, 0.42)]
        draw.polygon(shape, fill=colour, outline=INK, width=1)
        draw.polygon([at(0.66, -0.34), at(0.16, 0.0), at(0.66, 0.34)], fill=MOUTH_ZONE)
    else:
        shape = [at(-0.45, -0.42), at(0.35, -0.36), at(0.8, 0.0), at(0.35, 0.36), at(-0.45, 0.42)]
        draw.polygon(shape, fill=colour, outline=INK, width=1)
    for side in (-0.2, 0.2):
        ex, ey = at(-0.1, side)
        e = max(2.0, r * 0.07)
        draw.ellipse((ex - e, ey - e, ex + e, ey + e), fill=WHITE)
    bx, by = body
    height_badge(draw, (bx + r * 0.45, by - r * 0.05), dragon.height, max(10.0, r * 0.34))
    for cell in cells:
        cx, cy = layout.centre(cell)
        centred_text(
            draw, (cx, cy - r * 0.6), str(cell), font(layout.scaled(13), bold=True), WHITE, INK, 2
        )


def _arrows(
    draw: ImageDraw.ImageDraw,
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
            if before.head != after.head and is_cell(before.head) and is_cell(after.head):
                arrow(
                    draw,
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
            if who is not None and is_cell(start) and is_cell(end) and start != end:
                side = who
                arrow(
                    draw,
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
            if (visible or gm_view) and is_cell(start) and is_cell(end) and start != end:
                arrow(
                    draw,
                    layout.centre(start),
                    _short(layout, start, end, 0.3),
                    BALL_COLOURS.get(str(d.get("ball")), INK),
                    width=layout.scaled(3),
                    head=head * 0.8,
                    outline=INK,
                    dashed=not visible,
                )
        elif e.kind is Kind.PASS:
            start, end = d.get("from_cell"), d.get("cell")
            if is_cell(start) and is_cell(end) and start != end:
                arrow(
                    draw,
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


def _cells(draw: ImageDraw.ImageDraw, layout: Layout, state: MatchState, gm_view: bool) -> None:
    """Players and free balls, grouped by cell."""
    content: dict[int, list[tuple[str, Any]]] = {}
    for p in sorted(state.players, key=lambda p: (-(p.height or 0), p.side, p.number)):
        if p.on_field and is_cell(p.cell):
            content.setdefault(p.cell, []).append(("player", p))
    for b in state.balls:
        if not is_cell(b.cell):
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
                player_disc(
                    draw,
                    at,
                    colour=TEAM_COLOURS[thing.side],
                    number=thing.number,
                    height=thing.height,
                    balls=thing.balls,
                    scale=s,
                )
            elif thing.status == "vanished":
                vanished_marker(draw, at, 10.0 * s, thing.height)
            else:
                # Balls shrink less than players: their figure must stay legible.
                ball_marker(draw, at, thing.name, 9.5 * max(s, 0.8), thing.height)


def _lost_marks(
    draw: ImageDraw.ImageDraw, layout: Layout, events: Sequence[Event], previous: MatchState | None
) -> None:
    """A cross where a player fell or was swallowed this tick, with his number."""
    where: dict[tuple[Side | None, int], int] = {}
    for e in events:
        cell = e.data.get("cell")
        if e.kind in (Kind.PLAYER_MOVE, Kind.PLAYER_LAUNCH) and is_cell(cell):
            where[(as_side(e.data.get("side")), as_int(e.data.get("number")))] = cell
    small = font(layout.scaled(12), bold=True)
    for e in events:
        if e.kind not in (Kind.FALL, Kind.PLAYER_SWALLOWED):
            continue
        side, number = as_side(e.data.get("side")), as_int(e.data.get("number"))
        if side is None:
            continue
        cell = e.data.get("cell") if e.kind is Kind.FALL else where.get((side, number))
        if cell is None and previous is not None:
            p = previous.find_player(side, number)
            cell = p.cell if p else None
        if not is_cell(cell):
            continue
        cx, cy = layout.centre(cell)
        at = (cx - layout.radius * 0.5, cy - layout.radius * 0.28)
        colour = TEAM_COLOURS[side]
        cross(draw, at, layout.radius * 0.16, colour)
        centred_text(
            draw, (at[0], at[1] + layout.radius * 0.3), str(number), small, colour, WHITE, 2
        )
