"""The report's vocabulary that is looked up by code, and number formats.

The sentences themselves are in the catalogs (``report.*`` keys,
``bot/locale/*/LC_MESSAGES/messages.po``).  Names are put in the nominative
only (surnames and team names are never declined: «у соперника (Соколов)»,
«команде «Виверны»»), so any roster reads correctly.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import N_, t, tn

__all__ = ["ACTIONS", "MOVES", "WHY", "percent", "points", "why"]

# A dragon's move (event data ``move``).
MOVES: Final[dict[str, str]] = {
    "forward": N_("report.forward"),
    "left": N_("report.left"),
    "right": N_("report.right"),
    "stay": N_("report.stay"),
}

# An action a player lost (event data ``action``).
ACTIONS: Final[dict[str, str]] = {
    "pass": N_("report.action_pass"),
    "steal": N_("report.action_steal"),
    "catch": N_("report.action_catch"),
}

# Reasons, causes and places the engine names in event data (the event's
# ``where``, ``part``, ``cause`` and ``reason``).  An unknown code is left out
# of the sentence rather than shown raw.
WHY: Final[dict[str, str]] = {
    "same_cell_same_height": N_("report.why.same_cell_same_height"),
    "same_cell_other_height": N_("report.why.same_cell_other_height"),
    "same_cell": N_("report.why.same_cell"),
    "adjacent": N_("report.why.adjacent"),
    "head_same_height": N_("report.why.head_same_height"),
    "head_other_height": N_("report.why.head_other_height"),
    "head": N_("report.why.head"),
    "body": N_("report.why.body"),
    "tail": N_("report.why.tail"),
    "collision": N_("report.why.collision"),
    "dragon_head": N_("report.why.dragon_head"),
    "dragon_body": N_("report.why.dragon_body"),
    "dragon_tail": N_("report.why.dragon_tail"),
    "fire": N_("report.why.fire"),
    "bludger": N_("report.why.bludger"),
    "stay": N_("report.why.stay"),
    "breath": N_("report.why.breath"),
    "sneeze": N_("report.why.sneeze"),
    "extinguished": N_("report.why.extinguished"),
    "dazed": N_("report.why.dazed"),
    "budget": N_("report.why.budget"),
    "held_on": N_("report.why.held_on"),
    "fell": N_("report.why.fell"),
    "swallowed": N_("report.why.swallowed"),
    "no_ball": N_("report.why.no_ball"),
    "out_of_reach": N_("report.why.out_of_reach"),
    "target_out": N_("report.why.target_out"),
    "taken": N_("report.why.taken"),
    "hands_full": N_("report.why.hands_full"),
    "none_in_reach": N_("report.why.none_in_reach"),
    "not_catchable": N_("report.why.not_catchable"),
    "range": N_("report.why.range"),
    "ball_unknown": N_("report.why.ball_unknown"),
    "spell_unknown": N_("report.why.spell_unknown"),
    "enchant_quota": N_("report.why.enchant_quota"),
    "cell_invalid": N_("report.why.cell_invalid"),
    "too_far": N_("report.why.too_far"),
    "height_invalid": N_("report.why.height_invalid"),
    "height_step": N_("report.why.height_step"),
    "not_reserve": N_("report.why.not_reserve"),
    "injured": N_("report.why.injured"),
    "unknown": N_("report.why.unknown"),
    "all_balls": N_("report.why.all_balls"),
    "team_swallowed": N_("report.why.team_swallowed"),
    "max_rounds": N_("report.why.max_rounds"),
    "asleep": N_("report.why.asleep"),
    "dragon_turn": N_("report.why.dragon_turn"),
    "dome": N_("report.why.dome"),
    "dragon_fight": N_("report.why.dragon_fight"),
    "counter": N_("report.why.counter"),
    "race": N_("report.why.race"),
    "all_players_out": N_("report.why.all_players_out"),
    "decided": N_("report.why.decided"),
    "game_master": N_("report.why.game_master"),
}


def why(code: object, lang: str) -> str:
    """The words for an engine code, or "" for a code the report does not know."""
    key = WHY.get(str(code))
    return t(key, lang) if key is not None else ""


def percent(p: float, lang: str = "en") -> str:
    """50% / 16.7%: whole percents unless that would hide a fraction, which
    Russian writes with a decimal comma (16,7%)."""
    value = p * 100.0
    if abs(value - round(value)) < 0.05:
        return f"{round(value)}%"
    text = f"{value:.1f}%"
    return text.replace(".", ",") if lang == "ru" else text


def points(n: int, lang: str) -> str:
    """«+2 очка», "+2 points"."""
    return tn("report.points", n, lang)
