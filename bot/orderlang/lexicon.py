"""The vocabulary of the order language and the normalisation of what players type.

Everything a player may write as a keyword lives in :data:`KEYWORDS` (Russian
first, then English and Latin transliterations), so the grammar, the help
text and docs/orders.md all read one table.  Words are compared after
:func:`norm_word` (case, е/ё, Latin look-alikes inside Cyrillic words and the
reverse); names, balls and spells are compared by :func:`skeleton`, a rough
Latin spelling that makes «Кузнецов», "Kuznetsov" and "Kuznecov" equal.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

__all__ = [
    "BALL_NAMES",
    "FILLERS",
    "KEYWORDS",
    "KEYWORD_TYPES",
    "NUMBER_WORDS",
    "ball_of",
    "clean_text",
    "keyword_type",
    "norm_word",
    "skeleton",
    "sound_keys",
]

# Keyword type → the words that mean it (normalised: lower case, е for ё).
# The first Russian and the first English word are the canonical spellings.
KEYWORDS: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "ROUND": (("раунд", "раунда"), ("round", "rnd", "raund")),
    "TICK": (
        ("такт", "такта", "такты", "тактов", "такте", "такту", "т"),
        ("tick", "ticks", "t", "takt"),
    ),
    "ALL": (("все", "весь", "всех", "всего", "каждый"), ("all", "every", "each", "vse")),
    "TEAM": (("команда", "команды"), ("team", "komanda")),
    "DRAGON": (("дракон", "дракона", "дракону", "драконом"), ("dragon", "drakon")),
    "SUBST": (
        ("замена", "заменить", "замены", "заменяем"),
        ("sub", "subst", "substitute", "substitution", "swap", "replace", "zamena"),
    ),
    "INSTEAD": (("вместо", "заменяет", "за"), ("instead", "for", "replaces", "vmesto")),
    "CLEAR": (
        ("отмена", "отменить", "отменяю", "отменяем", "очистить", "удалить", "стереть", "сброс"),
        ("clear", "cancel", "delete", "reset", "remove", "otmena"),
    ),
    "PASS": (
        (
            "пас",
            "пасовать",
            "пасует",
            "пасую",
            "пасуем",
            "пасануть",
            "бросок",
            "бросить",
            "бросаю",
            "передача",
            "передать",
            "передаю",
            "отдать",
            "отдаю",
        ),
        ("pass", "throw", "pas"),
    ),
    "CATCH": (
        ("ловить", "ловит", "ловлю", "лови", "ловим", "поймать", "поймаю", "ловля"),
        ("catch", "lovit"),
    ),
    "STEAL": (
        (
            "отнять",
            "отнимать",
            "отнимает",
            "отнимаю",
            "отниму",
            "отбирать",
            "отбирает",
            "отбираю",
            "отобрать",
            "отберу",
            "отбить",
        ),
        ("steal", "take", "tackle", "otnyat"),
    ),
    "SPELL": (
        ("заклинание", "заклинанием", "заклятие", "заговор", "заговорить"),
        ("spell", "enchant", "enchanted", "charm"),
    ),
    "COUNTER": (
        ("контр", "контрзаклинание", "контр-заклинание", "контрзаклинанием", "расколдовать"),
        ("counter", "counterspell", "counter-spell"),
    ),
    "LAUNCH": (("вылет", "вылетает", "вылетаю", "взлет", "старт"), ("launch", "start")),
    "TO": (("на", "к"), ("to", "into", "onto")),
    "CELL": (("клетка", "клетку", "клетке", "клетки", "кл"), ("cell", "hex", "square")),
    # a pass to a team-mate rather than a cell ("пас красный игроку 2"; in
    # English "to player 2": the lexer joins "to" and the filler "player")
    "RECEIVER": (("игроку", "партнеру", "напарнику"), ("teammate", "mate")),
    "V": (("в",), ("v", "b")),  # "в" is both "to" and the height mark; Latin b looks like В
    "H": (
        ("выс", "высота", "высоту", "высоте", "уровень"),
        ("h", "height", "ht", "hgt", "alt", "altitude", "level"),
    ),
    "FORWARD": (("вперед", "прямо"), ("forward", "fwd", "ahead", "straight", "vpered")),
    "LEFT": (("налево", "влево", "лево", "левее"), ("left", "nalevo")),
    "RIGHT": (("направо", "вправо", "право", "правее"), ("right", "napravo")),
    "STAY": (
        (
            "стоять",
            "стоит",
            "стой",
            "стоим",
            "остаться",
            "остается",
            "стоп",
            "пропуск",
            "висеть",
            "висит",
            "вишу",
            "стою",
            "месте",
        ),
        ("stay", "stays", "put", "stop", "hold", "wait", "skip", "hover", "stoyat", "stoiat"),
    ),
    "UP": (
        ("вверх", "выше", "наверх", "подняться", "подъем"),
        ("up", "rise", "climb", "ascend", "vverh"),
    ),
    "DOWN": (
        ("вниз", "ниже", "опуститься", "спуск"),
        ("down", "descend", "dive", "lower", "vniz"),
    ),
    "FIRE": (
        ("огонь", "огнем"),
        ("fire", "ogon"),
    ),  # a flame of no stated kind: short, unless "залп"
    "SHORT": (
        ("пламя", "пламенем", "короткое", "короткий", "плевок"),
        ("short", "flame", "plamya", "plamia"),
    ),
    "VOLLEY": (("залп", "залпом"), ("volley", "burst", "blast", "zalp")),
    # the second edition (seed 001): the flame jet, the fire wall, tail and
    # wing strikes, the safety spell
    "JET": (("струя", "струю", "струей", "струёй", "струйное"), ("jet",)),
    "WALL": (("вал", "валом"), ("wall",)),
    "TAIL": (("хвост", "хвостом"), ("tail",)),
    "WINGS": (("крылья", "крыльями", "крылом", "крыло"), ("wings", "wing")),
    "SAFETY": (
        ("чебурыхнус-парашутис", "чебурыхнус", "подстраховка"),
        ("cheburykhnus-parashutis", "safety", "parachute"),
    ),
    "PENALTY": (("штраф", "штрафной", "пенальти", "вбрасывание"), ("penalty", "throw-in")),
}

# Words that carry no meaning in an order ("ловить мяч", "отнять у Смирнова").
FILLERS: Final[frozenset[str]] = frozenset(
    (
        "мяч", "мяча", "мячом", "мячик", "у", "от", "с", "со", "и", "а", "затем", "потом",
        "игрок", "игрока", "номер", "приказ", "приказы", "повернуть", "поворот", "лететь",
        "летит", "летим", "лечу", "приказа", "приказов", "любой", "любого", "any",
        "ball", "the", "a", "from", "at", "with", "and", "then", "player", "no", "of", "orders",
        "it", "turn", "go", "goes", "fly", "flies", "move", "moves", "полет", "полета",
    )
)  # fmt: skip

# Number words read as numbers: ticks ("такт первый", "tick one"), heights
# ("в два"), rounds up to the tenth.
NUMBER_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(("один", "одна", "первый", "первая", "первое", "первого", "первом"), "1"),
    **dict.fromkeys(("два", "две", "второй", "вторая", "второе", "второго", "втором"), "2"),
    **dict.fromkeys(("три", "третий", "третья", "третье", "третьего", "третьем"), "3"),
    **dict.fromkeys(("четыре", "четвертый", "четвертого", "четвертом"), "4"),
    **dict.fromkeys(("пять", "пятый", "пятого", "пятом"), "5"),
    **dict.fromkeys(("one", "first"), "1"),
    **dict.fromkeys(("two", "second"), "2"),
    **dict.fromkeys(("three", "third"), "3"),
    **dict.fromkeys(("four", "fourth"), "4"),
    **dict.fromkeys(("five", "fifth"), "5"),
}

KEYWORD_TYPES: Final[dict[str, str]] = {
    word: kind for kind, (ru, en) in KEYWORDS.items() for word in ru + en
}

# Ball name → stems that name it: colour, proper name, English, transliterations.
BALL_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "black": ("черн", "чорн", "одурит", "black", "blk"),
    "green": ("зелен", "чихат", "green", "grn"),
    "blue": ("голуб", "син", "пламягас", "пламегас", "blue"),
    "red": ("красн", "перц", "red"),
    "yellow": ("желт", "жолт", "обездвиж", "yellow", "jelt", "zholt"),
}

# Latin letters that look like Cyrillic ones, both ways.
_LAT_TO_CYR: Final = str.maketrans("aceopxykmthb", "асеорхукмтнв")
_CYR_TO_LAT: Final = str.maketrans("асеорхукмтнв", "aceopxykmthb")
_CYRILLIC: Final = re.compile(r"[\u0400-\u04ff]")
_LATIN: Final = re.compile(r"[a-z]")

# Invisible characters dropped before anything else: accents (stress marks),
# zero-width joiners, variation selectors, bidi marks, soft hyphens, emoji tags.
_INVISIBLE: Final = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\ufe00-\ufe0f\ufeff\U000e0000-\U000e007f\U000e0100-\U000e01ef"
    "\ue000\ue001]"  # the judge's own block marks (bot/service/kernel/textblocks.py)
)


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Composed Unicode without invisible marks; line ends become ``\\n``;
    lone surrogates (undecodable bytes) become U+FFFD so replies can be sent."""
    text = _SURROGATE.sub("\ufffd", text)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    text = _INVISIBLE.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


