"""A round as pictures: one PNG per tick and an animated GIF of the round."""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.events import Event
from engine.ruleset import Ruleset
from engine.state import MatchState

from .diagram import paletted, png_bytes, render_position, shared_palette
from .layout import LAYOUT, Layout
from .panel import tick_title

__all__ = ["FRAME_MS", "RoundPictures", "render_round"]

# How long each GIF frame shows: the start, each tick, and the last one longer.
FRAME_MS = {"start": 1500, "tick": 2500, "last": 4000}
# zlib level of a round's tick pictures: a fifth smaller than the still's 3 for
# about 30 ms more a picture (benchmarks/render_bench.py).
ROUND_PNG_LEVEL = 6


@dataclass(frozen=True)
class RoundPictures:
    """``ticks``: a PNG per resolved tick; ``gif``: the start position first,
    then one frame per tick (so ``len(ticks) + 1`` frames)."""

    ticks: tuple[bytes, ...]
    gif: bytes


def render_round(
    states_before_and_after: Sequence[MatchState],
    events: Sequence[Event],
    ruleset: Ruleset,
    *,
    lang: str = "ru",
    gm_view: bool = False,
    layout: Layout = LAYOUT,
) -> RoundPictures:
    """Pictures of a round from the state before it and the state after each
    tick (``[before, after_tick_1, after_tick_2, ...]``) and the round's events."""
    states = list(states_before_and_after)
    if not states:
        raise ValueError("render_round needs at least the state before the round")
    before = states[0]
    frames = [render_position(before, ruleset, gm_view=gm_view, lang=lang, layout=layout)]
    for previous, state in itertools.pairwise(states):
        # A state's round/tick names the tick just resolved, except after a
        # round's last tick, when the engine has moved on to (round + 1, 0).
        tick = state.tick if state.tick > 0 else ruleset.ticks_per_round
        rnd = state.round if state.tick > 0 else state.round - 1
        tick_events = [e for e in events if e.round == rnd and e.tick == tick]
        frames.append(
            render_position(
                state,
                ruleset,
                tick_events=tick_events,
                previous=previous,
                gm_view=gm_view,
                lang=lang,
                title=tick_title(rnd, tick, lang),
                layout=layout,
            )
        )
    palette = shared_palette(frames)
    images = [paletted(f, palette) for f in frames]
    # Drawn once a round in the outbox worker: worth a little more compression.
    ticks = tuple(png_bytes(f, compress_level=ROUND_PNG_LEVEL) for f in images[1:])
    return RoundPictures(ticks, gif_bytes(images))


def gif_bytes(frames: Sequence[Image.Image]) -> bytes:
    """An endlessly looping GIF of the frames (one palette for all of them).

    Each frame after the first stores only the pixels that changed: Pillow's
    ``optimize`` makes the rest the palette's spare index (the palettes have
    255 colours, so there is one), transparent, and the frame before shows
    through (disposal 1).  A tick moves players and balls all over the field,
    so this halves the file against whole frames; the frames look the same."""
    images = [paletted(f, None if f.mode == "P" else shared_palette(frames)) for f in frames]
    durations = [FRAME_MS["start"]] + [FRAME_MS["tick"]] * (len(frames) - 1)
    if len(frames) > 1:
        durations[-1] = FRAME_MS["last"]
    out = io.BytesIO()
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()
