"""A round as pictures: a PNG per tick and an animated GIF."""

from __future__ import annotations

import io

import pytest
from PIL import Image
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
