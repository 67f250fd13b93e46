"""The messages of the order language: codes and their catalog keys.

Every error code of the language has a key here (``order.<code>``), and so
does every engine legality :class:`engine.problems.Code` (a test checks
both); the texts are in the catalogs (``bot/locale``), with the code's
``params`` as ``{placeholders}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final

from bot.i18n import N_, t, template

__all__ = [
    "BALL_LABELS",
    "ENGINE_CODE_ALIASES",
    "MESSAGES",
    "describe_expected",
    "label",
    "lang_of",
    "localise_params",
    "message",
    "quote",
]

MESSAGES: Final[dict[str, str]] = {
    "unknown_spell_list": N_("order.unknown_spell_list"),
    "unknown_counter_list": N_("order.unknown_counter_list"),
    "receiver_unknown": N_("order.receiver_unknown"),
    "receiver_next_round": N_("order.receiver_next_round"),
    "receiver_opponent": N_("order.receiver_opponent"),
    "pass_no_target": N_("order.pass_no_target"),
    "subst_form": N_("order.subst_form"),
    "subst_no_reserves": N_("order.subst_no_reserves"),
    "all_alone": N_("order.all_alone"),
    "pass_ball_which": N_("order.pass_ball_which"),
    "pass_ball_none": N_("order.pass_ball_none"),
    "one_action": N_("order.one_action"),
    "second_order": N_("order.second_order"),
    "two_players": N_("order.two_players"),
    "subst_duplicate": N_("order.subst_duplicate"),
    "pass_mate_and_cell": N_("order.pass_mate_and_cell"),
    # -- syntax ----------------------------------------------------------------------
    "syntax_token": N_("order.syntax_token"),
    "syntax_end": N_("order.syntax_end"),
    "syntax_word": N_("order.syntax_word"),
    "syntax_number": N_("order.syntax_number"),
    "line_too_long": N_("order.line_too_long"),
    "syntax_ticks": N_("order.syntax_ticks"),
    "no_height": N_("order.no_height"),
    "no_flight": N_("order.no_flight"),
    "stay_unknown": N_("order.stay_unknown"),
    "moved_from": N_("order.moved_from"),
    "moved_from_unknown": N_("order.moved_from_unknown"),
    "dragon_conflict": N_("order.dragon_conflict"),
    "dragon_word": N_("order.dragon_word"),
    "dragon_direction": N_("order.dragon_direction"),
    "clear_what": N_("order.clear_what"),
    "extra_word": N_("order.extra_word"),
    "counter_in_pass": N_("order.counter_in_pass"),
    "spell_in_catch": N_("order.spell_in_catch"),
    "under_bad_header": N_("order.under_bad_header"),
    "no_team": N_("order.no_team"),
    # -- names --------------------------------------------------------------------------
    "unknown_player": N_("order.unknown_player"),
    "unknown_number": N_("order.unknown_number"),
    "unknown_ball": N_("order.unknown_ball"),
    "unknown_catch_word": N_("order.unknown_catch_word"),
    "unknown_spell": N_("order.unknown_spell"),
    "unknown_counter": N_("order.unknown_counter"),
    "unknown_team": N_("order.unknown_team"),
    "ambiguous_player": N_("order.ambiguous_player"),
    "name_number": N_("order.name_number"),
    "ambiguous_ball": N_("order.ambiguous_ball"),
    "suggest": N_("order.suggest"),
    # -- permissions -----------------------------------------------------------------------
    "forbidden_player": N_("order.forbidden_player"),
    "forbidden_dragon": N_("order.forbidden_dragon"),
    "forbidden_team": N_("order.forbidden_team"),
    "forbidden_penalty": N_("order.forbidden_penalty"),
    # -- the message as a whole --------------------------------------------------------
    "too_large": N_("order.too_large"),
    "too_many_lines": N_("order.too_many_lines"),
    "wrong_round": N_("order.wrong_round"),
    "pasted_round": N_("order.pasted_round"),
    # -- engine legality (engine/problems.py Code) -------------------------------------
    "match_ended": N_("order.match_ended"),
    "tick_range": N_("order.tick_range"),
    "tick_past": N_("order.tick_past"),
    "unknown_player_number": N_("order.unknown_player_number"),
    "other_team": N_("order.other_team"),
    "not_active": N_("order.not_active"),
    "launch_tick": N_("order.launch_tick"),
    "launch_cell": N_("order.launch_cell"),
    "cell_invalid": N_("order.cell_invalid"),
    "height_invalid": N_("order.height_invalid"),
    "too_far": N_("order.too_far"),
    "height_step": N_("order.height_step"),
    "pass_no_ball": N_("order.pass_no_ball"),
    "pass_range": N_("order.pass_range"),
    "pass_yellow_range": N_("order.pass_yellow_range"),
    "spell_unknown": N_("order.spell_unknown"),
    "counter_unknown": N_("order.counter_unknown"),
    "enchant_quota": N_("order.enchant_quota"),
    "ball_unknown": N_("order.ball_unknown"),
    "ball_out_of_play": N_("order.ball_out_of_play"),
    "hands_full": N_("order.hands_full"),
    "steal_teammate": N_("order.steal_teammate"),
    "steal_unknown": N_("order.steal_unknown"),
    "steal_target_out": N_("order.steal_target_out"),
    "steal_out_of_reach": N_("order.steal_out_of_reach"),
    "dragon_off_half": N_("order.dragon_off_half"),
    "dragon_edge": N_("order.dragon_edge"),
    "dragon_off_field": N_("order.dragon_off_field"),
    "dragon_height": N_("order.dragon_height"),
    "dragon_height_step": N_("order.dragon_height_step"),
    "dragon_paralysed": N_("order.dragon_paralysed"),
    "fire_extinguished": N_("order.fire_extinguished"),
    "fire_budget": N_("order.fire_budget"),
    "fire_dazed": N_("order.fire_dazed"),
    "fire_kind": N_("order.fire_kind"),
    "subst_swallowed": N_("order.subst_swallowed"),
    "subst_not_reserve": N_("order.subst_not_reserve"),
    "subst_out_reserve": N_("order.subst_out_reserve"),
    "subst_out_reserve_swap": N_("order.subst_out_reserve_swap"),
    "subst_unknown": N_("order.subst_unknown"),
    "subst_tick": N_("order.subst_tick"),
    "subst_injured": N_("order.subst_injured"),
    "gm_only": N_("order.gm_only"),
    "pass_not_a_line": N_("order.pass_not_a_line"),
    "dragon_one_action": N_("order.dragon_one_action"),
    "fire_breath": N_("order.fire_breath"),
    "penalty_no_warning": N_("order.penalty_no_warning"),
    "duplicate": N_("order.duplicate"),
    "penalty_tick": N_("order.penalty_tick"),
}

# The engine's UNKNOWN_PLAYER code shares its name with the resolver's; keep both apart.
ENGINE_CODE_ALIASES: Final[dict[str, str]] = {"unknown_player": "unknown_player_number"}

# The balls' words of the order language itself (both are read whatever the
# writer's language: they are vocabulary, like lexicon.py, not texts to translate).
BALL_LABELS: Final[dict[str, tuple[str, str]]] = {
    "black": ("чёрный", "black"),
    "green": ("зелёный", "green"),
    "blue": ("голубой", "blue"),
    "red": ("красный", "red"),
    "yellow": ("жёлтый", "yellow"),
}

_LABELS: Final[dict[str, str]] = {
    "black": N_("order.label.black"),
    "green": N_("order.label.green"),
    "blue": N_("order.label.blue"),
    "red": N_("order.label.red"),
    "yellow": N_("order.label.yellow"),
    "hospital": N_("order.label.hospital"),
    "swallowed": N_("order.label.swallowed"),
    "reserve": N_("order.label.reserve"),
    "active": N_("order.label.active"),
    "burnt": N_("order.label.burnt"),
    "vanished": N_("order.label.vanished"),
    "short": N_("order.label.short"),
    "volley": N_("order.label.volley"),
    "left": N_("order.label.left"),
    "right": N_("order.label.right"),
    "or": N_("order.label.or"),
}

# What a terminal the parser expected means to a player.
_EXPECTED: Final[tuple[tuple[frozenset[str], str], ...]] = (
    (frozenset({"INT"}), N_("order.expected.number")),
    (frozenset({"H", "SLASH"}), N_("order.expected.height")),
    (frozenset({"PASS", "CATCH", "STEAL"}), N_("order.expected.action")),
    # a player may stay too: the dragon's moves are named only where the dragon is ordered
    (
        frozenset({"FORWARD", "LEFT", "RIGHT", "UP", "DOWN", "FIRE", "SHORT", "VOLLEY"}),
        N_("order.expected.dragon"),
    ),
    (frozenset({"STAY"}), N_("order.expected.stay")),
    (frozenset({"WORD"}), N_("order.expected.word")),
    (frozenset({"ARROW"}), N_("order.expected.arrow")),
    (frozenset({"CLEAR"}), N_("order.expected.clear")),
)


def lang_of(lang: str) -> int:
    """0 for Russian (the default for anything unknown), 1 for English."""
    return 1 if lang.lower().startswith("en") else 0


class _Params(dict[str, Any]):
    """An engine problem may lack a parameter its message names: "?" then."""

    def __missing__(self, key: str) -> str:
        return "?"


def message(code: str, lang: str = "ru", **params: Any) -> str:
    """The message for ``code`` in ``lang`` with ``params`` filled in."""
    key = MESSAGES.get(code)
    if key is None:
        return code
    return template(key, lang).format_map(_Params(params))


def label(value: str, lang: str = "ru") -> str:
    """A ball, status or side in words of ``lang`` (the value itself if unknown)."""
    key = _LABELS.get(value)
    return value if key is None else t(key, lang)


def quote(items: Iterable[str], lang: str) -> str:
    """Words quoted the way ``lang`` quotes («пас», “pass”), comma-separated."""
    return ", ".join(t("order.quote", lang, text=item) for item in items)


def describe_expected(expected: Iterable[str], lang: str = "ru") -> str:
    """The parser's expected terminals as a short phrase ("число или высота")."""
    return _describe_expected(frozenset(expected), lang)


@lru_cache(maxsize=512)
def _describe_expected(wanted: frozenset[str], lang: str) -> str:
    if "FORWARD" in wanted:  # a dragon's line: "стоять" is among its moves
        wanted = wanted - {"STAY"}
    parts = [t(key, lang) for kinds, key in _EXPECTED if wanted & kinds]
    if not parts:
        parts = [t("order.expected.end", lang)]
    return f" {t('order.label.or', lang)} ".join(parts[:4])


def localise_params(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Engine problem params in words: balls, statuses and fire kinds by name."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in ("ball", "status", "fire") and isinstance(value, str):
            out[key] = label(value, lang)
        elif isinstance(value, list | tuple):
            out[key] = ", ".join(str(v) for v in value)
        else:
            out[key] = value
    return out
