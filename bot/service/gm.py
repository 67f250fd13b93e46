"""Game-master operations while a match is played (set-up: :mod:`gm_setup`).
Each one checks the actor's right, locks the game, does its work, writes the
referee's log and tells the game about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engine.geometry import Side
from engine.legality import check_orders
from engine.orders import Penalty, RoundOrders, Substitution, TeamWarning
from engine.problems import Code
from storage import repo
from storage.models import Game

from . import notify, rounds
from .context import Actor, ServiceError, Tx, game_code
from .deadlines import ScheduleError, format_schedule, parse_schedule, parse_zone
from .filing import store_order
from .i18n import N_, STATUS_TEXTS, format_time, t

if TYPE_CHECKING:
    from .audience import Shown, View

__all__ = [
    "Outcome",
    "announce",
    "end",
    "extend",
    "is_gm",
    "local_time",
    "locked_game",
    "pause",
    "penalty",
    "record",
    "resolve_now",
    "resume",
    "rollback",
    "set_deadline",
    "side_of",
    "substitute",
    "warn",
]


@dataclass(frozen=True)
class Outcome:
    """A structured answer: an i18n text key with its parameters, plus data."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    status: str = "ok"
    game_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    # What the answer carries besides its text: a reference to pictures drawn
    # when it is delivered (see bot.service.delivery), inline (label, url) buttons.
    pictures: str | None = None
    buttons: tuple[tuple[str, str], ...] = ()
    # Whose secret the answer is (None: the asker's whole view, unless its key is
    # one of audience.PUBLIC_KEYS) and how it reads for fewer (see bot.service.audience).
    secrecy: View | None = None
    shown: Shown | None = None


def is_gm(tx: Tx, actor: Actor, game_id: int | None) -> bool:
    if actor.trusted or actor.global_gm:
        return True
    if actor.member is None or actor.member.id is None or game_id is None:
        return False
    ms = repo.membership(tx.s, actor.member.id, game_id)
    return ms is not None and ms.role == "game_master"


def locked_game(tx: Tx, actor: Actor, game_id: int | None, *statuses: str) -> Game:
    """The game, locked, after checking the actor may run it and its status fits."""
    if game_id is None:
        raise ServiceError("no_game")
    if not is_gm(tx, actor, game_id):
        raise ServiceError("not_gm", status="refused")
    game = repo.lock_game(tx.s, game_id)
    if game is None:
        raise ServiceError("unknown_game", game=game_code(game_id))
    if statuses and game.status not in statuses:
        raise ServiceError(
            "bad_status",
            status_now=lambda lang: t(STATUS_TEXTS.get(game.status, "status_setup"), lang),
            game=game_code(game),
        )
    return game


def record(tx: Tx, actor: Actor, game: Game | None, action: str, **args: Any) -> None:
    clean = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in args.items()}
    repo.log_action(tx.s, game.id if game else None, actor.identity, action, clean, tx.now)


def side_of(side: str | None) -> Side:
    if side == "left":
        return "left"
    if side == "right":
        return "right"
    raise ServiceError("bad_side", side=side or "-")


def set_deadline(
    tx: Tx, actor: Actor, game_id: int | None, schedule: str, timezone: str | None = None
) -> Outcome:
    game = locked_game(tx, actor, game_id, "setup", "running", "paused")
    try:
        times = format_schedule(parse_schedule(schedule))
        zone = timezone or game.timezone
        parse_zone(zone)
    except ScheduleError as exc:
        raise ServiceError("bad_schedule", error=str(exc)) from None
    game.deadlines, game.timezone = times, zone
    tx.s.add(game)
    rnd = rounds.current_round(tx, game)
    params: dict[str, Any] = {"game": game_code(game), "deadlines": times, "timezone": zone}
    if rnd is not None and rnd.status == "open":
        rnd.deadline = rounds.deadline_after(game, tx.now + tx.settings.min_round_time)
        tx.s.add(rnd)
        params["deadline"] = local_time(rnd.deadline, game)
    else:
        params["deadline"] = "-"
    record(tx, actor, game, "set_deadline", deadlines=times, timezone=zone)
    notify.announce(tx, game, "deadline_set", **params)
    return Outcome("deadline_set", params, game_id=game.id)


def pause(tx: Tx, actor: Actor, game_id: int | None, reason: str = "") -> Outcome:
    game = locked_game(tx, actor, game_id, "running")
    game.status = "paused"
    tx.s.add(game)
    record(tx, actor, game, "pause", reason=reason)
    notify.announce(tx, game, "paused", reason=reason or "-")
    return Outcome("paused", {"game": game_code(game), "reason": reason or "-"}, game_id=game.id)


