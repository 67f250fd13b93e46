"""The end-of-round table: who is where with which ball, the dragons, and
the free balls with where each flies next.

One line a thing, no column alignment (Telegram shows proportional type),
so it reads the same in a chat, a mail and a log.  Only what the reader may
know: the vanished yellow ball is "vanished" (its cell only in the game
master's view, ``gm_view``).
"""

from __future__ import annotations

from bot.i18n import N_, t
from engine.geometry import SIDES
from engine.ruleset import Ruleset
from engine.state import MatchState, PlayerState

from .course import next_course, pass_landing
from .names import ball_colour, direction_name, effect_short, side_letter
from .panel import fire_001_words
from .values import is_cell

__all__ = ["position_table"]


def position_table(
    state: MatchState, ruleset: Ruleset, *, round_: int, lang: str, gm_view: bool = False
) -> list[str]:
    """The table's lines for the position ``state`` after round ``round_``."""
    out = [t("table.head", lang, round=round_)]
    paced = isinstance(ruleset.extra, dict) and "jet_every_ticks" in ruleset.extra
    for side in SIDES:
        out.append(t("table.team", lang, team=state.team(side).name))
        players = sorted(state.team_players(side), key=lambda p: (p.status == "reserve", p.number))
        out.extend("  " + _player(p, state, lang) for p in players)
        out.append("  " + _dragon(state, side, lang, paced=paced))
    free = [b for b in state.balls if b.status == "free" and is_cell(b.cell)]
    if free:
        out.append(t("table.free", lang))
        for b in free:
            course = next_course(b, ruleset)
            values = {"ball": ball_colour(b.name, lang), "cell": b.cell, "height": b.height}
            landing = pass_landing(b)
            if landing is not None:  # thrown on the last tick: it lands in the next round
                passer = state.find_player(b.passer.side, b.passer.number) if b.passer else None
                out.append(
                    "  "
                    + t(
                        "table.ball_in_air",
                        lang,
                        ball=values["ball"],
                        cell=landing[0],
                        height=landing[1],
                        passer=passer.name if passer is not None else "?",
                    )
                )
                continue
            if course is None:
                out.append("  " + t("table.ball_still", lang, **values))
                continue
            key = N_("table.ball_dome") if course.dome else N_("table.ball")
            out.append(
                "  "
                + t(
                    key,
                    lang,
                    **values,
                    direction=direction_name(course.direction, lang),
                    cells=", ".join(str(c) for c in course.cells) or "—",
                )
            )
    else:
        out.append(t("table.no_free", lang))
    for b in state.balls:
        if b.status == "vanished":
            if gm_view and is_cell(b.cell):
                out.append(t("table.vanished_gm", lang, cell=b.cell, height=b.height))
            else:
                out.append(t("table.vanished", lang))
    gone = []
    for b in state.balls:
        name = ball_colour(b.name, lang)
        if b.status == "swallowed" and b.swallowed_by is not None:
            gone.append(
                t("table.ball_swallowed", lang, ball=name, team=state.team(b.swallowed_by).name)
            )
        elif b.status == "burnt":
            gone.append(t("table.ball_burnt", lang, ball=name))
    if gone:
        out.append(t("table.gone", lang, items="; ".join(gone)))
    return out


def _player(p: PlayerState, state: MatchState, lang: str) -> str:
    mark = f"{side_letter(p.side, lang)}{p.number}"
    if p.status == "hospital":
        return t("table.hospital", lang, mark=mark, name=p.name, round=p.return_round)
    if p.status == "swallowed":
        dragon = p.swallowed_by or ("right" if p.side == "left" else "left")
        return t("table.swallowed", lang, mark=mark, name=p.name, team=state.team(dragon).name)
    if p.status == "out":  # 001: fell without the safety spell, the dome, the flame
        return t("table.out", lang, mark=mark, name=p.name)
    if p.status == "reserve" or not is_cell(p.cell):
        return t("table.reserve", lang, mark=mark, name=p.name)
    text = t("table.player", lang, mark=mark, name=p.name, cell=p.cell, height=p.height)
    if p.balls:
        text += t("table.holds", lang, balls=", ".join(ball_colour(b, lang) for b in p.balls))
    return text


def _dragon(state: MatchState, side: str, lang: str, *, paced: bool = False) -> str:
    """The dragon's line; ``paced``: the second edition's fire, which counts
    no flames (a jet every few ticks, a wall once in two rounds) — its budget
    fields hold a sentinel (1000), never a count to show."""
    d = state.dragon("left" if side == "left" else "right")
    text = t(
        "table.dragon",
        lang,
        head=d.head,
        facing=direction_name(d.facing, lang),
        height=d.height,
        mouth=t("table.open", lang) if d.mouth_open else t("table.closed", lang),
    )
    if d.extinguished:
        text += t("table.no_fire", lang)
    elif paced:
        jet, wall = fire_001_words(state, d, lang)
        text += t("table.fire_001", lang, jet=jet, wall=wall)
    else:
        text += t("table.fire", lang, short=d.short_left, volleys=d.volleys_left)
    effects = [effect_short(e, lang) for e in ("daze", "sneeze") if e in d.effects]
    if d.paralysed:
        effects.append(effect_short("paralyse", lang))
    if effects:
        text += t("table.magic", lang, effects=", ".join(effects))
    if d.pending_effects:
        pending = ", ".join(effect_short(e, lang) for e in d.pending_effects)
        text += t("table.pending", lang, effects=pending)
    return text
