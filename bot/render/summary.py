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

from bot.i18n import N_, t
from engine.events import Event
from engine.geometry import SIDES, Side
from engine.ruleset import Ruleset
from engine.state import MatchState

from .names import ball_name, check_lang, dragon_name, side_letter
from .phrases import points, why
from .story import score_text
from .values import as_int, as_list

__all__ = ["PlayerLine", "count_players", "match_summary"]


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
        elif kind == "steal_pick" and e.ok is not False and d.get("ball"):
            # a contested steal's draw gave the ball to this one (version 3):
            # the steal is his, not the team-mate's who held it a moment (named
            # "from" by the pick between two holders, else the one rival)
            key = who(e)
            lines[key].steals += 1
            loser = d.get("from") if e.ok is None else next(iter(as_list(d.get("rivals"))), None)
            was = (str(d.get("side")), as_int(loser))
            if was in lines and lines[was].steals > 0:
                lines[was].steals -= 1
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
    lines, goals = count_players(events_all_rounds)
    out = [
        t("summary.title", lang)
        if final.ended
        else t("summary.title_playing", lang, round=final.round)
    ]
    out.append(
        t(
            "summary.final",
            lang,
            score=score_text(final, final.teams[0].score, final.teams[1].score, lang),
        )
    )
    if final.end_reason:
        reason = why(final.end_reason, lang) or final.end_reason
        out.append(t("summary.reason", lang, reason=reason))
    out.append("")
    out.append(t("summary.goals", lang) if goals else t("summary.no_goals", lang))
    for n, (e, scorer) in enumerate(goals, start=1):
        d = e.data
        by = ""
        if scorer is not None:
            name = _name(final, scorer)
            key = N_("summary.by") if scorer[0] == d.get("scorer_side") else N_("summary.own")
            by = t(key, lang, name=name)
        team_side = d.get("scorer_side")
        out.append(
            "  "
            + t(
                "summary.goal",
                lang,
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
        out.append(t("summary.team", lang, team=final.team(side).name))
        for p in final.team_players(side):
            line = lines.get((side, p.number))
            if line is None and p.status == "reserve":
                continue
            line = line or PlayerLine()
            extra = t("summary.scored", lang, points=line.points) if line.points else ""
            extra += t("summary.swallowed", lang, n=line.swallowed) if line.swallowed else ""
            out.append(
                "  "
                + t(
                    "summary.player",
                    lang,
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
        out.append(t("summary.nobody", lang))
    else:
        out.append(
            t("summary.best", lang, name=_name(final, best), team=final.team(_side(best[0])).name)
        )
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
