"""A match (or several) played against the real judge process, for the kill -9
trials, the soak and the downtime test: ``dragonball serve`` on a SQLite file,
the local Bot API server of :mod:`support.fake_telegram` in this process and,
with mail, a real Dovecot (the judge reads it through a :class:`CuttingProxy`,
so a test can cut its IMAP connections) and the capturing SMTP server.

The games are set up beforehand through a game service of our own on the same
file, each with a deadline every ``period`` seconds.  Players order by
Telegram or by mail while the test does what it likes to the judge; at the
end :meth:`Match.settle` waits until the judge has caught up and delivered
everything, and :mod:`support.trial_check` compares the record with what was
sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import imaplib
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import make_msgid, parsedate_to_datetime
from pathlib import Path
from typing import Any

from sqlmodel import select

from bot.service import FakeClock, Inbound
from storage.db import Database
from storage.models import Game, InboundMessage, OutboxRow, Round
from support.fake_telegram import FakeTelegram
from support.fake_telegram_world import FakeUser
from support.judge_process import JudgeProcess
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot, MailUser
from support.service_table import Table, make_table, orders_text

__all__ = ["MailSide", "Match", "Player", "Sent"]


@dataclass(frozen=True)
class Player:
    """One member: ``numbers`` he orders (None: the whole team), by Telegram or mail."""

    side: str
    numbers: list[int] | None
    telegram: int | None = None
    email: str | None = None
    captain: bool = False

    @property
    def channel(self) -> str:
        return "telegram" if self.telegram is not None else "email"


@dataclass
class Sent:
    """A message a player sent: ``ref`` is the Telegram message id or the Message-ID;
    ``stamp`` the time it counts by (Telegram's date; the mail's INTERNALDATE,
    read from the mailbox at the end), whole seconds."""

    channel: str
    game_id: int
    user: str
    ref: str
    stamp: datetime | None = None

    @property
    def external_id(self) -> str:
        return f"{self.user}:{self.ref}" if self.channel == "telegram" else self.ref


@dataclass
class MailSide:
    dovecot: Dovecot
    smtp: CaptureSmtp
    box: MailUser
    proxy: CuttingProxy

    def internal_dates(self) -> dict[str, datetime]:
        """Message-ID -> INTERNALDATE of every mail in the judge's mailbox (any folder)."""
        found: dict[str, datetime] = {}
        client = imaplib.IMAP4("127.0.0.1", self.dovecot.imap_port)
        try:
            client.login(self.box.name, self.box.password)
            for name in ("INBOX", "Processed"):  # where the judge leaves what it read
                status, count = client.select(name, readonly=True)
                if status != "OK" or not count or count[0] in (b"0", None):
                    continue  # no such folder, or nothing in it
                _, data = client.fetch(
                    "1:*", "(INTERNALDATE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])"
                )
                for part in data or []:
                    if not isinstance(part, tuple):
                        continue
                    head, body = part[0].decode(), part[1].decode(errors="replace")
                    date = re.search(r'INTERNALDATE "([^"]+)"', head)
                    msgid = re.search(r"<[^>]+>", body)
                    if date and msgid:
                        when = parsedate_to_datetime(_imap_date(date.group(1)))
                        found[msgid.group(0)] = when.astimezone(UTC)
        finally:
            with contextlib.suppress(Exception):
                client.logout()
        return found


def _imap_date(text: str) -> str:
    """IMAP's ``01-Dec-2026 17:00:00 +0000`` as RFC 2822, for parsedate_to_datetime."""
    day, clock, zone = text.split()
    d, m, y = day.split("-")
    return f"{d} {m} {y} {clock} {zone}"


