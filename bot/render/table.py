"""The end-of-round table: who is where with which ball, the dragons, and
the free balls with where each flies next.

One line a thing, no column alignment (Telegram shows proportional type),
so it reads the same in a chat, a mail and a log.  Only what the reader may
know: the vanished yellow ball is "vanished" (its cell only in the game
master's view, ``gm_view``).
"""

from __future__ import annotations

from engine.geometry import SIDES
from engine.ruleset import Ruleset
from engine.state import MatchState, PlayerState

from .course import next_course
from .names import ball_colour, direction_name, effect_short, side_letter
from .values import is_cell

__all__ = ["position_table"]

_WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "head": "Позиция после раунда {round} (клетка/высота):",
        "team": "«{team}»:",
        "player": "{mark} {name} {cell}/{height}",
        "holds": " — в руках: {balls}",
        "hospital": "{mark} {name} — больничное крыло до раунда {round}",
        "swallowed": "{mark} {name} — проглочен, в драконе «{team}»",
        "reserve": "{mark} {name} — в запасе",
        "dragon": "дракон: голова {head}, смотрит на {facing}, высота {height}, пасть {mouth}",
        "open": "открыта",
        "closed": "закрыта",
        "fire": "; огонь: коротких {short}, залпов {volleys}",
        "no_fire": "; огня больше нет",
        "magic": "; {effects}",
        "pending": "; со следующего такта: {effects}",
        "free": "Свободные мячи (клетка/высота → следующий полёт, если ничто не помешает):",
        "ball": "{ball} {cell}/{height} → {direction}: {cells}",
        "ball_dome": "{ball} {cell}/{height} → {direction}: {cells}, у купола новый курс",
        "ball_still": "{ball} {cell}/{height}",
        "no_free": "Свободных мячей нет.",
        "vanished": "Жёлтый мяч исчез: где он, не видно.",
        "vanished_gm": "Жёлтый мяч исчез: клетка {cell}, высота {height} (видит судья).",
        "gone": "Вне игры: {items}.",
        "ball_swallowed": "{ball} — проглочен драконом «{team}»",
        "ball_burnt": "{ball} — сгорел",
    },
    "en": {
        "head": "Position after round {round} (cell/height):",
        "team": "{team}:",
        "player": "{mark} {name} {cell}/{height}",
        "holds": " — holding {balls}",
        "hospital": "{mark} {name} — hospital wing until round {round}",
        "swallowed": "{mark} {name} — swallowed, inside the {team} dragon",
        "reserve": "{mark} {name} — reserve",
        "dragon": "dragon: head {head}, facing {facing}, height {height}, mouth {mouth}",
        "open": "open",
        "closed": "closed",
        "fire": "; fire: {short} short, {volleys} volleys",
        "no_fire": "; no fire any more",
        "magic": "; {effects}",
        "pending": "; from the next tick: {effects}",
        "free": "Free balls (cell/height → next flight, unless something gets in the way):",
        "ball": "{ball} {cell}/{height} → {direction}: {cells}",
        "ball_dome": "{ball} {cell}/{height} → {direction}: {cells}, a new course at the dome",
        "ball_still": "{ball} {cell}/{height}",
        "no_free": "No free balls.",
        "vanished": "The yellow ball has vanished: nobody sees where.",
        "vanished_gm": "The yellow ball has vanished: cell {cell}, height {height} (GM only).",
        "gone": "Out of play: {items}.",
        "ball_swallowed": "{ball} swallowed by the {team} dragon",
        "ball_burnt": "{ball} burnt",
    },
}


def position_table(
    state: MatchState, ruleset: Ruleset, *, round_: int, lang: str, gm_view: bool = False
) -> list[str]:
    """The table's lines for the position ``state`` after round ``round_``."""
    w = _WORDS[lang]
    out = [w["head"].format(round=round_)]
    for side in SIDES:
        out.append(w["team"].format(team=state.team(side).name))
        players = sorted(state.team_players(side), key=lambda p: (p.status == "reserve", p.number))
        out.extend("  " + _player(p, state, lang) for p in players)
        out.append("  " + _dragon(state, side, lang))
    free = [b for b in state.balls if b.status == "free" and is_cell(b.cell)]
    if free:
        out.append(w["free"])
        for b in free:
            course = next_course(b, ruleset)
            values = {"ball": ball_colour(b.name, lang), "cell": b.cell, "height": b.height}
            if course is None:
                out.append("  " + w["ball_still"].format(**values))
                continue
            key = "ball_dome" if course.dome else "ball"
            out.append(
                "  "
                + w[key].format(
                    **values,
                    direction=direction_name(course.direction, lang),
                    cells=", ".join(str(c) for c in course.cells) or "—",
                )
            )
    else:
        out.append(w["no_free"])
    for b in state.balls:
        if b.status == "vanished":
            if gm_view and is_cell(b.cell):
                out.append(w["vanished_gm"].format(cell=b.cell, height=b.height))
            else:
                out.append(w["vanished"])
    gone = []
    for b in state.balls:
        name = ball_colour(b.name, lang)
        if b.status == "swallowed" and b.swallowed_by is not None:
            gone.append(w["ball_swallowed"].format(ball=name, team=state.team(b.swallowed_by).name))
        elif b.status == "burnt":
            gone.append(w["ball_burnt"].format(ball=name))
    if gone:
        out.append(w["gone"].format(items="; ".join(gone)))
    return out


def _player(p: PlayerState, state: MatchState, lang: str) -> str:
    w = _WORDS[lang]
    mark = f"{side_letter(p.side, lang)}{p.number}"
    if p.status == "hospital":
        return w["hospital"].format(mark=mark, name=p.name, round=p.return_round)
    if p.status == "swallowed":
        dragon = p.swallowed_by or ("right" if p.side == "left" else "left")
        return w["swallowed"].format(mark=mark, name=p.name, team=state.team(dragon).name)
    if p.status == "reserve" or not is_cell(p.cell):
        return w["reserve"].format(mark=mark, name=p.name)
    text = w["player"].format(mark=mark, name=p.name, cell=p.cell, height=p.height)
    if p.balls:
        text += w["holds"].format(balls=", ".join(ball_colour(b, lang) for b in p.balls))
    return text


def _dragon(state: MatchState, side: str, lang: str) -> str:
    w = _WORDS[lang]
    d = state.dragon("left" if side == "left" else "right")
    text = w["dragon"].format(
        head=d.head,
        facing=direction_name(d.facing, lang),
        height=d.height,
        mouth=w["open"] if d.mouth_open else w["closed"],
    )
    if d.extinguished:
        text += w["no_fire"]
    else:
        text += w["fire"].format(short=d.short_left, volleys=d.volleys_left)
    effects = [effect_short(e, lang) for e in ("daze", "sneeze") if e in d.effects]
    if d.paralysed:
        effects.append(effect_short("paralyse", lang))
    if effects:
        text += w["magic"].format(effects=", ".join(effects))
    if d.pending_effects:
        pending = ", ".join(effect_short(e, lang) for e in d.pending_effects)
        text += w["pending"].format(effects=pending)
    return text
