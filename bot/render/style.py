"""Colours and fonts of the pictures.

Teams are blue and orange (the Okabe–Ito pair, told apart with any common
colour-vision deficiency and not the balls' red/green); balls keep their
own colours and always get a white-and-dark double ring so the black ball
shows on any background.  Fonts: DejaVu Sans for Cyrillic; Pillow's own font
if DejaVu is absent, so a missing font never stops a report.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

from engine.geometry import Side

__all__ = [
    "BACKGROUND",
    "BALL_COLOURS",
    "BALL_TEXT",
    "DRAGON_COLOURS",
    "FIRE",
    "FIRE_HATCH",
    "FIRE_HATCH_STEP",
    "GOLD",
    "GRID",
    "HALF_FILL",
    "HALF_FILL_EDGE",
    "INK",
    "MOUTH_ZONE",
    "MUTED",
    "RGB",
    "TEAM_COLOURS",
    "TEAM_LIGHT",
    "Font",
    "blend",
    "font",
]

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

BACKGROUND: Final[RGB] = (250, 250, 247)
INK: Final[RGB] = (25, 25, 30)
MUTED: Final[RGB] = (105, 110, 120)
GRID: Final[RGB] = (160, 166, 176)
GOLD: Final[RGB] = (255, 196, 0)  # a goal's mark

TEAM_COLOURS: Final[dict[Side, RGB]] = {"left": (0, 114, 178), "right": (230, 130, 0)}
TEAM_LIGHT: Final[dict[Side, RGB]] = {"left": (214, 232, 245), "right": (253, 232, 200)}
DRAGON_COLOURS: Final[dict[Side, RGB]] = {"left": (0, 70, 120), "right": (150, 80, 0)}

HALF_FILL: Final[dict[Side | None, RGB]] = {
    "left": (236, 243, 250),
    "right": (253, 245, 232),
    None: (244, 244, 244),
}
HALF_FILL_EDGE: Final[dict[Side | None, RGB]] = {
    "left": (212, 222, 234),
    "right": (236, 222, 200),
    None: (222, 222, 222),
}

BALL_COLOURS: Final[dict[str, RGB]] = {
    "black": (20, 20, 20),
    "green": (0, 158, 90),
    "blue": (86, 180, 233),
    "red": (213, 30, 30),
    "yellow": (250, 226, 20),
}
# Digit colour on each ball (the ball's height).
BALL_TEXT: Final[dict[str, RGB]] = {
    "black": (255, 255, 255),
    "green": (255, 255, 255),
    "blue": (0, 0, 0),
    "red": (255, 255, 255),
    "yellow": (0, 0, 0),
}

FIRE: Final[RGB] = (240, 80, 20)
# The fire hatch: FIRE stripes on this, one every FIRE_HATCH_STEP px of the 1280-px picture.
FIRE_HATCH: Final[RGB] = (245, 129, 55)
FIRE_HATCH_STEP: Final = 9
MOUTH_ZONE: Final[RGB] = (200, 30, 60)

_FONT_DIRS: Final = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@cache
def font(size: int, bold: bool = False, mono: bool = False) -> Font:
    """DejaVu Sans (Bold, Mono) at ``size`` px, else Pillow's built-in font."""
    name = "DejaVuSans" + ("Mono" if mono else "") + ("-Bold" if bold else "") + ".ttf"
    for folder in _FONT_DIRS:
        path = folder / name
        if path.is_file():
            try:
                return ImageFont.truetype(str(path), size)
            except OSError:
                break
    try:
        # Pillow also searches the system's font folders by file name.
        return ImageFont.truetype(name, size)
    except OSError:
        pass
    try:
        return ImageFont.load_default(size)
    except (OSError, ImportError):
        # Without FreeType: Pillow's small bitmap font, Latin only, but never a crash.
        return ImageFont.load_default_imagefont()
