"""Deadline throughput: many games whose deadlines fall in the same minute.

Sets up ``--games`` running games (default 1000), each with a linked chat per
team, a public channel and a full order sheet (every player, every tick, and
both dragons), all due at the same deadline.  Then, timed: one
``GameService.resolve_due`` at the deadline, until every round is resolved,
the next one opened and the results and round-open messages are in the
outbox (one transaction per game, as in production).  Checked afterwards:
every game resolved once, eight messages queued per game.

Diagrams are drawn when a result is first delivered, not at the deadline;
``--draw N`` times that drawing for N rounds for comparison.  Set-up
messages (game started, round 1 open) are marked delivered before the
deadline, as they would long have been.

Run: ``python benchmarks/deadline_bench.py [--db sqlite|postgresql|both] [--games N]``
(PostgreSQL: the local test server, a throw-away schema).  Target: under 60 s
for 1000 games on PostgreSQL.

**Several processes** (``--processes 1,2,4``, PostgreSQL): the games are set
up once in a throw-away database — ``--seed-games`` of them (default 500) by
the service itself, in two set-up processes, the rest as copies of those made
in SQL (new ids, their own chats and message ids: setting up 10,000 games
through the service would take longer than resolving them) —, the database is
copied afresh for each count (``CREATE DATABASE … TEMPLATE``), and that many resolver
processes — each a judge's deadline scheduler at the deadline, as several
``dragonball serve`` run it — are started together and clear the minute
between them (row locks and ``SKIP LOCKED``, bot/service/service.py).
Checked: every game resolved exactly once.  With ``--window S`` each count
resolves for S seconds only and the time to clear is the rate's (said so).  Printed per count: games resolved
a second, the time to clear the minute, and what each process did; the last
line has them all for a script::

    python benchmarks/deadline_bench.py --db postgresql --games 10000 --processes 1,2,4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, text, update
from sqlalchemy.engine import make_url
from sqlmodel import col, select

from bot.service import FakeClock, GameService, Inbound, RenderReporter, ServiceSettings
from bot.service.runtime.sharedmarks import SharedMarks
from engine.state import MatchState
from storage.db import Database
from storage.models import OutboxRow, Round
from storage.schema import upgrade
from storage.testing import POSTGRES_URL, temporary_database

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # 15:00 in Moscow
DEADLINE = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)  # 21:00 in Moscow
TARGET_S = 60.0


def _sheet(state: MatchState) -> str:
    """Both teams' orders for the whole round, as a game master writes them."""
    lines = []
    for side in ("left", "right"):
        lines.append(f"Команда {side}")
        for tick in (1, 2, 3):
            lines.append(f"Такт {tick}")
            for p in state.team_players(side):
                if p.on_field:
                    lines.append(f"{p.name}: {p.cell} в{p.height} // держим строй")
            lines.append("Дракон: стоять")
    return "\n".join(lines)


async def _set_up(service: GameService, clock: FakeClock, games: int, *, first: int = 0) -> None:
    for n in range(first, first + games):
        reply = await service.create_game(title=f"bench {n}")
        game_id = reply.game_id
        assert game_id is not None, reply.text
        await service.add_team(game_id, "left", "Саламандры")
        await service.add_team(game_id, "right", "Виверны")
        await service.link_team_chat(game_id, "left", f"-100{2 * n}")
        await service.link_team_chat(game_id, "right", f"-100{2 * n + 1}")
        assert (await service.start(game_id)).status == "ok"

        position = await service.position(game_id)
        assert position is not None
        sheet = _sheet(position)
        reply = await service.receive(
            Inbound("cli", f"bench-{n}", "operator", sheet, sheet.encode(), clock.now(),
                    game_hint=f"DB-{game_id}")
        )  # fmt: skip
        assert reply.status == "ok", reply.text
        if (n + 1 - first) % 500 == 0:
            print(f"  set up {n + 1 - first} games", file=sys.stderr, flush=True)