def resume(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = locked_game(tx, actor, game_id, "paused")
    game.status = "running"
    tx.s.add(game)
    rnd = rounds.current_round(tx, game)
    deadline = "-"
    if rnd is not None and rnd.status == "open":
        # A deadline that passed during the pause moves on: nobody expected it to fire.
        if rnd.deadline <= tx.now:
            rnd.deadline = rounds.deadline_after(game, tx.now + tx.settings.min_round_time)
            tx.s.add(rnd)
        deadline = local_time(rnd.deadline, game)
    record(tx, actor, game, "resume")
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
    game = locked_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    new = until if until is not None else rnd.deadline + (by or timedelta(0))
    if new <= tx.now:
        raise ServiceError("deadline_in_past", deadline=local_time(new, game))
    rnd.deadline = new
    tx.s.add(rnd)
    record(tx, actor, game, "extend", deadline=new)
    notify.announce(tx, game, "extended", round=rnd.number, deadline=local_time(new, game))
    return Outcome(
        "extended",
        {"game": game_code(game), "round": rnd.number, "deadline": local_time(new, game)},
        game_id=game.id,
    )


def resolve_now(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = locked_game(tx, actor, game_id, "running", "paused")
    assert game.id is not None
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    record(tx, actor, game, "resolve_now", round=rnd.number)
    notify.announce(tx, game, "resolved_by_gm", round=rnd.number)
    done = rounds.resolve(tx, game.id, force=True)
    assert done is not None  # the game is locked and the round open
    return Outcome(
        "resolved", {"game": game_code(game), "round": done.round_number}, game_id=game.id
    )


def rollback(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = locked_game(tx, actor, game_id, "running", "paused", "ended")
    rnd = rounds.rollback(tx, game)
    record(tx, actor, game, "rollback", round=rnd.number, attempt=rnd.attempt)
    notify.announce(tx, game, "rolled_back", round=rnd.number)
    rounds.announce_round_open(tx, game, rnd)
    return Outcome("rolled_back", {"game": game_code(game), "round": rnd.number}, game_id=game.id)


def warn(tx: Tx, actor: Actor, game_id: int | None, side: str, reason: str = "") -> Outcome:
    game = locked_game(tx, actor, game_id, "running", "paused")
    assert game.id is not None
    which = side_of(side)
    team = repo.teams(tx.s, game.id)[which]
    team.warnings += 1
    tx.s.add(team)
    rnd = rounds.current_round(tx, game)
    if rnd is not None and rnd.status == "open":
        # The engine records the warning with this round (§10): a penalty
        # may then be ordered in the next one.
        store_order(
            tx,
            game,
            TeamWarning(which),
            state=rounds.load_state(tx, rnd),
            ruleset=rounds.ruleset_of(game),
            author=actor.identity,
        )
    record(tx, actor, game, "warn", side=side, reason=reason, round=rnd.number if rnd else None)
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
    game = locked_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    ticks = rounds.ruleset_of(game).ticks_per_round
    if not 1 <= tick <= ticks:
        raise ServiceError("bad_tick", tick=tick, ticks=ticks)
    which = side_of(side)
    team = repo.teams(tx.s, game.id or 0)[which]
    state = rounds.load_state(tx, rnd)
    ruleset = rounds.ruleset_of(game)
    order = Penalty(which, tick)
    problems = check_orders(state, RoundOrders(penalties=(order,)), ruleset)
    if any(p.code is Code.PENALTY_NO_WARNING for p in problems):
        # §10: only in the round after a warning.
        raise ServiceError("penalty_no_warning", team=team.name, round=rnd.number - 1)
    store_order(tx, game, order, state=state, ruleset=ruleset, author=actor.identity)
    record(tx, actor, game, "penalty", side=side, tick=tick, round=rnd.number)
    notify.announce(tx, game, "penalty_ordered", team=team.name, round=rnd.number, tick=tick)
    return Outcome(
        "penalty_ordered",
        {"team": team.name, "round": rnd.number, "tick": tick, "game": game_code(game)},
        game_id=game.id,
    )


def substitute(
    tx: Tx, actor: Actor, game_id: int | None, side: str, out_number: int, in_number: int
) -> Outcome:
    game = locked_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    state = rounds.load_state(tx, rnd)
    which = side_of(side)
    out_p, in_p = state.find_player(which, out_number), state.find_player(which, in_number)
    if out_p is None or in_p is None or in_p.status != "reserve" or out_p.status == "swallowed":
        raise ServiceError("bad_substitution", out=out_number, inn=in_number)
    sub = Substitution(which, out_number, in_number)
    store_order(tx, game, sub, state=state, ruleset=rounds.ruleset_of(game), author=actor.identity)
    record(
        tx, actor, game, "substitute", side=side, out=out_number, inn=in_number, round=rnd.number
    )
    params: dict[str, Any] = {
        "out": out_p.name, "inn": in_p.name, "round": rnd.number, "game": game_code(game),
    }  # fmt: skip
    notify.announce(tx, game, "substituted", **params)
    return Outcome("substituted", params, game_id=game.id)


def end(tx: Tx, actor: Actor, game_id: int | None, reason: str = "") -> Outcome:
    game = locked_game(tx, actor, game_id, "setup", "running", "paused")
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
    record(tx, actor, game, "end", reason=reason)
    notify.announce(
        tx,
        game,
        "ended_by_gm",
        kind="match_end",
        subject_key=N_("subject_match_end"),
        score=score,
        reason=reason or "-",
    )
    return Outcome(
        "ended_by_gm",
        {"game": game_code(game), "score": score, "reason": reason or "-"},
        game_id=game.id,
    )


def announce(tx: Tx, actor: Actor, game_id: int | None, text: str) -> Outcome:
    game = locked_game(tx, actor, game_id)
    if not text.strip():
        raise ServiceError("usage", usage="/announce TEXT")
    record(tx, actor, game, "announce", text=text)
    notify.announce(tx, game, "gm_announcement", text=text.strip())
    return Outcome("announced", {"game": game_code(game)}, game_id=game.id)


def local_time(when: datetime, game: Game) -> Any:
    return lambda lang: format_time(when, game.timezone, lang)
