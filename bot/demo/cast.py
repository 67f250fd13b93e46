"""Who plays the demo, in the demo's language: the teams, their rosters and
captains, and the bots' descriptions of their orders.

The names are texts of the catalogs (``demo.team.*``, ``demo.players.*``),
so the English demo has English teams and players from its first line.  The
bot policies of the engine describe an order now and then with one of a few
Russian phrases (``engine.bots.common.PHRASES``); here each is replaced by
the same phrase of the catalog, in the demo's language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot.i18n import N_, t
from engine.bots.common import PHRASES
from engine.geometry import Side
from engine.orders import RoundOrders

__all__ = ["captain_name", "describe", "describe_text", "roster", "team_name"]

_TEAMS: Final[dict[Side, str]] = {"left": N_("demo.team.left"), "right": N_("demo.team.right")}
_ROSTERS: Final[dict[Side, str]] = {
    "left": N_("demo.players.left"),
    "right": N_("demo.players.right"),
}
_CAPTAINS: Final[dict[Side, str]] = {
    "left": N_("demo.captain.left"),
    "right": N_("demo.captain.right"),
}

# The engine's phrases, kind by kind, in its order.
_BOT: Final[dict[str, tuple[str, str, str]]] = {
    "up": (N_("demo.bot.up.0"), N_("demo.bot.up.1"), N_("demo.bot.up.2")),
    "down": (N_("demo.bot.down.0"), N_("demo.bot.down.1"), N_("demo.bot.down.2")),
    "stay": (N_("demo.bot.stay.0"), N_("demo.bot.stay.1"), N_("demo.bot.stay.2")),
    "fly": (N_("demo.bot.fly.0"), N_("demo.bot.fly.1"), N_("demo.bot.fly.2")),
    "catch": (N_("demo.bot.catch.0"), N_("demo.bot.catch.1"), N_("demo.bot.catch.2")),
    "steal": (N_("demo.bot.steal.0"), N_("demo.bot.steal.1"), N_("demo.bot.steal.2")),
    "pass": (N_("demo.bot.pass.0"), N_("demo.bot.pass.1"), N_("demo.bot.pass.2")),
    "shot": (N_("demo.bot.shot.0"), N_("demo.bot.shot.1"), N_("demo.bot.shot.2")),
    "launch": (N_("demo.bot.launch.0"), N_("demo.bot.launch.1"), N_("demo.bot.launch.2")),
}
_BY_TEXT: Final[dict[str, str]] = {
    text: _BOT[kind][i] for kind, texts in PHRASES.items() for i, text in enumerate(texts)
}


def team_name(side: Side, lang: str) -> str:
    return t(_TEAMS[side], lang)


def roster(side: Side, lang: str) -> list[str]:
    """The team's players in shirt order (more than a team needs)."""
    return [name.strip() for name in t(_ROSTERS[side], lang).split(",") if name.strip()]


def captain_name(side: Side, lang: str) -> str:
    """The captain's name as his Telegram account shows it."""
    return t(_CAPTAINS[side], lang)


def describe_text(text: str, lang: str) -> str:
    """A bot phrase in ``lang``; any other description as it is."""
    key = _BY_TEXT.get(text)
    return t(key, lang) if key is not None else text


def describe(orders: RoundOrders, lang: str) -> RoundOrders:
    """``orders`` with each bot phrase in ``lang`` (other descriptions kept)."""
    players = tuple(
        replace(o, description=describe_text(o.description, lang)) for o in orders.players
    )
    return replace(orders, players=players)
