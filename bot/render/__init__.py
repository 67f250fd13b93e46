"""Round reports and field diagrams, derived from engine states and events only.

Pictures (Pillow): :func:`render_position` (one position, optionally with
the tick that led to it), :func:`render_round` (a PNG per tick and an
animated GIF), :func:`png_bytes`.  Text: :func:`text_diagram` (monospace
map), :func:`round_report` (public or one team's), :func:`match_summary`.
:data:`LAYOUT` tells where each cell is drawn.
"""

from __future__ import annotations

from .animation import RoundPictures, render_round
from .diagram import MAX_BYTES, png_bytes, render_position
from .layout import LAYOUT, Layout
from .report import redact, round_report
from .summary import match_summary
from .text_diagram import text_diagram

__all__ = [
    "LAYOUT",
    "MAX_BYTES",
    "Layout",
    "RoundPictures",
    "match_summary",
    "png_bytes",
    "redact",
    "render_position",
    "render_round",
    "round_report",
    "text_diagram",
]
