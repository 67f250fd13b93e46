"""The odds of a team's orders in words (the ``/odds`` answer and the page).

The figures come from :mod:`engine.odds` (public information only); this
module only words them, line by line: the order in the order language, then
its chances.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, t
from bot.orderlang import format_orders
from engine.geometry import Side
from engine.odds import Chance, OrderOdds
from engine.orders import RoundOrders
from engine.ruleset import Ruleset
from engine.state import MatchState

from .names import ball_name, dragon_name, player_label

__all__ = ["chance_text", "odds_lines", "percent"]

_WHAT = {
    "catch": N_("odds.catch"),
    "catch_second": N_("odds.catch_second"),
    "steal": N_("odds.steal"),
    "shot": N_("odds.shot"),
    "fire": N_("odds.fire"),
    "dragon_body": N_("odds.dragon_body"),
    "dragon_head": N_("odds.dragon_head"),
    "swallow": N_("odds.swallow"),
}


def percent(probability: float) -> str:
    """A chance as players say it: «75 %», «16.7 %» (no false precision)."""
    value = probability * 100
    text = f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"
    return f"{text} %"


def chance_text(chance: Chance, state: MatchState, lang: str) -> str:
    """One figure in words: «ловля красного мяча: 50 %», «огонь: возможен»."""
    p = chance.params
    what = chance.what
    if what == "catch" and "ball" not in p:
        return t("odds.catch_none", lang)
    if what == "catch" and p.get("second"):
        what = "catch_second"
    params: dict[str, object] = {}
    if "ball" in p:
        params["ball"] = ball_name(str(p["ball"]), lang)
    if "dragon" in p:
        params["dragon"] = dragon_name(state, "left" if p["dragon"] == "left" else "right", lang)
    if "target" in p:
        target: Side = "left" if p.get("side") == "left" else "right"
        params["target"] = player_label(state, target, int(p["target"]), lang)
    head = t(_WHAT[what], lang, **params)
    if chance.probability is None:
        return t("odds.possible", lang, what=head)
    figure = percent(chance.probability)
    if not chance.known:
        key = N_("odds.if_stays") if chance.what == "steal" else N_("odds.if_open")
        return t(key, lang, what=head, chance=figure)
    return t("odds.figure", lang, what=head, chance=figure)


def odds_lines(
    odds: Sequence[OrderOdds], *, state: MatchState, ruleset: Ruleset, lang: str
) -> list[str]:
    """Each order of the sheet with its chances, one line each."""
    out: list[str] = []
    for line in odds:
        order = format_orders(
            RoundOrders(players=(line.order,)), state=state, ruleset=ruleset, lang=lang
        )
        # The tick's heading and the order's own line, without the sheet's header.
        order = " ".join(order.splitlines()[-2:])
        if line.chances:
            figures = "; ".join(chance_text(c, state, lang) for c in line.chances)
        else:
            figures = t("odds.nothing", lang)
        out.append(t("odds.line", lang, order=order, figures=figures))
    return out
