"""Game-master operations on a match in play: pause, resume, extend, resolve at
once, roll back, warn, penalise, substitute, end, announce.  Each one checks the
actor's right, locks the game, does its work, writes the referee's log and
tells the game about it (the helpers: :mod:`.gm`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from engine.legality import check_orders
from engine.orders import Penalty, RoundOrders, Substitution, TeamWarning
from engine.problems import Code
from storage import repo

from ..kernel import notify
from ..kernel.context import Actor, ServiceError, Tx, game_code
from ..kernel.i18n import N_, t
from ..kernel.outcome import Outcome
from ..orders.filing import store_order
from ..rounds import resolve as rounds
from ..runtime.deadlines import ScheduleError, next_deadline
from .gm import local_time, locked_game, record, side_of, tell

__all__ = [
    "announce",
    "end",
    "extend",
    "pause",
    "penalty",
    "resolve_now",
    "resume",
    "rollback",
    "substitute",
    "warn",
]


def pause(tx: Tx, actor: Actor, game_id: int | None, reason: str = "") -> Outcome:
    game = locked_game(tx, actor, game_id, "running")
    game.status = "paused"
    tx.s.add(game)
    record(tx, actor, game, "pause", reason=reason)
    params = {"game": game_code(game), "reason": _reason(reason)}
    told = tell(tx, actor, game, "paused", **params)
    return Outcome("paused", params, game_id=game.id, told=told)


def _reason(reason: str) -> Any:
    """The reason a game master gave, or words saying he gave none."""
    return reason.strip() or (lambda lang: t("no_reason", lang))


def resume(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = locked_game(tx, actor, game_id, "paused")
    game.status = "running"
    tx.s.add(game)
    rnd = rounds.current_round(tx, game)
    deadline: Any = lambda lang: t("no_open_round_now", lang)  # noqa: E731
    if rnd is not None and rnd.status == "open":
        # A deadline that passed during the pause moves on: nobody expected it to fire.
        if rnd.deadline <= tx.now:
            rnd.deadline = rounds.deadline_after(game, tx.now + rounds.min_time(tx, game))
            tx.s.add(rnd)
        deadline = local_time(rnd.deadline, game)
    record(tx, actor, game, "resume")
    told = tell(tx, actor, game, "resumed", deadline=deadline)
    return Outcome(
        "resumed", {"game": game_code(game), "deadline": deadline}, game_id=game.id, told=told
    )


def extend(
    tx: Tx,
    actor: Actor,
    game_id: int | None,
    *,
    by: timedelta | None = None,
    until: datetime | None = None,
    clock: str | None = None,
) -> Outcome:
    """Move the open round's deadline later: by a span, to a moment, or to a time
    of day (``clock``, "13:00": the first such time after the current deadline).
    Never earlier: that is /deadline's business, and it is refused here."""
    game = locked_game(tx, actor, game_id, "running", "paused")
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    old = rnd.deadline
    if clock is not None:
        try:
            new = next_deadline(old, game.timezone, clock)
        except ScheduleError as exc:
            raise ServiceError("bad_schedule", error=str(exc)) from None
    else:
        new = until if until is not None else old + (by or timedelta(0))
    if new <= old:
        raise ServiceError(
            "extend_earlier", deadline=local_time(old, game), asked=local_time(new, game)
        )
    rnd.deadline = new
    tx.s.add(rnd)
    record(tx, actor, game, "extend", deadline=new, before=old)
    params = {
        "game": game_code(game), "round": rnd.number, "deadline": local_time(new, game),
        "before": local_time(old, game),
    }  # fmt: skip
    told = tell(tx, actor, game, "extended", **params)
    return Outcome("extended", params, game_id=game.id, told=told)


