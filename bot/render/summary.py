"""The match summary: final score, the goals in order, each player's numbers
and a player of the match — all counted from the events of every round.

Credit for a goal goes to the last player who had the ball (his pass, or
the ball in his hands when he was swallowed); a ball put into one's own
team's dragon scores for the other team and is listed as an own goal.
Player of the match: the most ``3 × points scored + 2 × steals + catches +
passes / 2 − falls``; ties go to more points, then fewer falls, then the
team and shirt order, so the choice is stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import Event
from engine.geometry import SIDES, Side
from engine.ruleset import Ruleset
from engine.state import MatchState

from .names import ball_name, check_lang, dragon_name, side_letter
from .phrases import WHERE, points
from .story import score_text
from .values import as_int, as_list

__all__ = ["PlayerLine", "count_players", "match_summary"]

_WORDS = {
    "ru": {
        "title": "Итоги матча",
        "title_playing": "Матч продолжается: итоги на раунд {round}",
        "final": "Итоговый счёт: {score}",
        "reason": "Причина окончания: {reason}.",
        "goals": "Голы:",
        "no_goals": "Голов не было.",
        "goal": "{n}. Раунд {round}, такт {tick}: {ball} — {dragon}, {points} команде «{team}»{by}",
        "by": "; забил {name}",
        "own": "; в своего дракона: {name}",
        "team": "Команда «{team}»:",
        "player": "{mark} {name}: поймал {catches}, пасов {passes}, отнял {steals}, падений {falls}{extra}",
        "scored": ", очков забил {points}",
        "swallowed": ", проглочен {n}",
        "best": "🏆 Игрок матча: {name} («{team}»).",
        "nobody": "Игрок матча не определён: никто не отличился.",
    },
    "en": {
        "title": "Match summary",
        "title_playing": "The match goes on: summary after round {round}",
        "final": "Final score: {score}",
        "reason": "The match ended because {reason}.",
        "goals": "Goals:",
        "no_goals": "No goals.",
        "goal": "{n}. Round {round}, tick {tick}: {ball} into {dragon}, {points} for {team}{by}",
        "by": "; scored by {name}",
        "own": "; own dragon: {name}",
        "team": "{team}:",
        "player": "{mark} {name}: caught {catches}, passes {passes}, steals {steals}, falls {falls}{extra}",
        "scored": ", points scored {points}",
        "swallowed": ", swallowed {n}",
        "best": "🏆 Player of the match: {name} ({team}).",
        "nobody": "No player of the match: nobody stood out.",
    },
}

Key = tuple[str, int]


@dataclass
class PlayerLine:
    catches: int = 0
    passes: int = 0
    steals: int = 0
    falls: int = 0
    swallowed: int = 0
    points: int = 0

    @property
    def merit(self) -> float:
        return 3 * self.points + 2 * self.steals + self.catches + self.passes / 2 - self.falls


def count_players(
    events: Sequence[Event],
) -> tuple[dict[Key, PlayerLine], list[tuple[Event, Key | None]]]:
    """Per-player numbers and each goal with the player credited (or None)."""
    lines: dict[Key, PlayerLine] = {}
    last_touch: dict[str, Key] = {}
    goals: list[tuple[Event, Key | None]] = []

    def who(e: Event) -> Key:
        key = (str(e.data.get("side")), as_int(e.data.get("number")))
        lines.setdefault(key, PlayerLine())
        return key

    for e in events:
        kind, d = str(e.kind), e.data
        if kind in ("catch", "disenchant"):
            key = who(e)
            lines[key].catches += 1
            last_touch[str(d.get("ball"))] = key
        elif kind == "pass":
            key = who(e)
            lines[key].passes += 1
            last_touch[str(d.get("ball"))] = key
        elif kind == "steal":
            key = who(e)
            lines[key].steals += 1
            last_touch[str(d.get("ball"))] = key
        elif kind == "fall":
            lines[who(e)].falls += 1
        elif kind == "player_swallowed":
            key = who(e)
            lines[key].swallowed += 1
            for ball in as_list(d.get("balls")):
                last_touch[str(ball)] = key
        elif kind == "penalty_throw_in":
            last_touch.pop(str(d.get("ball")), None)
        elif kind == "goal":
            scorer = last_touch.pop(str(d.get("ball")), None)
            goals.append((e, scorer))
            if scorer is not None and scorer[0] == d.get("scorer_side"):
                lines[scorer].points += as_int(d.get("points"))
    return lines, goals


def match_summary(
    events_all_rounds: Sequence[Event], final: MatchState, ruleset: Ruleset, *, lang: str = "ru"
) -> str:
    """The summary of a match (or of the match so far, if it is not over)."""
    check_lang(lang)
    w = _WORDS[lang]
    lines, goals = count_players(events_all_rounds)
    out = [w["title"] if final.ended else w["title_playing"].format(round=final.round)]
    out.append(
        w["final"].format(score=score_text(final, final.teams[0].score, final.teams[1].score))
    )
    if final.end_reason:
        reason = WHERE[lang].get(final.end_reason, final.end_reason)
        out.append(w["reason"].format(reason=reason))
    out.append("")
    out.append(w["goals"] if goals else w["no_goals"])
    for n, (e, scorer) in enumerate(goals, start=1):
        d = e.data
        by = ""
        if scorer is not None:
            name = _name(final, scorer)
            by = (w["by"] if scorer[0] == d.get("scorer_side") else w["own"]).format(name=name)
        team_side = d.get("scorer_side")
        out.append(
            "  "
            + w["goal"].format(
                n=n,
                round=e.round,
                tick=e.tick,
                ball=ball_name(str(d.get("ball")), lang),
                dragon=dragon_name(final, d["dragon"], lang) if d.get("dragon") in SIDES else "?",
                points=points(as_int(d.get("points")), lang),
                team=final.team(team_side).name if team_side in SIDES else "?",
                by=by,
            )
        )
    for side in SIDES:
        out.append("")
        out.append(w["team"].format(team=final.team(side).name))
        for p in final.team_players(side):
            line = lines.get((side, p.number))
            if line is None and p.status == "reserve":
                continue
            line = line or PlayerLine()
            extra = w["scored"].format(points=line.points) if line.points else ""
            extra += w["swallowed"].format(n=line.swallowed) if line.swallowed else ""
            out.append(
                "  "
                + w["player"].format(
                    mark=f"{side_letter(side, lang)}{p.number}",
                    name=p.name,
                    catches=line.catches,
                    passes=line.passes,
                    steals=line.steals,
                    falls=line.falls,
                    extra=extra,
                )
            )
    out.append("")
    best = _best(lines)
    if best is None:
        out.append(w["nobody"])
    else:
        out.append(w["best"].format(name=_name(final, best), team=final.team(_side(best[0])).name))
    return "\n".join(out) + "\n"


def _best(lines: dict[Key, PlayerLine]) -> Key | None:
    ranked = sorted(
        ((key, line) for key, line in lines.items() if key[0] in SIDES),
        key=lambda kv: (-kv[1].merit, -kv[1].points, kv[1].falls, kv[0]),
    )
    if not ranked or ranked[0][1].merit <= 0:
        return None
    return ranked[0][0]


def _name(state: MatchState, key: Key) -> str:
    p = state.find_player(_side(key[0]), key[1]) if key[0] in SIDES else None
    return p.name if p is not None and p.name else f"{key[0]}{key[1]}"


def _side(value: str) -> Side:
    return "left" if value == "left" else "right"