@dataclass
class Match:
    folder: Path
    tg: FakeTelegram
    games: int = 1
    period: int = 5
    mail: MailSide | None = None
    log_level: str = "WARNING"
    gms: tuple[int, ...] = (100,)
    db: Database = field(init=False)
    judge: JudgeProcess = field(init=False)
    tables: list[Table] = field(default_factory=list)
    players: dict[int, list[Player]] = field(default_factory=dict)  # game id -> players
    sent: list[Sent] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    kills: int = 0
    # (begin, end) in time.monotonic() of each SIGKILL and clean stop: the windows
    # in which a message handed over may not have been marked sent.
    interruptions: list[tuple[float, float]] = field(default_factory=list)
    users: dict[int, FakeUser] = field(default_factory=dict)
    backlog: int = 0  # outbox rows undelivered when the last judge started
    last_run_s: float = 0.0
    # Outbox retries due within this many seconds are waited for at the end
    # (faults back deliveries off: 30 s, doubling); later ones count as undelivered.
    retry_horizon: float = 60.0

    def __post_init__(self) -> None:
        sections: dict[str, dict[str, Any]] = {
            "database": {"url": f"sqlite:///{self.folder / 'judge.db'}"},
            "game_masters": {"telegram_ids": list(self.gms)},
            "telegram": {"enabled": True, "token": self.tg.token, "base_url": self.tg.base_url},
            "logging": {"level": self.log_level},
        }
        if self.mail is not None:
            box, smtp = self.mail.box, self.mail.smtp
            sections |= {
                "imap": {
                    "enabled": True, "host": "127.0.0.1", "port": self.mail.proxy.port,
                    "security": "none", "username": box.name, "password": box.password,
                },
                "smtp": {
                    "enabled": True, "host": "127.0.0.1", "port": smtp.port, "security": "none",
                    "from_address": box.address,
                },
                "mail": {"require_passphrase": False},
            }  # fmt: skip
        self.judge = JudgeProcess(self.folder, sections)
        self.judge.upgrade()
        self.db = Database(f"sqlite:///{self.folder / 'judge.db'}")
        for gm in self.gms:
            self._user(gm)

    # ------------------------------------------------------------------ set-up
    async def set_up(self, teams: dict[str, list[Player]] | Callable[[int], list[Player]]) -> None:
        """``games`` running games, each with its players (``teams(n)`` for game n)."""
        for n in range(self.games):
            players = teams(n) if callable(teams) else teams[str(n)]
            table = await self._set_up_game(n, players)
            self.tables.append(table)
            self.players[table.game_id] = players

    async def _set_up_game(self, n: int, players: list[Player]) -> Table:
        table = make_table(
            self.db, FakeClock(datetime.now(UTC)), gm_telegram_ids=frozenset(self.gms)
        )
        gm = self.gms[n % len(self.gms)]
        count = 0

        async def say(user: int | str, text: str) -> Any:
            nonlocal count
            count += 1
            if isinstance(user, str):  # by mail; ids unique across the games' tables
                reply = await table.service.receive(
                    Inbound("email", f"<setup.{n}.{count}@mail.example>", user, text,
                            text.encode(), table.clock.now(), authenticated=True)
                )  # fmt: skip
            else:
                reply = await table.service.receive(
                    Inbound("telegram", f"setup:{n}:{count}", str(user), text, text.encode(),
                            table.clock.now(), chat=str(user))
                )  # fmt: skip
            assert reply.status == "ok", (text, reply.text)
            return reply

        reply = await say(gm, f"/newgame Проверка {n + 1}")
        table.game_id = reply.game_id
        await say(gm, "/addteam left Саламандры")
        await say(gm, "/addteam right Виверны")
        for p in players:
            if p.telegram is not None:
                self._user(p.telegram)
            role = f"captain {p.side}" if p.captain else f"player {p.side} {p.numbers[0]}"  # type: ignore[index]
            code = (await say(gm, f"/invite {role}")).data["code"]
            await say(p.telegram if p.telegram is not None else str(p.email), f"/start {code}")
        await say(gm, "/startgame")
        await table.clock.set(datetime.now(UTC))  # the deadlines count from now
        await say(gm, f"/deadline every {self.period}s")
        return table

    def gm_user(self, n: int) -> int:
        return self.gms[n % len(self.gms)]

    def _user(self, uid: int) -> FakeUser:
        """The Telegram user ``uid``, made once (he has written to the bot before)."""
        user = self.users.get(uid)
        if user is None:
            user = self.users[uid] = self.tg.user(uid, f"Игрок {uid}")
            self.tg.world.started.add(uid)
        return user

    # ------------------------------------------------------------------ players
    def send(self, table: Table, player: Player) -> None:
        """One order message from ``player`` (Telegram now; mail through LMTP)."""
        text = orders_text(table.state(), player.side, player.numbers)
        if player.telegram is not None:
            message = self.tg.send_text(self._user(player.telegram), text=text)
            self.sent.append(
                Sent("telegram", table.game_id, str(player.telegram), str(message["message_id"]),
                     datetime.fromtimestamp(int(message["date"]), UTC))
            )  # fmt: skip
            return
        assert self.mail is not None and player.email is not None
        msgid = make_msgid(domain="example.ru")
        raw = (
            f"From: Игрок <{player.email}>\r\nTo: {self.mail.box.address}\r\n"
            f"Subject: orders\r\nMessage-ID: {msgid}\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
        ).encode()
        self.mail.dovecot.deliver(self.mail.box, raw)  # its arrival is its INTERNALDATE
        self.sent.append(Sent("email", table.game_id, player.email, msgid))

    async def play(
        self, stop: asyncio.Event, rng: random.Random, *,
        telegram_gap: tuple[float, float], mail_gap: tuple[float, float],
    ) -> None:  # fmt: skip
        """Every player orders every ``*_gap`` seconds (random within) until ``stop``."""

        async def one(table: Table, player: Player) -> None:
            gap = telegram_gap if player.channel == "telegram" else mail_gap
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), rng.uniform(*gap))
                if stop.is_set() or not _running(self.db, table.game_id):
                    continue
                try:
                    if player.channel == "telegram":
                        self.send(table, player)
                    else:  # LMTP and SQLite: not on the loop that serves Telegram
                        await asyncio.to_thread(self.send, table, player)
                except Exception:  # the database busy a moment: order again next time
                    continue

        await asyncio.gather(*(one(t, p) for t in self.tables for p in self.players[t.game_id]))

    # ------------------------------------------------------------------ the judge
    async def start(self) -> None:
        """Start the judge and wait until it polls Telegram (its imports take seconds)."""
        calls = len(self.tg.calls_of("getUpdates"))
        self.judge.start()
        await self.tg.wait_for(lambda: len(self.tg.calls_of("getUpdates")) > calls, timeout=300)

    def kill(self) -> None:
        begin = time.monotonic()
        self.judge.kill()
        self.kills += 1
        self.interruptions.append((begin, time.monotonic()))

    async def stop(self) -> None:
        """The clean stop (SIGTERM): deliveries in flight get a moment, the rest is
        cut short and handed back, so it may be delivered again — a window too.
        Waited for beside the loop, which serves Telegram meanwhile."""
        begin = time.monotonic()
        await asyncio.to_thread(self.judge.stop)
        self.interruptions.append((begin, time.monotonic()))

    async def settle(self) -> None:
        """The last judge runs until it has caught up (every update confirmed, every
        mail read, no round overdue); then the game masters pause what still runs,
        and it delivers everything; then it stops cleanly."""
        started = time.monotonic()
        self.backlog = _backlog(self.db)
        await self._wait_working(
            "catch up",
            lambda: not self.tg.world.updates and self._mail_read()
            and not any(_overdue(self.db, t.game_id, timedelta(seconds=3)) for t in self.tables),
        )  # fmt: skip
        for n, table in enumerate(self.tables):
            if _running(self.db, table.game_id):
                gm = self.gm_user(n)
                self.tg.send_text(self._user(gm), text=f"/pause DB-{table.game_id}")
        await self._wait_working(
            "pause", lambda: not any(_running(self.db, t.game_id) for t in self.tables)
        )
        await self._wait_working("deliver", self._settled)
        self.last_run_s = time.monotonic() - started
        await asyncio.sleep(1.0)  # answers handed over and marked
        self.judge.stop()

    def _mail_read(self) -> bool:
        return self.mail is None or not self.mail.box.files("INBOX")

    def _settled(self) -> bool:
        soon = datetime.now(UTC) + timedelta(seconds=self.retry_horizon)
        with self.db.transaction() as s:
            rows = {r.external_id: r.status for r in s.exec(select(InboundMessage))}
            # Due, or claimed (being sent); a retry a minute or more away is not waited for.
            pending = [
                r for r in s.exec(select(OutboxRow).where(OutboxRow.state == "pending"))
                if r.claimed_by is not None or r.next_try_at.replace(tzinfo=UTC) <= soon
            ]  # fmt: skip
        stored = all(rows.get(m.external_id) not in (None, "received") for m in self.sent)
        return stored and not pending

    async def _wait_working(
        self, what: str, done: Callable[[], bool], stall: float = 300.0
    ) -> None:
        """Wait until ``done()``, as long as the judge gets on with its work: a backlog
        paced at a message a second per chat may take long, but a judge that settles
        nothing for ``stall`` seconds is stuck (recorded as a problem, not waited for)."""
        stall = max(300.0, self.retry_horizon + 60.0)
        seen, moved = _work_done(self.db), time.monotonic()
        while not done():
            assert self.judge.running, self.judge.log_text()[-3000:]
            now_done = _work_done(self.db)
            if now_done != seen:
                seen, moved = now_done, time.monotonic()
            elif time.monotonic() - moved > stall:
                self.problems.append(f"the judge did nothing for {stall:.0f} s ({what})")
                return
            await asyncio.sleep(0.3)

    def stamp_mail(self) -> None:
        """The INTERNALDATE of every mail sent, from the mailbox."""
        if self.mail is None:
            return
        dates = self.mail.internal_dates()
        for m in self.sent:
            if m.channel == "email":
                m.stamp = dates.get(m.ref)

    def details(self) -> str:
        with self.db.transaction() as s:
            rounds = [
                f"game {r.game_id} round {r.number}/{r.attempt} {r.status} opened {r.opened_at}"
                f" deadline {r.deadline} resolved {r.resolved_at}"
                for r in s.exec(select(Round))
            ]
        return "\n".join([*rounds[-60:], self.judge.log_text()[-6000:]])

    def close(self) -> None:
        self.judge.kill()
        self.db.dispose()


def _running(db: Database, game_id: int) -> bool:
    with db.transaction() as s:
        game = s.get(Game, game_id)
        return game is not None and game.status == "running"


def _backlog(db: Database) -> int:
    with db.transaction() as s:
        return len(list(s.exec(select(OutboxRow.id).where(OutboxRow.state == "pending"))))


def _work_done(db: Database) -> tuple[int, int]:
    """What the judge has done so far: messages worked on, outbox rows settled."""
    with db.transaction() as s:
        worked = s.exec(select(InboundMessage.id).where(InboundMessage.status != "received"))
        settled = s.exec(select(OutboxRow.id).where(OutboxRow.state != "pending"))
        return len(list(worked)), len(list(settled))


def _overdue(db: Database, game_id: int, by: timedelta) -> bool:
    """A round of the running game whose deadline passed more than ``by`` ago."""
    now = datetime.now(UTC)
    with db.transaction() as s:
        game = s.get(Game, game_id)
        if game is None or game.status != "running":
            return False
        rounds = s.exec(select(Round).where(Round.game_id == game_id, Round.status == "open"))
        return any(r.deadline.replace(tzinfo=UTC) < now - by for r in rounds)