def resolve_now(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    game = locked_game(tx, actor, game_id, "running", "paused")
    assert game.id is not None
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    record(tx, actor, game, "resolve_now", round=rnd.number)
    told = tell(tx, actor, game, "resolved_by_gm", round=rnd.number)
    done = rounds.resolve(tx, game.id, force=True)
    assert done is not None  # the game is locked and the round open
    return Outcome(
        "resolved", {"game": game_code(game), "round": done.round_number}, game_id=game.id,
        told=told,
    )  # fmt: skip


def rollback(
    tx: Tx,
    actor: Actor,
    game_id: int | None,
    *,
    by: timedelta | None = None,
    clock: str | None = None,
) -> Outcome:
    """Undo the last resolved round and play it again: at once (the default), or
    with a deadline the game master names (a span from now or a time of day),
    so that teams may change their orders first."""
    game = locked_game(tx, actor, game_id, "running", "paused", "ended")
    assert game.id is not None
    undone = rounds.rollback(tx, game)
    rnd = undone.round
    record(
        tx, actor, game, "rollback", round=rnd.number, attempt=rnd.attempt,
        dropped=undone.dropped, now=by is None and clock is None,
    )  # fmt: skip
    if undone.dropped:
        # Orders already given for the round that no longer comes: their teams are told.
        for side in undone.dropped:
            team_dests = [d for d in notify.game_destinations(tx, game) if d.audience == side]
            tell(tx, actor, game, "rollback_orders_dropped", to=team_dests,
                 round=rnd.number + 1)  # fmt: skip
    params: dict[str, Any] = {"game": game_code(game), "round": rnd.number, "attempt": rnd.attempt}
    if by is None and clock is None:
        told = tell(tx, actor, game, "rolled_back_replay", **params)
        if game.status == "running":
            done = rounds.resolve(tx, game.id, force=True)
            assert done is not None
            return Outcome("rolled_back_replayed", params, game_id=game.id, told=told)
        # A paused game is replayed when it resumes, at the round's deadline.
    try:
        if clock is not None:
            rnd.deadline = next_deadline(tx.now, game.timezone, clock)
        elif by is not None:
            rnd.deadline = tx.now + by
    except ScheduleError as exc:
        raise ServiceError("bad_schedule", error=str(exc)) from None
    tx.s.add(rnd)
    params["deadline"] = local_time(rnd.deadline, game)
    told = tell(tx, actor, game, "rolled_back", **params)
    rounds.announce_round_open(tx, game, rnd)
    return Outcome("rolled_back", params, game_id=game.id, told=told)


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
    params: dict[str, Any] = {
        "team": team.name, "count": team.warnings, "reason": _reason(reason),
        "game": game_code(game),
    }  # fmt: skip
    told = tell(tx, actor, game, "warned", **params)
    return Outcome("warned", params, game_id=game.id, told=told)


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
        on_file = repo.current_orders(tx.s, game.id or 0, rnd.number, which)
        if any(row.unit == "warning" for row in on_file):  # warned in this very round
            raise ServiceError(
                "penalty_warned_now", team=team.name, round=rnd.number, next=rnd.number + 1
            )
        raise ServiceError("penalty_no_warning", team=team.name, round=rnd.number - 1)
    store_order(tx, game, order, state=state, ruleset=ruleset, author=actor.identity)
    record(tx, actor, game, "penalty", side=side, tick=tick, round=rnd.number)
    params: dict[str, Any] = {
        "team": team.name,
        "round": rnd.number,
        "tick": tick,
        "game": game_code(game),
    }
    told = tell(tx, actor, game, "penalty_ordered", **params)
    return Outcome("penalty_ordered", params, game_id=game.id, told=told)


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
    told = tell(tx, actor, game, "substituted", **params)
    return Outcome("substituted", params, game_id=game.id, told=told)


def end(tx: Tx, actor: Actor, game_id: int | None, reason: str = "") -> Outcome:
    game = locked_game(tx, actor, game_id, "setup", "running", "paused")
    rnd = rounds.current_round(tx, game)
    state = None
    if rnd is not None:
        state = rounds.load_state(tx, rnd)  # running or paused: the round is open
        if rnd.status == "open":
            rnd.status = "cancelled"
            tx.s.add(rnd)
    game.status = "ended"
    game.ended_at = tx.now
    game.end_reason = "game_master"
    tx.s.add(game)
    record(tx, actor, game, "end", reason=reason)
    params: dict[str, Any] = {"game": game_code(game), "reason": _reason(reason)}
    if state is None:  # never started: nothing was played, nobody but the masters to tell
        told = tell(tx, actor, game, "ended_before_start", to=notify.gm_destinations(tx, game),
                    kind="match_end", subject_key=N_("subject_match_end"), **params)  # fmt: skip
        return Outcome("ended_before_start", params, game_id=game.id, told=told)
    # The summary of a finished match; why it ended is the master's words, above.
    summary = rounds.summary_text(tx, game, replace(state, status="ended", end_reason=None))
    left, right = state.teams
    params.update(left=left.name, right=right.name, score=f"{left.score} : {right.score}",
                  summary=summary)  # fmt: skip
    told = tell(tx, actor, game, "ended_by_gm", kind="match_end",
                subject_key=N_("subject_match_end"), **params)  # fmt: skip
    return Outcome("ended_by_gm", params, game_id=game.id, told=told)


def announce(tx: Tx, actor: Actor, game_id: int | None, text: str) -> Outcome:
    game = locked_game(tx, actor, game_id)
    if not text.strip():
        raise ServiceError("usage", usage="/announce TEXT")
    record(tx, actor, game, "announce", text=text)
    told = tell(tx, actor, game, "gm_announcement", text=text.strip())
    return Outcome("announced", {"game": game_code(game)}, game_id=game.id, told=told)
