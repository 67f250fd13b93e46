"""Game-master operations while a match is played: the helpers every one uses, and
the game's timing (deadlines, least round time, late orders); the match itself:
:mod:`.gm_match`, set-up: :mod:`.gm_setup`.
Each one checks the actor's right, locks the game, does its work, writes the
referee's log and tells the game about it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from engine.geometry import Side
from storage import repo
from storage.models import Game

from ..kernel import notify
from ..kernel.context import Actor, ServiceError, Tx, game_code
from ..kernel.i18n import N_, STATUS_TEXTS, format_time, t, tn
from ..kernel.notify import Destination
from ..kernel.outcome import Outcome
from ..rounds import resolve as rounds
from ..runtime.deadlines import (
    ScheduleError,
    normalize_schedule,
    parse_zone,
    schedule_text,
)

__all__ = [
    "Outcome",
    "is_gm",
    "local_time",
    "locked_game",
    "record",
    "set_deadline",
    "side_of",
    "tell",
    "told_line",
]


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


def _own_keys(tx: Tx, actor: Actor) -> set[tuple[str, str]]:
    """Where the asker reads already: the answer's chat and his own addresses."""
    keys = {tx.answering} if tx.answering is not None else set()
    member = actor.member
    if member is not None:
        if member.telegram_user_id is not None:
            keys.add(("telegram", str(member.telegram_user_id)))
        if member.email:
            keys.add(("email", member.email))
    return keys


def tell(
    tx: Tx,
    actor: Actor,
    game: Game,
    key: str,
    /,
    *,
    to: Iterable[Destination] | None = None,
    kind: str = "announce",
    subject_key: str = N_("subject_announce"),
    **params: Any,
) -> Callable[[str], str]:
    """Announce ``key`` to the game's readers (or ``to``), each once: the asker is
    not among them, he reads the answer.  Returns who was told, in words of a
    language, for the answer (``Outcome.told``)."""
    own = _own_keys(tx, actor)
    dests = [d for d in (notify.game_destinations(tx, game) if to is None else to)
             if d.key not in own]  # fmt: skip
    notify.announce(tx, game, key, to=dests, kind=kind, subject_key=subject_key, **params)
    groups: dict[str, str] = {}
    if game.id is not None:
        groups = {team.chat: team.name for team in repo.teams(tx.s, game.id).values() if team.chat}
    return lambda lang: told_line(dests, groups, lang)


def told_line(dests: list[Destination], groups: dict[str, str], lang: str) -> str:
    """ "Announced to: the game's channel, the group of «Salamanders», 2 members." """
    parts: list[str] = []
    members = masters = 0
    for d in dests:
        if d.audience == "public":
            parts.append(t("told.channel", lang))
        elif d.audience == "gm":
            masters += 1
        elif d.channel == "telegram" and d.address in groups:
            parts.append(t("told.group", lang, team=groups[d.address]))
        else:
            members += 1
    if members:
        parts.append(tn("told.members", members, lang))
    if masters:
        parts.append(tn("told.masters", masters, lang))
    if not parts:
        return t("told_nobody", lang)
    return t("told", lang, whom=", ".join(parts))


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
        times = normalize_schedule(schedule)
        zone = timezone or game.timezone
        parse_zone(zone)
    except ScheduleError as exc:
        raise ServiceError("bad_schedule", error=str(exc)) from None
    game.deadlines, game.timezone = times, zone
    tx.s.add(game)
    rnd = rounds.current_round(tx, game)
    params: dict[str, Any] = {
        "game": game_code(game),
        "deadlines": partial(schedule_text, times, clock=True),
        "timezone": zone,
    }
    record(tx, actor, game, "set_deadline", deadlines=times, timezone=zone)
    if rnd is None or rnd.status != "open":
        # Before the start (or after the end) it concerns the game masters only.
        key = N_("deadline_set_later")
        told = tell(tx, actor, game, key, to=notify.gm_destinations(tx, game), **params)
        return Outcome(key, params, game_id=game.id, told=told)
    rnd.deadline = rounds.deadline_after(game, tx.now + rounds.min_time(tx, game))
    tx.s.add(rnd)
    params["deadline"] = local_time(rnd.deadline, game)
    told = tell(tx, actor, game, "deadline_set", **params)
    return Outcome("deadline_set", params, game_id=game.id, told=told)


def set_min_time(tx: Tx, actor: Actor, game_id: int | None, least: timedelta) -> Outcome:
    """The least time a round opened early has before its deadline (the start,
    a resolution before the deadline, a rollback); a quick match runs on minutes."""
    game = locked_game(tx, actor, game_id, "setup", "running", "paused")
    if not MIN_TIME_RANGE[0] <= least <= MIN_TIME_RANGE[1]:
        raise ServiceError("bad_min_time")
    game.min_round_seconds = int(least.total_seconds())
    tx.s.add(game)
    record(tx, actor, game, "set_min_time", seconds=game.min_round_seconds)
    params: dict[str, Any] = {"game": game_code(game), "least": duration_words(least)}
    told = tell(tx, actor, game, "min_time_set", to=notify.gm_destinations(tx, game), **params)
    return Outcome("min_time_set", params, game_id=game.id, told=told)


MIN_TIME_RANGE = (timedelta(minutes=1), timedelta(days=2))


def duration_words(span: timedelta) -> Callable[[str], str]:
    """ "1 ч 30 мин" / "1 h 30 min", in the reader's words."""
    minutes = int(span.total_seconds()) // 60

    def words(lang: str) -> str:
        days, rest = divmod(minutes, 24 * 60)
        hours, mins = divmod(rest, 60)
        parts = [
            tn("duration.days", days, lang) if days else "",
            tn("duration.hours", hours, lang) if hours else "",
            tn("duration.minutes", mins, lang) if mins else "",
        ]
        return " ".join(p for p in parts if p) or tn("duration.minutes", 0, lang)

    return words


LATE_MODES = {
    "refuse": "refuse", "отказ": "refuse", "no": "refuse", "нет": "refuse",
    "next": "next_round", "next_round": "next_round", "следующий": "next_round",
    "дальше": "next_round",
}  # fmt: skip


_LATE_SET = {"refuse": N_("late_orders_refuse"), "next_round": N_("late_orders_next_round")}


def set_late_orders(tx: Tx, actor: Actor, game_id: int | None, mode: str) -> Outcome:
    """What becomes of an order that reached the judge after its round's deadline
    (and arrives after the results): refused (the default), or filed for the next
    round; the answer says which, always."""
    game = locked_game(tx, actor, game_id, "setup", "running", "paused")
    chosen = LATE_MODES.get(mode.strip().lower())
    if chosen is None:
        raise ServiceError("usage", usage="/lateorders refuse|next")
    game.late_orders = chosen
    tx.s.add(game)
    record(tx, actor, game, "set_late_orders", mode=chosen)
    return Outcome(_LATE_SET[chosen], {"game": f"DB-{game.id}"}, game_id=game.id)


def local_time(when: datetime, game: Game) -> Any:
    zone = game.timezone  # read now: a refusal is written after its transaction ends
    return lambda lang: format_time(when, zone, lang)
