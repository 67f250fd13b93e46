"""A round as pictures: a PNG per tick and an animated GIF."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops
from render_fixtures import load_round

from bot.render import MAX_BYTES, render_round
from bot.render.animation import FRAME_MS
from engine.ruleset import Ruleset
from engine.state import MatchState


@pytest.mark.parametrize("gm_view", [False, True])
def test_recorded_round_gives_a_picture_per_tick_and_a_four_frame_gif(
    ruleset: Ruleset, gm_view: bool
) -> None:
    rec = load_round("recorded_round.json")
    pictures = render_round(rec.states, rec.events, ruleset, gm_view=gm_view)
    assert len(pictures.ticks) == 3
    for data in pictures.ticks:
        assert len(data) < MAX_BYTES
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        assert image.width >= 1280
    assert len(pictures.gif) < MAX_BYTES
    gif = Image.open(io.BytesIO(pictures.gif))
    assert gif.format == "GIF"
    assert gif.n_frames == 4  # the start position, then one frame per tick
    assert gif.width >= 1280
    durations = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        durations.append(gif.info["duration"])
    assert durations == [FRAME_MS["start"], FRAME_MS["tick"], FRAME_MS["tick"], FRAME_MS["last"]]


def test_a_round_cut_short_has_fewer_frames(ruleset: Ruleset) -> None:
    rec = load_round("recorded_round.json")
    pictures = render_round(rec.states[:2], rec.events, ruleset, lang="en")
    assert len(pictures.ticks) == 1
    assert Image.open(io.BytesIO(pictures.gif)).n_frames == 2


def test_nothing_to_draw_is_a_clear_error(ruleset: Ruleset, opening: MatchState) -> None:
    with pytest.raises(ValueError, match="at least the state before the round"):
        render_round([], [], ruleset)
    only_start = render_round([opening], [], ruleset)
    assert only_start.ticks == ()
    assert Image.open(io.BytesIO(only_start.gif)).n_frames == 1


def test_each_gif_frame_shows_exactly_its_tick_s_picture_storing_only_the_changes(
    ruleset: Ruleset,
) -> None:
    rec = load_round("recorded_round.json")
    pictures = render_round(rec.states, rec.events, ruleset)
    gif = Image.open(io.BytesIO(pictures.gif))
    for tick, png in enumerate(pictures.ticks, start=1):
        gif.seek(tick)
        shown = gif.convert("RGB")
        expected = Image.open(io.BytesIO(png)).convert("RGB")
        assert ImageChops.difference(shown, expected).getbbox() is None, tick


def test_a_frame_stores_only_the_pixels_that_changed(ruleset: Ruleset, opening: MatchState) -> None:
    from render_positions import place

    from bot.render.animation import gif_bytes
    from bot.render.diagram import paletted, render_position, shared_palette

    # Two changes at opposite corners: the box around them is the whole field.
    moved = place(place(opening, "left", 1, 1, 2), "right", 1, 211, 2)
    frames = [render_position(opening, ruleset), render_position(moved, ruleset)]
    palette = shared_palette(frames)
    images = [paletted(f, palette) for f in frames]
    ours = gif_bytes(images)
    whole = io.BytesIO()
    images[0].save(
        whole, format="GIF", save_all=True, append_images=images[1:], disposal=1, optimize=False
    )
    assert len(ours) < len(whole.getvalue()) * 0.75
    gif = Image.open(io.BytesIO(ours))
    gif.seek(1)
    assert ImageChops.difference(gif.convert("RGB"), images[1].convert("RGB")).getbbox() is None