def _counts(db: Database) -> tuple[int, int, int]:
    with db.transaction() as s:
        resolved = s.exec(select(func.count()).where(Round.status == "resolved")).one()
        opened = s.exec(select(func.count()).where(Round.status == "open")).one()
        queued = s.exec(
            select(func.count()).where(
                col(OutboxRow.kind).in_(("results", "round_open")), OutboxRow.state == "pending"
            )
        ).one()
    return resolved, opened, queued


def _sent_before(db: Database) -> None:
    """What was queued before the deadline counts as delivered long ago."""
    with db.transaction() as s:
        s.execute(update(OutboxRow).where(col(OutboxRow.state) == "pending").values(state="sent"))


async def _draw(service: GameService, db: Database, rounds: int) -> float:
    """Seconds a round to draw the diagrams of its results (public and referee's
    view), as the outbox worker does when it first claims them."""
    start = time.perf_counter()
    done: set[str] = set()
    while len(done) < 2 * rounds:
        items = await service.pending_outbox("telegram", 8)
        for item in items:
            await service.mark_sent(item.id)
        with db.transaction() as s:
            ids = [i.id for i in items if i.kind == "results"]
            done |= {
                r.pictures or ""
                for r in s.exec(select(OutboxRow).where(col(OutboxRow.id).in_(ids)))
            }
    return (time.perf_counter() - start) / rounds


async def _run(kind: str, games: int, draw: int, folder: Path) -> float:
    with temporary_database(kind, folder, migrate=True) as db:
        clock = FakeClock(START)
        settings = ServiceSettings(
            gm_telegram_ids=frozenset({100}), channel_chat="@dragonball_bench"
        )
        service = GameService(db, settings, reporter=RenderReporter(), clock=clock)
        print(f"{kind}: setting up {games} games ...", flush=True)
        await _set_up(service, clock, games)
        _sent_before(db)
        await clock.set(DEADLINE + timedelta(seconds=30))
        start = time.perf_counter()
        done = await service.resolve_due()
        elapsed = time.perf_counter() - start
        resolved, opened, queued = _counts(db)
        assert len(done) == resolved == games, (len(done), resolved)
        assert opened == games
        # public channel, two team chats, the game master: results and round-open each
        assert queued == 8 * games, queued
        print(
            f"{kind}: {games} rounds resolved and queued in {elapsed:.1f} s "
            f"({1000 * elapsed / games:.1f} ms a game; target {TARGET_S:.0f} s for 1000)",
            flush=True,
        )
        if draw:
            per_round = await _draw(service, db, draw)
            print(
                f"{kind}: drawing the diagrams at delivery: {per_round:.2f} s a round ({draw} rounds)"
            )
        return elapsed


# ---------------------------------------------------------------- several processes


def _service(url: str, **kw: Any) -> tuple[GameService, FakeClock]:
    clock = FakeClock(START)
    settings = ServiceSettings(gm_telegram_ids=frozenset({100}), channel_chat="@dragonball_bench")
    service = GameService(Database(url), settings, reporter=RenderReporter(), clock=clock, **kw)
    return service, clock


async def _child_setup(url: str, first: int, count: int) -> None:
    service, clock = _service(url)
    await _set_up(service, clock, count, first=first)
    service.db.dispose()


async def _child_resolve(url: str, window: float) -> None:
    """One judge process's resolver at the deadline, as ``serve`` runs it on PostgreSQL
    (for ``window`` seconds only, when it is not 0)."""
    engine_runs = [0]

    def count(_game: int, _number: int) -> None:
        engine_runs[0] += 1

    service, clock = _service(url, after_engine=count)
    # As bot/app.py does with PostgreSQL: skip games another process holds.
    service.shared_marks = SharedMarks(service.db, service.watermarks, f"bench:{os.getpid()}")
    await clock.set(DEADLINE + timedelta(seconds=30))
    await service.next_deadline()  # connected and warm before the start
    print("ready", flush=True)
    sys.stdin.readline()
    began = time.time()
    task = asyncio.ensure_future(service.resolve_due())
    await asyncio.wait({task}, timeout=window or None)
    ended = time.time()
    resolved = len(task.result()) if task.done() else engine_runs[0]
    figures = {"resolved": resolved, "began": began, "ended": ended}
    print(json.dumps(figures), flush=True)
    os._exit(0)  # not waiting for the cut-off pass to end its list


