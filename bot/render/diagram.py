"""The field picture of a position as a PNG, with a tick's movements, passes and fire.

The field is the scene of :mod:`bot.render.field` and :mod:`bot.render.position`
painted with Pillow (the web page writes the same scene as SVG); the header and
the panel under the field are drawn here, for the picture only.  The hidden
parts of a state are never drawn on a public picture.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t
from engine.events import Event
from engine.ruleset import Ruleset
from engine.state import MatchState

from .board import board_for
from .field import field_background, hatch_step
from .layout import LAYOUT, Layout
from .names import check_lang
from .paint import paint
from .panel import draw_header, draw_panel
from .position import position_scene
from .style import INK, font

__all__ = [
    "MAX_BYTES",
    "paletted",
    "png_bytes",
    "render_field",
    "render_position",
    "shared_palette",
]

MAX_BYTES = 1_000_000


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
    layout = layout.for_board(board_for(ruleset))
    image = field_background(layout, ruleset, lang)
    scene = position_scene(
        state, ruleset, layout, tick_events=tick_events, previous=previous, gm_view=gm_view
    )
    paint(image, scene.shapes, hatch_step(layout))
    draw = ImageDraw.Draw(image)
    draw_header(draw, layout, state, lang, title)
    draw_panel(draw, layout, state, lang, gm_view)
    return image


def render_field(ruleset: Ruleset, *, lang: str = "ru", layout: Layout = LAYOUT) -> Image.Image:
    """The empty field of ``ruleset`` with every cell's number, the halves, the
    centre line, the edges and re-entry cells, and the legend: the picture of
    the players' rule book (docs/images) and of ``/rules``."""
    check_lang(lang)
    layout = layout.for_board(board_for(ruleset))
    image = field_background(layout, ruleset, lang).copy()
    draw = ImageDraw.Draw(image)
    title = t("panel.field_title", lang)
    draw.text(
        (layout.margin, layout.header / 2),
        title,
        font=font(layout.scaled(24), bold=True),
        fill=INK,
        anchor="lm",
    )
    return image


def paletted(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """The picture in 255 colours: the pictures are flat colour, so nothing
    visible is lost and PNG and GIF both get small and fast to write.  With
    ``palette`` (see :func:`shared_palette`) it is mapped onto those colours."""
    if image.mode == "P":
        return image
    if palette is None:
        palette = shared_palette([image])
    return image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def shared_palette(images: Sequence[Image.Image], step: int = 3) -> Image.Image:
    """One 255-colour palette for several pictures (the frames of a round).

    Built from every ``step``-th pixel of each: the colours of a field
    picture come in areas, so a sample finds them all, at a fraction of the
    cost of quantizing each picture on its own."""
    w, h = images[0].size
    sw, sh = max(1, w // step), max(1, h // step)
    sheet = Image.new("RGB", (sw, sh * len(images)))
    for i, image in enumerate(images):
        small = image.convert("RGB").resize((sw, sh), Image.Resampling.NEAREST)
        sheet.paste(small, (0, i * sh))
    # 255 colours: the GIF's spare index marks what did not change (animation.gif_bytes).
    return sheet.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, *, compress_level: int = 3) -> bytes:
    """An optimised PNG: a 255-colour palette, or full colour if the palette
    would somehow not keep it under :data:`MAX_BYTES` and full colour does better."""
    out = io.BytesIO()
    paletted(image).save(out, format="PNG", optimize=False, compress_level=compress_level)
    data = out.getvalue()
    if len(data) > MAX_BYTES and image.mode != "P":
        full = io.BytesIO()
        image.save(full, format="PNG", optimize=True)
        if len(full.getvalue()) < len(data):
            data = full.getvalue()
    return data
