"""Where cells are drawn: the helper tests and other modules rely on."""

from __future__ import annotations

import math

import pytest

from bot.render import LAYOUT, Layout
from engine import geometry


@pytest.mark.parametrize("layout", [LAYOUT, Layout(width=1600)])
def test_every_cell_is_found_at_its_own_centre(layout: Layout) -> None:
    for cell in geometry.CELLS:
        x, y = layout.centre(cell)
        assert layout.margin <= x <= layout.width - layout.margin
        assert layout.field_top <= y <= layout.panel_top
        assert layout.cell_at(x, y) == cell


@pytest.mark.parametrize("layout", [LAYOUT, Layout(width=1600)])
def test_neighbours_are_one_hex_width_apart_and_hexagons_tile(layout: Layout) -> None:
    for cell in (1, 57, 106, 211):
        for other in geometry.neighbours(cell):
            assert math.dist(layout.centre(cell), layout.centre(other)) == pytest.approx(
                layout.hex_width
            )
        corners = layout.hexagon(cell)
        assert len(corners) == 6
        assert all(
            math.dist(c, layout.centre(cell)) == pytest.approx(layout.radius) for c in corners
        )


def test_the_standard_picture_is_phone_width_and_fits_the_field() -> None:
    assert LAYOUT.width >= 1280
    bottom = max(y for c in geometry.CELLS for _, y in LAYOUT.hexagon(c))
    assert bottom <= LAYOUT.panel_top
    assert LAYOUT.size == (LAYOUT.width, LAYOUT.height)


def test_off_field_points_and_cells() -> None:
    assert LAYOUT.cell_at(0, 0) is None
    with pytest.raises(ValueError, match="not on the field"):
        LAYOUT.centre(212)