def _child(args: list[str]) -> None:
    if args[0] == "setup":
        asyncio.run(_child_setup(args[1], int(args[2]), int(args[3])))
    else:
        asyncio.run(_child_resolve(args[1], float(args[2])))


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, "--child", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def _admin() -> Any:
    return create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")


def _url_of(name: str) -> str:
    return make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)


# How each copied game's rows differ from its original's: ids moved by a
# multiple of the table's largest id, chats and message ids made unique.
_COPIES = {
    "games": {"id": "id + k * {games}", "current_round_id": "current_round_id + k * {rounds}",
              "title": "title || ' / ' || k"},
    "teams": {"id": "id + k * {teams}", "game_id": "game_id + k * {games}",
              "chat": "chat || '0' || k"},
    "rounds": {"id": "id + k * {rounds}", "game_id": "game_id + k * {games}"},
    "snapshots": {"id": "id + k * {snapshots}", "game_id": "game_id + k * {games}",
                  "round_id": "round_id + k * {rounds}"},
    "inbound": {"id": "id + k * {inbound}", "game_id": "game_id + k * {games}",
                "external_id": "external_id || '/' || k", "game_hint": "'DB-' || (game_id + k * {games})"},
    "orders": {"id": "id + k * {orders}", "game_id": "game_id + k * {games}",
               "message_id": "message_id + k * {inbound}"},
}  # fmt: skip


def _copy_games(db: Database, seeded: int, games: int) -> None:
    """Make ``games`` running games out of the ``seeded`` ones, in SQL."""
    copies = -(-games // seeded) - 1  # the originals count as the first copy
    assert copies >= 1
    with db.connection() as conn:
        top = {t: conn.execute(text(f"SELECT coalesce(max(id), 0) FROM {t}")).scalar() or 0
               for t in _COPIES}  # fmt: skip
        for table, changed in _COPIES.items():
            columns = [c for (c,) in conn.execute(text(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = :t ORDER BY ordinal_position"
            ), {"t": table})]  # fmt: skip
            values = [changed.get(c, c).format(**top) for c in columns]
            # A fresh database numbers the games 1..seeded: the copies beyond
            # ``games`` are cut off by their game's new id.
            game = "id" if table == "games" else "game_id"
            conn.execute(text(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)}"
                f" FROM {table} CROSS JOIN generate_series(1, {copies}) AS k"
                f" WHERE {game} + k * {top['games']} <= {games}"
            ))  # fmt: skip
        for table in _COPIES:
            conn.execute(text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            ))  # fmt: skip


def _set_up_template(name: str, games: int, seeded: int) -> None:
    admin = _admin()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    db = Database(_url_of(name))
    upgrade(db)
    db.dispose()
    seeded = min(seeded, games)
    print(f"postgresql: setting up {seeded} games (2 processes), copied to {games} ...", flush=True)
    half = seeded // 2
    setups = [_spawn("setup", _url_of(name), "0", str(half)),
              _spawn("setup", _url_of(name), str(half), str(seeded - half))]  # fmt: skip
    for child in setups:
        child.communicate()
        assert child.returncode == 0, "a set-up process failed"
    db = Database(_url_of(name))
    _sent_before(db)
    if games > seeded:
        _copy_games(db, seeded, games)
    with db.transaction() as s:
        assert s.exec(select(func.count()).where(Round.status == "open")).one() == games
    db.dispose()


