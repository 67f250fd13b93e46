"""The command menus Telegram clients show, registered with ``setMyCommands``.

Three menus, each in Russian (the default) and English: players in private
chats, team groups, and game masters (the players' commands plus theirs, set
for each configured game master's private chat). The commands themselves are
read by the game service (``bot.service.commands``); a short usage hint sits
in each description. A game-master command may name its game first
(``/pause DB-12``); the menus leave that out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from bot.logging import get_logger

__all__ = [
    "GM_COMMANDS",
    "GROUP_COMMANDS",
    "LANGS",
    "PLAYER_COMMANDS",
    "MenuCommand",
    "menu",
    "register_commands",
]

log = get_logger(__name__)

LANGS = ("ru", "en")


@dataclass(frozen=True)
class MenuCommand:
    name: str
    ru: str
    en: str

    def bot_command(self, lang: str) -> BotCommand:
        return BotCommand(self.name, self.ru if lang == "ru" else self.en)


PLAYER_COMMANDS = (
    MenuCommand("orders", "мои приказы на этот раунд", "my orders for this round"),
    MenuCommand(
        "status",
        "поле, счёт, срок, кто ещё не прислал приказы",
        "field, score, deadline, who has not ordered",
    ),
    MenuCommand("ready", "мои приказы окончательные", "my orders are final"),
    MenuCommand("wait", "я ещё поправлю приказы", "I will still change my orders"),
    MenuCommand("clear", "стереть мои приказы", "forget my orders"),
    MenuCommand("help", "язык приказов вкратце", "the order language in short"),
    MenuCommand("rules", "правила и сроки", "rules and deadlines"),
    MenuCommand("verify", "N — проверить кости раунда N", "N — check the dice of round N"),
    MenuCommand("game", "DB-N — выбрать игру", "DB-N — choose a game"),
    MenuCommand("lang", "ru|en — язык ответов", "ru|en — language of replies"),
    MenuCommand(
        "passphrase",
        "ФРАЗА — пароль для приказов письмом",
        "PHRASE — pass phrase for orders by e-mail",
    ),
)

_GROUP_NAMES = ("orders", "status", "ready", "wait", "clear", "help", "rules")
GROUP_COMMANDS = tuple(c for c in PLAYER_COMMANDS if c.name in _GROUP_NAMES)

GM_COMMANDS = (
    MenuCommand(
        "newgame",
        "[НАЗВАНИЕ] [tz=…] [deadline=…] — новая игра",
        "[NAME] [tz=…] [deadline=…] — new game",
    ),
    MenuCommand("addteam", "left|right НАЗВАНИЕ — команда", "left|right NAME — a team"),
    MenuCommand("addplayer", "left|right ИМЯ — игрок", "left|right NAME — a player"),
    MenuCommand(
        "invite",
        "captain|player|game_master [left|right] [N…] [E-MAIL|@ИМЯ] [for=3d] — приглашение",
        "captain|player|game_master [left|right] [N…] [E-MAIL|@USERNAME] [for=3d] — invitation",
    ),
    MenuCommand(
        "invitations", "приглашения: кто какое использовал", "invitations: who redeemed what"
    ),
    MenuCommand("revoke", "КОД — отозвать приглашение", "CODE — revoke an invitation"),
    MenuCommand(
        "deadline",
        "ЧЧ:ММ[,ЧЧ:ММ] [Пояс/Зона] — срок раундов",
        "HH:MM[,HH:MM] [Time/Zone] — round deadlines",
    ),
    MenuCommand("startgame", "начать матч", "start the match"),
    MenuCommand("pause", "[ПРИЧИНА] — пауза", "[REASON] — pause"),
    MenuCommand("resume", "продолжить", "resume"),
    MenuCommand(
        "extend",
        "2h | 30m | 1d | ЧЧ:ММ — продлить срок",
        "2h | 30m | 1d | HH:MM — extend the deadline",
    ),
    MenuCommand("resolve", "разыграть раунд сейчас", "resolve the round now"),
    MenuCommand("rollback", "отменить последний раунд", "undo the last round"),
    MenuCommand("warn", "left|right [ПРИЧИНА] — предупреждение", "left|right [REASON] — warning"),
    MenuCommand("penalty", "left|right [ТАКТ] — пенальти", "left|right [TICK] — penalty"),
    MenuCommand(
        "substitute", "left|right УХОДИТ ВХОДИТ — замена", "left|right OUT IN — substitution"
    ),
    MenuCommand("endgame", "[ПРИЧИНА] — закончить матч", "[REASON] — end the match"),
    MenuCommand("announce", "ТЕКСТ — объявление всем", "TEXT — announcement to all"),
    MenuCommand(
        "linkchat",
        "left|right — эта группа станет чатом команды",
        "left|right — this group becomes the team's chat",
    ),
    MenuCommand(
        "setchannel",
        "[ЧАТ [ТЕМА]] | off — канал игры (здесь, если не указан)",
        "[CHAT [TOPIC]] | off — game channel (here if none)",
    ),
)


def menu(commands: Sequence[MenuCommand], lang: str) -> list[BotCommand]:
    return [command.bot_command(lang) for command in commands]


async def register_commands(bot: Bot, game_masters: Sequence[int] = ()) -> bool:
    """Set every menu; returns False (and logs) when Telegram refused one."""
    scopes: list[tuple[BotCommandScope, Sequence[MenuCommand]]] = [
        (BotCommandScopeDefault(), PLAYER_COMMANDS),
        (BotCommandScopeAllPrivateChats(), PLAYER_COMMANDS),
        (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
    ]
    scopes += [(BotCommandScopeChat(gm), PLAYER_COMMANDS + GM_COMMANDS) for gm in game_masters]
    ok = True
    for scope, commands in scopes:
        for lang in LANGS:
            try:
                await bot.set_my_commands(
                    menu(commands, lang),
                    scope=scope,
                    # Russian is the menu of everyone whose client is not in English.
                    language_code=None if lang == "ru" else lang,
                )
            except TelegramError as exc:
                # A game master who never started the bot has no chat yet: not fatal.
                ok = False
                log.warning(
                    "telegram command menu not set", scope=scope.type, lang=lang, error=str(exc)
                )
    return ok
