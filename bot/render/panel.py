"""The header (round, tick, score) and the side panel under the field: the
dragons, the balls off the field, the hospital wing and the swallowed."""

from __future__ import annotations

from PIL import ImageDraw

from bot.i18n import t
from engine.geometry import SIDES, Side
from engine.ruleset import RulesetError, load_ruleset
from engine.state import DragonState, MatchState

from .layout import Layout
from .names import ball_name, effect_short, side_letter
from .style import DRAGON_COLOURS, INK, MUTED, RGB, TEAM_COLOURS, Font, font

__all__ = ["draw_header", "draw_panel", "panel_lines", "tick_title"]


Line = tuple[str, RGB, bool]  # text, colour, bold


def tick_title(round_: int, tick: int, lang: str) -> str:
    """«Раунд 3, такт 2»: the title of the picture of a tick."""
    return t("panel.round", lang, round=round_, tick=tick)


def draw_header(
    draw: ImageDraw.ImageDraw, layout: Layout, state: MatchState, lang: str, title: str | None
) -> None:
    if title is None:
        if state.ended:
            title = t("panel.ended", lang)
        elif state.tick == 0:
            title = t("panel.before", lang, round=state.round)
        else:
            title = tick_title(state.round, state.tick, lang)
    mid = layout.header / 2
    draw.text(
        (layout.margin, mid), title, font=font(layout.scaled(24), bold=True), fill=INK, anchor="lm"
    )
    # Score, right-aligned: «Left 3 : 0 Right» with the names in team colours.
    big = font(layout.scaled(26), bold=True)
    parts: list[tuple[str, RGB]] = [
        (f"{side_letter('left', lang)} {state.teams[0].name}", TEAM_COLOURS["left"]),
        (f"  {state.teams[0].score} : {state.teams[1].score}  ", INK),
        (f"{state.teams[1].name} {side_letter('right', lang)}", TEAM_COLOURS["right"]),
    ]
    x = float(layout.width - layout.margin)
    for text, colour in reversed(parts):
        draw.text((x, mid), text, font=big, fill=colour, anchor="rm")
        x -= draw.textlength(text, font=big)


def panel_lines(state: MatchState, lang: str, gm_view: bool) -> tuple[list[Line], list[Line]]:
    """The panel's two text columns: dragons and balls; hospital and swallowed."""
    first: list[Line] = [(t("panel.dragons", lang), INK, True)]
    for side in SIDES:
        d = state.dragon(side)
        first.append(
            (t("panel.dragon", lang, team=state.team(side).name), DRAGON_COLOURS[side], True)
        )
        mouth = t("panel.open", lang) if d.mouth_open else t("panel.closed", lang)
        first.append((t("panel.dragon_state", lang, height=d.height, mouth=mouth), INK, False))
        status = [effect_short(e, lang) for e in ("daze", "sneeze") if e in d.effects]
        if d.paralysed:
            status.append(effect_short("paralyse", lang))
        if d.extinguished:
            fire = t("panel.no_fire", lang)
        elif _paced_fire(state):
            fire = _fire_001(state, d, lang)
        else:
            fire = t("panel.fire", lang, short=d.short_left, volleys=d.volleys_left)
        first.append(("; ".join([fire, *status]), INK, False))
        if d.pending_effects:
            effects = ", ".join(effect_short(e, lang) for e in d.pending_effects)
            first.append(("  " + t("panel.pending", lang, effects=effects), MUTED, False))
    off: list[Line] = []
    vanished: list[Line] = []
    for ball in state.balls:
        name = ball_name(ball.name, lang).capitalize()
        if ball.status == "swallowed" and ball.swallowed_by is not None:
            text = t(
                "panel.swallowed_ball", lang, ball=name, team=state.team(ball.swallowed_by).name
            )
            off.append((text, INK, False))
        elif ball.status == "burnt":
            off.append((t("panel.burnt", lang, ball=name), INK, False))
        elif ball.status == "vanished":
            # Still in play, only unseen: not listed with the balls out of play.
            if gm_view:
                text = t("panel.vanished_gm", lang, ball=name, cell=ball.cell, height=ball.height)
            else:
                text = t("panel.vanished", lang, ball=name)
            vanished.append((text, INK, False))
    if off:
        first.append((t("panel.off", lang), INK, True))
        first.extend(off)
    if vanished:
        first.append((t("panel.vanished_head", lang), INK, True))
        first.extend(vanished)

    second: list[Line] = [(t("panel.hospital", lang), INK, True)]
    hospital = [p for p in state.players if p.status == "hospital"]
    for p in sorted(hospital, key=lambda p: (p.return_round or 0, p.side, p.number)):
        who = f"{side_letter(p.side, lang)}{p.number} {p.name}"
        second.append(
            (t("panel.returns", lang, who=who, round=p.return_round), TEAM_COLOURS[p.side], False)
        )
    if not hospital:
        second.append((t("panel.none", lang), MUTED, False))
    second.append((t("panel.swallowed", lang), INK, True))
    swallowed = [p for p in state.players if p.status == "swallowed"]
    for p in swallowed:
        who = f"{side_letter(p.side, lang)}{p.number} {p.name}"
        dragon: Side = p.swallowed_by or ("right" if p.side == "left" else "left")
        second.append(
            (
                t("panel.inside", lang, who=who, team=state.team(dragon).name),
                TEAM_COLOURS[p.side],
                False,
            )
        )
    if not swallowed:
        second.append((t("panel.none", lang), MUTED, False))
    # The second edition's players out of the game for good (only when there
    # are any: the classic game has none).
    out = [p for p in state.players if p.status == "out"]
    if out:
        second.append((t("panel.out", lang), INK, True))
        for p in sorted(out, key=lambda p: (p.side, p.number)):
            who = f"{side_letter(p.side, lang)}{p.number} {p.name}"
            second.append((who, TEAM_COLOURS[p.side], False))
    return first, second


