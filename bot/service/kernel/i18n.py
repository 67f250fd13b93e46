"""The service's texts: the catalogs of :mod:`bot.i18n` (docs/i18n.md).

Kept so that ``from .i18n import t`` reads as before; a text is added to
``bot/locale/*/LC_MESSAGES/messages.po``, never here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime

from bot.i18n import LANGS, N_, format_clock, format_deadline, lang_or_default, t, tn

__all__ = [
    "END_REASON_TEXTS",
    "LANGS",
    "N_",
    "ROLE_TEXTS",
    "SIDE_TEXTS",
    "STATUS_TEXTS",
    "format_clock",
    "format_time",
    "lang_or_default",
    "reader_zone",
    "t",
    "tn",
]


# A game's status in words (the keys are marked for extraction).
STATUS_TEXTS = {
    "setup": N_("status_setup"),
    "running": N_("status_running"),
    "paused": N_("status_paused"),
    "ended": N_("status_ended"),
}

# A team by its side, as a noun («левые», "left").
SIDE_TEXTS = {"left": N_("side.left"), "right": N_("side.right")}

ROLE_TEXTS = {
    "captain": N_("role_captain"),
    "player": N_("role_player"),
    "game_master": N_("role_game_master"),
}

# Why a match ended (engine end_reason codes) in words.
END_REASON_TEXTS = {
    "all_balls": N_("end_reason_all_balls"),
    "team_swallowed": N_("end_reason_team_swallowed"),
    "decided": N_("end_reason_decided"),
    "max_rounds": N_("end_reason_max_rounds"),
    "asleep": N_("end_reason_asleep"),
    "all_players_out": N_("end_reason_all_players_out"),
    "game_master": N_("end_reason_game_master"),
}


# The time zone of the one reader a text is being written for (/tz), if he chose
# one: texts are rendered per reader (a parameter is a callable of the language),
# so the zone rides along with the rendering instead of through every text.
_READER_ZONE: ContextVar[str | None] = ContextVar("reader_zone", default=None)


@contextmanager
def reader_zone(zone: str | None) -> Iterator[None]:
    """Deadlines written within are in ``zone`` (None: the game's own)."""
    token = _READER_ZONE.set(zone)
    try:
        yield
    finally:
        _READER_ZONE.reset(token)


def format_time(when: datetime, zone: str, lang: str) -> str:
    """A deadline as its readers expect it: local time and the zone's name
    (the reader's own zone, if he set one with /tz, else the game's)."""
    return format_deadline(when, _READER_ZONE.get() or zone, lang)
