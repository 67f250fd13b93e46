"""End-to-end harness: the real game service on SQLite, the real PTB bot, the local Bot API.

A :class:`Judge` runs the service, the Telegram runner and the outbox worker
in the test's event loop; the test plays the people through the fake
Telegram (``judge.say(user, text)``) and reads what the bot sent.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from sqlmodel import select

from bot.config import TelegramConfig
from bot.service import GameService, OutboxWorker, RenderReporter, ServiceSettings
from bot.telegram import FloodLimits, TelegramRunner, conflict_alert
from engine.ruleset import load_ruleset
from engine.setup import new_match
from storage.models import OutboxRow
from storage.testing import temporary_database
from support.fake_telegram import FakeChat, FakeTelegram, FakeUser, SentMessage

__all__ = ["GM_ID", "Judge", "Match", "ShiftedClock", "judge", "start_cell"]

GM_ID = 7


def start_cell(side: str, number: int, players: int = 2) -> tuple[int, int]:
    """(cell, height) of a player at the start of a match (the opening position is fixed)."""
    state, _ = new_match(load_ruleset("classic"), "any", players_per_team=players)
    player = next(p for p in state.players if p.side == side and p.number == number)
    assert player.cell is not None
    return player.cell, player.height


class ShiftedClock:
    """Real time plus an offset the test moves forward (to reach a deadline at once)."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def jump_to(self, when: datetime) -> None:
        self.offset = max(self.offset, when - datetime.now(UTC))


@dataclass
class Match:
    """A running match with two captains, each team in its own group chat."""

    game_id: int
    league: FakeChat
    left: FakeChat
    right: FakeChat
    alice: FakeUser  # left captain
    bob: FakeUser  # right captain


@dataclass
class Judge:
    tg: FakeTelegram
    service: GameService
    runner: TelegramRunner
    worker: OutboxWorker
    gm: FakeUser
    league: FakeChat  # the game channel
    clock: ShiftedClock

    async def say(
        self, user: FakeUser, text: str, chat: FakeChat | None = None, *, timeout: float = 10
    ) -> SentMessage:
        """``user`` writes ``text``; returns the bot's answer to that message."""
        message = self.tg.send_text(user, chat, text)
        return await self.answer_to(message, timeout=timeout)

    async def answer_to(
        self, message: dict[str, Any], *, nth: int = 1, timeout: float = 10
    ) -> SentMessage:
        """The ``nth`` answer of the bot that replies to ``message``."""
        chat_id = message["chat"]["id"]

        def answers() -> list[SentMessage]:
            return [s for s in self.tg.sent_to(chat_id) if s.reply_to == message["message_id"]]

        found = await self.tg.wait_for(lambda: answers() if len(answers()) >= nth else [], timeout)
        return found[nth - 1]

    async def gm_says(self, text: str) -> str:
        return (await self.say(self.gm, text)).text

    async def invite(self, role: str, side: str, *numbers: int) -> str:
        text = await self.gm_says(f"/invite {role} {side} {' '.join(map(str, numbers))}".strip())
        match = re.search(r"/start (\w+)", text)
        assert match, text
        return match.group(1)

    async def setup_match(
        self, *, start: bool = True, groups: bool = True, ruleset: str = "classic"
    ) -> Match:
        """Through the game master's Telegram commands: a 2-a-side match of
        ``ruleset``, two team groups (linked unless ``groups`` is False: then the
        captains read in private)."""
        tg = self.tg
        alice = tg.user(1001, "Алиса", "alice")
        bob = tg.user(1002, "Боб", "bob", language_code="en")
        left = tg.group("Драконы", [alice, self.gm])
        right = tg.group("Фениксы", [bob, self.gm])
        await self.gm_says("/start")
        created = await self.gm_says(f"/newgame Финал ruleset={ruleset} players=2")
        game_id = int(re.search(r"DB-(\d+)", created).group(1))  # type: ignore[union-attr]
        for command in (
            "/addteam left Драконы",
            "/addteam right Фениксы",
            "/addplayer left Иванов",
            "/addplayer left Петров",
            "/addplayer right Соколов",
            "/addplayer right Михайлов",
        ):
            await self.gm_says(command)
        await self.say(alice, f"/start {await self.invite('captain', 'left')}")
        await self.say(bob, f"/start {await self.invite('captain', 'right')}")
        if groups:
            await self.say(self.gm, "/linkchat left", left)
            await self.say(self.gm, "/linkchat right", right)
        if start:
            await self.gm_says("/startgame")
        await self.settled()
        return Match(game_id, self.league, left, right, alice, bob)

    async def settled(self, timeout: float = 10) -> None:
        """Until the outbox holds nothing more to send (answers go out at once,
        announcements with the worker's next pass)."""

        def pending() -> int:
            with self.service.db.transaction() as s:
                return len(s.exec(select(OutboxRow.id).where(OutboxRow.state == "pending")).all())

        await self.tg.wait_for(lambda: pending() == 0, timeout)

    async def resolve_at_deadline(self) -> None:
        deadline = await self.service.next_deadline()
        assert deadline is not None
        self.clock.jump_to(deadline + timedelta(seconds=1))
        resolved = await self.service.resolve_due()
        assert resolved, "no round was due"


@asynccontextmanager
async def judge(
    tg: FakeTelegram,
    folder: Path,
    *,
    limits: FloodLimits | None = None,
    idle_sleep: float = 2.0,
    settings: dict[str, Any] | None = None,
    **runner_kw: Any,
) -> AsyncIterator[Judge]:
    """The whole judge on a fresh SQLite database, talking to ``tg``; ``settings``
    and ``runner_kw`` go to :class:`ServiceSettings` and :class:`TelegramRunner`."""
    gm = tg.user(GM_ID, "Судья", "referee")
    league = tg.channel("Лига Драконбола", "db_league")
    service_settings = ServiceSettings(
        gm_telegram_ids=frozenset({GM_ID}), channel_chat="@db_league", **(settings or {})
    )
    with temporary_database("sqlite", folder) as db:
        clock = ShiftedClock()
        service = GameService(db, service_settings, reporter=RenderReporter(), clock=clock)
        config = TelegramConfig(enabled=True, token=SecretStr(tg.token), base_url=tg.base_url)
        runner = TelegramRunner(
            config,
            service,
            game_masters=[GM_ID],
            limits=limits or FloodLimits.unlimited(),
            poll_timeout=1,
            on_username=service.learn_bot_username,  # as build_telegram does
            on_conflict=conflict_alert(service),  # likewise
            **runner_kw,
        )
        worker = OutboxWorker(service, {"telegram": runner.channel}, clock, idle_sleep=idle_sleep)
        service.listeners.append(worker.wake)  # as bot/app.py does
        stop = asyncio.Event()
        await runner.start()
        delivering = asyncio.create_task(worker.run(stop))
        try:
            yield Judge(tg, service, runner, worker, gm, league, clock)
        finally:
            stop.set()
            await delivering
            await runner.stop()
