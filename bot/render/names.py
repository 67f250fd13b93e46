"""Words players read: names of balls, spells, effects, directions and teams.

Russian first, English on request.  Ball names are masculine inanimate
(«мяч»), so the accusative equals the nominative and one form serves most
sentences; the genitive is given where a sentence needs it.
"""

from __future__ import annotations

from typing import Final

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

_BALL: Final[dict[str, dict[str, tuple[str, str, str, str]]]] = {
    # (nominative/accusative, genitive, colour alone, one-letter mark)
    "ru": {
        "black": ("чёрный мяч", "чёрного мяча", "чёрный", "ч"),
        "green": ("зелёный мяч", "зелёного мяча", "зелёный", "з"),
        "blue": ("голубой мяч", "голубого мяча", "голубой", "г"),
        "red": ("красный мяч", "красного мяча", "красный", "к"),
        "yellow": ("жёлтый мяч", "жёлтого мяча", "жёлтый", "ж"),
    },
    "en": {
        "black": ("the black ball", "the black ball", "black", "k"),
        "green": ("the green ball", "the green ball", "green", "g"),
        "blue": ("the blue ball", "the blue ball", "blue", "b"),
        "red": ("the red ball", "the red ball", "red", "r"),
        "yellow": ("the yellow ball", "the yellow ball", "yellow", "y"),
    },
}

_DIRECTION: Final[dict[str, dict[Direction, str]]] = {
    "ru": {
        Direction.E: "В",
        Direction.SE: "ЮВ",
        Direction.SW: "ЮЗ",
        Direction.W: "З",
        Direction.NW: "СЗ",
        Direction.NE: "СВ",
    },
    "en": {d: d.name for d in Direction},
}

_EFFECT: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "daze": "одурь: до следующего мяча глотает и своих, огонь — только наугад",
        "sneeze": "чих: пасть открыта до следующего мяча",
        "extinguish": "пламя погашено до конца матча",
        "pepper": "перец: выплёвывает всех проглоченных",
        "paralyse": "паралич: опускается на высоту 1 и больше не двигается",
    },
    "en": {
        "daze": "dazed: swallows its own players too until the next ball, fires only at random",
        "sneeze": "sneezing: mouth open until the next ball",
        "extinguish": "fire put out for the rest of the match",
        "pepper": "pepper: spits out every swallowed player",
        "paralyse": "paralysed: drops to height 1 and never moves again",
    },
}

_EFFECT_SHORT: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "daze": "одурь",
        "sneeze": "чих",
        "extinguish": "пламя погашено",
        "pepper": "перец",
        "paralyse": "паралич",
    },
    "en": {
        "daze": "dazed",
        "sneeze": "sneezing",
        "extinguish": "fire put out",
        "pepper": "pepper",
        "paralyse": "paralysed",
    },
}

_FIRE: Final[dict[str, dict[str, str]]] = {
    "ru": {"short": "короткое пламя", "volley": "огненный залп"},
    "en": {"short": "a short flame", "volley": "a fire volley"},
}

_SIDE_LETTER: Final[dict[str, dict[Side, str]]] = {
    "ru": {"left": "А", "right": "Б"},
    "en": {"left": "A", "right": "B"},
}


def check_lang(lang: str) -> str:
    """The language code, or a clear error for one we do not speak."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    return lang


def ball_name(ball: str, lang: str) -> str:
    forms = _BALL[lang].get(ball)
    return forms[0] if forms else ball


def ball_genitive(ball: str, lang: str) -> str:
    forms = _BALL[lang].get(ball)
    return forms[1] if forms else ball


def ball_colour(ball: str, lang: str) -> str:
    """The colour word alone («зелёный»), for lists of balls."""
    forms = _BALL[lang].get(ball)
    return forms[2] if forms else ball


def ball_letter(ball: str, lang: str) -> str:
    forms = _BALL[lang].get(ball)
    return forms[3] if forms else ball[:1]


def direction_name(direction: Direction | str | None, lang: str) -> str:
    """Compass name of a direction (rows grow southwards); '' when unknown."""
    if direction is None:
        return ""
    if isinstance(direction, str):
        if direction not in Direction.__members__:
            return direction
        direction = Direction[direction]
    return _DIRECTION[lang][direction]


def effect_text(effect: str, lang: str) -> str:
    # "daze+sneeze": balls swallowed at the same moment act together (§1)
    return "; ".join(_EFFECT[lang].get(e, e) for e in effect.split("+"))


def effect_short(effect: str, lang: str) -> str:
    """A ball's effect in a word or two, for the picture's panel."""
    return ", ".join(_EFFECT_SHORT[lang].get(e, e) for e in effect.split("+"))


def fire_name(fire: str, lang: str) -> str:
    return _FIRE[lang].get(fire, fire)


def side_letter(side: Side, lang: str) -> str:
    """The one-letter team mark of pictures and the text diagram (А/Б, A/B)."""
    return _SIDE_LETTER[lang][side]


def team_name(state: MatchState, side: Side) -> str:
    return state.team(side).name


def dragon_name(state: MatchState, side: Side, lang: str) -> str:
    """«дракон команды «X»» — a form that needs no declension of the team name."""
    if lang == "ru":
        return f"дракон команды «{state.team(side).name}»"
    return f"the {state.team(side).name} dragon"


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
