"""Telegram acknowledgement latency: our bot beside a bare PTB echo bot.

The local Bot API server of the tests (``tests/support/fake_telegram.py``)
runs in its own thread and event loop, standing in for Telegram. Players write
order messages; for each message the latency is the time from the update
being handed out by ``getUpdates`` to the bot's answer to it arriving as
``sendMessage`` (both stamped by the server).

1. echo: a bare PTB application whose one handler replies with the text.
2. judge: our runner, the real game service (SQLite in a temporary folder and
   PostgreSQL, each in turn), the outbox worker woken by the service
   whenever it queues something (as in ``bot/app.py``), production flood
   pacing. Every message is a valid order; the answer is the canonical order
   sheet with the deadline.

Two cases, each run against the echo bot and then the judge on each database:

* steady: 500 messages from 50 players at 20 a second (median and p95);
* burst: 300 players ordering in the last minute before a deadline — about 5
  messages a second with three peaks of 30 in one second (p99, and the queue:
  the most messages written but not yet answered at any moment, and how long
  the last answer came after the last message).

Run: ``python benchmarks/telegram_bench.py`` (``--db sqlite|postgresql|both``,
``--case steady|burst|both``; PostgreSQL from ``DRAGONBALL_TEST_POSTGRES_URL``
as in the tests). Targets: the judge's median within 1.5x the echo bot's on
SQLite, 2x on PostgreSQL. The last line gives every figure as ``key=value``
for scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
os.environ.setdefault("PTB_TIMEDELTA", "1")

from pydantic import SecretStr
from support.fake_telegram import FakeTelegram, FakeUser
from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.config import TelegramConfig
from bot.logging import configure_logging
from bot.service import (
    GameService,
    Inbound,
    OutboxWorker,
    RenderReporter,
    Reply,
    ServiceSettings,
    SystemClock,
)
from bot.telegram import TelegramRunner
from engine.ruleset import load_ruleset
from engine.setup import new_match
from storage.testing import temporary_database

T = TypeVar("T")
PLAYERS_PER_TEAM = 5


class ServerThread:
    """The fake Telegram in a thread of its own, like a server elsewhere."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tg = FakeTelegram()

    def __enter__(self) -> ServerThread:
        self.thread.start()
        self.run(self.tg.start())
        return self

    def __exit__(self, *exc: object) -> None:
        self.run(self.tg.stop())
        self.run(self._cancel_rest())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()

    @staticmethod
    async def _cancel_rest() -> None:
        """End what the server left running (long polls cut short by the shutdown)."""
        me = asyncio.current_task()
        rest = [task for task in asyncio.all_tasks() if task is not me]
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def arun(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future: concurrent.futures.Future[T] = asyncio.run_coroutine_threadsafe(
            coroutine, self.loop
        )
        return await asyncio.wrap_future(future)

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        async def inside() -> T:
            return fn(*args)

        return self.run(inside())


async def _inject(
    tg: FakeTelegram, plan: list[tuple[FakeUser, str]], rate: float | list[float]
) -> list[dict[str, Any]]:
    """Inside the server's loop: the players write, one message every 1/rate s
    (or at the given offsets in seconds); each message notes when (``written``,
    monotonic like the server's stamps)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    offsets = rate if isinstance(rate, list) else [i / rate for i in range(len(plan))]
    sent = []
    for (user, text), offset in zip(plan, offsets, strict=True):
        delay = start + offset - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        message = tg.send_text(user, text=text)
        message["written"] = time.monotonic()
        sent.append(message)
    return sent


def burst_offsets(messages: int = 300, seconds: int = 60, peaks: int = 3, peak: int = 30,
                  seed: int = 20) -> list[float]:  # fmt: skip
    """When ``messages`` players write in the last ``seconds`` before a deadline:
    ``peaks`` seconds with ``peak`` messages each, the rest spread evenly at
    random (about 5 a second for the defaults), sorted."""
    rng = random.Random(seed)
    peak = min(peak, messages // (2 * peaks))  # a smaller trial keeps half the messages even
    peak_seconds = [seconds * (k + 1) // (peaks + 1) for k in range(peaks)]
    offsets = [s + rng.random() for s in peak_seconds for _ in range(peak)]
    offsets += [rng.uniform(0, seconds) for _ in range(messages - len(offsets))]
    return sorted(offsets)


class TimedService:
    """The service with the time each ``receive`` starts and ends, per message."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.spans: dict[tuple[int, int], tuple[float, float]] = {}

    async def receive(
        self, msg: Inbound, *, on_stored: Callable[[], object] | None = None
    ) -> Reply:
        start = time.monotonic()
        reply = await self.service.receive(msg, on_stored=on_stored)
        if msg.chat and msg.reply_ref:
            self.spans[(int(msg.chat), int(msg.reply_ref))] = (start, time.monotonic())
        return reply


def _index(tg: FakeTelegram) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], float]]:
    """(chat, message) → its update id, and → when the first answer to it was sent."""
    update_of = {
        (u["message"]["chat"]["id"], u["message"]["message_id"]): u["update_id"]
        for u in tg.world.history
        if "message" in u
    }
    answered: dict[tuple[int, int], float] = {}
    for item in tg.world.sent:
        if item.reply_to is not None:
            answered.setdefault((item.chat_id, item.reply_to), item.at)
    return update_of, answered


