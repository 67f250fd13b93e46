"""Draw the second edition's lost pictures as the engine reads them
(docs/rules-001-zones-ru.md, rules-001-zones-en.md): the tail's and the
wings' zone (001 4.7), the jet's (picture 1, 4.16), the fire wall's
(picture 2, 4.19) and the cells a turn sweeps (4.4).

Each zone is not copied from the ruleset but played: the engine resolves
one tick of the dragon striking, breathing or turning, and the cells its
``strike``, ``fire`` and ``turn_zone`` events name are drawn on the judge's
own field picture (the cells keep their numbers, so a referee can name the
cell he disputes).  Run from the repository root after a change to a zone:

    python docs/images/rules_001_zones.py
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from bot.render.board import board_for
from bot.render.diagram import png_bytes, render_position
from bot.render.layout import LAYOUT, Layout
from bot.render.style import INK, font
from engine.events import Event, Kind
from engine.geometry import Direction
from engine.orders import DragonOrder, RoundOrders
from engine.resolve import resolve_tick
from engine.ruleset import Ruleset, load_ruleset
from engine.setup import new_match
from engine.state import BallState, DragonState, MatchState

HERE = Path(__file__).resolve().parent
RULESET = "variant-001"
HEAD, FACING = 110, Direction.E  # the left dragon, tail 108, body 109, head 110
TAIL_GREEN = (60, 170, 75)  # 001: «отмечены зеленым - зона поражения хвостом,
WINGS_PINK = (235, 110, 170)  # розовым - крыльями»
SWEEP = (120, 120, 200)

CAPTIONS = {
    "strike": {
        "ru": "Удары: зелёный — хвост, розовый — крылья (001, 4.7)",
        "en": "Strikes: green — the tail, pink — the wings (001, 4.7)",
    },
    "jet": {
        "ru": "Рисунок 1: струя — одна из этих клеток, по приказу (001, 4.16)",
        "en": "Picture 1: the jet — one of these cells, as ordered (001, 4.16)",
    },
    "wall": {
        "ru": "Рисунок 2: огненный вал (001, 4.19)",
        "en": "Picture 2: the fire wall (001, 4.19)",
    },
    "turn": {
        "ru": "Поворот налево за 3 такта: зона поражения (001, 4.4)",
        "en": "A left turn over 3 ticks: the damage zone (001, 4.4)",
    },
}


def position(rules: Ruleset) -> MatchState:
    """Only the left dragon, mid-field; the other parked far off; the balls
    out of the way (as a case's unnamed balls are), so the match goes on."""
    state, _ = new_match(rules, "zones", players_per_team=1)
    # the mouth shut: its zone is not what these pictures show
    left = DragonState("left", HEAD, FACING, rules.dragon.start_height, mouth_open=False)
    right = DragonState("right", 199, Direction.W, rules.dragon.start_height)
    return MatchState(
        ruleset=rules.name,
        round=1,
        tick=0,
        teams=state.teams,
        players=(),
        balls=tuple(BallState(name, "out") for name in rules.ball_order),
        dragons=(left, right),
    )


def play(state: MatchState, rules: Ruleset, orders: Sequence[DragonOrder]) -> list[Event]:
    events: list[Event] = []
    for order in orders:
        result = resolve_tick(state, RoundOrders(dragons=(order,)), rules, "zones")
        events += result.events
        state = result.state
    return events


def cells(events: Iterable[Event], kind: Kind, **match: str) -> list[int]:
    return sorted(
        {
            int(c)
            for e in events
            if e.kind is kind and all(e.data.get(k) == v for k, v in match.items())
            for c in e.data.get("cells", ())
        }
    )


def zones(rules: Ruleset) -> dict[str, dict[str, list[int]]]:
    """Each picture's cells by colour, as the engine plays them."""
    state = position(rules)
    tail = cells(play(state, rules, [DragonOrder("left", 1, strike="tail")]), Kind.STRIKE)
    wings = cells(play(state, rules, [DragonOrder("left", 1, strike="wings")]), Kind.STRIKE)
    jet: set[int] = set()
    for d in Direction:
        order = DragonOrder("left", 1, fire="jet", fire_direction=d)
        jet |= set(cells(play(state, rules, [order]), Kind.FIRE))
    wall = cells(play(state, rules, [DragonOrder("left", 1, fire="wall")]), Kind.FIRE)
    turn = [DragonOrder("left", t, move="left") for t in (1, 2, 3)]
    swept = cells(play(state, rules, turn), Kind.TURN_ZONE)
    return {
        "strike": {"tail": tail, "wings": wings},
        "jet": {"fire": sorted(jet)},
        "wall": {"fire": wall},
        "turn": {"sweep": swept},
    }


def picture(rules: Ruleset, name: str, parts: dict[str, list[int]], lang: str) -> Image.Image:
    layout = LAYOUT.for_board(board_for(rules))
    state = position(rules)
    fire = list(parts.get("fire", ()))
    event = Event(1, 1, 4, Kind.FIRE, {"side": "left", "fire": "jet", "cells": fire})
    image = render_position(state, rules, tick_events=[event] if fire else (), lang=lang)
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    colours = {"tail": TAIL_GREEN, "wings": WINGS_PINK, "sweep": SWEEP}
    for part, colour in colours.items():
        for cell in parts.get(part, ()):
            draw.polygon(layout.hexagon(cell, 0.92), fill=(*colour, 150), outline=(*colour, 255))
    image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    return _cropped(image, layout, [c for p in parts.values() for c in p], CAPTIONS[name][lang])


def _cropped(image: Image.Image, layout: Layout, shown: list[int], caption: str) -> Image.Image:
    """The part of the field round the dragon and its zone, under a caption."""
    dragon = [HEAD - 2, HEAD - 1, HEAD]
    points = [layout.centre(c) for c in [*shown, *dragon]]
    pad = layout.hex_width * 2.5
    left = max(0, int(min(x for x, _ in points) - pad))
    top = max(0, int(min(y for _, y in points) - pad))
    right = min(image.width, int(max(x for x, _ in points) + pad))
    bottom = min(image.height, int(max(y for _, y in points) + pad))
    part = image.crop((left, top, right, bottom))
    head = layout.scaled(44)
    face = font(layout.scaled(22), bold=True)
    width = int(face.getlength(caption)) + 24
    out = Image.new("RGB", (max(part.width, width), part.height + head), (255, 255, 255))
    out.paste(part, ((out.width - part.width) // 2, head))
    ImageDraw.Draw(out).text((12, head / 2), caption, font=face, fill=INK, anchor="lm")
    return out


def main() -> None:
    rules = load_ruleset(RULESET)
    for name, parts in zones(rules).items():
        print(name, parts)
        for lang in ("ru", "en"):
            path = HERE / f"zone-001-{name}-{lang}.png"
            path.write_bytes(png_bytes(picture(rules, name, parts, lang)))
            print(f"wrote {path.name}")


if __name__ == "__main__":
    main()
