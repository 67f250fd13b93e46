"""The field as monospace text, for plain-text mail and the log.

Each hex row takes two lines: the cell numbers and, under each number, what
is there (players «А7», free balls by letter, a dragon's head «Д→» and body
«д»).  The row offsets keep the hex shape.  A listing under the map spells
out every occupied cell, then the score and who is off the field.  Only
public facts are shown: the vanished yellow ball is not on it.
"""

from __future__ import annotations

import textwrap

from bot.i18n import N_, t
from engine import geometry
from engine.field import HexField, SquareField, dragon_cells_of
from engine.geometry import Direction
from engine.ruleset import Ruleset
from engine.state import MatchState

from .names import ball_colour, ball_letter, check_lang, direction_name, side_letter
from .panel import panel_lines
from .story import score_text

__all__ = ["SLOT", "WIDTH", "text_diagram"]

SLOT = 5  # characters per cell; cells of a row are SLOT + 1 apart
WIDTH = 101  # the widest map row: 17 cells

_ARROW = {
    Direction.E: "→",
    Direction.SE: "↘",
    Direction.SW: "↙",
    Direction.W: "←",
    Direction.NW: "↖",
    Direction.NE: "↗",
    Direction.N: "↑",  # the square field's (the second edition)
    Direction.S: "↓",
}


def text_diagram(
    state: MatchState, ruleset: Ruleset, *, lang: str = "ru", listing: bool = True
) -> str:
    """The position as a monospace map plus a listing (about 100 columns);
    ``listing=False``: the map and its legend only (a results mail, whose
    report ends with the end-of-round table already)."""
    check_lang(lang)
    marks: dict[int, list[str]] = {}
    details: dict[int, list[str]] = {}
    field = ruleset.field
    on_field = field.is_cell
    for d in state.dragons:
        cells = dragon_cells_of(field, d)
        if cells is None:
            continue
        team = state.team(d.side).name
        head, body, tail = cells
        marks.setdefault(head, []).append(t("diagram.head_mark", lang) + _ARROW[d.facing])
        details.setdefault(head, []).append(
            t(
                "diagram.head",
                lang,
                team=team,
                facing=direction_name(d.facing, lang),
                height=d.height,
                mouth=t("diagram.open", lang) if d.mouth_open else t("diagram.closed", lang),
            )
        )
        for cell, part in ((body, N_("diagram.body")), (tail, N_("diagram.tail"))):
            marks.setdefault(cell, []).append(t("diagram.dragon_mark", lang))
            details.setdefault(cell, []).append(t(part, lang, team=team))
    for p in sorted(state.players, key=lambda p: (p.side, p.number)):
        if not p.on_field or not isinstance(p.cell, int) or not on_field(p.cell):
            continue
        mark = f"{side_letter(p.side, lang)}{p.number}"
        marks.setdefault(p.cell, []).append(mark)
        text = t("diagram.player", lang, mark=mark, name=p.name, height=p.height)
        if p.balls:
            text += t(
                "diagram.holding", lang, balls=", ".join(ball_colour(b, lang) for b in p.balls)
            )
        details.setdefault(p.cell, []).append(text)
    for b in state.balls:
        if b.status == "free" and isinstance(b.cell, int) and on_field(b.cell):
            marks.setdefault(b.cell, []).append(ball_letter(b.name, lang))
            details.setdefault(b.cell, []).append(
                t(
                    "diagram.ball",
                    lang,
                    ball=ball_colour(b.name, lang).capitalize(),
                    height=b.height,
                )
            )
    out = _map(marks, field)
    letters = "/".join(ball_letter(name, lang) for name in ruleset.ball_order)
    out.append("")
    out.extend(textwrap.wrap(t("diagram.legend", lang, balls=letters), WIDTH))
    if not listing:
        return "\n".join(out) + "\n"
    out.append(
        t(
            "diagram.score",
            lang,
            score=score_text(state, state.teams[0].score, state.teams[1].score, lang),
        )
    )
    out.append(t("diagram.cells", lang))
    for cell in sorted(details):
        out.extend(
            textwrap.wrap(
                f"  {cell:>3}: " + "; ".join(details[cell]), WIDTH, subsequent_indent=" " * 7
            )
        )
    first, second = panel_lines(state, lang, gm_view=False)
    for text, _, strong in first + second:
        if strong:
            out.append(f"{text}:")
        else:
            out.extend(
                textwrap.wrap(text.strip(), WIDTH, initial_indent="  ", subsequent_indent="    ")
            )
    return "\n".join(out) + "\n"


def _coord(field: HexField | SquareField, cell: int) -> tuple[int, int]:
    """(row, x) in half-cell units, as the hex field's doubled coordinates."""
    if isinstance(field, SquareField):
        row, col = field.coord(cell)
        return row, 2 * col
    return geometry.coord(cell)


def _map(marks: dict[int, list[str]], field: HexField | SquareField) -> list[str]:
    rows: dict[int, list[int]] = {}
    for cell in range(1, field.cell_count + 1):
        rows.setdefault(_coord(field, cell)[0], []).append(cell)
    lines: list[str] = []
    for row in sorted(rows):
        numbers = [" "] * WIDTH
        content = [" "] * WIDTH
        for cell in rows[row]:
            col = _coord(field, cell)[1] * (SLOT + 1) // 2
            _put(numbers, col, str(cell).center(SLOT))
            _put(content, col, _squash("".join(marks.get(cell, ()))).center(SLOT))
        lines.append("".join(numbers).rstrip())
        lines.append("".join(content).rstrip())
    return lines


def _squash(text: str) -> str:
    """At most SLOT characters; a «+» says the listing has the rest."""
    return text if len(text) <= SLOT else text[: SLOT - 1] + "+"


def _put(line: list[str], col: int, text: str) -> None:
    for i, ch in enumerate(text):
        line[col + i] = ch
