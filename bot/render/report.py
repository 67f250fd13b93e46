"""The round report: what happened, tick by tick, in the order of the rules.

The public report (``audience=None``) never names a spell before the rules
reveal it (a ``disenchant`` or ``bludger``); a team's private report also
shows its own enchanted passes and how many it has left.  Players' own
descriptions are woven in beside their own action of the tick; spell names
in them are blanked for anyone but the writer's team, so a player cannot
give his own secret away by accident.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from bot.i18n import N_, t
from engine.events import Event, Kind
from engine.geometry import SIDES, Side
from engine.ruleset import Ruleset
from engine.state import MatchState

from .names import ball_name, check_lang, edition_name, spell_name, spell_spellings
from .story import Line, Secrets, TickStory, score_text
from .table import position_table

__all__ = ["ReportParts", "TickPart", "redact", "report_parts", "round_report"]

DESCRIPTION_LIMIT = 500
_LASTING = ("daze", "sneeze")  # a new ball replaces these (docs/rules.md §1)


@dataclass(frozen=True)
class TickPart:
    """One tick of the story: its heading (None for the round's start) and lines."""

    tick: int
    heading: str | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ReportParts:
    """A round report in its parts, for the plain text and the mail's HTML."""

    title: str
    head: tuple[str, ...]  # under the title: the score before the round
    ticks: tuple[TickPart, ...]
    summary_title: str
    summary: tuple[str, ...]  # the score after, the end-of-round table, own spells

    def text(self) -> str:
        out = [self.title, *self.head]
        for part in self.ticks:
            out.append("")
            if part.heading is not None:
                out.append(part.heading)
            out.extend(part.lines)
        out.extend(["", self.summary_title, *self.summary])
        return "\n".join(out) + "\n"


def round_report(
    events: Sequence[Event],
    *,
    before: MatchState,
    after: MatchState,
    ruleset: Ruleset,
    lang: str = "ru",
    audience: Side | None = None,
    descriptions: Mapping[tuple[Side, int, int], str] | None = None,
    game: str | None = None,
) -> str:
    """The report of one round as plain text (Telegram and e-mail).

    ``events`` are the round's events in the engine's order; ``before`` and
    ``after`` the positions around it.  ``audience`` None gives the public
    report, a side that team's private one.  ``descriptions`` maps (side,
    shirt number, tick) to a player's own words for that tick; ``game`` (the
    game's code) goes into the one title line.
    """
    return report_parts(
        events,
        before=before,
        after=after,
        ruleset=ruleset,
        lang=lang,
        audience=audience,
        descriptions=descriptions,
        game=game,
    ).text()


def report_parts(
    events: Sequence[Event],
    *,
    before: MatchState,
    after: MatchState,
    ruleset: Ruleset,
    lang: str = "ru",
    audience: Side | None = None,
    descriptions: Mapping[tuple[Side, int, int], str] | None = None,
    game: str | None = None,
) -> ReportParts:
    """The report of :func:`round_report` in its parts."""
    check_lang(lang)
    if audience is not None and audience not in SIDES:
        raise ValueError(f"audience must be None, 'left' or 'right', not {audience!r}")
    said = descriptions or {}
    title_key, private_key = (
        (N_("report.game_title"), N_("report.game_title_private"))
        if game
        else (N_("report.title"), N_("report.title_private"))
    )
    if audience is None:
        title = t(title_key, lang, round=before.round, game=game)
    else:
        title = t(private_key, lang, round=before.round, team=after.team(audience).name, game=game)
    head = (
        t(
            "report.score_before",
            lang,
            score=score_text(after, before.teams[0].score, before.teams[1].score, lang),
        ),
    )
    yellow = before.ball("yellow") if any(b.name == "yellow" for b in before.balls) else None
    secrets = Secrets(audience, yellow_visible=yellow is None or yellow.status != "vanished")
    ticks: dict[tuple[int, int], list[Event]] = {}
    for e in events:
        ticks.setdefault((e.round, e.tick), []).append(e)
    lasting: dict[str, str | None] = {d.side: d.effect for d in before.dragons}
    parts: list[TickPart] = []
    for (_, tick), tick_events in ticks.items():
        ordered = sorted(tick_events, key=lambda e: e.step)  # stable: keeps the engine's order
        lines = TickStory(ordered, after, ruleset, lang, secrets, dict(lasting)).tell()
        for e in ordered:  # the magic the next tick begins with
            if e.kind is Kind.EFFECT_START:
                # balls swallowed at one moment start together (§1)
                names = e.data.get("together") or [str(e.data.get("effect"))]
                kept = "+".join(str(n) for n in names if n in _LASTING)
                lasting[str(e.data.get("dragon"))] = kept or None
        lines = _weave(lines, tick, said, after, ruleset, lang, audience)
        if not lines:
            continue
        heading = t("report.tick", lang, tick=tick) if tick > 0 else None
        parts.append(TickPart(tick, heading, tuple(line.text for line in lines)))
    if not events:
        parts.append(TickPart(0, None, (t("report.no_events", lang),)))
    summary = _footer(before.round, after, ruleset, lang, audience)
    return ReportParts(title, head, tuple(parts), summary[0], tuple(summary[1:]))


def _weave(
    lines: list[Line],
    tick: int,
    said: Mapping[tuple[Side, int, int], str],
    names: MatchState,
    ruleset: Ruleset,
    lang: str,
    audience: Side | None,
) -> list[Line]:
    """Each description after the line of the player's own action in the
    tick, or after his team's flights when none is told.  A player the tick's
    events never mention (in the hospital, swallowed) did nothing his words
    could describe, so they are left out."""
    mine = sorted((k, v) for k, v in said.items() if k[2] == tick and v and v.strip())
    if not mine:
        return lines
    after_line: dict[int, list[str]] = {}
    for (side, number, _), text in mine:
        clean = _clean(text)
        if audience != side:
            clean = redact(clean, ruleset, lang)
        player = names.find_player(side, number)
        who = player.name if player is not None and player.name else f"{side}{number}"
        sentence = t("report.said", lang, name=who, text=clean)
        about = [i for i, line in enumerate(lines) if (side, number) in line.actors]
        # Beside his own action (a catch, pass, steal, return); failing that,
        # after his team's flights — never after a collision or someone's fall.
        index = next(
            (i for i in about if lines[i].action),
            next((i for i in about if lines[i].flights), about[0] if about else None),
        )
        if index is not None:
            after_line.setdefault(index, []).append(sentence)
    woven: list[Line] = []
    for i, line in enumerate(lines):
        woven.append(line)
        woven.extend(Line(text) for text in after_line.get(i, ()))
    return woven


def _clean(text: str) -> str:
    """One line, no control characters, and not longer than a paragraph."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if len(flat) > DESCRIPTION_LIMIT:
        flat = flat[: DESCRIPTION_LIMIT - 1].rstrip() + "…"
    return flat


def redact(text: str, ruleset: Ruleset, lang: str = "ru") -> str:
    """The text with every spelling of every spell and counter-spell blanked."""
    return _spell_pattern(spell_spellings(ruleset)).sub(t("report.hidden", lang), text)


@cache
def _spell_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    # Hyphen, dash or space between the halves: «гуллис дуллис» is the same spell.
    alternatives = [re.escape(w).replace(r"\-", r"[\s\-‐–—]*") for w in words]
    return re.compile("|".join(alternatives), re.IGNORECASE)


def _footer(
    round_: int, after: MatchState, ruleset: Ruleset, lang: str, audience: Side | None
) -> list[str]:
    """The score, the end-of-round table (every player, the dragons with
    their fire and magic, the free balls and their next flight) and, for a
    team, its own enchanted passes."""
    out = [t("report.summary_head", lang, round=round_)]
    out.append(
        t(
            "report.score",
            lang,
            score=score_text(after, after.teams[0].score, after.teams[1].score, lang),
        )
    )
    out.extend(position_table(after, ruleset, round_=round_, lang=lang))
    if audience is not None:
        team = after.team(audience)
        out.append(
            t(
                "report.enchanted_left",
                lang,
                left=team.enchanted_left,
                total=ruleset.enchanted_per_team,
            )
        )
        own = [
            t(
                "report.own_spell_item",
                lang,
                ball=ball_name(b.name, lang),
                spell=spell_name(ruleset, b.spell, lang),
            )
            for b in after.balls
            if b.spell and b.enchanted_by == audience and b.status in ("free", "held", "vanished")
        ]
        if own:
            out.append(t("report.own_spells", lang, items=", ".join(own)))
    # The rules this round was played under (a round re-plays under them).
    out.append(
        t("report.rules_version", lang, name=edition_name(ruleset, lang), version=ruleset.version)
    )
    return out
