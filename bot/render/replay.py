"""A match's replay as static pages: the public view stepped tick by tick.

One page a round (``round-01.html`` …) and an index.  Each tick is the field
drawn as SVG from the same scene as the PNG reports (``field_svg``: flights,
passes, falls, goals of that tick) beside the public report's lines of that
tick.  Stepping needs no script: each tick is a ``:target`` section, the
links go to the previous and next tick (and round); so the pages open from a
folder as well as from the judge's web server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import cast

from bot.i18n import t
from engine.geometry import Side

from .material import RoundMaterial
from .report import report_parts
from .svg import field_svg

__all__ = ["REPLAY_CSS", "replay_pages", "round_file"]

REPLAY_CSS = """
body { margin: 0; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; background: #f4f1ea; color: #222; }
header { padding: .4em .8em; background: #2d3e50; color: #fff; }
header a { color: #fff; }
section.tick { display: none; padding: .5em; }
section.tick:target { display: flex; }
main:not(:has(section.tick:target)) section.tick:first-of-type { display: flex; }
section.tick { flex-wrap: wrap; gap: .8em; }
.field { flex: 3 1 600px; min-width: 300px; }
.field svg { width: 100%; height: auto; }
.story { flex: 1 1 280px; white-space: pre-wrap; font-size: .95em; }
nav { display: flex; gap: .6em; margin: .4em 0; }
nav a { padding: .35em .7em; border: 1px solid #8a8a8a; border-radius: .4em; background: #fff; color: #222; text-decoration: none; }
ol.rounds li { margin: .3em 0; }
"""


def round_file(number: int) -> str:
    return f"round-{number:02d}.html"


def _page(title: str, body: str, lang: str) -> str:
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{REPLAY_CSS}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def _round_page(m: RoundMaterial, lang: str, first: int, last: int, title: str) -> str:
    number = m.before.round
    parts = report_parts(
        m.events, before=m.before, after=m.after, ruleset=m.ruleset, lang=lang,
        audience=None, descriptions=cast(Mapping[tuple[Side, int, int], str], m.descriptions),
        game=m.game or None,
    )  # fmt: skip
    story = {p.tick: p for p in parts.ticks}
    sections = []
    states = (m.before, *m.tick_states)
    count = len(m.tick_states)
    for tick in range(1, count + 1):
        events = [e for e in m.events if e.tick == tick]
        svg = field_svg(
            states[tick], m.ruleset, lang, tick_events=events, previous=states[tick - 1],
            element_id=f"field-{tick}",
        )  # fmt: skip
        lines = [parts.title, *parts.head, ""] if tick == 1 else []
        if 0 in story and tick == 1:
            lines += list(story[0].lines)
        part = story.get(tick)
        if part is not None:
            lines += [part.heading or "", *part.lines]
        if tick == count:
            lines += ["", parts.summary_title, *parts.summary]
        prev = (
            f"#t{tick - 1}"
            if tick > 1
            else (round_file(number - 1) + "#t3" if number > first else None)
        )
        nxt = (
            f"#t{tick + 1}" if tick < count else (round_file(number + 1) if number < last else None)
        )
        back, home, on = (
            escape(t("replay.previous", lang)),
            escape(t("replay.index", lang)),
            escape(t("replay.next", lang)),
        )
        nav = ["<nav>"]
        if prev:
            nav.append(f'<a href="{prev}" rel="prev">← {back}</a>')
        nav.append(f'<a href="index.html">{home}</a>')
        if nxt:
            nav.append(f'<a href="{nxt}" rel="next">{on} →</a>')
        nav.append("</nav>")
        heading = t("replay.tick", lang, round=number, tick=tick)
        sections.append(
            f'<section class="tick" id="t{tick}"><div class="field">{svg}</div>'
            f'<div class="story"><h2>{escape(heading)}</h2>{"".join(nav)}'
            f"<p>{escape(chr(10).join(lines).strip())}</p></div></section>"
        )
    body = f"<header>{escape(title)}</header><main>{''.join(sections)}</main>"
    return _page(f"{title} · {number}", body, lang)


def replay_pages(materials: Sequence[RoundMaterial], lang: str, title: str) -> dict[str, str]:
    """File name → HTML of every page of the replay (the rounds and an index)."""
    if not materials:
        return {"index.html": _page(title, f"<header>{escape(title)}</header>", lang)}
    numbers = [m.before.round for m in materials]
    first, last = min(numbers), max(numbers)
    pages = {
        round_file(m.before.round): _round_page(m, lang, first, last, title) for m in materials
    }
    items = "".join(
        f'<li><a href="{round_file(n)}">{escape(_round_name(n, lang))}</a></li>' for n in numbers
    )
    pages["index.html"] = _page(
        title, f'<header>{escape(title)}</header><main><ol class="rounds">{items}</ol></main>', lang
    )
    return pages


def _round_name(number: int, lang: str) -> str:
    return t("replay.round", lang, round=number)
