"""Round reports and field diagrams, derived from engine states and events only.

Pictures (Pillow): :func:`render_position` (one position, optionally with
the tick that led to it), :func:`render_round` (a PNG per tick and an
animated GIF), :func:`png_bytes`.  Text: :func:`text_diagram` (monospace
map), :func:`round_report` (public or one team's; :func:`report_parts` and
:func:`report_html` give it as a mail's HTML), :func:`match_summary`.
:data:`LAYOUT` tells where each cell is drawn.
"""

from __future__ import annotations

from .animation import RoundPictures, render_round
from .diagram import MAX_BYTES, png_bytes, render_position
from .layout import LAYOUT, Layout
from .mail_html import RoundPictureNames, picture_names, report_html
from .report import ReportParts, TickPart, redact, report_parts, round_report
from .summary import match_summary
from .text_diagram import text_diagram

__all__ = [
    "LAYOUT",
    "MAX_BYTES",
    "Layout",
    "ReportParts",
    "RoundPictureNames",
    "RoundPictures",
    "TickPart",
    "match_summary",
    "picture_names",
    "png_bytes",
    "redact",
    "render_position",
    "render_round",
    "report_html",
    "report_parts",
    "round_report",
    "text_diagram",
]
