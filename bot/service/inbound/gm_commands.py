"""The game master's commands: setting a match up and running it."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..handlers import gm, gm_match, gm_setup, invitations
from ..kernel.context import Actor, ServiceError, Tx, parse_game_code
from ..kernel.outcome import Outcome
from .request import Request, group_chat, parse_duration, to_int

__all__ = ["GM_COMMANDS"]


# ---------------------------------------------------------------- game-master commands
def _newgame(r: Request) -> Outcome:
    options: dict[str, str | None] = dict.fromkeys(
        ("ruleset", "players", "tz", "deadline", "lang", "mintime")
    )
    title = []
    for arg in r.cmd.args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in options:
            options[key.lower()] = value
        else:
            title.append(arg)
    return gm_setup.create_game(
        r.tx, r.actor, ruleset=options["ruleset"], title=" ".join(title), timezone=options["tz"],
        deadlines=options["deadline"], lang=options["lang"],
        players_per_team=to_int(options["players"] or "") if options["players"] else None,
        min_time=parse_duration(options["mintime"]) if options["mintime"] else None,
    )  # fmt: skip


def _side_and_rest(r: Request, usage: str) -> tuple[int, str, tuple[str, ...]]:
    game_id, args = r.game_id()
    if not args:
        raise ServiceError("usage", usage=usage)
    return game_id, _side_word(args[0]), args[1:]


def _side_word(word: str) -> str:
    w = word.lower()
    if w in ("left", "l", "лев", "левые", "левая", "слева"):
        return "left"
    if w in ("right", "r", "прав", "правые", "правая", "справа"):
        return "right"
    raise ServiceError("bad_side", side=word)


def _addteam(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/addteam left|right NAME")
    return gm_setup.add_team(r.tx, r.actor, game_id, side, " ".join(rest))


def _addplayer(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/addplayer left|right NAME")
    return gm_setup.add_player(r.tx, r.actor, game_id, side, " ".join(rest))


def _invite(r: Request) -> Outcome:
    usage = (
        "/invite captain|player|game_master [left|right] [NUMBER… dragon] "
        "[E-MAIL | @USERNAME] [for=3d]"
    )
    game_id, args = r.game_id()
    if not args:
        raise ServiceError("usage", usage=usage)
    role = {
        "gm": "game_master",
        "капитан": "captain",
        "игрок": "player",
        "судья": "game_master",
    }.get(args[0].lower(), args[0].lower())
    args = args[1:]
    side = None
    if role != "game_master":
        if not args:
            raise ServiceError("usage", usage=usage)
        side, args = _side_word(args[0]), args[1:]
    ttl = None
    rest = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in ("for", "ttl", "срок"):
            ttl = parse_duration(value)
        else:
            rest.append(arg)
    username = next((a for a in rest if a.startswith("@") and "@" not in a[1:]), None)
    email = next((a for a in rest if "@" in a[1:]), None)
    dragon = any(a.lower() in ("dragon", "дракон") for a in rest)
    numbers = tuple(
        to_int(a) for a in rest if "@" not in a and a.lower() not in ("dragon", "дракон")
    )
    return gm_setup.invite(
        r.tx, r.actor, game_id, role=role, side=side, players=numbers, dragon=dragon, email=email,
        username=username, ttl=ttl,
    )  # fmt: skip


def _revoke(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/revoke CODE")
    return invitations.revoke(r.tx, r.actor, game_id, args[0])


def _deadline(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if not args:
        raise ServiceError("usage", usage="/deadline HH:MM[,HH:MM] [Time/Zone]")
    zone = args[-1] if "/" in args[-1] or args[-1].upper() == "UTC" else None
    schedule = " ".join(args[:-1] if zone else args)
    return gm.set_deadline(r.tx, r.actor, game_id, schedule, zone)


def _lateorders(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/lateorders refuse|next")
    return gm.set_late_orders(r.tx, r.actor, game_id, args[0])


def _simple(action: Callable[[Tx, Actor, int], Outcome]) -> Callable[[Request], Outcome]:
    def handler(r: Request) -> Outcome:
        game_id, _ = r.game_id()
        return action(r.tx, r.actor, game_id)

    return handler


def _pause(r: Request) -> Outcome:
    game_id, args = r.game_id()
    return gm_match.pause(r.tx, r.actor, game_id, " ".join(args))


def _extend(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/extend 2h | 30m | 1d | HH:MM")
    if _CLOCK.fullmatch(args[0]):  # the first such time after the current deadline
        return gm_match.extend(r.tx, r.actor, game_id, clock=args[0])
    return gm_match.extend(r.tx, r.actor, game_id, by=parse_duration(args[0]))


_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}")


def _rollback(r: Request) -> Outcome:
    """``/rollback``: played again at once; ``/rollback 2h`` or ``/rollback 21:00``:
    reopened with that deadline, for the teams to change their orders first."""
    game_id, args = r.game_id()
    if len(args) > 1:
        raise ServiceError("usage", usage="/rollback [2h | 30m | HH:MM]")
    if not args:
        return gm_match.rollback(r.tx, r.actor, game_id)
    if _CLOCK.fullmatch(args[0]):
        return gm_match.rollback(r.tx, r.actor, game_id, clock=args[0])
    return gm_match.rollback(r.tx, r.actor, game_id, by=parse_duration(args[0]))


def _mintime(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/mintime 10m | 1h")
    return gm.set_min_time(r.tx, r.actor, game_id, parse_duration(args[0]))


def _warn(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/warn left|right [REASON]")
    return gm_match.warn(r.tx, r.actor, game_id, side, " ".join(rest))


def _penalty(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/penalty left|right [TICK]")
    return gm_match.penalty(r.tx, r.actor, game_id, side, to_int(rest[0]) if rest else 1)


def _substitute(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/substitute left|right OUT IN")
    if len(rest) != 2:
        raise ServiceError("usage", usage="/substitute left|right OUT IN")
    return gm_match.substitute(r.tx, r.actor, game_id, side, to_int(rest[0]), to_int(rest[1]))


def _endgame(r: Request) -> Outcome:
    game_id, args = r.game_id()
    return gm_match.end(r.tx, r.actor, game_id, " ".join(args))


def _announce(r: Request) -> Outcome:
    game_id, _ = r.game_id()
    text = r.cmd.rest
    first = text.split(maxsplit=1)
    if first and first[0].upper().startswith("DB") and parse_game_code(first[0]) is not None:
        text = first[1] if len(first) > 1 else ""
    return gm_match.announce(r.tx, r.actor, game_id, text)


def _linkchat(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/linkchat left|right [CHAT]")
    # Without CHAT, the group it is written in: never a private chat (that would
    # make the writer's own chat the team's) nor a letter.
    chat = rest[0] if rest else group_chat(r.msg)
    if not chat:
        gm.locked_game(r.tx, r.actor, game_id)  # "only a game master" comes first
        raise ServiceError("usage", usage="/linkchat left|right CHAT")
    return gm_setup.link_team_chat(r.tx, r.actor, game_id, side, chat, r.msg.meta.get("thread_id"))


def _setchannel(r: Request) -> Outcome:
    game_id, args = r.game_id()
    chat = args[0] if args else group_chat(r.msg)  # a private chat is no channel
    if chat is None:
        gm.locked_game(r.tx, r.actor, game_id)  # "only a game master" comes first
        raise ServiceError("usage", usage="/setchannel CHAT [TOPIC] | off")
    if chat.lower() in ("off", "none", "нет"):
        return gm_setup.set_channel(r.tx, r.actor, game_id, None)
    thread = args[1] if len(args) > 1 else r.msg.meta.get("thread_id")
    return gm_setup.set_channel(r.tx, r.actor, game_id, chat, thread)


GM_COMMANDS: dict[str, Callable[[Request], Outcome]] = {
    "newgame": _newgame,
    "addteam": _addteam,
    "addplayer": _addplayer,
    "invite": _invite,
    "invitations": _simple(invitations.listing),
    "revoke": _revoke,
    "deadline": _deadline,
    "lateorders": _lateorders,
    "startgame": _simple(gm_setup.start),
    "pause": _pause,
    "resume": _simple(gm_match.resume),
    "extend": _extend,
    "resolve": _simple(gm_match.resolve_now),
    "rollback": _rollback,
    "mintime": _mintime,
    "warn": _warn,
    "penalty": _penalty,
    "substitute": _substitute,
    "endgame": _endgame,
    "announce": _announce,
    "linkchat": _linkchat,
    "setchannel": _setchannel,
}