def _paced_fire(state: MatchState) -> bool:
    """The second edition counts no flames: a jet every few ticks, a wall once
    in two rounds, and a deep breath after it ([variant] jet_every_ticks)."""
    try:
        extra = load_ruleset(state.ruleset).extra
    except RulesetError:
        return False
    return isinstance(extra, dict) and "jet_every_ticks" in extra


def _fire_001(state: MatchState, d: DragonState, lang: str) -> str:
    """«струя готова; вал — с раунда 5» (:func:`fire_001_words`)."""
    jet, wall = fire_001_words(state, d, lang)
    return t("panel.fire_001", lang, jet=jet, wall=wall)


def fire_001_words(state: MatchState, d: DragonState, lang: str) -> tuple[str, str]:
    """When the dragon may next breathe a jet and a wall, as the engine
    decides it (engine/resolution/square/dragon_acts.py, the marks jet_ready, wall_round,
    breath_round): «струя готова», «вал — с раунда 5»."""
    per_round = load_ruleset(state.ruleset).ticks_per_round
    upcoming = (state.round - 1) * per_round + state.tick + 1  # the next tick to play
    breath = d.mark("breath_round") or 0
    jet = max(d.mark("jet_ready") or 0, breath * per_round + 1)
    if jet <= upcoming:
        jet_text = t("panel.jet_ready", lang)
    else:
        jet_text = t(
            "panel.jet_at", lang, round=(jet - 1) // per_round + 1, tick=(jet - 1) % per_round + 1
        )
    wall = max((d.mark("wall_round") or -10) + 2, breath + 1)
    if wall <= (upcoming - 1) // per_round + 1:
        wall_text = t("panel.wall_ready", lang)
    else:
        wall_text = t("panel.wall_at", lang, round=wall)
    return jet_text, wall_text


def draw_panel(
    draw: ImageDraw.ImageDraw, layout: Layout, state: MatchState, lang: str, gm_view: bool
) -> None:
    first, second = panel_lines(state, lang, gm_view)
    s = layout.scale
    width = 380 * s
    for column, lines in enumerate((first, second)):
        _column(draw, layout, lines, layout.margin + column * (width + 10 * s), width, lang)


def _column(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    lines: list[Line],
    left: float,
    width: float,
    lang: str,
) -> None:
    """The lines one under another; a line wider than the column goes on in the
    next row (indented), and what does not fit is counted in «… и ещё N»."""
    regular = font(layout.scaled(14))
    bold = font(layout.scaled(15), bold=True)
    step = layout.scaled(20)
    top = layout.panel_top + layout.scaled(8)
    room = (layout.height - layout.scaled(6) - top) // step
    rows = [
        (piece, colour, fnt, index)
        for index, (text, colour, strong) in enumerate(lines)
        for fnt in (bold if strong else regular,)
        for piece in _wrap(draw, text, fnt, width)
    ]
    shown = rows if len(rows) <= room else rows[: room - 1]
    if len(shown) < len(rows):  # never half a line: it goes whole into «… и ещё N»
        last = rows[len(shown)][3]
        shown = [row for row in shown if row[3] < last]
    for i, (piece, colour, fnt, _) in enumerate(shown):
        draw.text((left, top + i * step), piece, font=fnt, fill=colour, anchor="lt")
    if len(shown) < len(rows):
        hidden = len(lines) - (shown[-1][3] + 1 if shown else 0)
        more = t("panel.more", lang, n=hidden)
        draw.text((left, top + len(shown) * step), more, font=regular, fill=MUTED, anchor="lt")


def _wrap(draw: ImageDraw.ImageDraw, text: str, fnt: Font, width: float) -> list[str]:
    """The text in rows no wider than the column, broken between words; the
    rows after the first are indented.  Only a single word wider than the
    whole column is cut (with an ellipsis)."""
    if draw.textlength(text, font=fnt) <= width:
        return [text]
    lead = text[: len(text) - len(text.lstrip())]
    rows: list[str] = []
    row = lead
    for word in text.split():
        candidate = f"{row} {word}" if row.strip() else row + word
        if draw.textlength(candidate, font=fnt) <= width or not row.strip():
            row = candidate
        else:
            rows.append(row)
            row = lead + "  " + word
    rows.append(row)
    return [_fit(draw, r, fnt, width) for r in rows]


def _fit(draw: ImageDraw.ImageDraw, text: str, fnt: Font, width: float) -> str:
    """The text, cut with an ellipsis if it is wider than the column."""
    if draw.textlength(text, font=fnt) <= width:
        return text
    while text and draw.textlength(text + "…", font=fnt) > width:
        text = text[:-1]
    return text + "…"
