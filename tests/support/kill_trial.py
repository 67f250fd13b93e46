"""Kill -9 trials: a match on a fast clock, players ordering by Telegram, and the
judge SIGKILLed at random moments and started again.

The real judge runs as ``dragonball serve`` (:class:`~support.judge_process.JudgeProcess`)
against the local Bot API server of :mod:`support.fake_telegram` in this process,
on a SQLite file.  The game is set up beforehand through a game service of our
own on the same file, with a deadline every ``period`` seconds.  While the
judge is killed (at a random moment: mid-start, mid-receive, mid-resolution,
mid-delivery — whatever it is doing) and restarted, three players keep sending
orders; Telegram holds what nobody reads.  At the end the judge runs until it
has caught up, stops cleanly, and :func:`check` compares the inbound record
with what the players sent and what Telegram delivered:

* every message sent is stored exactly once and worked on (none lost);
* every order filed counts in the round whose deadline was the first after the
  time Telegram stamped it (none misfiled), and is in that round's orders;
* a message refused as late really reached Telegram after the deadline of
  the round it was for, or before its round existed (none wrongly refused);
* every round resolved exactly once, its results delivered to every reader
  (none lost); answers and reports delivered twice are counted — the
  documented at-least-once window — and reported, not failed, unless no
  SIGKILL fell between the two copies (then it is outside the window: a problem).

The last judge is waited for as long as it gets on with its work (the players
send faster than Telegram lets a chat be answered, so it starts with a backlog);
every answer or report still undelivered at the check is listed with its outbox
row (:attr:`TrialReport.undelivered`).

Used by ``tests/reliability/test_kill_trials.py`` (a few trials) and
``benchmarks/kill_trials.py`` (100).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

from sqlmodel import select

from bot.service import FakeClock, Inbound
from storage.db import Database
from storage.models import Game, InboundMessage, OrderRow, OutboxRow, Round
from support.fake_telegram import FakeTelegram
from support.fake_telegram_world import FakeUser, SentMessage
from support.judge_process import JudgeProcess
from support.service_table import GM, Table, make_table, orders_text

__all__ = ["Sent", "TrialReport", "check", "run_trials"]

# Who orders what: the left captain his whole team, a left player his number 2,
# the right captain his whole team.
PLAYERS: tuple[tuple[int, str, list[int] | None], ...] = (
    (201, "left", None),
    (202, "left", [2]),
    (301, "right", None),
)


@dataclass(frozen=True)
class Sent:
    user: int
    message_id: int
    date: int  # Telegram's time stamp, whole seconds

    @property
    def external_id(self) -> str:
        return f"{self.user}:{self.message_id}"


@dataclass
class TrialReport:
    trials: int
    period: int
    sent: list[Sent] = field(default_factory=list)
    figures: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    details: str = ""  # when something failed: the rounds and the judge's log
    # Every answer or report not delivered when the check ran: its outbox row as it
    # stood (state, claim, attempts, next attempt, last error), or that it had none.
    undelivered: list[str] = field(default_factory=list)
    kills: list[float] = field(default_factory=list)  # time.monotonic() of each SIGKILL
    backlog: int = 0  # outbox rows undelivered when the last judge started
    final_run_s: float = 0.0  # from its start until everything was delivered

    def line(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.figures.items())


async def _set_up(db: Database, period: int) -> Table:
    """A running game (captains 201, 301, player 202) with a deadline every ``period`` s."""
    table = make_table(db, FakeClock(datetime.now(UTC)))
    n = 0

    async def say(user: int, text: str) -> Any:
        nonlocal n
        n += 1
        reply = await table.service.receive(
            Inbound("telegram", f"setup:{n}", str(user), text, text.encode(),
                    table.clock.now(), chat=str(user))
        )  # fmt: skip
        assert reply.status == "ok", (text, reply.text)
        return reply

    reply = await say(GM, "/newgame Проверка на прочность")
    table.game_id = reply.game_id
    await say(GM, "/addteam left Саламандры")
    await say(GM, "/addteam right Виверны")
    for user, invitation in (
        (201, "/invite captain left"),
        (202, "/invite player left 2"),
        (301, "/invite captain right"),
    ):
        code = (await say(GM, invitation)).data["code"]
        await say(user, f"/start {code}")
    await say(GM, "/startgame")
    await table.clock.set(datetime.now(UTC))  # the deadlines count from now
    await say(GM, f"/deadline every {period}s")
    return table


def _judge(tg: FakeTelegram, folder: Path, level: str = "WARNING") -> JudgeProcess:
    return JudgeProcess(
        folder,
        {
            "database": {"url": f"sqlite:///{folder / 'judge.db'}"},
            "game_masters": {"telegram_ids": [GM]},
            "telegram": {"enabled": True, "token": tg.token, "base_url": tg.base_url},
            "logging": {"level": level},
        },
    )


async def _players(tg: FakeTelegram, users: dict[int, FakeUser], table: Table, sent: list[Sent],
                   stop: asyncio.Event, rng: random.Random) -> None:  # fmt: skip
    while not stop.is_set():
        uid, side, numbers = rng.choice(PLAYERS)
        try:
            text = orders_text(table.state(), side, numbers)
        except Exception:  # the database is busy a moment: order again shortly
            text = orders_text(table.state(), side, numbers)
        message = tg.send_text(users[uid], text=text)
        sent.append(Sent(uid, int(message["message_id"]), int(message["date"])))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), rng.uniform(0.2, 0.9))


async def _start(judge: JudgeProcess, tg: FakeTelegram) -> None:
    """Start the judge and wait until it polls Telegram (its imports take seconds)."""
    calls = len(tg.calls_of("getUpdates"))
    judge.start()
    await tg.wait_for(lambda: len(tg.calls_of("getUpdates")) > calls, timeout=120)


def _settled(db: Database, sent: list[Sent], game_id: int) -> bool:
    now = datetime.now(UTC)
    with db.transaction() as s:
        rows = {r.external_id: r.status for r in s.exec(select(InboundMessage))}
        # Due, or claimed (being sent); a retry a minute or more away is not waited for.
        soon = now + timedelta(seconds=60)
        pending = [
            r for r in s.exec(select(OutboxRow).where(OutboxRow.state == "pending"))
            if r.claimed_by is not None or r.next_try_at.replace(tzinfo=UTC) <= soon
        ]  # fmt: skip
    stored = all(rows.get(m.external_id) not in (None, "received") for m in sent)
    return stored and not pending and not _overdue(db, game_id, timedelta(0))


def _backlog(db: Database) -> int:
    """Outbox rows not delivered yet."""
    with db.transaction() as s:
        return len(list(s.exec(select(OutboxRow.id).where(OutboxRow.state == "pending"))))


def _work_done(db: Database) -> tuple[int, int]:
    """What the judge has done so far: messages worked on, outbox rows settled."""
    with db.transaction() as s:
        worked = s.exec(select(InboundMessage.id).where(InboundMessage.status != "received"))
        settled = s.exec(select(OutboxRow.id).where(OutboxRow.state != "pending"))
        return len(list(worked)), len(list(settled))


def _paused(db: Database, game_id: int) -> bool:
    with db.transaction() as s:
        game = s.get(Game, game_id)
        return game is None or game.status != "running"  # or the match ended first


async def _wait_working(
    report: TrialReport, judge: JudgeProcess, db: Database, what: str,
    done: Callable[[], bool], *, stall: float = 300.0,
) -> None:  # fmt: skip
    """Wait until ``done()``, as long as the judge gets on with its work: a backlog
    paced at a message a second per chat may take long, but a judge that settles
    nothing for ``stall`` seconds is stuck (recorded as a problem, not waited for)."""
    seen, moved = _work_done(db), time.monotonic()
    while not done():
        assert judge.running, judge.log_text()[-3000:]
        now_done = _work_done(db)
        if now_done != seen:
            seen, moved = now_done, time.monotonic()
        elif time.monotonic() - moved > stall:
            report.problems.append(f"the judge did nothing for {stall:.0f} s ({what})")
            return
        await asyncio.sleep(0.3)


def _overdue(db: Database, game_id: int, by: timedelta) -> bool:
    """A round of the running game whose deadline passed more than ``by`` ago."""
    now = datetime.now(UTC)
    with db.transaction() as s:
        game = s.get(Game, game_id)
        if game is None or game.status != "running":
            return False
        rounds = s.exec(select(Round).where(Round.game_id == game_id, Round.status == "open"))
        return any(r.deadline.replace(tzinfo=UTC) < now - by for r in rounds)


async def run_trials(
    folder: Path, trials: int, *, seed: int = 1, period: int | None = None,
    log: Any = None, log_level: str = "WARNING",
) -> TrialReport:  # fmt: skip
    """Play a match with ``trials`` SIGKILLs of the judge; returns the figures and problems."""
    rng = random.Random(seed)
    period = period or max(5, trials * 7 // 25)  # about 25 rounds however many trials
    report = TrialReport(trials, period)
    async with FakeTelegram() as tg:
        judge = _judge(tg, folder, log_level)
        judge.upgrade()
        db = Database(f"sqlite:///{folder / 'judge.db'}")
        users = {uid: tg.user(uid, f"Игрок {uid}") for uid, _, _ in PLAYERS}
        users[GM] = tg.user(GM, "Судья")
        tg.world.started.update(users)  # they have written to the bot before
        try:
            table = await _set_up(db, period)
            stop = asyncio.Event()
            players = asyncio.create_task(_players(tg, users, table, report.sent, stop, rng))
            try:
                for i in range(trials):
                    # Killed at a random moment: mid-start (catching up), or once it
                    # polls: mid-receive, mid-resolution, mid-delivery, whatever it does.
                    if rng.random() < 0.2:
                        judge.start()
                        await asyncio.sleep(rng.uniform(0.5, 3.0))
                    else:
                        await _start(judge, tg)
                        await asyncio.sleep(rng.uniform(0.0, 6.0))
                    judge.kill()
                    report.kills.append(time.monotonic())
                    if log is not None:
                        log(f"trial {i + 1}/{trials}: killed, {len(report.sent)} messages sent")
                    await asyncio.sleep(rng.uniform(0.0, 1.5))
                await _start(judge, tg)
                await asyncio.sleep(rng.uniform(1.0, 3.0))
            finally:
                stop.set()
                await players
            final = time.monotonic()
            report.backlog = _backlog(db)
            # Once the judge has caught up (every update confirmed, no round overdue),
            # the game master pauses the match, so that it can finish everything
            # without new rounds coming due meanwhile.
            await _wait_working(
                report, judge, db, "catch up",
                lambda: not tg.world.updates and not _overdue(db, table.game_id, timedelta(seconds=3)),
            )  # fmt: skip
            tg.send_text(users[GM], text="/pause")
            await _wait_working(report, judge, db, "pause", lambda: _paused(db, table.game_id))
            await _wait_working(
                report, judge, db, "deliver", lambda: _settled(db, report.sent, table.game_id)
            )
            report.final_run_s = time.monotonic() - final
            await asyncio.sleep(1.0)  # answers handed to Telegram and marked
            judge.stop()
            check(report, db, tg, table.game_id)
            report.details = _details(db, judge)
        finally:
            judge.kill()
            db.dispose()
    return report


def _details(db: Database, judge: JudgeProcess) -> str:
    with db.transaction() as s:
        rounds = [
            f"round {r.number}/{r.attempt} {r.status} opened {r.opened_at} deadline {r.deadline}"
            f" resolved {r.resolved_at}"
            for r in s.exec(select(Round))
        ]
    return "\n".join([*rounds, judge.log_text()[-6000:]])


def _at(stamp: int) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _outside_window(report: TrialReport, copies: list[SentMessage]) -> bool:
    """Delivered again beyond the at-least-once window: a copy after the first
    with no SIGKILL between (the window is a judge killed after Telegram took
    the message, before it was marked sent)."""
    times = sorted(c.at for c in copies)
    return any(not any(a <= k <= b for k in report.kills) for a, b in pairwise(times))


def _outbox_state(r: OutboxRow) -> str:
    return (
        f"outbox {r.id} {r.kind} {r.state} claimed_by={r.claimed_by} attempts={r.attempts}"
        f" next_try_at={r.next_try_at} created_at={r.created_at} sent_at={r.sent_at}"
        f" last_error={r.last_error!r}"
    )


def check(report: TrialReport, db: Database, tg: FakeTelegram, game_id: int) -> None:
    """Compare the inbound record with what was sent and delivered (see the module doc)."""
    problems = report.problems
    with db.transaction() as s:
        inbound = [r for r in s.exec(select(InboundMessage)) if r.channel == "telegram"]
        rounds = list(s.exec(select(Round).where(Round.game_id == game_id)))
        orders = list(s.exec(select(OrderRow).where(OrderRow.game_id == game_id)))
        outbox = list(s.exec(select(OutboxRow)))
    by_external = Counter(r.external_id for r in inbound)
    rows = {r.external_id: r for r in inbound}
    played = [r for r in rounds if r.status == "resolved"]
    resolved_twice = [n for n, c in Counter(r.number for r in played).items() if c > 1]
    live = {r.number: r for r in rounds if r.status in ("resolved", "open")}
    deadline = {n: _aware(r.deadline) for n, r in live.items()}
    opened = {n: _aware(r.opened_at) for n, r in live.items()}
    filed: dict[int, set[int]] = {}
    for o in orders:
        if o.message_id is not None:
            filed.setdefault(o.message_id, set()).add(o.round_number)
    lost = misfiled = refused_in_time = not_in_round = counted = late = 0
    answers_lost = answers_twice = twice_unexplained = 0
    acks: dict[tuple[str, str], list[OutboxRow]] = {}
    for r in outbox:
        if r.reply_ref is not None:
            acks.setdefault((r.destination, r.reply_ref), []).append(r)
    for m in report.sent:
        if by_external[m.external_id] != 1:
            lost += 1
            problems.append(f"message {m.external_id} stored {by_external[m.external_id]} times")
            continue
        row = rows[m.external_id]
        if row.status in ("received", "error"):
            lost += 1
            problems.append(f"message {m.external_id} left {row.status}")
            continue
        stamp = _at(m.date)
        replies = [r for r in tg.sent_to(m.user) if r.reply_to == m.message_id]
        if row.status != "ignored":
            answers_lost += not replies
            answers_twice += len(replies) > 1
            if _outside_window(report, replies):
                twice_unexplained += 1
                problems.append(f"message {m.external_id} answered twice with no kill between")
            if not replies:
                problems.append(f"message {m.external_id} ({row.status}) never answered")
                rows_of = acks.get((str(m.user), str(m.message_id)), [])
                report.undelivered.append(
                    f"answer to {m.external_id} ({row.status}): "
                    + ("; ".join(_outbox_state(r) for r in rows_of) or "no outbox row")
                )
        assert row.id is not None
        numbers = filed.get(row.id, set())
        # The round it was for: open when it reached Telegram (opened before that
        # second began), its deadline still ahead.
        due = [n for n in live if opened[n] <= stamp < deadline[n]]
        for number in numbers:
            earlier = deadline.get(number - 1)
            # A round still open at the end was never played (the game master
            # paused the match first): orders after its deadline may still count.
            in_time = stamp < deadline[number] or live[number].status == "open"
            if not (in_time and (earlier is None or earlier <= stamp)):
                misfiled += 1
                problems.append(f"message {m.external_id} at {stamp} filed for round {number}")
                continue
            counted += 1
            rnd = live[number]
            if rnd.status == "resolved":
                played_orders = rnd.orders or {}
                pieces = {
                    (p["side"], p["number"]) for p in played_orders.get("players", [])
                }  # fmt: skip
                mine = {(o.side, o.number) for o in orders if o.message_id == row.id}
                if not mine <= pieces:
                    not_in_round += 1
                    problems.append(f"message {m.external_id}: round {number} played without it")
        text = replies[0].text if replies else ""
        if not numbers and ("истёк" in text or "разыгран" in text):
            late += 1
            if due:
                refused_in_time += 1
                problems.append(f"message {m.external_id} at {stamp} refused as late: {text!r}")
    results = [r for r in outbox if r.kind == "results"]
    results_lost = results_twice = 0
    copies: Counter[tuple[str, str]] = Counter()
    for r in results:
        first = r.text.splitlines()[0] if r.text else ""
        delivered = [m for m in tg.sent_to(int(r.destination)) if first and first in m.text]
        n = len(delivered)
        if _outside_window(report, delivered):
            twice_unexplained += 1
            problems.append(
                f"results {r.id} to {r.destination} delivered twice with no kill between"
            )
        copies[(r.destination, first)] = n
        if r.state != "sent" or n == 0:
            results_lost += 1
            problems.append(f"results {r.id} to {r.destination}: {r.state}, {n} delivered")
            report.undelivered.append(f"results: {_outbox_state(r)}, {n} delivered")
        results_twice += n > 1
    if resolved_twice:
        problems.append(f"rounds resolved twice: {resolved_twice}")
    report.figures = {
        "trials": report.trials,
        "period_s": report.period,
        "messages_sent": len(report.sent),
        "stored": sum(1 for m in report.sent if by_external[m.external_id] == 1),
        "lost": lost,
        "orders_counted": counted,
        "misfiled": misfiled,
        "refused_late": late,
        "refused_in_time": refused_in_time,
        "played_without": not_in_round,
        "rounds_resolved": len(played),
        "resolved_twice": len(resolved_twice),
        "reports": len(results),
        "reports_lost": results_lost,
        "reports_twice": results_twice,
        "answers_lost": answers_lost,
        "answers_twice": answers_twice,
        "twice_without_kill": twice_unexplained,
        "outbox_given_up": sum(1 for r in outbox if r.state == "failed"),
        "outbox_max_attempts": max((r.attempts for r in outbox), default=0),
        "backlog_at_last_start": report.backlog,
        "last_run_s": round(report.final_run_s),
    }
