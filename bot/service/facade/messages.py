"""Messages in: storing, carrying out and answering them; the members they come from."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from functools import partial

from bot.logging import get_logger
from storage import repo
from storage.models import InboundMessage, Member

from ..handlers import members
from ..inbound import commands
from ..inbound import receive as inbound
from ..kernel import notify
from ..kernel.api import Inbound, MemberInfo, OutboxItem, Reply
from ..kernel.context import Tx
from ..kernel.i18n import lang_or_default, t
from ..kernel.outcome import Outcome
from .core import ServiceCore

log = get_logger(__name__)


# Reading an order message before the write transaction (``_plan``) keeps the
# reading out of the write lock, but costs a read transaction of its own (the
# writer, his game, his role, the round and the orders on file, all asked
# again under the lock).  A typical message (a dozen lines) reads in well
# under a millisecond, less than that transaction costs: only a long one —
# a game master's sheets for both teams — is read beforehand.
PLAN_MIN_CHARS = 2000


class Messages(ServiceCore):
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
        """Queue the text ``key`` (of :mod:`bot.service.kernel.i18n`) to the game's masters
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

    async def tell_member(
        self, member_id: int, key: str, subject_key: str, **params: object
    ) -> tuple[int, ...]:
        """Queue the text ``key`` to a member himself: by mail to his registered
        address and, when he has linked Telegram, in his private chat there
        (the e-mail lock's unlock code reaches him either way: bot.mail.adapter)."""

        def send(tx: Tx) -> tuple[int, ...]:
            member = tx.s.get(Member, member_id)
            if member is None:
                return ()
            lang = lang_or_default(member.lang)
            dests = [notify.Destination("email", member.email, lang)] if member.email else []
            if member.telegram_user_id is not None:
                dests.append(notify.Destination("telegram", str(member.telegram_user_id), lang))
            return tuple(
                notify.queue(
                    tx, dest, "notice", t(key, lang, **params), subject=t(subject_key, lang)
                )
                for dest in dests
            )

        ids = await self._tx(send)
        self._changed()
        return ids
