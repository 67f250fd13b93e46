"""Game-master operations.  Each one checks the actor's right, locks the game,
does its work, writes the referee's log and tells the game about it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.geometry import Side
from engine.orders import Penalty, Substitution
from engine.ruleset import RulesetError, load_ruleset
from engine.setup import new_match
from storage import repo
from storage.models import Game, Invitation, Membership, Player, Team

from . import notify, rounds
from .context import Actor, ServiceError, Tx, game_code
from .deadlines import ScheduleError, format_schedule, parse_schedule, parse_zone
from .fairness import new_seed
from .filing import store_order
from .i18n import format_time

__all__ = [
    "Outcome",
    "add_player",
    "add_team",
    "announce",
    "create_game",
    "end",
    "extend",
    "invite",
    "is_gm",
    "link_team_chat",
    "pause",
    "penalty",
    "resolve_now",
    "resume",
    "rollback",
    "set_channel",
    "set_deadline",
    "start",
    "substitute",
    "warn",
]

SIDES: tuple[Side, Side] = ("left", "right")
ROLES = ("captain", "player", "game_master")
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


@dataclass(frozen=True)
class Outcome:
    """A structured answer: an i18n text key with its parameters, plus data."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    status: str = "ok"
    game_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


def is_gm(tx: Tx, actor: Actor, game_id: int | None) -> bool:
    if actor.trusted or actor.global_gm:
        return True
    if actor.member is None or actor.member.id is None or game_id is None:
        return False
    ms = repo.membership(tx.s, actor.member.id, game_id)
    return ms is not None and ms.role == "game_master"


def _gm_game(tx: Tx, actor: Actor, game_id: int | None, *statuses: str) -> Game:
    """The game, locked, after checking the actor may run it and its status fits."""
    if game_id is None:
        raise ServiceError("no_game")
    if not is_gm(tx, actor, game_id):
        raise ServiceError("not_gm", status="refused")
    game = repo.lock_game(tx.s, game_id)
    if game is None:
        raise ServiceError("unknown_game", game=game_code(game_id))
    if statuses and game.status not in statuses:
        raise ServiceError("bad_status", status_now=game.status, game=game_code(game))
    return game


def _log(tx: Tx, actor: Actor, game: Game | None, action: str, **args: Any) -> None:
    clean = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in args.items()}
    repo.log_action(tx.s, game.id if game else None, actor.identity, action, clean, tx.now)


def _side(side: str | None) -> Side:
    if side == "left":
        return "left"
    if side == "right":
        return "right"
    raise ServiceError("bad_side", side=side or "-")


def create_game(
    tx: Tx,
    actor: Actor,
    *,
    ruleset: str | None = None,
    title: str = "",
    timezone: str | None = None,
    deadlines: str | None = None,
    lang: str | None = None,
    players_per_team: int | None = None,
) -> Outcome:
    if not (actor.trusted or actor.global_gm):
        raise ServiceError("not_gm", status="refused")
    name = ruleset or tx.settings.ruleset
    try:
        rules = load_ruleset(name)
        zone = timezone or tx.settings.timezone
        parse_zone(zone)
        schedule = format_schedule(parse_schedule(deadlines or tx.settings.deadline))
    except RulesetError as exc:
        raise ServiceError("bad_ruleset", ruleset=name, error=str(exc)) from None
    except ScheduleError as exc:
        raise ServiceError("bad_schedule", error=str(exc)) from None
    per_team = players_per_team or rules.players_per_team
    if not 1 <= per_team <= rules.players_per_team:
        raise ServiceError("bad_players_per_team", max=rules.players_per_team)
    game = Game(
        title=title,
        ruleset=name,
        timezone=zone,
        deadlines=schedule,
        lang=lang if lang in ("ru", "en") else tx.settings.lang,
        players_per_team=per_team,
        channel_chat=tx.settings.channel_chat,
        channel_thread=tx.settings.channel_thread,
        created_at=tx.now,
        created_by=actor.identity,
    )
    tx.s.add(game)
    tx.s.flush()
    assert game.id is not None
    if actor.member is not None and actor.member.id is not None:
        tx.s.add(
            Membership(
                member_id=actor.member.id, game_id=game.id, role="game_master", created_at=tx.now
            )
        )
        actor.member.current_game_id = game.id
        tx.s.add(actor.member)
    _log(
        tx, actor, game, "create_game", ruleset=name, title=title, timezone=zone, deadlines=schedule
    )
    return Outcome(
        "game_created",
        {"game": game_code(game), "deadlines": schedule, "timezone": zone},
        game_id=game.id,
    )