@lru_cache(maxsize=4096)
def norm_word(word: str) -> str:
    """Lower case, ё → е, and look-alike letters turned into the word's main script."""
    w = word.lower().replace("ё", "е").replace("’", "'").replace("‐", "-")
    cyr = len(_CYRILLIC.findall(w))
    if cyr:
        lat = len(_LATIN.findall(w))
        if lat:
            w = w.translate(_LAT_TO_CYR) if cyr >= lat else w.translate(_CYR_TO_LAT)
    return w


def keyword_type(word: str) -> str | None:
    """The keyword type of a normalised word, "FILLER", or None for other words."""
    kind = KEYWORD_TYPES.get(word)
    if kind is not None:
        return kind
    if word in FILLERS:
        return "FILLER"
    return None


_TRANSLIT: Final = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z",
        "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p",
        "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "ch",
        "ш": "sh", "щ": "sh", "ъ": "", "ы": "i", "ь": "", "э": "e", "ю": "u", "я": "a",
        "і": "i", "ї": "i", "є": "e", "ґ": "g", "ў": "u",
        "-": "", "'": "", " ": "",
    }
)  # fmt: skip
# Latin spelling variants folded together (applied in this order).
_LATIN_FOLDS: Final = (
    ("shch", "sh"), ("sch", "sh"), ("kh", "h"), ("ts", "c"), ("tz", "c"), ("ck", "k"),
    ("yo", "e"), ("jo", "e"), ("ye", "e"), ("je", "e"), ("ie", "e"),
    ("yu", "u"), ("ju", "u"), ("iu", "u"), ("ya", "a"), ("ja", "a"), ("ia", "a"),
    ("y", "i"), ("j", "i"), ("w", "v"), ("x", "ks"), ("q", "k"),
)  # fmt: skip