def _stages(
    tg: FakeTelegram,
    messages: list[dict[str, Any]],
    spans: dict[tuple[int, int], tuple[float, float]],
) -> dict[str, list[float]]:
    """Per message: getUpdates → handler, the service's receive, queued answer → sent."""
    update_of, answered = _index(tg)
    stages: dict[str, list[float]] = {"to handler": [], "receive": [], "to sent": []}
    for message in messages:
        key = (message["chat"]["id"], message["message_id"])
        start, end = spans[key]
        stages["to handler"].append(start - tg.world.delivered_at[update_of[key]])
        stages["receive"].append(end - start)
        stages["to sent"].append(answered[key] - end)
    return stages


def _latencies(tg: FakeTelegram, messages: list[dict[str, Any]]) -> list[float]:
    """Seconds from getUpdates handing out each message to the answer to it."""
    update_of, answered = _index(tg)
    keys = [(m["chat"]["id"], m["message_id"]) for m in messages]
    return [answered[key] - tg.world.delivered_at[update_of[key]] for key in keys]


def _queue(tg: FakeTelegram, messages: list[dict[str, Any]]) -> tuple[int, float]:
    """The most messages written but not yet answered at any moment, and the
    seconds from the last message written to the last answer sent."""
    _, answered = _index(tg)
    events = [(m["written"], 1) for m in messages]
    events += [(answered[(m["chat"]["id"], m["message_id"])], -1) for m in messages]
    waiting = most = 0
    for _, step in sorted(events):
        waiting += step
        most = max(most, waiting)
    last_written = max(m["written"] for m in messages)
    return most, max(t for t, step in events if step < 0) - last_written


async def _wait_answers(
    server: ServerThread, messages: list[dict[str, Any]], timeout: float
) -> None:
    tg = server.tg
    wanted = {(m["chat"]["id"], m["message_id"]) for m in messages}

    def done() -> bool:
        got = {(s.chat_id, s.reply_to) for s in tg.world.sent if s.reply_to is not None}
        return wanted <= got

    await server.arun(tg.wait_for(done, timeout))


@dataclass
class Run:
    """One bot's figures in one case: latencies, and the queue they built."""

    latencies: list[float]
    queue: int
    drain: float
    stages: dict[str, list[float]] = field(default_factory=dict)


async def bench_echo(users: int, messages: int, rate: float | list[float]) -> Run:
    with ServerThread() as server:
        tg = server.tg
        people = [server.call(tg.user, 5000 + i, f"Игрок {i}") for i in range(users)]

        async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message = update.effective_message
            assert message is not None and message.text is not None
            await message.reply_text(message.text, do_quote=True)

        app = ApplicationBuilder().token(tg.token).base_url(tg.base_url).job_queue(None).build()
        app.add_handler(MessageHandler(filters.TEXT, echo))
        await app.initialize()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(timeout=10)
        try:
            plan = [(people[i % users], f"1: 36 в{i % 3 + 1}") for i in range(messages)]
            sent = await server.arun(_inject(tg, plan, rate))
            await _wait_answers(server, sent, 60)
        finally:
            await app.updater.stop()
            await app.stop()
            await app.shutdown()
        return Run(server.call(_latencies, tg, sent), *server.call(_queue, tg, sent))


