"""The game service: what every channel calls.  No Telegram or e-mail here.

Each public coroutine runs one database transaction in a worker thread
(SQLAlchemy sessions are synchronous), so the event loop never blocks on
the database or the engine.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from sqlmodel import Session

from bot.logging import get_logger
from engine.state import MatchState
from storage import repo
from storage.db import Database
from storage.models import InboundMessage, Member

from . import (
    audience,
    commands,
    delivery,
    gm,
    gm_setup,
    inbound,
    members,
    notify,
    rounds,
    workers,
)
from .api import DeliveryResult, Inbound, MemberInfo, OutboxItem, Reply
from .context import Actor, ServiceError, Tx
from .fairness import Verification
from .gm import Outcome
from .i18n import lang_or_default, t
from .ports import Clock, SystemClock
from .positions import PositionCache
from .reports import Reporter
from .settings import ServiceSettings
from .sharedmarks import SharedMarks
from .watermark import Watermarks

__all__ = ["GameService"]

log = get_logger(__name__)
T = TypeVar("T")

# Reading an order message before the write transaction (``_plan``) keeps the
# reading out of the write lock, but costs a read transaction of its own (the
# writer, his game, his role, the round and the orders on file, all asked
# again under the lock).  A typical message (a dozen lines) reads in well
# under a millisecond, less than that transaction costs: only a long one —
# a game master's sheets for both teams — is read beforehand.
PLAN_MIN_CHARS = 2000


class GameService:
    """The transport-free core of the judge.

    ``by`` in the game-master methods names who acts: ``"telegram:<user id>"``,
    ``"email:<address>"``, or ``"cli"`` (the local operator, always allowed).
    """

    def __init__(
        self,
        db: Database,
        settings: ServiceSettings | None = None,
        *,
        reporter: Reporter,
        clock: Clock | None = None,
        after_engine: Callable[[int, int], None] | None = None,
    ) -> None:
        self.db = db
        self.settings = settings or ServiceSettings()
        self.clock: Clock = clock or SystemClock()
        self.reporter = reporter
        self.after_engine = after_engine
        # Called after an operation that queued messages or may have moved a
        # deadline: the composition root wakes the outbox worker and the scheduler.
        self.listeners: list[Callable[[], None]] = []
        # Channel name → who delivers an answer at once (the running outbox worker
        # registers itself): the answer to a message is queued already claimed and
        # handed over, instead of waiting for the worker to find it.
        self.couriers: dict[str, Callable[[OutboxItem], None]] = {}
        self.positions = PositionCache()
        # This process as the owner of its outbox claims (set by the running worker).
        self.owner: str | None = None
        # How far each channel has been read (the composition root says which
        # channels take messages); a due round waits for them, at most the grace.
        self.watermarks = Watermarks(grace=self.settings.deadline_grace)
        self.watermarks.listeners.append(self._changed)
        self.waiting_until: datetime | None = None
        # Several processes on PostgreSQL (bot/app.py sets these): the marks of
        # channels read by another process, and whether this one sends the
        # reminders (a leader's role, bot/service/leadership.py).
        self.shared_marks: SharedMarks | None = None
        self.reminding: Callable[[], bool] = lambda: True

    def learn_bot_username(self, username: str) -> None:
        """The Telegram bot's @username, once it is known: invitations link to it."""
        self.settings = replace(self.settings, telegram_bot=username.lstrip("@") or None)

    # ------------------------------------------------------------ plumbing
    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    def _new_tx(self, s: Session, now: datetime | None = None) -> Tx:
        return Tx(
            s, self.settings, now or self.clock.now(), self.reporter, self.after_engine,
            positions=self.positions, owner=self.owner,
        )  # fmt: skip

    def _tx_sync(self, fn: Callable[[Tx], T], now: datetime | None) -> T:
        with self.db.transaction() as s:
            tx = self._new_tx(s, now)
            result = fn(tx)
        self.positions.add(tx.read_positions)  # committed: what it read is true for good
        return result

    async def _tx(self, fn: Callable[[Tx], T], now: datetime | None = None) -> T:
        return await asyncio.to_thread(self._tx_sync, fn, now)

    async def read(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` in a transaction of its own (the web page's questions)."""
        return await self._tx(fn)

    def _actor(self, tx: Tx, by: str) -> Actor:
        channel, _, sender = by.partition(":")
        if by in ("cli", "system"):
            return Actor(identity=by, lang=self.settings.lang)
        msg = Inbound(channel, "", sender, "", b"", tx.now)
        return inbound.identify(tx, msg)

    def _reply(self, tx: Tx, actor: Actor, outcome: Outcome) -> Reply:
        return Reply(
            outcome.status,
            audience.answer_text(outcome, actor.lang),
            outcome.game_id,
            tuple(tx.queued),
            dict(outcome.data),
        )

    async def _gm(self, by: str, op: Callable[[Tx, Actor], Outcome]) -> Reply:
        def run(tx: Tx) -> Reply:
            actor = self._actor(tx, by)
            outcome = op(tx, actor)
            return self._reply(tx, actor, outcome)

        try:
            reply = await self._tx(run)
        except ServiceError as err:
            lang = self.settings.lang
            return Reply(err.status, t(err.key, lang, **err.params))
        self._changed()
        return reply

    # ------------------------------------------------------------ messages
    async def receive(
        self, msg: Inbound, *, on_stored: Callable[[], object] | None = None
    ) -> Reply:
        """Store, identify, carry out and answer one inbound message.  ``on_stored``
        is called (on the event loop) as soon as the message is in the database —
        also when it was there already — so a channel may confirm it to its server."""
        couriers = dict(self.couriers)
        stored_cb = None
        if on_stored is not None:
            loop = asyncio.get_running_loop()

            def stored_cb() -> None:
                loop.call_soon_threadsafe(on_stored)

        reply, claimed, wake = await asyncio.to_thread(
            self._receive_sync, msg, frozenset(couriers), stored_cb
        )
        for item in claimed:  # committed and claimed: deliver now, not at the next pass
            couriers[item.channel](item)
        if wake:
            self._changed()
        # One INFO line per message: what it was and how it went, never its text.
        cmd = commands.parse_command(msg.text)
        log.info(
            "message received", channel=msg.channel, external_id=msg.external_id,
            status=reply.status, what=f"/{cmd.name}" if cmd else "text" if msg.text else "-",
            game=f"DB-{reply.game_id}" if reply.game_id else None,
            auth=msg.meta.get("auth") if msg.channel == "email" else None,
        )  # fmt: skip
        return reply

    def _receive_sync(
        self, msg: Inbound, express: frozenset[str], on_stored: Callable[[], None] | None = None
    ) -> tuple[Reply, list[OutboxItem], bool]:
        """Both transactions of ``receive`` in one worker thread: the message is
        committed before it is read, then worked on and answered in a second one.
        Returns the reply, the answers claimed for the couriers, and whether the
        listeners must hear of it (something else queued, or a command ran)."""
        # Not the ORM: one INSERT … ON CONFLICT DO NOTHING is the whole first step
        # (on PostgreSQL not even a BEGIN and COMMIT around it).
        with self.db.one_statement() as conn:
            stored = inbound.store(conn, msg, self.clock.now())
        if on_stored is not None:
            on_stored()
        if stored is None:
            return Reply("duplicate", t("duplicate", self.settings.lang)), [], False
        return self._work(msg, stored, express)

    def _work(
        self, msg: Inbound, stored: int, express: frozenset[str]
    ) -> tuple[Reply, list[OutboxItem], bool]:
        """Work on a stored message and answer it, in one transaction that first
        claims it (so it is worked on once, even by two processes recovering it)."""
        # parsing and legality outside the write transaction, for a long message
        plan = self._plan(msg) if len(msg.text) >= PLAN_MIN_CHARS else None
        try:
            with self.db.transaction() as s:
                if not repo.claim_inbound(s, stored):
                    return Reply("duplicate", t("duplicate", self.settings.lang)), [], False
                tx = self._new_tx(s)
                tx.express = express
                tx.plan = plan
                outcome, actor = inbound.process(tx, msg, stored)
                text, ids = inbound.answer(tx, msg, actor, outcome)
                repo.finish_inbound(
                    s, stored, status=outcome.status, game_id=outcome.game_id,
                    member_id=actor.member.id if actor.member else None,
                )  # fmt: skip
                if commands.parse_command(msg.text) is None:
                    # Orders: if a crash of the database server loses this commit, the
                    # stored message is worked on again (docs/service.md, "Durability").
                    self.db.relax_commit(s)
            self.positions.add(tx.read_positions)
        except Exception as exc:  # a bug must not lose the message or silence the sender
            log.exception("processing an inbound message failed", external_id=msg.external_id)
            reply = self._tx_sync(partial(self._failed, msg=msg, inbound_id=stored, exc=exc), None)
            return reply, [], True
        reply = Reply(outcome.status, text, outcome.game_id, tuple(ids), dict(outcome.data))
        expressed = {item.id for item in tx.claimed}
        wake = commands.parse_command(msg.text) is not None or any(
            i not in expressed for i in tx.queued
        )
        return reply, tx.claimed, wake

    def _plan(self, msg: Inbound) -> inbound.Plan | None:
        """Read and check an order message against the stored position, in a read
        transaction (no lock; on SQLite no write lock either): the write
        transaction only re-checks that nothing it relied on changed."""
        try:
            with self.db.reading() as s:
                return inbound.plan(self._new_tx(s), msg)
        except Exception:  # planning is an optimisation: the write transaction decides
            log.debug("planning an inbound message failed", external_id=msg.external_id)
            return None

    async def recover(
        self, *, received_before: datetime | None = None, stored_before: datetime | None = None
    ) -> int:
        """Work on stored messages nobody worked on (a process died between storing
        and answering, or the database failed in between); returns how many.
        Called at start, before a round is resolved (the messages that reached us
        before its deadline) and by the scheduler for the ones left behind."""
        done = 0
        while True:
            rows = await self._tx(
                lambda tx: repo.unprocessed_inbound(
                    tx.s, received_before=received_before, stored_before=stored_before
                )
            )
            if not rows:
                break
            for row in rows:
                assert row.id is not None
                log.info("working on a stored message left behind", external_id=row.external_id)
                try:
                    await asyncio.to_thread(self._work, inbound.from_row(row), row.id, frozenset())
                except Exception:  # the database again: the next pass tries once more
                    log.exception("recovering a stored message failed", inbound_id=row.id)
                    return done
                done += 1
        if done:
            self._changed()
        return done

    def _failed(self, tx: Tx, msg: Inbound, inbound_id: int, exc: Exception) -> Reply:
        row = tx.s.get(InboundMessage, inbound_id)
        error = f"{type(exc).__name__}: {exc}"[:2000]
        if row is not None:
            row.status, row.error = "error", error
            tx.s.add(row)
        actor = inbound.identify(tx, msg)
        outcome = Outcome("internal_error", status="refused")
        text, ids = inbound.answer(tx, msg, actor, outcome)
        for dest in notify.gm_destinations(tx, None):
            params = {
                "external_id": msg.external_id,
                "channel": msg.channel,
                "sender": msg.sender,
                "error": error,
            }
            notify.queue(tx, dest, "gm_alert", t("gm_alert_error", dest.lang, **params),
                         subject=t("subject_gm_alert", dest.lang))  # fmt: skip
        return Reply("refused", text, None, tuple(ids))

    # ------------------------------------------------------------ members
    @staticmethod
    def _info(tx: Tx, member: Member | None) -> MemberInfo | None:
        if member is None or member.id is None:
            return None
        games = tuple(
            (
                g.id or 0,
                ms.role,
                ms.side,
                tuple(int(p) for p in ms.players.split(",") if p.isdigit()),
            )
            for g, ms in repo.games_of_member(tx.s, member.id)
        )
        return MemberInfo(
            member.id, member.name, member.telegram_user_id, member.email,
            lang_or_default(member.lang), member.notify, member.passphrase_hash is not None, games,
        )  # fmt: skip

    async def member_by_email(self, address: str) -> MemberInfo | None:
        return await self._tx(lambda tx: self._info(tx, repo.member_by_email(tx.s, address)))

    async def member_by_telegram(self, user_id: int) -> MemberInfo | None:
        return await self._tx(lambda tx: self._info(tx, repo.member_by_telegram(tx.s, user_id)))

    async def check_passphrase(self, email: str, phrase: str) -> bool:
        """Does ``phrase`` match the pass phrase of the member with this address?"""

        def check(tx: Tx) -> bool:
            member = repo.member_by_email(tx.s, email)
            return member is not None and members.verify_passphrase(phrase, member.passphrase_hash)

        return await self._tx(check)

    async def alert_game_masters(
        self, key: str, game_id: int | None = None, **params: object
    ) -> tuple[int, ...]:
        """Queue the text ``key`` (of :mod:`bot.service.i18n`) to the game's masters
        (the configured ones if the game has none or none is named)."""

        def alert(tx: Tx) -> tuple[int, ...]:
            game = repo.get_game(tx.s, game_id) if game_id is not None else None
            repo.log_action(tx.s, game_id, "system", "alert", {"key": key}, tx.now)
            return tuple(
                notify.queue(
                    tx,
                    dest,
                    "gm_alert",
                    t(key, dest.lang, **params),
                    game=game,
                    subject=t("subject_gm_alert", dest.lang),
                )
                for dest in notify.gm_destinations(tx, game)
            )

        ids = await self._tx(alert)
        self._changed()
        return ids

    # ------------------------------------------------------------ game masters
    async def create_game(self, by: str = "cli", **options: Any) -> Reply:
        """Options: ruleset, title, timezone, deadlines, lang, players_per_team."""
        return await self._gm(by, lambda tx, a: gm_setup.create_game(tx, a, **options))

    async def add_team(self, game_id: int, side: str, name: str, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.add_team(tx, a, game_id, side, name))

    async def add_player(self, game_id: int, side: str, name: str, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.add_player(tx, a, game_id, side, name))

    async def invite(
        self, game_id: int, role: str, *, side: str | None = None, players: tuple[int, ...] = (),
        dragon: bool = False, email: str | None = None, username: str | None = None,
        ttl: timedelta | None = None, by: str = "cli",
    ) -> Reply:  # fmt: skip
        """Returns the invitation code in ``reply.data["code"]``."""
        return await self._gm(
            by,
            lambda tx, a: gm_setup.invite(
                tx,
                a,
                game_id,
                role=role,
                side=side,
                players=players,
                dragon=dragon,
                email=email,
                username=username,
                ttl=ttl,
            ),
        )

    async def set_deadline(
        self, game_id: int, schedule: str, *, timezone: str | None = None, by: str = "cli"
    ) -> Reply:
        return await self._gm(by, lambda tx, a: gm.set_deadline(tx, a, game_id, schedule, timezone))

    async def start(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.start(tx, a, game_id))

    async def pause(self, game_id: int, reason: str = "", *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.pause(tx, a, game_id, reason))

    async def resume(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.resume(tx, a, game_id))

    async def extend(
        self,
        game_id: int,
        *,
        by_time: timedelta | None = None,
        until: datetime | None = None,
        by: str = "cli",
    ) -> Reply:
        return await self._gm(by, lambda tx, a: gm.extend(tx, a, game_id, by=by_time, until=until))

    async def resolve_now(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.resolve_now(tx, a, game_id))

    async def rollback(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.rollback(tx, a, game_id))

    async def warn(self, game_id: int, side: str, reason: str = "", *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.warn(tx, a, game_id, side, reason))

    async def penalty(self, game_id: int, side: str, tick: int = 1, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.penalty(tx, a, game_id, side, tick))

    async def substitute(
        self, game_id: int, side: str, out_number: int, in_number: int, *, by: str = "cli"
    ) -> Reply:
        return await self._gm(
            by, lambda tx, a: gm.substitute(tx, a, game_id, side, out_number, in_number)
        )

    async def end(self, game_id: int, reason: str = "", *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.end(tx, a, game_id, reason))

    async def announce(self, game_id: int, text: str, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm.announce(tx, a, game_id, text))

    async def link_team_chat(
        self, game_id: int, side: str, chat: str, thread: str | None = None, *, by: str = "cli"
    ) -> Reply:
        return await self._gm(
            by, lambda tx, a: gm_setup.link_team_chat(tx, a, game_id, side, chat, thread)
        )

    async def set_channel(
        self, game_id: int, chat: str | None, thread: str | None = None, *, by: str = "cli"
    ) -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.set_channel(tx, a, game_id, chat, thread))

    # ------------------------------------------------------------ deadlines
    async def resolve_due(self, now: datetime | None = None) -> list[rounds.Resolution]:
        """Resolve every round whose deadline has passed, oldest first, each
        exactly once; a game that missed several deadlines catches up one round
        per deadline.  A game whose resolution fails is skipped this pass.

        A round waits until every channel has read what reached it before the
        deadline (:mod:`bot.service.watermark`), at most the grace; messages
        stored before it and not yet worked on are worked on first."""
        when = now or self.clock.now()
        done: list[rounds.Resolution] = []
        skipped: set[int] = set()  # failed, or waiting for a channel
        self.waiting_until = None
        while True:
            found = await self._tx(lambda tx: repo.due_rounds(tx.s, when), when)
            due = [(g, r, d) for g, r, d in found if g not in skipped]
            if not due:
                if done:
                    self._changed()
                return done
            shared = self.shared_marks
            if shared is not None and self.watermarks.lagging(min(d for _, _, d in due)):
                await shared.load()  # read by another process, perhaps
            ready, lagged = self._past_the_watermark(due, when, skipped)
            if ready:
                await self.recover(received_before=max(d for _, _, d in ready))
            if shared is not None and len(ready) > 1:
                # Other processes resolve the same list: each starts somewhere else,
                # and skips the games another is resolving right now (SKIP LOCKED).
                turn = random.randrange(len(ready))
                ready = ready[turn:] + ready[:turn]
            for game_id, round_id, _deadline in ready:
                try:
                    result = await self._tx(
                        partial(
                            rounds.resolve, game_id=game_id, round_id=round_id,
                            skip_locked=shared is not None,
                        ),
                        when,
                    )  # fmt: skip
                except Exception as exc:  # an engine bug must not stop the other games
                    log.exception("resolving a round failed", game=game_id, round_id=round_id)
                    skipped.add(game_id)
                    await self._tx(
                        partial(rounds.report_failure, game_id=game_id, error=repr(exc)), when
                    )
                    continue
                if result is None and shared is not None:
                    # Resolved meanwhile, or locked by another process: look again soon.
                    skipped.add(game_id)
                    self._wait_until(when + shared.recheck)
                if result is not None:
                    done.append(result)
                    if game_id in lagged:
                        await self._tell_lag(result.round_number, game_id, lagged[game_id])

    def _past_the_watermark(
        self, due: list[tuple[int, int, datetime]], when: datetime, skipped: set[int]
    ) -> tuple[list[tuple[int, int, datetime]], dict[int, list[str]]]:
        """The due rounds every channel has been read for (or whose grace is over,
        with the channels that lagged); the others wait (``waiting_until``)."""
        marks = self.watermarks
        ready: list[tuple[int, int, datetime]] = []
        lagged: dict[int, list[str]] = {}
        for game_id, round_id, deadline in due:
            if deadline > when or not marks.channels:  # both teams ready: no deadline to wait for
                ready.append((game_id, round_id, deadline))
                continue
            lag = marks.lagging(deadline)
            if not lag:
                ready.append((game_id, round_id, deadline))
                continue
            give_up = marks.give_up_at(deadline)
            if when >= give_up:
                log.warning("resolving although a channel lags", game=game_id, channels=lag)
                lagged[game_id] = lag
                ready.append((game_id, round_id, deadline))
                continue
            # Ask the readers once the margin is over (a read started earlier proves
            # nothing); then wait for them (their mark wakes us) or for the grace.
            wake = deadline + marks.margin
            if when >= wake:
                marks.ask(lag, deadline)
                wake = give_up
                if self.shared_marks is not None:  # its reader may run in another process
                    wake = min(wake, when + self.shared_marks.recheck)
            self._wait_until(wake)
            skipped.add(game_id)
        return ready, lagged

    def _wait_until(self, wake: datetime) -> None:
        self.waiting_until = wake if self.waiting_until is None else min(self.waiting_until, wake)

    async def _tell_lag(self, number: int, game_id: int, channels: list[str]) -> None:
        await self.alert_game_masters(
            "gm_alert_channel_lag", game_id, game=f"DB-{game_id}", round=number,
            channels=", ".join(channels),
            minutes=max(1, int(self.watermarks.grace.total_seconds() // 60)),
        )  # fmt: skip

    async def send_reminders(self, now: datetime | None = None) -> int:
        when = now or self.clock.now()
        lead = self.settings.reminder_before
        if lead <= timedelta(0) or not self.reminding():
            return 0
        todo = await self._tx(lambda tx: repo.reminder_rounds(tx.s, when + lead), when)
        sent = 0
        for game_id, round_id in todo:
            sent += await self._tx(
                partial(members.remind, game_id=game_id, round_id=round_id), when
            )
        if sent:
            self._changed()
        return sent

    async def next_deadline(self) -> datetime | None:
        return await self._tx(lambda tx: repo.next_deadline(tx.s))

    async def run_due(self, now: datetime) -> datetime | None:
        """One pass of the scheduler: resolve, remind; returns when to look again."""
        await self.resolve_due(now)
        await self.send_reminders(now)

        def upcoming(tx: Tx) -> datetime | None:
            deadline = repo.next_deadline(tx.s)
            lead = self.settings.reminder_before
            remind = (
                [d - lead for _, d in repo.unreminded_deadlines(tx.s)]
                if lead > timedelta(0)
                else []
            )
            times = [x for x in [deadline, *remind, self.waiting_until] if x is not None]
            return min(times) if times else None

        return await self._tx(upcoming, now)

    async def position(self, game_id: int) -> MatchState | None:
        """The position of the game before its current round (None before the start)."""

        def load(tx: Tx) -> MatchState | None:
            game = repo.get_game(tx.s, game_id)
            rnd = rounds.current_round(tx, game) if game is not None else None
            return rounds.load_state(tx, rnd) if rnd is not None else None

        return await self._tx(load)

    async def resolved_rounds(self, game_id: int) -> list[int]:
        """Numbers of the game's resolved rounds (rolled-back attempts excluded)."""
        return await self._tx(lambda tx: [r.number for r in repo.resolved_rounds(tx.s, game_id)])

    async def played_rounds(self, game_id: int) -> list[tuple[int, int]]:
        """(number, attempt) of every round played, rolled-back attempts included."""
        return await self._tx(
            lambda tx: [(r.number, r.attempt) for r in repo.played_rounds(tx.s, game_id)]
        )

    async def verify(self, game_id: int, number: int, attempt: int | None = None) -> Verification:
        """Rerun a resolved round (or one attempt of it) from the stored position,
        orders and seed."""
        return await self._tx(lambda tx: rounds.verify(tx, game_id, number, attempt))

    # ------------------------------------------------------------ outbox
    async def pending_outbox(self, channel: str, limit: int = 20) -> list[OutboxItem]:
        """Claim up to ``limit`` due messages of ``channel`` for delivery (see
        :func:`bot.service.delivery.claim`)."""
        return await self._tx(partial(delivery.claim, channel=channel, limit=limit))

    async def take_over(self, worker_id: str, stale_after: timedelta) -> int:
        """Register this process as an outbox worker and take back the claims of
        workers that are gone (:mod:`bot.service.workers`); returns how many."""

        def run(tx: Tx) -> int:
            me = workers.register(tx.s, worker_id, tx.now)
            return workers.take_over_dead(tx.s, me, tx.now, stale_after)

        taken = await self._tx(run)
        self.owner = worker_id
        if taken:
            self._changed()
        return taken

    async def worker_seen(self, worker_id: str) -> None:
        await self._tx(lambda tx: workers.seen(tx.s, worker_id, tx.now))

    async def worker_gone(self, worker_id: str) -> None:
        """A clean stop: hand back this worker's claims."""
        if self.owner == worker_id:
            self.owner = None
        await self._tx(lambda tx: workers.release(tx.s, worker_id, tx.now))

    async def mark_sent(self, outbox_id: int) -> bool:
        """Record a delivery; False if it was already recorded (never twice)."""
        return await self._tx(partial(delivery.mark_sent, outbox_id=outbox_id))

    async def mark_part(self, outbox_id: int, part: str) -> bool:
        """Record one part of an item as delivered, in a transaction of its own
        (see :class:`bot.service.ports.PartLog`)."""
        return await self._tx(partial(delivery.mark_part, outbox_id=outbox_id, part=part))

    async def mark_failed(self, outbox_id: int, result: DeliveryResult) -> str:
        """Schedule a retry, or give up and tell the game masters; returns the new state."""
        return await self._tx(partial(delivery.mark_failed, outbox_id=outbox_id, result=result))
