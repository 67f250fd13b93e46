"""A command read from a message, and the request that carries it out."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from ..handlers import members
from ..kernel import audience
from ..kernel.api import Inbound
from ..kernel.audience import Audience, View
from ..kernel.context import Actor, ServiceError, Tx, parse_game_code
from ..kernel.i18n import t
from ..kernel.outcome import Outcome

__all__ = [
    "Command",
    "Request",
    "group_chat",
    "parse_command",
    "parse_duration",
    "raw",
    "to_int",
]


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[str, ...]
    rest: str  # the text after the command word, line breaks kept


ALIASES = {
    "приказы": "orders", "очистить": "clear", "стереть": "clear", "готов": "ready",
    "готовы": "ready", "ждать": "wait", "статус": "status", "помощь": "help",
    "правила": "rules", "проверить": "verify", "язык": "lang", "старт": "start",
    "игра": "game", "пароль": "passphrase", "sheet": "orders", "language": "lang",
    "приглашения": "invitations", "отозвать": "revoke",
    "опоздавшие": "lateorders", "отчёт": "report", "отчет": "report",
    "пояс": "tz", "timezone": "tz", "шансы": "odds",
}  # fmt: skip


_COMMAND = re.compile(r"\s*/(\w+)(?:@\w+)?(.*)", re.DOTALL)


def parse_command(text: str) -> Command | None:
    match = _COMMAND.match(text)
    if match is None:
        return None
    name = match[1].lower()
    rest = match[2].strip()
    return Command(ALIASES.get(name, name), tuple(rest.split()), rest)


def group_chat(msg: Inbound) -> str | None:
    """The group a Telegram message was written in; None for a private chat
    (its id is the sender's) or a letter.  Only a group can be a team chat."""
    return audience.group_of(msg)


@dataclass
class Request:
    """One command being carried out."""

    tx: Tx
    actor: Actor
    msg: Inbound
    cmd: Command
    inbound_id: int | None
    reply: Audience  # who reads the answer: its language, what it may show

    def game_id(self, args: tuple[str, ...] | None = None) -> tuple[int, tuple[str, ...]]:
        """The game (an explicit leading "DB-N" wins) and the remaining arguments."""
        args = self.cmd.args if args is None else args
        explicit = args[0] if args and args[0].upper().lstrip("#[").startswith("DB") else None
        if explicit is not None and parse_game_code(explicit) is not None:
            args = args[1:]
        game = members.choose_game(
            self.tx,
            self.actor,
            explicit=explicit,
            hint=self.msg.game_hint,
            chat=group_chat(self.msg),
        )
        assert game.id is not None
        return game.id, args

    @property
    def lang(self) -> str:
        """The language of the answer: its readers' (a group's own, not the writer's)."""
        return self.reply.lang

    def t(self, key: str, **params: object) -> str:
        return t(key, self.lang, **params)


def raw(
    text: str, status: str = "ok", game_id: int | None = None, secrecy: View | None = None
) -> Outcome:
    return Outcome("raw", {"text": text}, status=status, game_id=game_id, secrecy=secrecy)


def to_int(value: str) -> int:
    if not value.lstrip("-").isdigit():
        raise ServiceError("bad_number", value=value)
    return int(value)


def parse_duration(value: str) -> timedelta:
    """ "2h", "30m", "1d", "1h30m" → a timedelta."""
    parts = re.findall(r"(\d+)\s*([dhmдчм])", value.lower())
    if not parts or "".join(n + u for n, u in parts) != re.sub(r"\s", "", value.lower()):
        raise ServiceError("bad_duration", value=value)
    unit = {"d": "days", "д": "days", "h": "hours", "ч": "hours", "m": "minutes", "м": "minutes"}
    total = timedelta()
    for number, u in parts:
        total += timedelta(**{unit[u]: int(number)})
    return total
