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
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, update
from sqlmodel import col, select

from bot.service import FakeClock, GameService, Inbound, RenderReporter, ServiceSettings
from engine.state import MatchState
from storage.db import Database
from storage.models import OutboxRow, Round
from storage.testing import temporary_database

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


async def _set_up(service: GameService, clock: FakeClock, games: int) -> None:
    for n in range(games):
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
        if (n + 1) % 100 == 0:
            print(f"  set up {n + 1} games", flush=True)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--draw", type=int, default=0, help="also time drawing N results' diagrams")
    args = parser.parse_args()
    kinds = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    seconds = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            seconds[kind] = asyncio.run(_run(kind, args.games, args.draw, Path(tmp)))
    figures = [f"games={args.games}"]
    figures += [f"{kind}_s={s:.1f} {kind}_ms_per_game={1000 * s / args.games:.1f}"
                for kind, s in seconds.items()]  # fmt: skip
    print(" ".join([*figures, f"target_s={TARGET_S:.0f}"]))


if __name__ == "__main__":
    main()
