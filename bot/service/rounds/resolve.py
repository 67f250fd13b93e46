"""Rounds: opening one, resolving it exactly once, rolling it back, verifying it.

Resolution is one transaction: lock the game row, check the round is still
open, run the engine with the round's seed, store the tick positions, the
events and the orders it used, open the next round with a fresh seed, queue
the reports, commit.  A second resolver (another process, a redelivered
timer) waits on the lock and then finds the round resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from html import escape

from bot.logging import get_logger
from bot.orderlang.substitutes import effective
from bot.render.material import RoundMaterial
from engine.resolve import resolve_round
from engine.state import MatchState
from storage import repo
from storage.models import Game, Round

from ..kernel import notify
from ..kernel.audience import destination_view
from ..kernel.context import ServiceError, Tx, game_code
from ..kernel.i18n import END_REASON_TEXTS, N_, format_time, t
from ..kernel.ports import Report
from ..runtime.deadlines import next_deadline, schedule_interval
from . import weblinks
from .fairness import commitment, new_seed, result_digest
from .receipts import team_digests
from .replay import replay_url
from .stored import (
    collect_orders,
    current_round,
    descriptions,
    events_of,
    load_state,
    material,
    orders_document,
    round_ruleset,
    ruleset_of,
)
from .verify import verify

__all__ = [
    "Resolution",
    "collect_orders",
    "current_round",
    "deadline_after",
    "html_first",
    "load_state",
    "material",
    "min_time",
    "next_round_deadline",
    "open_round",
    "orders_document",
    "report_failure",
    "resolve",
    "results_footer",
    "rollback",
    "round_ruleset",
    "ruleset_of",
    "summary_text",
    "verify",
]

log = get_logger(__name__)


@dataclass(frozen=True)
class Resolution:
    game_id: int
    round_number: int
    ended: bool
    next_round: int | None
    digest: str


def min_time(tx: Tx, game: Game) -> timedelta:
    """The least time a round opened early gets (a fast game's period, if shorter)."""
    step = schedule_interval(game.deadlines)
    least = tx.settings.min_round_time
    if game.min_round_seconds is not None:  # the game's own (/mintime)
        least = timedelta(seconds=game.min_round_seconds)
    return least if step is None else min(least, step)


def deadline_after(game: Game, base: datetime) -> datetime:
    return next_deadline(base, game.timezone, game.deadlines)


def next_round_deadline(tx: Tx, game: Game, resolved: Round) -> datetime:
    """The deadline of the round that follows ``resolved``: its next scheduled time.

    A round resolved early still gives the next one ``min_time``.  After downtime
    that spanned that next time too, the next round gets a fresh deadline (the first
    scheduled time ``min_time`` from now) instead of one already past: its players
    could not order it before they had the results, and a round played without
    orders makes every player drop his balls (docs/service.md, catch-up)."""
    least = min_time(tx, game)
    if resolved.deadline > tx.now:  # resolved early (everybody /ready, a forced round)
        return deadline_after(game, tx.now + least)
    following = deadline_after(game, resolved.deadline)
    return following if following > tx.now else deadline_after(game, tx.now + least)


def open_round(tx: Tx, game: Game, state: MatchState, *, deadline: datetime) -> Round:
    """A new open round of ``game`` at ``state`` with a fresh seed; it becomes current.
    A number played before (rolled back, or voided by a rollback) gets the next attempt."""
    assert game.id is not None
    attempt = repo.last_attempt(tx.s, game.id, state.round) + 1
    purpose = f"game{game.id}/round{state.round}/attempt{attempt}"
    seed = new_seed(tx.settings.seed_source, purpose)
    rnd = Round(
        game_id=game.id,
        number=state.round,
        attempt=attempt,
        status="open",
        opened_at=tx.now,
        deadline=deadline,
        seed=seed,
        commitment=commitment(seed),
    )
    tx.s.add(rnd)
    tx.s.flush()
    assert rnd.id is not None
    repo.add_snapshot(tx.s, game.id, rnd.id, 0, state.to_json())
    game.current_round_id = rnd.id
    tx.s.add(game)
    return rnd


def announce_round_open(
    tx: Tx, game: Game, rnd: Round, to: list[notify.Destination] | None = None
) -> None:
    notify.announce(
        tx,
        game,
        "round_open",
        to=to,
        kind="round_open",
        subject_key=N_("subject_round_open"),
        round=rnd.number,
        deadline=lambda lang: format_time(rnd.deadline, game.timezone, lang),
        commitment=rnd.commitment,
        extra=weblinks.page_extras(tx, game, rnd),
    )


def resolve(
    tx: Tx, game_id: int, round_id: int | None = None, *, force: bool = False,
    skip_locked: bool = False,
) -> Resolution | None:  # fmt: skip
    """Resolve the game's open round if it is due (or ``force``); None if there is
    nothing to do — in particular when another resolver got there first, or
    (``skip_locked``) holds the game right now."""
    game = repo.lock_game(tx.s, game_id, skip_locked=skip_locked)
    if game is None:
        return None
    rnd = current_round(tx, game)
    if rnd is None or rnd.status != "open" or (round_id is not None and rnd.id != round_id):
        return None
    if not force:
        due = rnd.deadline <= tx.now or rnd.ready == "left,right"
        if game.status != "running" or not due:
            return None
    assert rnd.id is not None
    ruleset = ruleset_of(game)
    before = load_state(tx, rnd)
    # As the sheets showed them: a substitute plays the orders of the player he
    # replaces (bot/orderlang/substitutes.py); the round records what it played.
    orders, _ = effective(before, collect_orders(tx, game_id, rnd.number), ruleset)
    result = resolve_round(before, orders, ruleset, rnd.seed)
    if tx.after_engine is not None:
        tx.after_engine(game_id, rnd.number)
    digest = result_digest(result.state, result.events)
    for i, state in enumerate(result.tick_states, start=1):
        repo.add_snapshot(tx.s, game_id, rnd.id, i, state.to_json())
    repo.add_events(tx.s, game_id, rnd.id, [e.to_json() for e in result.events])
    rnd.status = "resolved"
    rnd.resolved_at = tx.now
    rnd.orders = orders.to_json()
    rnd.result_digest = digest
    rnd.order_digests = team_digests(rnd.orders)
    rnd.ruleset = ruleset.name
    rnd.ruleset_version = ruleset.version
    rnd.ruleset_digest = ruleset.digest
    tx.s.add(rnd)
    material = RoundMaterial(
        before=before,
        after=result.state,
        tick_states=tuple(result.tick_states),
        events=tuple(result.events),
        ruleset=ruleset,
        descriptions=descriptions(orders),
        game=game_code(game),
    )
    dests = notify.game_destinations(tx, game)
    _queue_results(tx, game, rnd, material, dests)
    next_number = None
    if result.state.ended:
        game.status = "ended"
        game.ended_at = tx.now
        game.end_reason = result.state.end_reason
        tx.s.add(game)
        _announce_end(tx, game, result.state, dests)
    else:
        nxt = open_round(tx, game, result.state, deadline=next_round_deadline(tx, game, rnd))
        announce_round_open(tx, game, nxt, dests)
        next_number = nxt.number
    # One INFO line per resolution (no orders, no seed: the results post has them).
    log.info(
        "round resolved", game=game_code(game), round=rnd.number, attempt=rnd.attempt,
        forced=force, ended=result.state.ended, next_round=next_number, digest=digest[:16],
    )  # fmt: skip
    return Resolution(game_id, rnd.number, result.state.ended, next_number, digest)


def _queue_results(
    tx: Tx, game: Game, rnd: Round, material: RoundMaterial, dests: list[notify.Destination]
) -> None:
    reports: dict[tuple[str, str], Report] = {}
    params = {
        "game": game_code(game), "round": rnd.number, "seed": rnd.seed, "digest": rnd.result_digest,
    }  # fmt: skip
    rows = []
    for dest in dests:
        # What each destination may read: bot.service.kernel.audience decides (the
        # referee reads the public story; his pictures show what is hidden).
        seen = destination_view(dest)
        key = (seen.report, dest.lang)
        if key not in reports:
            footer = results_footer(tx, game, rnd, dest.lang)
            reports[key] = tx.reporter.round_report(
                material, audience=seen.report, lang=dest.lang, footer=footer
            )
        report = reports[key]
        mail = dest.channel == "email"
        text = (report.mail_text or report.text) if mail else report.text
        subject = t("subject_results", dest.lang, **params)
        html = report.html
        if rnd.attempt > 1:
            # A replay after a rollback: it says so, above all, and which attempt it is.
            mark = t("results_replay", dest.lang, round=rnd.number, attempt=rnd.attempt)
            text, subject = f"{mark}\n\n{text}", f"{subject} — {mark}"
            html = html_first(html, mark) if mail else html
        # Mail: the HTML with the pictures inline and the plain text with the
        # text diagram, drawn as a set of their own (smaller; docs/email.md).
        pictures = f"{rnd.id}/{seen.picture}/{dest.lang}" + ("/mail" if mail else "")
        rows.append(
            notify.message(
                tx,
                dest,
                "results",
                text,
                game=game,
                subject=subject,
                html=html,
                pictures=pictures,
                buttons=_replay_button(tx, game, rnd, dest),
            )
        )
    notify.queue_all(tx, rows)


def _replay_button(
    tx: Tx, game: Game, rnd: Round, dest: notify.Destination
) -> tuple[tuple[str, str], ...]:
    """The results post links to the round's replay page, where the page is served."""
    url = replay_url(tx, game.id, rnd.number) if game.id is not None else None
    if url is None or dest.channel != "telegram":
        return ()
    return ((t("replay.button", dest.lang), url),)


def results_footer(tx: Tx, game: Game, rnd: Round, lang: str) -> str:
    """The end of a round's report: the receipts of the orders played, the seed
    and the result's digest."""
    params = {
        "game": game_code(game), "round": rnd.number, "seed": rnd.seed, "digest": rnd.result_digest,
    }  # fmt: skip
    return "\n\n".join(
        [
            t("results_orders", lang, digests=_digests_text(tx, game, rnd, lang)),
            t("results_footer", lang, **params),
        ]
    )


def html_first(html: str | None, line: str) -> str | None:
    """The mail's HTML with ``line`` as its first paragraph."""
    if html is None:
        return None
    para = f"<p><b>{escape(line)}</b></p>"
    body = re.search(r"<body\b[^>]*>", html)  # the tag has a style: not just "<body>"
    return f"{html[: body.end()]}{para}{html[body.end() :]}" if body else para + html


def _digests_text(tx: Tx, game: Game, rnd: Round, lang: str) -> str:
    """ "«Саламандры» 3f2a-91c0-77de, «Виверны» …": the receipts to compare with."""
    assert game.id is not None
    names = {side: team.name for side, team in repo.teams(tx.s, game.id).items()}
    digests = rnd.order_digests or {}
    return ", ".join(
        t("receipt_team", lang, team=names.get(side, side), digest=digests[side])
        for side in sorted(digests)
    )


def _announce_end(
    tx: Tx, game: Game, state: MatchState, to: list[notify.Destination] | None = None
) -> None:
    left, right = state.teams
    notify.announce(
        tx,
        game,
        "match_end",
        to=to,
        kind="match_end",
        subject_key=N_("subject_match_end"),
        left=left.name,
        right=right.name,
        score=f"{left.score} : {right.score}",  # as the report's score line
        reason=lambda lang: t(
            END_REASON_TEXTS.get(state.end_reason or "", "end_reason_game_master"), lang
        ),
        summary=summary_text(tx, game, state),
    )


def report_failure(tx: Tx, game_id: int, error: str) -> None:
    """Tell the game masters, once a day, that a game's round cannot be resolved
    (an engine failure; the scheduler keeps trying, the round stays open)."""
    if repo.actions_since(tx.s, "resolution_failed", tx.now - timedelta(days=1), game_id=game_id):
        return
    repo.log_action(tx.s, game_id, "system", "resolution_failed", {"error": error[:500]}, tx.now)
    game = repo.get_game(tx.s, game_id)
    for dest in notify.gm_destinations(tx, game):
        text = t("gm_alert_resolution", dest.lang, game=game_code(game_id), error=error[:500])
        notify.queue(
            tx, dest, "gm_alert", text, game=game, subject=t("subject_gm_alert", dest.lang)
        )


@dataclass(frozen=True)
class Undone:
    """A rolled-back round: its new attempt (open), and the teams whose orders
    for the round after it were dropped (that round will not come as it was)."""

    round: Round
    dropped: tuple[str, ...]


def rollback(tx: Tx, game: Game) -> Undone:
    """Undo the last resolved round: it is kept on record as rolled back, its
    position is restored, and it is played again with a fresh seed (the old
    one is public) and the orders that were current for it."""
    assert game.id is not None
    rnd = current_round(tx, game)
    last = rnd if rnd is not None and rnd.status == "resolved" else None
    if rnd is not None and rnd.status == "open":
        last = repo.resolved_round(tx.s, game.id, rnd.number - 1)
    if last is None or rnd is None:
        raise ServiceError("nothing_to_roll_back")
    dropped: set[str] = set()
    if rnd is not last:
        rnd.status = "void"
        tx.s.add(rnd)
        doomed = repo.current_orders(tx.s, game.id, rnd.number)
        # Warnings and penalties are the masters' own; players' orders are the teams'.
        dropped = {row.side for row in doomed if row.unit in ("player", "dragon", "substitution")}
        repo.supersede(tx.s, doomed, tx.now)
    last.status = "rolled_back"
    tx.s.add(last)
    if game.status == "ended":
        game.status = "running"
        game.ended_at = None
        game.end_reason = None
    before = load_state(tx, last)
    deadline = deadline_after(game, tx.now + min_time(tx, game))
    return Undone(open_round(tx, game, before, deadline=deadline), tuple(sorted(dropped)))


def summary_text(tx: Tx, game: Game, final: MatchState) -> Callable[[str], str]:
    """The match summary (goals, each player's numbers) from every round played."""
    assert game.id is not None
    events = [e for r in repo.resolved_rounds(tx.s, game.id) for e in events_of(tx, r)]
    rules = ruleset_of(game)
    return lambda lang: tx.reporter.summary(events, final, rules, lang=lang)
