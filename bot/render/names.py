"""Words players read: names of balls, spells, effects, directions and teams.

The words are in the catalogs (``name.*`` keys).  Ball names are masculine inanimate
(«мяч»), so the accusative equals the nominative and one form serves most
sentences; the genitive is given where a sentence needs it.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import N_, t
from bot.i18n.editions import edition_name
from engine.geometry import Direction, Side
from engine.ruleset import Ruleset
from engine.state import MatchState

__all__ = [
    "LANGS",
    "ball_colour",
    "ball_genitive",
    "ball_letter",
    "ball_name",
    "check_lang",
    "direction_name",
    "dragon_name",
    "edition_name",
    "effect_short",
    "effect_text",
    "fire_name",
    "player_label",
    "side_letter",
    "spell_name",
    "spell_spellings",
    "team_name",
]

LANGS: Final = ("ru", "en")

BALLS: Final = ("black", "green", "blue", "red", "yellow")
# A ball's forms are catalog keys name.ball.<ball>[.genitive|.colour|.letter]:
# the nominative (= accusative, «мяч» is masculine inanimate), the genitive,
# the colour alone and the one-letter mark of the text diagram.
_BALL_FORMS: Final[dict[str, tuple[str, str, str, str]]] = {
    "black": (N_("name.ball.black"), N_("name.ball.black.genitive"), N_("name.ball.black.colour"), N_("name.ball.black.letter")),
    "green": (N_("name.ball.green"), N_("name.ball.green.genitive"), N_("name.ball.green.colour"), N_("name.ball.green.letter")),
    "blue": (N_("name.ball.blue"), N_("name.ball.blue.genitive"), N_("name.ball.blue.colour"), N_("name.ball.blue.letter")),
    "red": (N_("name.ball.red"), N_("name.ball.red.genitive"), N_("name.ball.red.colour"), N_("name.ball.red.letter")),
    "yellow": (N_("name.ball.yellow"), N_("name.ball.yellow.genitive"), N_("name.ball.yellow.colour"), N_("name.ball.yellow.letter")),
}  # fmt: skip

_DIRECTION: Final[dict[Direction, str]] = {
    Direction.E: N_("name.direction.E"),
    Direction.SE: N_("name.direction.SE"),
    Direction.SW: N_("name.direction.SW"),
    Direction.W: N_("name.direction.W"),
    Direction.NW: N_("name.direction.NW"),
    Direction.NE: N_("name.direction.NE"),
    Direction.N: N_("name.direction.N"),  # the square field's (the second edition)
    Direction.S: N_("name.direction.S"),
}

_EFFECT: Final[dict[str, str]] = {
    "daze": N_("name.effect.daze"),
    "sneeze": N_("name.effect.sneeze"),
    "extinguish": N_("name.effect.extinguish"),
    "pepper": N_("name.effect.pepper"),
    "paralyse": N_("name.effect.paralyse"),
    # The second edition's balls (variant-001.toml [balls.*] effect).
    "daze_zone": N_("name.effect.daze_zone"),
    "spit": N_("name.effect.spit"),
    "gape": N_("name.effect.gape"),
    "sleep": N_("name.effect.sleep"),
}

_EFFECT_SHORT: Final[dict[str, str]] = {
    "daze": N_("name.effect_short.daze"),
    "sneeze": N_("name.effect_short.sneeze"),
    "extinguish": N_("name.effect_short.extinguish"),
    "pepper": N_("name.effect_short.pepper"),
    "paralyse": N_("name.effect_short.paralyse"),
    "daze_zone": N_("name.effect_short.daze_zone"),
    "spit": N_("name.effect_short.spit"),
    "gape": N_("name.effect_short.gape"),
    "sleep": N_("name.effect_short.sleep"),
}

_FIRE: Final[dict[str, str]] = {
    "short": N_("name.fire.short"),
    "volley": N_("name.fire.volley"),
    # The second edition's flames (variant-001): no budget, paced by ticks.
    "jet": N_("name.fire.jet"),
    "wall": N_("name.fire.wall"),
}

_SIDE_LETTER: Final[dict[Side, str]] = {
    "left": N_("name.side.left"),
    "right": N_("name.side.right"),
}


def _word(table: dict[str, str], code: str, lang: str) -> str:
    key = table.get(code)
    return t(key, lang) if key else code


def _ball(ball: str, form: int, lang: str, default: str) -> str:
    forms = _BALL_FORMS.get(ball)
    return t(forms[form], lang) if forms else default


def check_lang(lang: str) -> str:
    """The language code, or a clear error for one we do not speak."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    return lang


def ball_name(ball: str, lang: str) -> str:
    return _ball(ball, 0, lang, ball)


def ball_genitive(ball: str, lang: str) -> str:
    return _ball(ball, 1, lang, ball)


def ball_colour(ball: str, lang: str) -> str:
    """The colour word alone («зелёный»), for lists of balls."""
    return _ball(ball, 2, lang, ball)


def ball_letter(ball: str, lang: str) -> str:
    return _ball(ball, 3, lang, ball[:1])


def direction_name(direction: Direction | str | None, lang: str) -> str:
    """Compass name of a direction (rows grow southwards); '' when unknown."""
    if direction is None:
        return ""
    if isinstance(direction, str):
        if direction not in Direction.__members__:
            return direction
        direction = Direction[direction]
    return t(_DIRECTION[direction], lang)


def effect_text(effect: str, lang: str) -> str:
    # "daze+sneeze": balls swallowed at the same moment act together (§1)
    return "; ".join(_word(_EFFECT, e, lang) for e in effect.split("+"))


def effect_short(effect: str, lang: str) -> str:
    """A ball's effect in a word or two, for the picture's panel."""
    return ", ".join(_word(_EFFECT_SHORT, e, lang) for e in effect.split("+"))


def fire_name(fire: str, lang: str) -> str:
    key = _FIRE.get(fire)
    return t(key, lang) if key else fire


def side_letter(side: Side, lang: str) -> str:
    """The one-letter team mark of pictures and the text diagram (А/Б, A/B)."""
    return t(_SIDE_LETTER[side], lang)


def team_name(state: MatchState, side: Side) -> str:
    return state.team(side).name


def dragon_name(state: MatchState, side: Side, lang: str) -> str:
    """«дракон команды «X»» — a form that needs no declension of the team name."""
    return t("name.dragon", lang, team=state.team(side).name)


def player_label(state: MatchState, side: Side, number: int, lang: str) -> str:
    """A player's name as reports print it; falls back to the shirt number."""
    player = state.find_player(side, number)
    letter = side_letter(side, lang)
    if player is None or not player.name:
        return f"{letter}{number}"
    return player.name


def spell_name(ruleset: Ruleset, spell: str, lang: str) -> str:
    """A spell or counter-spell as players write it (Russian from the ruleset)."""
    for pair in ruleset.spells:
        if spell == pair.spell:
            return pair.spell_ru if lang == "ru" else pair.spell
        if spell == pair.counter:
            return pair.counter_ru if lang == "ru" else pair.counter
    return spell


def spell_spellings(ruleset: Ruleset) -> tuple[str, ...]:
    """Every spelling of every spell and counter-spell, for redaction and tests.

    Both halves of a hyphenated name are listed too, so «гуллис» alone is
    caught as well as «гуллис-дуллис».
    """
    words: set[str] = set()
    for pair in ruleset.spells:
        for name in (pair.spell, pair.counter, pair.spell_ru, pair.counter_ru):
            words.add(name)
            words.update(part for part in name.split("-") if len(part) >= 4)
    return tuple(sorted(words, key=lambda w: (-len(w), w)))
