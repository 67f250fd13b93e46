"""The language in short, for /help, and its vocabulary table for docs/orders.md."""

from __future__ import annotations

from typing import Final

from bot.i18n import t

from .lexicon import BALL_NAMES, FILLERS, KEYWORDS, NUMBER_WORDS
from .messages import BALL_LABELS

__all__ = ["help_text", "render_vocabulary", "vocabulary_markdown"]


def help_text(lang: str = "ru") -> str:
    """The short guide in ``lang`` (Russian unless English is asked for)."""
    return t("order.help", lang)


_TYPE_LABELS: Final[dict[str, str]] = {
    "ROUND": "раунд / round",
    "TICK": "такт / tick",
    "ALL": "все такты / all ticks",
    "TEAM": "команда / team (game master)",
    "DRAGON": "дракон / dragon",
    "SUBST": "замена / substitution",
    "INSTEAD": "вместо / instead of",
    "CLEAR": "отмена / clear",
    "PASS": "пас / pass",
    "CATCH": "ловить / catch",
    "STEAL": "отнять / steal",
    "SPELL": "заклинание / spell (optional)",
    "COUNTER": "контрзаклинание / counter-spell (optional)",
    "LAUNCH": "вылет / launch (optional)",
    "TO": "куда / to (optional)",
    "V": "в: высота или «куда» / height mark or “to”",
    "H": "высота / height mark",
    "CELL": "клетка (по желанию) / cell (optional)",
    "RECEIVER": "пас игроку / pass to a team-mate",
    "FORWARD": "дракон: вперёд / forward",
    "LEFT": "дракон: налево / turn left",
    "RIGHT": "дракон: направо / turn right",
    "STAY": "дракон: стоять / stay",
    "UP": "дракон: вверх / up",
    "DOWN": "дракон: вниз / down",
    "FIRE": "дракон: огонь (пламя, если не «залп») / fire (a flame unless “volley”)",
    "SHORT": "дракон: короткое пламя / short flame",
    "VOLLEY": "дракон: залп / volley",
    "JET": "дракон (второе издание): струя пламени, можно с направлением (СВ, NE…) / jet, optionally with its direction",
    "WALL": "дракон (второе издание): огненный вал / fire wall",
    "TAIL": "дракон (второе издание): удар хвостом / tail strike",
    "WINGS": "дракон (второе издание): удар крыльями / wing strike",
    "SAFETY": "игрок (второе издание): подстраховочное заклинание / the safety spell",
    "PENALTY": "штраф / penalty (game master)",
}


def vocabulary_markdown() -> str:
    """The vocabulary tables of docs/orders.md, generated from the lexicon."""
    rows = ["| смысл / meaning | слова / words |", "| --- | --- |"]
    for kind, (ru_words, en_words) in KEYWORDS.items():
        rows.append(f"| {_TYPE_LABELS[kind]} | {', '.join(ru_words + en_words)} |")
    rows += ["", "| мяч / ball | как писать / how to write (any case form, 3+ first letters) |"]
    rows.append("| --- | --- |")
    for ball, stems in BALL_NAMES.items():
        ru, en = BALL_LABELS[ball]
        rows.append(f"| {ru} / {en} | {', '.join(s + '…' for s in stems)} |")
    numbers: dict[str, list[str]] = {}
    for word, digit in NUMBER_WORDS.items():
        numbers.setdefault(digit, []).append(word)
    spelled = "; ".join(f"{d}: {', '.join(ws)}" for d, ws in sorted(numbers.items()))
    rows += ["", f"Числа словами / number words: {spelled}."]
    rows += ["", f"Пропускаются / skipped: {', '.join(sorted(FILLERS))}."]
    return "\n".join(rows)


_BEGIN: Final = "<!-- vocabulary:begin -->"
_END: Final = "<!-- vocabulary:end -->"


def render_vocabulary(document: str) -> str:
    """``document`` (docs/orders.md) with its vocabulary section regenerated.

    Regenerate the file with::

        python -c "import pathlib, bot.orderlang.help as h; p = pathlib.Path('docs/orders.md'); p.write_text(h.render_vocabulary(p.read_text()))"
    """
    head, _, rest = document.partition(_BEGIN)
    _, _, tail = rest.partition(_END)
    return f"{head}{_BEGIN}\n{vocabulary_markdown()}\n{_END}{tail}"
