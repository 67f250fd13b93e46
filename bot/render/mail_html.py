"""The round report as the HTML part of a results mail.

The same words as the plain text (:class:`~bot.render.report.ReportParts`),
with the pictures where they belong: the round's animation under the title,
each tick's picture under its story, the end-of-round table in monospace.
Pictures are referenced as ``cid:FILENAME``; the mail composer puts the
files of those names inline (``multipart/related``).  Only inline styles and
no external resources, as mail programs require.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import t

from .report import ReportParts

__all__ = ["RoundPictureNames", "picture_names", "report_html"]

_BODY = "font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.45;color:#19191e"
_IMG = "display:block;max-width:100%;height:auto;border:1px solid #ccc"
_PRE = "font-family:Menlo,Consolas,monospace;font-size:13px;white-space:pre-wrap"


@dataclass(frozen=True)
class RoundPictureNames:
    """File names of a round's pictures: the animation and one per tick."""

    gif: str
    ticks: Mapping[int, str]
    width: int  # how wide the HTML shows them, in pixels (a click opens them whole)


def picture_names(round_: int, ticks: int, width: int) -> RoundPictureNames:
    """The names the reporter gives a round's files (``round3-tick1.png``, ``round3.gif``)."""
    return RoundPictureNames(
        f"round{round_}.gif",
        {i: f"round{round_}-tick{i}.png" for i in range(1, ticks + 1)},
        width,
    )


def report_html(
    parts: ReportParts,
    *,
    round_: int,
    lang: str,
    pictures: RoundPictureNames | None,
    footer: str = "",
) -> str:
    """A whole HTML document for the report; ``pictures`` None: text only."""
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{html.escape(parts.title)}</title></head>",
        f'<body style="{_BODY}">',
        f'<h2 style="font-size:20px;margin:0 0 6px">{html.escape(parts.title)}</h2>',
        _paragraph(parts.head),
    ]
    if pictures is not None:
        out.append(_img(pictures.gif, t("mail_alt.gif", lang, round=round_), pictures.width))
    by_tick = {part.tick: part for part in parts.ticks}
    names = pictures.ticks if pictures is not None else {}
    for tick in sorted(set(by_tick) | set(names)):
        part = by_tick.get(tick)
        if part is not None and part.heading is not None:
            out.append(_heading(part.heading))
        if part is not None:
            out.append(_paragraph(part.lines))
        if pictures is not None and tick in names:
            out.append(
                _img(names[tick], t("mail_alt.tick", lang, round=round_, tick=tick), pictures.width)
            )
    out.append(_heading(parts.summary_title))
    out.append(f'<pre style="{_PRE}">{html.escape(chr(10).join(parts.summary))}</pre>')
    if footer:
        out.append(f'<pre style="{_PRE};color:#696e78">{html.escape(footer)}</pre>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _heading(text: str) -> str:
    return f'<h3 style="font-size:17px;margin:18px 0 4px">{html.escape(text)}</h3>'


def _paragraph(lines: tuple[str, ...]) -> str:
    return '<p style="margin:0 0 8px">' + "<br>\n".join(html.escape(x) for x in lines) + "</p>"


def _img(name: str, alt: str, width: int) -> str:
    return (
        f'<p style="margin:8px 0 12px"><img src="cid:{html.escape(name)}" '
        f'alt="{html.escape(alt)}" width="{width}" style="{_IMG}"></p>'
    )
