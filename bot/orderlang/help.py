"""The language in short, for /help, and its vocabulary table for docs/orders.md."""

from __future__ import annotations

from typing import Final

from .lexicon import BALL_NAMES, FILLERS, KEYWORDS, NUMBER_WORDS
from .messages import BALL_LABELS, lang_of

__all__ = ["HELP_EN", "HELP_RU", "help_text", "render_vocabulary", "vocabulary_markdown"]

HELP_RU: Final = """\
Приказы на раунд — по строке на игрока и такт:

Такт 1
Иванов: 57 в2, пас красный -> 60 в2 гуллис-дуллис // описание для отчёта
Петров: 60 в3, ловить цап-царапс
3: 45 в1, отнять Соколов
Дракон: вперёд, вверх, залп
Такт 2
Т2 Иванов: 58 в2
Дракон (все такты): стоять

• Полёт: клетка и высота — «57 в2», «57/2», «57 высота 2», «57 2»; или «на месте». Действие (одно, до или после полёта): пас, ловить, отнять.
• Пас: «пас красный -> 60 в2»; без высоты — на высоте пасующего; «пас красный игроку 2» — туда, куда летит игрок 2.
• Мяч: цветом или названием (красный, перцовый, red). Заклинание — после паса, контрзаклинание — после «ловить».
• Такт: строка «Такт 2» для следующих строк или «т2» в начале строки; «все такты», «т1-3». Без такта — ближайший несыгранный такт.
• Вернувшийся из больничного крыла: «Сидоров: вылет 16 в1» на такт вылета.
• Замена: «замена Иванов -> Кузнецов». Отмена: «Иванов: отмена», «Дракон: отмена», «отменить всё».
• Комментарий: после «--» или «#»; описание для отчёта: после «//».
• Правило слияния: верные строки сохраняются, даже если в других ошибки; более поздний приказ тому же игроку на тот же такт заменяет прежний; отмена стирает сохранённое. Сообщение — не больше 20 КБ.
• В ответ приходит весь лист приказов команды на раунд и список тех, у кого приказа ещё нет."""

HELP_EN: Final = """\
Orders for a round — one line per player and tick:

Tick 1
Ivanov: 57 h2, pass red to 60 h2 spell gullis-dullis // description for the report
Petrov: 60 h3, catch counter tsap-tsaraps
3: 45 h1, steal Sokolov
Dragon: forward, up, volley
Tick 2
t2 Ivanov: 58 h2
Dragon all: stay

• Flight: a cell and a height — “57 h2”, “57/2”, “57 height 2”, “57 2”; or “stay”. One action (before or after the flight): pass, catch, steal.
• Pass: “pass red to 60 h2”; with no height, at the thrower's height; “pass red to player 2”: to where player 2 flies.
• Ball: by colour or name (red, перцовый). The spell follows a pass, the counter-spell a catch.
• Tick: a “Tick 2” line for the lines below it, or “t2” at the start of a line; “all ticks”, “t1-3”. No tick: the next tick to be played.
• Back from the hospital wing: “Sidorov: launch 16 h1” for the launch tick.
• Substitution: “sub Ivanov -> Kuznetsov”. Clearing: “Ivanov: clear”, “dragon: clear”, “clear all”.
• Comment: after “--” or “#”; description for the report: after “//”.
• Merge rule: valid lines are stored even when other lines have errors; a later order for the same player and tick replaces the earlier one; a clear erases what is on file. A message is at most 20 KB.
• The reply shows the team's whole order sheet for the round and who has no order yet."""


def help_text(lang: str = "ru") -> str:
    """The short guide in ``lang`` (Russian unless English is asked for)."""
    return HELP_EN if lang_of(lang) == 1 else HELP_RU


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
