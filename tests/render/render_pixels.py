"""Pixel helpers: colours at known places of a rendered picture."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.layout import LAYOUT, Layout

RGB = tuple[int, int, int]


def close(a: tuple[int, ...], b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b, strict=True))


def pixel(image: Image.Image, point: tuple[float, float]) -> RGB:
    value = image.convert("RGB").getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def count_in_cell(
    image: Image.Image, cell: int, colour: RGB, *, layout: Layout = LAYOUT, tolerance: int = 12
) -> int:
    """How many pixels of (about) ``colour`` lie inside the cell's hexagon."""
    rgb = image.convert("RGB")
    mask = Image.new("L", rgb.size, 0)
    ImageDraw.Draw(mask).polygon(layout.hexagon(cell, 0.98), fill=255)
    box = tuple(round(v) for v in mask.getbbox() or (0, 0, 0, 0))
    count = 0
    for y in range(box[1], box[3]):
        for x in range(box[0], box[2]):
            if mask.getpixel((x, y)) and close(rgb.getpixel((x, y)), colour, tolerance):  # type: ignore[arg-type]
                count += 1
    return count


def span_in_cell(image: Image.Image, cell: int, colour: RGB, *, layout: Layout = LAYOUT) -> int:
    """The horizontal extent in pixels of ``colour`` on the cell's content row."""
    rgb = image.convert("RGB")
    cx, cy = layout.content_centre(cell)
    r = layout.radius
    xs = [
        x
        for x in range(round(cx - r), round(cx + r))
        if close(rgb.getpixel((x, round(cy))), colour)  # type: ignore[arg-type]
    ]
    return (max(xs) - min(xs) + 1) if xs else 0