@lru_cache(maxsize=8192)
def skeleton(word: str) -> str:
    """A rough Latin spelling of a normalised word, for comparing names and spells."""
    s = word.translate(_TRANSLIT)
    for a, b in _LATIN_FOLDS:
        if a in s:
            s = s.replace(a, b)
    return s


# -- names across scripts: «Браун» for Brown --------------------------------------------
# The skeleton spells a Russian name in Latin letters the ways Russians do
# ("Kuznetsov"); a name of the other direction, a Latin name written in
# Cyrillic as it sounds («Браун», «Смит», «Джонсон»), needs a coarser key:
# consonants as they sound, each run of vowels one mark.  Only a name in
# the other script is compared so (names.py): a misspelling in the same
# script stays a "did you mean".
_VOWEL: Final = "*"
_CYR_SOUNDS: Final = str.maketrans(
    {
        "б": "b", "в": "v", "г": "g", "д": "d", "ж": "ʒ", "з": "s", "к": "k", "л": "l",
        "м": "m", "н": "n", "п": "p", "р": "r", "с": "s", "т": "t", "ф": "f", "х": "h",
        "ц": "ʦ", "ч": "ʧ", "ш": "ʃ", "щ": "ʃ", "ь": "", "ъ": "", "-": "", "'": "", " ": "",
        **dict.fromkeys("аеиоуыэюяйёіїєў", _VOWEL),
    }
)  # fmt: skip
# English (and German, French) spellings of sounds, in this order; then the
# letters left: c before e/i/y is s, else k.
_LATIN_SOUNDS: Final = (
    ("tsch", "ʧ"), ("sch", "ʃ"), ("shch", "ʃ"), ("sh", "ʃ"), ("zh", "ʒ"), ("ch", "ʧ"),
    ("kh", "h"), ("ph", "f"), ("th", "t"), ("wh", "w"), ("wr", "r"), ("kn", "n"),
    ("gh", ""), ("ck", "k"), ("dg", "ʤ"), ("qu", "kv"), ("tz", "ʦ"), ("tts", "ʦ"), ("ts", "ʦ"),
    ("x", "ks"), ("q", "k"), ("z", "s"),
)  # fmt: skip
_DOUBLED: Final = re.compile(r"([^*])\1+")
_SILENT_E: Final = re.compile(r"(?<=[^aeiouy*])e(?=s?$)")  # "White", "Jones"
_SILENT_H: Final = re.compile(r"(?<=[aeiouy])h(?![aeiouy])")  # "Johnson", "Sarah"