async def _setup_games(service: GameService, users: int) -> list[tuple[int, str, int, str]]:
    """Games of 5-a-side teams for ``users`` players: (user index, side, number, code)."""
    seats = []
    games = -(-users // (2 * PLAYERS_PER_TEAM))
    for g in range(games):
        created = await service.create_game(title=f"Bench {g}", players_per_team=PLAYERS_PER_TEAM)
        game_id = created.game_id
        assert game_id is not None, created.text
        for side in ("left", "right"):
            await service.add_team(game_id, side, f"{side}-{g}")
            for n in range(1, PLAYERS_PER_TEAM + 1):
                await service.add_player(game_id, side, f"Игрок{side[0]}{n}")
                invited = await service.invite(game_id, "player", side=side, players=(n,))
                seats.append((len(seats), side, n, str(invited.data["code"])))
        started = await service.start(game_id)
        assert started.status == "ok", started.text
    return seats[:users]


async def bench_judge(
    users: int, messages: int, rate: float | list[float], db_kind: str, folder: Path | None
) -> Run:
    state, _ = new_match(load_ruleset("classic"), "bench", players_per_team=PLAYERS_PER_TEAM)
    with ServerThread() as server, temporary_database(db_kind, folder) as db:
        tg = server.tg
        service = GameService(db, ServiceSettings(), reporter=RenderReporter(pictures=False))
        seats = await _setup_games(service, users)
        config = TelegramConfig(enabled=True, token=SecretStr(tg.token), base_url=tg.base_url)
        timed = TimedService(service)
        runner = TelegramRunner(config, timed)  # production pacing
        worker = OutboxWorker(service, {"telegram": runner.channel}, SystemClock())
        service.listeners.append(worker.wake)  # as bot/app.py does
        stop = asyncio.Event()
        await runner.start()
        delivering = asyncio.create_task(worker.run(stop))
        try:
            people = [server.call(tg.user, 6000 + i, f"Игрок {i}") for i, *_ in seats]
            joins = [(people[i], f"/start {code}") for i, _, _, code in seats]
            joined = await server.arun(_inject(tg, joins, 20.0))
            await _wait_answers(server, joined, 120)
            plan = []
            for i in range(messages):
                index, side, number, _ = seats[i % len(seats)]
                player = state.player(side, number)  # type: ignore[arg-type]
                plan.append((people[index], f"{number}: {player.cell} в{player.height}"))
            sent = await server.arun(_inject(tg, plan, rate))
            await _wait_answers(server, sent, 120)
            accepted = [s.text for s in tg.world.sent if "приказы приняты" in s.text]
            assert len(accepted) >= messages, "some orders were not accepted"
        finally:
            stop.set()
            await delivering
            await runner.stop()
        return Run(
            server.call(_latencies, tg, sent),
            *server.call(_queue, tg, sent),
            stages=server.call(_stages, tg, sent, timed.spans),
        )


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def _summary(name: str, run: Run | list[float]) -> dict[str, float]:
    values = run.latencies if isinstance(run, Run) else run
    ordered = sorted(values)
    row = {
        "median": statistics.median(ordered) * 1000,
        "p95": _percentile(ordered, 0.95) * 1000,
        "p99": _percentile(ordered, 0.99) * 1000,
        "max": ordered[-1] * 1000,
    }
    queue = (
        f"  queue {run.queue:3d}  drain {run.drain * 1000:6.0f} ms" if isinstance(run, Run) else ""
    )
    print(
        f"{name:<22} n={len(values):4d}  median {row['median']:7.1f} ms  p95 {row['p95']:7.1f} ms"
        f"  p99 {row['p99']:7.1f} ms  max {row['max']:7.1f} ms{queue}",
        flush=True,
    )
    if isinstance(run, Run):
        row["queue"], row["drain"] = run.queue, run.drain * 1000
    return row


TARGETS = {"sqlite": 1.5, "postgresql": 2.0}


async def main(args: argparse.Namespace) -> None:
    configure_logging(args.log_level)  # as `dragonball serve` does (default INFO)
    kinds = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    cases: dict[str, tuple[int, int, float | list[float]]] = {}
    if args.case in ("steady", "both"):
        cases["steady"] = (args.players, args.messages, args.rate)
    if args.case in ("burst", "both"):
        cases["burst"] = (args.burst_players, args.burst_players, burst_offsets(args.burst_players))
    figures: dict[str, float] = {}
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    for case, (users, messages, schedule) in cases.items():
        pace = (
            f"at {schedule:g}/s" if isinstance(schedule, float) else "in one minute, peaks of 30/s"
        )
        print(f"{case}: {messages} messages from {users} players {pace}", flush=True)
        echo = _summary("  echo", await bench_echo(users, messages, schedule))
        for key in ("median", "p95", "p99", "queue"):
            figures[f"{case}_echo_{key}"] = echo[key]
        for kind in kinds:
            run = await bench_judge(users, messages, schedule, kind, args.folder)
            ours = _summary(f"  judge, {kind}", run)
            for stage, values in run.stages.items():
                _summary(f"    {stage}", values)
            ratio, p95_ratio = ours["median"] / echo["median"], ours["p95"] / echo["p95"]
            verdict = "within" if ratio <= TARGETS[kind] else "NOT within"
            print(
                f"  {kind}: judge/echo median ratio {ratio:.2f} ({verdict} the "
                f"{TARGETS[kind]:g}x target); p95 ratio {p95_ratio:.2f}",
                flush=True,
            )
            for key in ("median", "p95", "p99", "queue", "drain"):
                figures[f"{case}_{kind}_{key}"] = ours[key]
            figures[f"{case}_{kind}_ratio"] = ratio
            figures[f"{case}_{kind}_p95_ratio"] = p95_ratio
    figures["load"] = os.getloadavg()[0]
    print(
        " ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items())
    )


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--rate", type=float, default=20.0, help="messages a second, all players")
    parser.add_argument("--burst-players", type=int, default=300)
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--case", choices=("steady", "burst", "both"), default="both")
    parser.add_argument("--folder", type=Path, default=None, help="where the SQLite file goes")
    parser.add_argument("--log-level", default="INFO", help="as logging.level of the judge")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(_parse()))
