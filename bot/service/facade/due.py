"""Rounds that fall due: resolving them past the watermark, reminders, stored rounds read back."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import partial

from bot.logging import get_logger
from engine.state import MatchState
from storage import repo

from ..handlers import members
from ..kernel.context import Tx
from ..rounds import resolve as rounds
from ..rounds.fairness import Verification
from .messages import Messages

log = get_logger(__name__)


class DueRounds(Messages):
    # ------------------------------------------------------------ deadlines
    async def resolve_due(self, now: datetime | None = None) -> list[rounds.Resolution]:
        """Resolve every round whose deadline has passed, oldest first, each
        exactly once; a game that missed several deadlines catches up one round
        per deadline.  A game whose resolution fails is skipped this pass.

        A round waits until every channel has read what reached it before the
        deadline (:mod:`bot.service.runtime.watermark`), at most the grace; messages
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