@lru_cache(maxsize=4096)
def sound_keys(word: str) -> frozenset[str]:
    """How a normalised name sounds, roughly, as keys: one for a Cyrillic
    word, a few for a Latin one (w as «в» or «у», j as «дж» or «й»): «Браун»
    and "Brown" share one."""
    if _CYRILLIC.search(word):
        # «тс» as "ts" is in a Latin key: «Робертс» is Roberts, «Уоттс» Watts
        s = re.sub("т+с", "ʦ", word.replace("дж", "ʤ")).translate(_CYR_SOUNDS)
        variants = [s]
    else:
        s = unicodedata.normalize("NFD", word)
        s = "".join(c for c in s if c.isalpha() and c.isascii())
        s = re.sub("d?ge$", "ʤ", s)  # "George"
        s = _SILENT_E.sub("", s) if len(s) > 3 else s
        for a, b in _LATIN_SOUNDS:
            s = s.replace(a, b)
        s = re.sub("c(?=[eiy])", "s", s).replace("c", "k")
        s = _SILENT_H.sub("", s)  # "Johnson"
        variants = [
            re.sub("g(?=[eiy])", g, s).replace("w", w).replace("j", j)
            for w in ("v", _VOWEL)
            for j in ("ʤ", _VOWEL)
            for g in ("g", "ʤ")
        ]
    out = set()
    for v in variants:
        v = re.sub("[aeiouy]", _VOWEL, v)
        v = _DOUBLED.sub(r"\1", re.sub(r"\*+", _VOWEL, v))
        if v.strip(_VOWEL):
            out.add(v)
    return frozenset(out)


_BALL_SKELETONS: Final = {
    ball: tuple(skeleton(stem) for stem in stems) for ball, stems in BALL_NAMES.items()
}


@lru_cache(maxsize=2048)
def ball_of(word: str) -> str | None:
    """The ball a normalised word names (any case form, abbreviation of 3+ letters)."""
    sk = skeleton(word)
    found = set()
    for ball, stems in BALL_NAMES.items():
        for stem, stem_sk in zip(stems, _BALL_SKELETONS[ball], strict=True):
            if sk.startswith(stem_sk) or (len(word) >= 3 and stem.startswith(word)):
                found.add(ball)
    return found.pop() if len(found) == 1 else None