def add_team(tx: Tx, actor: Actor, game_id: int | None, side: str, name: str) -> Outcome:
    game = _gm_game(tx, actor, game_id, "setup")
    assert game.id is not None
    name = name.strip()
    if not name:
        raise ServiceError("usage", usage="/addteam left|right NAME")
    team = repo.teams(tx.s, game.id).get(_side(side)) or Team(game_id=game.id, side=side, name=name)
    team.name = name
    tx.s.add(team)
    _log(tx, actor, game, "add_team", side=side, name=name)
    return Outcome(
        "team_added", {"game": game_code(game), "side": side, "name": name}, game_id=game.id
    )


def add_player(tx: Tx, actor: Actor, game_id: int | None, side: str, name: str) -> Outcome:
    game = _gm_game(tx, actor, game_id, "setup")
    assert game.id is not None
    name = name.strip()
    if not name:
        raise ServiceError("usage", usage="/addplayer left|right NAME")
    existing = repo.players(tx.s, game.id, _side(side))
    number = len(existing) + 1
    tx.s.add(Player(game_id=game.id, side=side, number=number, name=name))
    _log(tx, actor, game, "add_player", side=side, number=number, name=name)
    return Outcome(
        "player_added",
        {"game": game_code(game), "side": side, "number": number, "name": name},
        game_id=game.id,
        data={"number": number},
    )


def invite(
    tx: Tx,
    actor: Actor,
    game_id: int | None,
    *,
    role: str,
    side: str | None = None,
    players: tuple[int, ...] = (),
    dragon: bool = False,
    email: str | None = None,
) -> Outcome:
    """An invitation code for one person: a captain (his whole team and the
    dragon), a player (the shirt numbers given, and the dragon if ``dragon``)
    or a game master; with ``email`` only that address may redeem it by mail."""
    game = _gm_game(tx, actor, game_id)
    assert game.id is not None
    if role not in ROLES:
        raise ServiceError("bad_role", role=role)
    if role != "game_master":
        _side(side or "")
    if role == "player" and not (players or dragon):
        raise ServiceError("usage", usage="/invite player left|right NUMBER...")
    code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(10))
    tx.s.add(
        Invitation(
            code=code,
            game_id=game.id,
            side=side if role != "game_master" else None,
            role=role,
            players=",".join(
                [str(n) for n in sorted(set(players))] + (["dragon"] if dragon else [])
            ),
            email=email.strip().lower() if email else None,
            created_by=actor.identity,
            created_at=tx.now,
            expires_at=tx.now + tx.settings.invitation_ttl,
        )
    )
    _log(tx, actor, game, "invite", role=role, side=side, players=list(players), email=email)
    return Outcome(
        "invited",
        {"game": game_code(game), "code": code, "role": role, "side": side or "-"},
        game_id=game.id,
        data={"code": code},
    )


def set_deadline(
    tx: Tx, actor: Actor, game_id: int | None, schedule: str, timezone: str | None = None
) -> Outcome:
    game = _gm_game(tx, actor, game_id, "setup", "running", "paused")
    try:
        times = format_schedule(parse_schedule(schedule))
        zone = timezone or game.timezone
        parse_zone(zone)
    except ScheduleError as exc:
        raise ServiceError("bad_schedule", error=str(exc)) from None
    game.deadlines, game.timezone = times, zone
    tx.s.add(game)
    rnd = rounds.current_round(tx, game)
    params: dict[str, Any] = {"deadlines": times, "timezone": zone}
    if rnd is not None and rnd.status == "open":
        rnd.deadline = rounds.deadline_after(game, tx.now + tx.settings.min_round_time)
        tx.s.add(rnd)
        params["deadline"] = _when(rnd.deadline, game)
    else:
        params["deadline"] = "-"
    _log(tx, actor, game, "set_deadline", deadlines=times, timezone=zone)
    notify.announce(tx, game, "deadline_set", **params)
    return Outcome("deadline_set", params, game_id=game.id)


