"""Slash commands: reading them and carrying them out.

``/name arg arg …``: the name is case-blind, may carry Telegram's
``@botname`` and has Russian aliases for e-mail writers.  A game-master
command may name its game first (``/pause DB-12 storm``); otherwise the game
is the one the message is about (see :func:`members.choose_game`).
"""

from __future__ import annotations

from ..kernel import audience
from ..kernel.api import Inbound
from ..kernel.audience import Audience
from ..kernel.context import Actor, ServiceError, Tx
from ..kernel.outcome import Outcome
from .gm_commands import GM_COMMANDS
from .member_commands import COMMANDS
from .request import Command, Request, group_chat, parse_command, parse_duration

__all__ = [
    "COMMANDS",
    "GM_COMMANDS",
    "Command",
    "group_chat",
    "known",
    "parse_command",
    "parse_duration",
    "run",
]


# What a sender the judge does not know yet may do.
ANONYMOUS = frozenset({"start", "help"})


def known(cmd: Command) -> bool:
    """Is this one of the judge's commands (any alias)?"""
    return cmd.name in COMMANDS or cmd.name in GM_COMMANDS


def run(
    tx: Tx,
    actor: Actor,
    msg: Inbound,
    cmd: Command,
    inbound_id: int | None,
    reply: Audience | None = None,
) -> Outcome:
    handler = COMMANDS.get(cmd.name) or GM_COMMANDS.get(cmd.name)
    if handler is None:
        raise ServiceError("unknown_command", command=cmd.name)
    reply = reply or audience.reply_audience(tx, msg, actor)
    audience.admit(cmd.name, reply)
    return handler(Request(tx, actor, msg, cmd, inbound_id, reply))
