"""Game-master operations that set a match up: the game, its teams and
players, invitations, chats, and the start.  Like every game-master
operation each is checked, logged and (once there is an audience) announced."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from engine.geometry import SIDES
from engine.ruleset import RulesetError, load_ruleset_label
from engine.setup import new_match
from storage import repo
from storage.models import Game, Membership, Player, Team

from ..kernel import audience, notify
from ..kernel.context import Actor, ServiceError, Tx, game_code
from ..kernel.i18n import N_, SIDE_TEXTS, t
from ..kernel.outcome import Outcome
from ..rounds import resolve as rounds
from ..rounds.fairness import new_seed
from ..runtime.deadlines import ScheduleError, normalize_schedule, parse_zone, schedule_text
from . import invitations
from .gm import MIN_TIME_RANGE, local_time, locked_game, record, side_of, tell

__all__ = [
    "add_player",
    "add_team",
    "create_game",
    "invite",
    "link_team_chat",
    "set_channel",
    "start",
]


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
    min_time: timedelta | None = None,
) -> Outcome:
    if not (actor.trusted or actor.global_gm):
        raise ServiceError("not_gm", status="refused")
    name = ruleset or tx.settings.ruleset
    try:
        rules = load_ruleset_label(name)  # "classic", or pinned to a version: "classic@1"
        zone = timezone or tx.settings.timezone
        parse_zone(zone)
        schedule = normalize_schedule(deadlines or tx.settings.deadline)
    except RulesetError as exc:
        raise ServiceError("bad_ruleset", ruleset=name, error=str(exc)) from None
    except ScheduleError as exc:
        raise ServiceError("bad_schedule", error=str(exc)) from None
    if min_time is not None and not MIN_TIME_RANGE[0] <= min_time <= MIN_TIME_RANGE[1]:
        raise ServiceError("bad_min_time")
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
        min_round_seconds=int(min_time.total_seconds()) if min_time is not None else None,
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
    record(
        tx, actor, game, "create_game", ruleset=name, title=title, timezone=zone, deadlines=schedule
    )
    return Outcome(
        "game_created",
        {
            "game": game_code(game),
            "deadlines": partial(schedule_text, schedule, clock=True),
            "timezone": zone,
        },
        game_id=game.id,
    )


def add_team(tx: Tx, actor: Actor, game_id: int | None, side: str, name: str) -> Outcome:
    game = locked_game(tx, actor, game_id, "setup")
    assert game.id is not None
    name = name.strip()
    if not name:
        raise ServiceError("usage", usage="/addteam left|right NAME")
    team = repo.teams(tx.s, game.id).get(side_of(side)) or Team(
        game_id=game.id, side=side, name=name
    )
    team.name = name
    tx.s.add(team)
    record(tx, actor, game, "add_team", side=side, name=name)
    return Outcome(
        "team_added", {"game": game_code(game), "side": _side(side), "name": name}, game_id=game.id
    )


def add_player(tx: Tx, actor: Actor, game_id: int | None, side: str, name: str) -> Outcome:
    game = locked_game(tx, actor, game_id, "setup")
    assert game.id is not None
    name = name.strip()
    if not name:
        raise ServiceError("usage", usage="/addplayer left|right NAME")
    existing = repo.players(tx.s, game.id, side_of(side))
    number = len(existing) + 1
    tx.s.add(Player(game_id=game.id, side=side, number=number, name=name))
    record(tx, actor, game, "add_player", side=side, number=number, name=name)
    return Outcome(
        "player_added",
        {"game": game_code(game), "side": _side(side), "number": number, "name": name},
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
    username: str | None = None,
    ttl: timedelta | None = None,
) -> Outcome:
    """An invitation code for one person (see :mod:`bot.service.handlers.invitations`)."""
    return invitations.create(
        tx, actor, game_id, role=role, side=side, players=players, dragon=dragon, email=email,
        username=username, ttl=ttl,
    )  # fmt: skip


def start(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = locked_game(tx, actor, game_id, "setup")
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
            raise ServiceError("need_players", side=_side(side), count=len(names), needed=per_team)
        rosters[side] = names
        reserves = max(reserves, len(names) - per_team)
    seed = new_seed(tx.settings.seed_source, f"game{game.id}/setup")
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
        tx, game, state, deadline=rounds.deadline_after(game, tx.now + rounds.min_time(tx, game))
    )
    record(tx, actor, game, "start", setup_seed=seed)
    told = tell(
        tx,
        actor,
        game,
        "game_started",
        left=team_rows["left"].name,
        right=team_rows["right"].name,
        setup_seed=seed,
    )
    rounds.announce_round_open(tx, game, rnd)
    return Outcome(
        "game_started_gm",
        {"game": game_code(game), "deadline": local_time(rnd.deadline, game), "setup_seed": seed},
        game_id=game.id,
        told=told,
    )


def link_team_chat(
    tx: Tx, actor: Actor, game_id: int | None, side: str, chat: str, thread: str | None = None
) -> Outcome:
    game = locked_game(tx, actor, game_id)
    assert game.id is not None
    team = repo.teams(tx.s, game.id).get(side_of(side))
    if team is None:
        raise ServiceError("need_two_teams")
    audience.check_team_chat(tx, game, side, chat)
    team.chat, team.thread = chat, thread
    tx.s.add(team)
    record(tx, actor, game, "link_team_chat", side=side, chat=chat, thread=thread)
    # Said in the group itself (once: if the master wrote there, his answer is it);
    # the team's members who read privately learn where their team now talks.
    group = [d for d in notify.game_destinations(tx, game) if d.key == ("telegram", chat)]
    params = {"team": team.name, "game": game_code(game)}
    told = tell(tx, actor, game, "team_chat_linked", to=group, **params)
    return Outcome("team_chat_linked", params, game_id=game.id, told=told)


def set_channel(
    tx: Tx, actor: Actor, game_id: int | None, chat: str | None, thread: str | None = None
) -> Outcome:
    game = locked_game(tx, actor, game_id)
    game.channel_chat, game.channel_thread = chat or None, thread
    tx.s.add(game)
    record(tx, actor, game, "set_channel", chat=chat, thread=thread)
    key = N_("channel_set") if game.channel_chat else N_("channel_off")
    told = tell(tx, actor, game, key, to=notify.public_destinations(game))
    return Outcome(key, {"game": game_code(game)}, game_id=game.id, told=told)


def _side(side: str) -> Callable[[str], str]:
    """The side in words of the reader's language («левые», "left")."""
    return lambda lang: t(SIDE_TEXTS.get(side, "side.left"), lang)
