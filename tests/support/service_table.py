"""Helpers of the game-service tests: a game at the table with a fake clock."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlmodel import select

from bot.service import FakeClock, GameService, Inbound, RenderReporter, Reply, ServiceSettings
from engine.state import MatchState
from storage import repo
from storage.db import Database
from storage.models import Game, OutboxRow, Round, Snapshot

GM = 100  # telegram user id of the configured game master
# Monday 2 March 2026, 12:00 UTC = 15:00 in Moscow; the default deadline is 21:00 Moscow = 18:00 UTC.
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
FIRST_DEADLINE = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def settings(**kw: object) -> ServiceSettings:
    base: dict[str, object] = {
        "gm_telegram_ids": frozenset({GM}),
        "gm_emails": frozenset({"gm@judge.example"}),
    }
    base.update(kw)
    return ServiceSettings(**base)  # type: ignore[arg-type]


@dataclass
class Table:
    """A game at the table: the service, the clock, and the people in it."""

    service: GameService
    clock: FakeClock
    db: Database
    game_id: int = 0
    codes: dict[str, str] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def say(
        self,
        user: int,
        text: str,
        *,
        chat: str | None = None,
        edit_of: str | None = None,
        external_id: str | None = None,
        received_at: datetime | None = None,
        meta: dict[str, str] | None = None,
    ) -> Reply:
        """A Telegram message from ``user`` in his private chat (or ``chat``);
        ``meta`` as the Telegram adapter gives it (``username``, ``name``, …)."""
        n = next(self._ids)
        where = chat or str(user)
        return await self.service.receive(
            Inbound(
                channel="telegram",
                external_id=external_id or f"{where}:{n}",
                sender=str(user),
                text=text,
                raw=text.encode(),
                received_at=received_at or self.clock.now(),
                chat=where,
                edit_of=edit_of,
                meta=meta or {},
            )
        )

    async def mail(
        self, address: str, text: str, *, authenticated: bool = True, subject: str | None = None
    ) -> Reply:
        n = next(self._ids)
        return await self.service.receive(
            Inbound(
                channel="email",
                external_id=f"<{n}@mail.example>",
                sender=address,
                text=text,
                raw=text.encode(),
                received_at=self.clock.now(),
                subject=subject,
                authenticated=authenticated,
            )
        )

    def rows(self, model: type, *where: object) -> list:  # type: ignore[type-arg]
        with self.db.transaction() as s:
            return list(s.exec(select(model).where(*where)))  # type: ignore[call-overload]

    def outbox(self, **match: object) -> list[OutboxRow]:
        return [
            r for r in self.rows(OutboxRow) if all(getattr(r, k) == v for k, v in match.items())
        ]

    def rounds(self) -> list[Round]:
        return sorted(self.rows(Round, Round.game_id == self.game_id), key=lambda r: r.id or 0)

    def game(self) -> Game:
        with self.db.transaction() as s:
            game = repo.get_game(s, self.game_id)
            assert game is not None
            return game

    def state(self) -> MatchState:
        """The position before the open round."""
        with self.db.transaction() as s:
            game = repo.get_game(s, self.game_id)
            assert game is not None and game.current_round_id is not None
            data = repo.snapshot(s, game.current_round_id, 0)
            assert data is not None
            return MatchState.from_json(data)

    def plant(self, edit: Callable[[MatchState], MatchState]) -> None:
        """Change the open round's starting position (what a test is about)."""
        with self.db.transaction() as s:
            game = s.get(Game, self.game_id)
            assert game is not None and game.current_round_id is not None
            snap = s.exec(
                select(Snapshot).where(
                    Snapshot.round_id == game.current_round_id, Snapshot.tick == 0
                )
            ).one()
            snap.state = edit(MatchState.from_json(snap.state)).to_json()
            s.add(snap)


def orders_text(
    state: MatchState,
    side: str,
    numbers: list[int] | None = None,
    *,
    ticks: tuple[int, ...] = (1, 2, 3),
) -> str:
    """Orders that keep the players where they are, every tick."""
    lines = []
    for tick in ticks:
        lines.append(f"Такт {tick}")
        for p in state.team_players(side):  # type: ignore[arg-type]
            if p.on_field and (numbers is None or p.number in numbers):
                lines.append(f"{p.name}: {p.cell} в{p.height}")
    return "\n".join(lines)


async def set_up_game(table: Table, *, ruleset: str | None = None) -> None:
    """A game with two teams: captains 201 (left) and 301 (right), player 202
    (left, controls number 2), started at START; its first deadline is FIRST_DEADLINE.
    ``ruleset``: played by that ruleset (default: classic)."""
    option = f" ruleset={ruleset}" if ruleset else ""
    reply = await table.say(GM, f"/newgame Кубок весны{option}")
    assert reply.status == "ok", reply.text
    assert reply.game_id is not None
    table.game_id = reply.game_id
    for text in ("/addteam left Саламандры", "/addteam right Виверны"):
        assert (await table.say(GM, text)).status == "ok"
    for key, text in (
        ("c_left", "/invite captain left"),
        ("p_left", "/invite player left 2"),
        ("c_right", "/invite captain right"),
    ):
        reply = await table.say(GM, text)
        assert reply.status == "ok", reply.text
        table.codes[key] = str(reply.data["code"])
    for user, key in ((201, "c_left"), (202, "p_left"), (301, "c_right")):
        reply = await table.say(user, f"/start {table.codes[key]}")
        assert reply.status == "ok", reply.text
    reply = await table.say(GM, "/startgame")
    assert reply.status == "ok", reply.text


def make_table(
    db: Database, clock: FakeClock | None = None, *, pictures: bool = False, **kw: object
) -> Table:
    """A service on ``db``; ``pictures``: it draws the diagrams (slower)."""
    clock = clock or FakeClock(START)
    reporter = RenderReporter(pictures=pictures)
    service = GameService(db, settings(**kw), reporter=reporter, clock=clock)
    return Table(service, clock, db)
