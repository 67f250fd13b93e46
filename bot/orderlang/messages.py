"""The message catalogue of the order language, Russian first, then English.

Every error code of the language has a message here, and so does every
engine legality :class:`engine.problems.Code` (a test checks both), with the
code's ``params`` as ``{placeholders}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final

__all__ = [
    "BALL_LABELS",
    "ENGINE_CODE_ALIASES",
    "MESSAGES",
    "describe_expected",
    "label",
    "lang_of",
    "localise_params",
    "message",
]

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    # -- syntax ----------------------------------------------------------------------
    "syntax_token": (
        "Не понял «{got}»: здесь ожидается {expected}.",
        "Did not understand “{got}”: expected {expected} here.",
    ),
    "syntax_end": (
        "Строка оборвалась: дальше ожидается {expected}.",
        "The line stops too early: expected {expected} next.",
    ),
    "syntax_word": (
        "Не знаю слова «{got}».",
        "Unknown word “{got}”.",
    ),
    "syntax_number": ("Слишком длинное число «{got}».", "The number “{got}” is too long."),
    "line_too_long": (
        "Строка слишком длинная: в приказе не больше {limit} слов и чисел "
        "(описание пишите после //).",
        "The line is too long: an order has at most {limit} words and numbers "
        "(write a description after //).",
    ),
    "syntax_ticks": (
        "Непонятные такты «{got}»: такты идут от 1 до {ticks}.",
        "Ticks “{got}” make no sense: ticks go from 1 to {ticks}.",
    ),
    "no_height": (
        "Не указана высота: напишите, например, «{cell} в{height}».",
        "No height: write, for example, “{cell} h{height}”.",
    ),
    "one_action": (
        "Одно действие за такт: «{a}» и «{b}» сразу нельзя. Второе — отдельной "
        "строкой на другой такт, например «т2 {name}: …, {b}».",
        "One action a tick: not “{a}” and “{b}” at once. Give the second on "
        "another tick, e.g. “t2 {name}: …, {b}”.",
    ),
    "no_flight": (
        "Не указан полёт: сначала клетка и высота (например «57 в2»), потом действие.",
        "No flight: first a cell and a height (e.g. “57 h2”), then the action.",
    ),
    "stay_unknown": (
        "Неизвестно, где {name} будет к такту {tick}: напишите клетку и высоту.",
        "Where {name} will be by tick {tick} is unknown: write the cell and height.",
    ),
    "dragon_conflict": (
        "Противоречивый приказ дракону: «{a}» и «{b}» сразу.",
        "Contradictory dragon order: “{a}” and “{b}” at once.",
    ),
    "clear_what": (
        "Что отменить? Напишите «отменить всё», «Иванов: отмена» или «Дракон: отмена».",
        "Clear what? Write “clear all”, “Ivanov: clear” or “dragon: clear”.",
    ),
    "pass_ball_which": (
        "У игрока {name} несколько мячей ({balls}): назовите, какой пасовать.",
        "{name} holds several balls ({balls}): say which one to pass.",
    ),
    "pass_ball_none": (
        "У игрока {name} сейчас нет мяча, и пасовать нечего. Если он поймает мяч "
        "раньше, назовите его: «{example}».",
        "{name} holds no ball now: nothing to pass. If he catches one first, name it: “{example}”.",
    ),
    "receiver_unknown": (
        "Мяч прилетит в такте {tick}, а где тогда будет {name}, неизвестно: у него нет "
        "приказа на этот такт. Дайте ему приказ или пасуйте на клетку: «{example}».",
        "The ball lands on tick {tick}, and where {name} will be then is unknown: he "
        "has no order for it. Give him one, or pass to a cell: “{example}”.",
    ),
    "receiver_next_round": (
        "Пас последнего такта прилетит уже в следующем раунде, а где тогда будет "
        "{name}, пока неизвестно. Пасуйте на клетку: «{example}».",
        "A pass on the round's last tick lands next round, and where {name} will be "
        "then is not known yet. Pass to a cell: “{example}”.",
    ),
    "extra_word": ("Лишнее слово «{got}».", "Extra word “{got}”."),
    "counter_in_pass": (
        "«{got}» — контрзаклинание; пасующий говорит заклинание (к нему: «{spell}»).",
        "“{got}” is a counter-spell; a pass takes a spell (its pair: “{spell}”).",
    ),
    "spell_in_catch": (
        "«{got}» — заклинание; ловящий говорит контрзаклинание (к нему: «{counter}»).",
        "“{got}” is a spell; a catch takes a counter-spell (its pair: “{counter}”).",
    ),
    "under_bad_header": (
        "Строка не принята: заголовок такта в строке {header} неверен.",
        "Line not taken: the tick header on line {header} is wrong.",
    ),
    "no_team": (
        "Чья это строка? Сначала напишите «Команда {example}».",
        "Which team? Write a “team {example}” line first.",
    ),
    # -- names --------------------------------------------------------------------------
    "unknown_player": (
        "Нет игрока «{got}» в команде «{team}».",
        "No player “{got}” in team “{team}”.",
    ),
    "unknown_number": (
        "Нет игрока с номером {number} в команде «{team}».",
        "No player number {number} in team “{team}”.",
    ),
    "unknown_ball": ("Не знаю мяча «{got}».", "Unknown ball “{got}”."),
    "unknown_catch_word": (
        "«{got}» — не мяч и не контрзаклинание.",
        "“{got}” is neither a ball nor a counter-spell.",
    ),
    "unknown_spell": ("Нет заклинания «{got}».", "No spell “{got}”."),
    "unknown_counter": ("Нет контрзаклинания «{got}».", "No counter-spell “{got}”."),
    "unknown_spell_list": (
        "Нет заклинания «{got}». Заклинания: {spells}.",
        "No spell “{got}”. The spells: {spells}.",
    ),
    "unknown_counter_list": (
        "Нет контрзаклинания «{got}». Контрзаклинания: {spells}.",
        "No counter-spell “{got}”. The counter-spells: {spells}.",
    ),
    "unknown_team": ("Нет команды «{got}».", "No team “{got}”."),
    "ambiguous_player": (
        "«{got}» подходит нескольким игрокам: {candidates}. Напишите имя полностью или номер.",
        "“{got}” fits several players: {candidates}. Write the full name or the number.",
    ),
    "ambiguous_ball": (
        "«{got}» подходит нескольким мячам: {candidates}.",
        "“{got}” fits several balls: {candidates}.",
    ),
    "suggest": ("Может быть, {suggestions}?", "Did you mean {suggestions}?"),
    # -- permissions -----------------------------------------------------------------------
    "forbidden_player": (
        "Вы не можете отдавать приказы игроку {name}.",
        "You may not give orders to {name}.",
    ),
    "forbidden_dragon": (
        "Вы не можете отдавать приказы дракону.",
        "You may not give orders to the dragon.",
    ),
    "forbidden_team": (
        "Вы не можете отдавать приказы команде «{team}».",
        "You may not give orders to team “{team}”.",
    ),
    "forbidden_penalty": (
        "Штраф назначает только судья.",
        "Only a game master orders a penalty.",
    ),
    # -- the message as a whole --------------------------------------------------------
    "too_large": (
        "Сообщение слишком длинное ({size} байт, предел {limit}): ничего не принято. "
        "Разбейте его на несколько сообщений.",
        "The message is too long ({size} bytes, limit {limit}): nothing was taken. "
        "Split it into several messages.",
    ),
    "too_many_lines": (
        "В сообщении больше {limit} строк с приказами: ничего не принято. "
        "Приказы всей команды на раунд — несколько десятков строк; "
        "пришлите их без лишнего.",
        "The message has more than {limit} order lines: nothing was taken. "
        "A whole team's orders for a round are a few dozen lines; "
        "send them without the rest.",
    ),
    "wrong_round": (
        "Это приказы на раунд {got}, а сейчас раунд {current}: сообщение не принято.",
        "These are orders for round {got}, but this is round {current}: message not taken.",
    ),
    # -- engine legality (engine/problems.py Code) -------------------------------------
    "match_ended": ("Матч окончен.", "The match is over."),
    "tick_range": (
        "Нет такта {tick}: в раунде такты 1–{ticks}.",
        "There is no tick {tick}: a round has ticks 1–{ticks}.",
    ),
    "tick_past": ("Такт {tick} уже сыгран.", "Tick {tick} is already played."),
    "unknown_player_number": ("Нет игрока с номером {number}.", "No player number {number}."),
    "other_team": (
        "Игрок {number} — из другой команды.",
        "Player {number} is in the other team.",
    ),
    "not_active": (
        "Игрок {number} сейчас не в игре ({status}).",
        "Player {number} is not in play now ({status}).",
    ),
    "launch_tick": (
        "Игрок {number} возвращается из больничного крыла только в раунде {return_round}, такте {return_tick}.",
        "Player {number} comes back from the hospital wing only in round {return_round}, tick {return_tick}.",
    ),
    "launch_cell": (
        "Клетка {cell} — не клетка вылета своей половины поля.",
        "Cell {cell} is not a re-entry cell of his half.",
    ),
    "cell_invalid": (
        "Нет клетки {cell}: клетки 1–211.",
        "There is no cell {cell}: cells are 1–211.",
    ),
    "height_invalid": (
        "Нет высоты {height}: высоты {min}–{max}.",
        "There is no height {height}: heights are {min}–{max}.",
    ),
    "too_far": (
        "Слишком далеко: с клетки {from_cell} на {cell} — {distance} кл., а за такт можно на {max}.",
        "Too far: from cell {from_cell} to {cell} is {distance} cells, a tick allows {max}.",
    ),
    "height_step": (
        "Слишком резко: с высоты {from_height} на {height}, а за такт можно на {max}.",
        "Too steep: from height {from_height} to {height}, a tick allows {max}.",
    ),
    "pass_no_ball": (
        "У игрока {number} нет мяча «{ball}» (и он не может его поймать раньше).",
        "Player {number} does not hold the {ball} ball (and cannot have caught it by then).",
    ),
    "pass_range": (
        "Пас {ball} с клетки {from_cell} на {cell} — {distance} кл.; можно {min}–{max}.",
        "A {ball} pass from cell {from_cell} to {cell} is {distance} cells; {min}–{max} allowed.",
    ),
    "pass_yellow_range": (
        "Жёлтый мяч пасуют не дальше чем на {max} кл. (с {from_cell} на {cell} — {distance}).",
        "The yellow ball goes at most {max} cells (from {from_cell} to {cell} is {distance}).",
    ),
    "spell_unknown": ("Нет заклинания «{spell}».", "No spell “{spell}”."),
    "counter_unknown": ("Нет контрзаклинания «{counter}».", "No counter-spell “{counter}”."),
    "enchant_quota": (
        "Заговорённых пасов осталось {left}, а заказано {ordered}.",
        "{left} enchanted passes are left, {ordered} ordered.",
    ),
    "ball_unknown": ("Нет мяча «{ball}».", "No ball “{ball}”."),
    "ball_out_of_play": (
        "Мяч «{ball}» вне игры ({status}).",
        "The {ball} ball is out of play ({status}).",
    ),
    "hands_full": (
        "У игрока {number} уже {max} мяча в руках.",
        "Player {number} already holds {max} balls.",
    ),
    "steal_teammate": (
        "Игрок {target} — из своей команды: отнимают у противника.",
        "Player {target} is a team-mate: steal from an opponent.",
    ),
    "steal_unknown": ("Нет противника с номером {target}.", "No opponent number {target}."),
    "steal_target_out": (
        "Противник {target} сейчас не в игре ({status}).",
        "Opponent {target} is not in play now ({status}).",
    ),
    "steal_out_of_reach": (
        "Противник {target} будет слишком далеко ({distance} кл.), чтобы отнять мяч.",
        "Opponent {target} will be too far ({distance} cells) to steal from.",
    ),
    "dragon_off_half": (
        "Дракон не может покинуть свою половину поля или задеть центральную линию.",
        "The dragon may not leave its half or touch the centre line.",
    ),
    "dragon_edge": (
        "Дракон не может залететь на крайние клетки.",
        "The dragon may not enter an edge cell.",
    ),
    "dragon_off_field": ("Дракон вылетел бы с поля.", "The dragon would leave the field."),
    "dragon_height": (
        "Дракону нельзя на высоту {height}: высоты {min}–{max}.",
        "The dragon cannot go to height {height}: heights are {min}–{max}.",
    ),
    "dragon_height_step": (
        "Дракон меняет высоту не больше чем на {max} за такт.",
        "The dragon changes height by at most {max} a tick.",
    ),
    "dragon_paralysed": (
        "Дракон обездвижен: он не может двигаться и менять высоту.",
        "The dragon is paralysed: it cannot move or change height.",
    ),
    "fire_extinguished": (
        "Пламя дракона погашено до конца матча.",
        "The dragon's fire is out for the rest of the match.",
    ),
    "fire_budget": (
        "Не хватает огня: {fire} осталось {left}, а заказано {ordered}.",
        "Not enough fire: {left} {fire} left, {ordered} ordered.",
    ),
    "fire_dazed": (
        "Дракон одурманен: он плюётся огнём сам, приказать огонь нельзя.",
        "The dragon is dazed: it fires at random and cannot be ordered to.",
    ),
    "subst_swallowed": (
        "Проглоченного игрока {number} заменить нельзя.",
        "A swallowed player ({number}) cannot be substituted.",
    ),
    "subst_not_reserve": ("Игрок {number} — не запасной.", "Player {number} is not a reserve."),
    "subst_unknown": ("Нет игрока с номером {number}.", "No player number {number}."),
    "subst_tick": (
        "Замена — только до первого такта раунда.",
        "Substitutions only before the round's first tick.",
    ),
    "subst_injured": (
        "Запасной {number} в больничном крыле до раунда {return_round}.",
        "Reserve {number} is in the hospital wing until round {return_round}.",
    ),
    "gm_only": ("Это может приказать только судья.", "Only a game master may order this."),
    "duplicate": (
        "Второй приказ на такт {tick} тому же игроку.",
        "A second order for the same player and tick {tick}.",
    ),
    "penalty_tick": (
        "Нельзя назначить штраф на такт {tick}.",
        "No penalty can be set for tick {tick}.",
    ),
    "penalty_no_warning": (
        "Штраф (§10) назначается только в раунде, следующем за предупреждением: "
        "в раунде {round} команда не была предупреждена (/warn).",
        "A penalty (§10) comes only in the round after a warning: "
        "the team was not warned in round {round} (/warn).",
    ),
}

# The engine's UNKNOWN_PLAYER code shares its name with the resolver's; keep both apart.
ENGINE_CODE_ALIASES: Final[dict[str, str]] = {"unknown_player": "unknown_player_number"}

BALL_LABELS: Final[dict[str, tuple[str, str]]] = {
    "black": ("чёрный", "black"),
    "green": ("зелёный", "green"),
    "blue": ("голубой", "blue"),
    "red": ("красный", "red"),
    "yellow": ("жёлтый", "yellow"),
}

_LABELS: Final[dict[str, tuple[str, str]]] = {
    **BALL_LABELS,
    "hospital": ("в больничном крыле", "in the hospital wing"),
    "swallowed": ("проглочен", "swallowed"),
    "reserve": ("в запасе", "a reserve"),
    "active": ("в игре", "in play"),
    "burnt": ("сгорел", "burnt"),
    "vanished": ("исчез", "vanished"),
    "short": ("коротких", "short flames"),
    "volley": ("залпов", "volleys"),
    "left": ("левые", "left"),
    "right": ("правые", "right"),
    "or": ("или", "or"),
}

# What a terminal the parser expected means to a player.
_EXPECTED: Final[tuple[tuple[frozenset[str], tuple[str, str]], ...]] = (
    (frozenset({"INT"}), ("число", "a number")),
    (frozenset({"H", "SLASH"}), ("высота (в2)", "a height (h2)")),
    (frozenset({"PASS", "CATCH", "STEAL"}), ("действие (пас, ловить, отнять)", "an action (pass, catch, steal)")),
    (
        frozenset({"FORWARD", "LEFT", "RIGHT", "STAY", "UP", "DOWN", "FIRE", "SHORT", "VOLLEY"}),
        ("ход дракона (вперёд, налево, направо, стоять, вверх, вниз, пламя, залп)",
         "a dragon move (forward, left, right, stay, up, down, flame, volley)"),
    ),
    (frozenset({"WORD"}), ("имя или слово", "a name or a word")),
    (frozenset({"ARROW"}), ("стрелка ->", "an arrow ->")),
    (frozenset({"CLEAR"}), ("«отмена»", "“clear”")),
)  # fmt: skip


def lang_of(lang: str) -> int:
    """0 for Russian (the default for anything unknown), 1 for English."""
    return 1 if lang.lower().startswith("en") else 0


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def message(code: str, lang: str = "ru", **params: Any) -> str:
    """The message for ``code`` in ``lang`` with ``params`` filled in."""
    pair = MESSAGES.get(code)
    if pair is None:
        return code
    return pair[lang_of(lang)].format_map(_Params(params))


def label(value: str, lang: str = "ru") -> str:
    """A ball, status or side in words of ``lang`` (the value itself if unknown)."""
    pair = _LABELS.get(value)
    return value if pair is None else pair[lang_of(lang)]


def describe_expected(expected: Iterable[str], lang: str = "ru") -> str:
    """The parser's expected terminals as a short phrase ("число или высота")."""
    return _describe_expected(frozenset(expected), lang)


@lru_cache(maxsize=512)
def _describe_expected(wanted: frozenset[str], lang: str) -> str:
    parts = [words[lang_of(lang)] for kinds, words in _EXPECTED if wanted & kinds]
    if not parts:
        parts = ["конец строки" if lang_of(lang) == 0 else "the end of the line"]
    return f" {label('or', lang)} ".join(parts[:4])


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
