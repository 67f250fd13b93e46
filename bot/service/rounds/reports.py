"""Round reports and diagrams for the outbox, made by :mod:`bot.render`.

The service asks a :class:`Reporter` (its port, :mod:`..kernel.ports`) for one :class:`Report` per audience
("public", "left", "right", "gm") and language.  Privacy is the audience's
business: a team's report may show its own secret spells, the public one
none, the game master's everything (rule book §5).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render import (
    LAYOUT,
    Layout,
    match_summary,
    picture_names,
    png_bytes,
    render_position,
    render_round,
    report_html,
    report_parts,
    text_diagram,
)
from bot.render.diagram import render_field
from bot.render.material import RoundMaterial
from bot.render.odds import odds_lines
from bot.render.replay import replay_pages, round_file
from engine.events import Event
from engine.geometry import Side
from engine.odds import OrderOdds
from engine.ruleset import Ruleset
from engine.state import MatchState

from ..kernel.ports import Report, Reporter

__all__ = [
    "AUDIENCES",
    "MAIL_LAYOUT",
    "RenderReporter",
    "Report",
    "Reporter",
    "RoundMaterial",
]

AUDIENCES = ("public", "left", "right", "gm")

# A results mail's pictures: 960 pixels wide (still legible, about 45 KB a
# tick and 140 KB the animation, where 1280 gives 70 and 210), shown 720
# wide in the mail (most programs fit a picture to a column that wide; a
# click opens it whole).  docs/email.md gives the resulting mail size.
MAIL_LAYOUT = Layout(width=960)
MAIL_SHOWN_WIDTH = 720


class RenderReporter:
    """The reporter of the service: texts and pictures by :mod:`bot.render`.

    ``pictures=False`` leaves the diagrams out (text-only deployments, the
    deadline benchmark's text-only figure).
    """

    def __init__(self, *, pictures: bool = True) -> None:
        self.pictures = pictures

    def round_report(
        self, material: RoundMaterial, *, audience: str, lang: str, footer: str = ""
    ) -> Report:
        side: Side | None = (
            "left" if audience == "left" else "right" if audience == "right" else None
        )
        # The game master reads the public story; his pictures show what is hidden.
        parts = report_parts(
            material.events,
            before=material.before,
            after=material.after,
            ruleset=material.ruleset,
            lang=lang,
            audience=side,
            descriptions=_descriptions(material),
            game=material.game or None,
        )
        text = parts.text().rstrip("\n")
        if footer:
            text = f"{text}\n\n{footer}"
        number = material.before.round
        names = (
            picture_names(number, len(material.tick_states), MAIL_SHOWN_WIDTH)
            if self.pictures
            else None
        )
        html = report_html(parts, round_=number, lang=lang, pictures=names, footer=footer)
        field = text_diagram(material.after, material.ruleset, lang=lang, listing=False)
        return Report(text, html, f"{text}\n\n{field}")

    def diagrams(
        self, material: RoundMaterial, *, gm_view: bool, lang: str, mail: bool = False
    ) -> Sequence[tuple[str, str, bytes]]:
        if not self.pictures:
            return ()
        pictures = render_round(
            (material.before, *material.tick_states),
            material.events,
            material.ruleset,
            lang=lang,
            gm_view=gm_view,
            layout=MAIL_LAYOUT if mail else LAYOUT,
        )
        number = material.before.round
        names = picture_names(number, len(pictures.ticks), MAIL_SHOWN_WIDTH)
        files = [(names.ticks[i], "image/png", png) for i, png in enumerate(pictures.ticks, 1)]
        files.append((names.gif, "image/gif", pictures.gif))
        return files

    def position(
        self, state: MatchState, ruleset: Ruleset, *, gm_view: bool, lang: str
    ) -> Sequence[tuple[str, str, bytes]]:
        if not self.pictures:
            return ()
        image = render_position(state, ruleset, gm_view=gm_view, lang=lang)
        return [(f"position-round{state.round}.png", "image/png", png_bytes(image))]

    def summary(
        self, events: Sequence[Event], final: MatchState, ruleset: Ruleset, *, lang: str
    ) -> str:
        return match_summary(events, final, ruleset, lang=lang)

    def odds_lines(
        self, odds: Sequence[OrderOdds], *, state: MatchState, ruleset: Ruleset, lang: str
    ) -> list[str]:
        return odds_lines(odds, state=state, ruleset=ruleset, lang=lang)

    def field_picture(self, ruleset: Ruleset, lang: str) -> bytes:
        # Drawn even without pictures: it goes with the rule book, not a report.
        return png_bytes(render_field(ruleset, lang=lang))

    def replay_pages(
        self, materials: Sequence[RoundMaterial], lang: str, title: str
    ) -> dict[str, str]:
        return replay_pages(materials, lang, title)

    def replay_file(self, number: int) -> str:
        return round_file(number)


def _descriptions(material: RoundMaterial) -> dict[tuple[Side, int, int], str]:
    out: dict[tuple[Side, int, int], str] = {}
    for (side, number, tick), text in material.descriptions.items():
        out[("left" if side == "left" else "right", number, tick)] = text
    return out