def _resolve_with(
    template: str, run: str, games: int, processes: int, window: float
) -> dict[str, Any]:
    admin = _admin()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{run}" TEMPLATE "{template}"'))
    try:
        children = [_spawn("resolve", _url_of(run), str(window)) for _ in range(processes)]
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        go = time.time()
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        figures = []
        for child in children:
            out, _ = child.communicate()
            assert child.returncode == 0, "a resolver process failed"
            figures.append(json.loads(out.strip().splitlines()[-1]))
        elapsed = max(f["ended"] for f in figures) - go
        db = Database(_url_of(run))
        resolved, opened, queued = _counts(db)
        with db.transaction() as s:
            twice = s.exec(
                select(Round.game_id).where(Round.status == "resolved", Round.number == 1)
                .group_by(col(Round.game_id)).having(func.count() > 1)
            ).all()  # fmt: skip
        db.dispose()
        by_process = [f["resolved"] for f in figures]
        # Each round resolved once: no game has two, and the processes' counts add up.
        assert not twice, twice
        assert opened == games and queued == 8 * resolved, (opened, queued)
        if window:
            # counted when the engine ran; a process cut off in a commit loses that one
            assert resolved <= sum(by_process) <= resolved + processes, (resolved, by_process)
        else:
            assert resolved == games == sum(by_process), (resolved, by_process)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{run}" WITH (FORCE)'))
        admin.dispose()
    rate = resolved / elapsed
    clear = games / rate if window else elapsed
    shares = "/".join(str(n) for n in by_process)
    rates = "/".join(f"{f['resolved'] / (f['ended'] - f['began']):.1f}" for f in figures)
    how = f"at that rate cleared in {clear:.0f} s" if window else f"cleared in {clear:.1f} s"
    print(
        f"postgresql, {processes} process(es): {resolved} of {games} games resolved in "
        f"{elapsed:.1f} s, {rate:.1f} games/s, {how}; per process {shares} games "
        f"({rates} games/s)",
        flush=True,
    )
    return {"clear_s": clear, "games_per_s": rate, "per_process": shares}


def _processes(games: int, counts: list[int], seeded: int, window: float, keep: str | None) -> None:
    stem = f"dragonball_bench_{secrets.token_hex(4)}"
    template = keep or f"{stem}_tpl"
    results: dict[int, dict[str, Any]] = {}
    try:
        if keep is None:
            _set_up_template(template, games, seeded)
        for n in counts:
            results[n] = _resolve_with(template, f"{stem}_run", games, n, window)
    finally:
        if keep is None:
            admin = _admin()
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)'))
            admin.dispose()
    base = results[counts[0]]["games_per_s"]
    fields = [f"games={games}", f"cores={os.cpu_count()}", f"window_s={window:g}"]
    for n, r in results.items():
        fields += [
            f"p{n}_games_per_s={r['games_per_s']:.1f}",
            f"p{n}_clear_s={r['clear_s']:.1f}",
            f"p{n}_per_process={r['per_process']}",
            f"p{n}_speedup={r['games_per_s'] / base:.2f}",
        ]
    print("deadline_bench processes: " + " ".join(fields), flush=True)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--draw", type=int, default=0, help="also time drawing N results' diagrams")
    parser.add_argument(
        "--processes", help="PostgreSQL: resolve with this many processes, e.g. 1,2,4"
    )
    parser.add_argument(
        "--seed-games", type=int, default=500,
        help="with --processes: games set up by the service; the rest are copies of them",
    )  # fmt: skip
    parser.add_argument(
        "--window",
        type=float,
        default=0.0,
        help="with --processes: resolve for this many seconds only, and give the time "
        "to clear at the rate measured (on a busy machine the whole minute takes long)",
    )
    parser.add_argument(
        "--template", help="with --processes: an existing set-up database (kept afterwards)"
    )  # fmt: skip
    args = parser.parse_args()
    if args.processes:
        counts = [int(n) for n in args.processes.split(",")]
        _processes(args.games, counts, args.seed_games, args.window, args.template)
        return
    kinds = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            elapsed = asyncio.run(_run(kind, args.games, args.draw, Path(tmp)))
            figures.append(
                f"{kind}_s={elapsed:.1f} {kind}_ms_per_game={1000 * elapsed / args.games:.1f}"
            )
    print(
        f"deadline_bench: games={args.games} " + " ".join([*figures, f"target_s={TARGET_S:.0f}"]),
        flush=True,
    )


if __name__ == "__main__":
    main()