def start(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = _gm_game(tx, actor, game_id, "setup")
    assert game.id is not None
    rules = rounds.ruleset_of(game)
    team_rows = repo.teams(tx.s, game.id)
    if set(team_rows) != set(SIDES):
        raise ServiceError("need_two_teams")
    per_team = game.players_per_team or rules.players_per_team
    rosters: dict[Any, list[str]] = {}
    reserves = 0
    for side in SIDES:
        names = [p.name for p in repo.players(tx.s, game.id, side)]
        if names and len(names) < per_team:
            raise ServiceError("need_players", side=side, count=len(names), needed=per_team)
        rosters[side] = names
        reserves = max(reserves, len(names) - per_team)
    seed = new_seed()
    state, _events = new_match(
        rules,
        seed,
        players_per_team=per_team,
        reserves_per_team=reserves if any(rosters.values()) else None,
        team_names={side: team_rows[side].name for side in SIDES},
        rosters={side: names for side, names in rosters.items() if names},
    )
    game.status = "running"
    game.started_at = tx.now
    game.setup_seed = seed
    rnd = rounds.open_round(
        tx, game, state, deadline=rounds.deadline_after(game, tx.now + tx.settings.min_round_time)
    )
    _log(tx, actor, game, "start", setup_seed=seed)
    notify.announce(
        tx,
        game,
        "game_started",
        left=team_rows["left"].name,
        right=team_rows["right"].name,
        setup_seed=seed,
    )
    rounds.announce_round_open(tx, game, rnd)
    return Outcome(
        "game_started_gm",
        {"game": game_code(game), "deadline": _when(rnd.deadline, game)},
        game_id=game.id,
    )


def pause(tx: Tx, actor: Actor, game_id: int | None, reason: str = "") -> Outcome:
    game = _gm_game(tx, actor, game_id, "running")
    game.status = "paused"
    tx.s.add(game)
    _log(tx, actor, game, "pause", reason=reason)
    notify.announce(tx, game, "paused", reason=reason or "-")
    return Outcome("paused", {"game": game_code(game), "reason": reason or "-"}, game_id=game.id)


def resume(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = _gm_game(tx, actor, game_id, "paused")
    game.status = "running"
    tx.s.add(game)
    rnd = rounds.current_round(tx, game)
    deadline = "-"
    if rnd is not None and rnd.status == "open":
        # A deadline that passed during the pause moves on: nobody expected it to fire.
        if rnd.deadline <= tx.now:
            rnd.deadline = rounds.deadline_after(game, tx.now + tx.settings.min_round_time)
            tx.s.add(rnd)
        deadline = _when(rnd.deadline, game)
    _log(tx, actor, game, "resume")
    notify.announce(tx, game, "resumed", deadline=deadline)
    return Outcome("resumed", {"game": game_code(game), "deadline": deadline}, game_id=game.id)


def extend(
    tx: Tx,
    actor: Actor,
    game_id: int | None,
    *,
    by: timedelta | None = None,
    until: datetime | None = None,
) -> Outcome:
    game = _gm_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    new = until if until is not None else rnd.deadline + (by or timedelta(0))
    if new <= tx.now:
        raise ServiceError("deadline_in_past", deadline=_when(new, game))
    rnd.deadline = new
    tx.s.add(rnd)
    _log(tx, actor, game, "extend", deadline=new)
    notify.announce(tx, game, "extended", round=rnd.number, deadline=_when(new, game))
    return Outcome(
        "extended",
        {"game": game_code(game), "round": rnd.number, "deadline": _when(new, game)},
        game_id=game.id,
    )


def resolve_now(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = _gm_game(tx, actor, game_id, "running", "paused")
    assert game.id is not None
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    _log(tx, actor, game, "resolve_now", round=rnd.number)
    notify.announce(tx, game, "resolved_by_gm", round=rnd.number)
    done = rounds.resolve(tx, game.id, force=True)
    assert done is not None  # the game is locked and the round open
    return Outcome(
        "resolved", {"game": game_code(game), "round": done.round_number}, game_id=game.id
    )


def rollback(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = _gm_game(tx, actor, game_id, "running", "paused", "ended")
    rnd = rounds.rollback(tx, game)
    _log(tx, actor, game, "rollback", round=rnd.number, attempt=rnd.attempt)
    notify.announce(tx, game, "rolled_back", round=rnd.number)
    rounds.announce_round_open(tx, game, rnd)
    return Outcome("rolled_back", {"game": game_code(game), "round": rnd.number}, game_id=game.id)


def warn(tx: Tx, actor: Actor, game_id: int | None, side: str, reason: str = "") -> Outcome:
    game = _gm_game(tx, actor, game_id, "running", "paused")
    assert game.id is not None
    team = repo.teams(tx.s, game.id)[_side(side)]
    team.warnings += 1
    tx.s.add(team)
    _log(tx, actor, game, "warn", side=side, reason=reason)
    notify.announce(tx, game, "warned", team=team.name, count=team.warnings, reason=reason or "-")
    return Outcome(
        "warned",
        {
            "team": team.name,
            "count": team.warnings,
            "reason": reason or "-",
            "game": game_code(game),
        },
        game_id=game.id,
    )


def penalty(tx: Tx, actor: Actor, game_id: int | None, side: str, tick: int = 1) -> Outcome:
    game = _gm_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    ticks = rounds.ruleset_of(game).ticks_per_round
    if not 1 <= tick <= ticks:
        raise ServiceError("bad_tick", tick=tick, ticks=ticks)
    which = _side(side)
    team = repo.teams(tx.s, game.id or 0)[which]
    store_order(
        tx,
        game,
        Penalty(which, tick),
        state=rounds.load_state(tx, rnd),
        ruleset=rounds.ruleset_of(game),
        author=actor.identity,
    )
    _log(tx, actor, game, "penalty", side=side, tick=tick, round=rnd.number)
    notify.announce(tx, game, "penalty_ordered", team=team.name, round=rnd.number, tick=tick)
    return Outcome(
        "penalty_ordered",
        {"team": team.name, "round": rnd.number, "tick": tick, "game": game_code(game)},
        game_id=game.id,
    )


def substitute(
    tx: Tx, actor: Actor, game_id: int | None, side: str, out_number: int, in_number: int
) -> Outcome:
    game = _gm_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    state = rounds.load_state(tx, rnd)
    which = _side(side)
    out_p, in_p = state.find_player(which, out_number), state.find_player(which, in_number)
    if out_p is None or in_p is None or in_p.status != "reserve" or out_p.status == "swallowed":
        raise ServiceError("bad_substitution", out=out_number, inn=in_number)
    sub = Substitution(which, out_number, in_number)
    store_order(tx, game, sub, state=state, ruleset=rounds.ruleset_of(game), author=actor.identity)
    _log(tx, actor, game, "substitute", side=side, out=out_number, inn=in_number, round=rnd.number)
    params: dict[str, Any] = {
        "out": out_p.name, "inn": in_p.name, "round": rnd.number, "game": game_code(game),
    }  # fmt: skip
    notify.announce(tx, game, "substituted", **params)
    return Outcome("substituted", params, game_id=game.id)


def end(tx: Tx, actor: Actor, game_id: int | None, reason: str = "") -> Outcome:
    game = _gm_game(tx, actor, game_id, "setup", "running", "paused")
    rnd = rounds.current_round(tx, game)
    score = "-"
    if rnd is not None:
        state = rounds.load_state(tx, rnd)  # running or paused: the round is open
        score = f"{state.teams[0].score}:{state.teams[1].score}"
        if rnd.status == "open":
            rnd.status = "cancelled"
            tx.s.add(rnd)
    game.status = "ended"
    game.ended_at = tx.now
    game.end_reason = "game_master"
    tx.s.add(game)
    _log(tx, actor, game, "end", reason=reason)
    notify.announce(
        tx,
        game,
        "ended_by_gm",
        kind="match_end",
        subject_key="subject_match_end",
        score=score,
        reason=reason or "-",
    )
    return Outcome(
        "ended_by_gm",
        {"game": game_code(game), "score": score, "reason": reason or "-"},
        game_id=game.id,
    )


def announce(tx: Tx, actor: Actor, game_id: int | None, text: str) -> Outcome:
    game = _gm_game(tx, actor, game_id)
    if not text.strip():
        raise ServiceError("usage", usage="/announce TEXT")
    _log(tx, actor, game, "announce", text=text)
    notify.announce(tx, game, "gm_announcement", text=text.strip())
    return Outcome("announced", {"game": game_code(game)}, game_id=game.id)


def link_team_chat(
    tx: Tx, actor: Actor, game_id: int | None, side: str, chat: str, thread: str | None = None
) -> Outcome:
    game = _gm_game(tx, actor, game_id)
    assert game.id is not None
    team = repo.teams(tx.s, game.id).get(_side(side))
    if team is None:
        raise ServiceError("need_two_teams")
    team.chat, team.thread = chat, thread
    tx.s.add(team)
    _log(tx, actor, game, "link_team_chat", side=side, chat=chat, thread=thread)
    notify.announce(tx, game, "team_chat_linked", team=team.name)
    return Outcome(
        "team_chat_linked", {"team": team.name, "game": game_code(game)}, game_id=game.id
    )


def set_channel(
    tx: Tx, actor: Actor, game_id: int | None, chat: str | None, thread: str | None = None
) -> Outcome:
    game = _gm_game(tx, actor, game_id)
    game.channel_chat, game.channel_thread = chat or None, thread
    tx.s.add(game)
    _log(tx, actor, game, "set_channel", chat=chat, thread=thread)
    notify.announce(tx, game, "channel_set")
    return Outcome("channel_set", {"game": game_code(game)}, game_id=game.id)


def _when(when: datetime, game: Game) -> Any:
    return lambda lang: format_time(when, game.timezone, lang)
