"""The command menus Telegram clients show, registered with ``setMyCommands``.

Three menus, each in Russian (the default) and English: players in private
chats, team groups, and game masters (the players' commands plus theirs, set
for each configured game master's private chat). The commands themselves are
read by the game service (``bot.service.inbound.commands``); a short usage hint sits
in each description. A game-master command may name its game first
(``/pause DB-12``); the menus leave that out. With the ordering page on,
the menu button of private chats opens it (:func:`register_menu_button`).
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
    MenuButton,
    MenuButtonDefault,
    MenuButtonWebApp,
    WebAppInfo,
)
from telegram.error import TelegramError

from bot.i18n import N_, t
from bot.logging import get_logger

__all__ = [
    "GM_COMMANDS",
    "GROUP_COMMANDS",
    "LANGS",
    "PLAYER_COMMANDS",
    "MenuCommand",
    "menu",
    "register_commands",
    "register_menu_button",
]

log = get_logger(__name__)

LANGS = ("ru", "en")


@dataclass(frozen=True)
class MenuCommand:
    """A command and the catalog key of its description (``menu.<name>``)."""

    name: str
    key: str

    def bot_command(self, lang: str) -> BotCommand:
        return BotCommand(self.name, t(self.key, lang))


PLAYER_COMMANDS = (
    MenuCommand("orders", N_("menu.orders")),
    MenuCommand("odds", N_("menu.odds")),
    MenuCommand("status", N_("menu.status")),
    MenuCommand("ready", N_("menu.ready")),
    MenuCommand("wait", N_("menu.wait")),
    MenuCommand("clear", N_("menu.clear")),
    MenuCommand("help", N_("menu.help")),
    MenuCommand("rules", N_("menu.rules")),
    MenuCommand("verify", N_("menu.verify")),
    MenuCommand("report", N_("menu.report")),
    MenuCommand("game", N_("menu.game")),
    MenuCommand("lang", N_("menu.lang")),
    MenuCommand("tz", N_("menu.tz")),
    MenuCommand("passphrase", N_("menu.passphrase")),
)

_GROUP_NAMES = ("orders", "odds", "status", "ready", "wait", "clear", "help", "rules")
GROUP_COMMANDS = tuple(c for c in PLAYER_COMMANDS if c.name in _GROUP_NAMES)

GM_COMMANDS = (
    MenuCommand("newgame", N_("menu.newgame")),
    MenuCommand("addteam", N_("menu.addteam")),
    MenuCommand("addplayer", N_("menu.addplayer")),
    MenuCommand("invite", N_("menu.invite")),
    MenuCommand("invitations", N_("menu.invitations")),
    MenuCommand("revoke", N_("menu.revoke")),
    MenuCommand("deadline", N_("menu.deadline")),
    MenuCommand("lateorders", N_("menu.lateorders")),
    MenuCommand("startgame", N_("menu.startgame")),
    MenuCommand("pause", N_("menu.pause")),
    MenuCommand("resume", N_("menu.resume")),
    MenuCommand("extend", N_("menu.extend")),
    MenuCommand("resolve", N_("menu.resolve")),
    MenuCommand("rollback", N_("menu.rollback")),
    MenuCommand("mintime", N_("menu.mintime")),
    MenuCommand("warn", N_("menu.warn")),
    MenuCommand("penalty", N_("menu.penalty")),
    MenuCommand("substitute", N_("menu.substitute")),
    MenuCommand("endgame", N_("menu.endgame")),
    MenuCommand("announce", N_("menu.announce")),
    MenuCommand("linkchat", N_("menu.linkchat")),
    MenuCommand("setchannel", N_("menu.setchannel")),
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


async def register_menu_button(bot: Bot, page_url: str | None) -> bool:
    """The button beside every private chat's input field opens the ordering
    page as a Mini App (it knows the member and his current game from its
    launch data), so a player can order on the field whenever he likes, not
    only from the round's opening message; without a page, Telegram's own
    button (a page turned off must not stay behind it). Returns False (and
    logs) when Telegram refused it.  One text for all (a default button has
    no language): Russian first."""
    button: MenuButton = (
        MenuButtonWebApp(t("web.button", "ru"), WebAppInfo(page_url))
        if page_url is not None
        else MenuButtonDefault()
    )
    try:
        await bot.set_chat_menu_button(menu_button=button)
    except TelegramError as exc:
        log.warning("telegram menu button not set", error=str(exc))
        return False
    return True
