"""The demo: one whole match through the real judge, on a fast clock.

Everything a real match goes through is used as in production — the
database with its migrations, :class:`~bot.service.GameService` with the
reporter that draws the diagrams, the :class:`~bot.service.OutboxWorker` —
only the clock is a :class:`~bot.service.FakeClock` moved from deadline to
deadline, and both channels are a :class:`TranscriptChannel`.  The two
captains are bots: each round a built-in policy (``engine.policies``)
decides their team's orders, which are printed in the order language and
sent as a private Telegram message, exactly as a player's would be.

The demo seed decides everything random: the dice (through
``ServiceSettings.seed_source``) and the bots' choices, so the same seed
plays the same match.  No click here: :mod:`bot.commands.demo` is the
command line around :func:`run_demo`.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial

from bot.i18n import t
from bot.orderlang import format_orders
from bot.render import match_summary
from bot.service import (
    FakeClock,
    GameService,
    Inbound,
    OutboxWorker,
    RenderReporter,
    Reply,
    ServiceSettings,
)
from bot.service.kernel.context import Tx
from bot.service.rounds.replay import replay_pages
from engine.dice import derive_seed
from engine.events import Kind
from engine.geometry import SIDES, Side
from engine.policies import POLICIES
from engine.ruleset import Ruleset, load_ruleset
from storage.db import Database
from storage.schema import upgrade

from . import cast, record
from .folder import DemoFolder
from .mailbox import DemoMailbox, MailOptions, MailReceived
from .texts import stopped_title
from .transcript import TranscriptChannel

__all__ = [
    "CAPTAINS",
    "DEFAULT_SEED",
    "PUBLIC_CHANNEL",
    "DemoError",
    "DemoOptions",
    "DemoResult",
    "MailInvite",
    "RoundProgress",
    "run_demo",
]

DEFAULT_SEED = "2026"
PUBLIC_CHANNEL = "@dragonball_demo"
# Made-up Telegram user ids of the two captains (their private chats have the same ids).
CAPTAINS: dict[Side, int] = {"left": 1001, "right": 2001}
MAIL_PLAYER = 7  # with --mail, a person by e-mail plays this shirt number of the left team
# Monday 2 March 2026, 12:00 UTC: the first deadline is 21:00 in Moscow that day.
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


class DemoError(RuntimeError):
    """The judge answered the demo in a way a working judge never would."""


@dataclass(frozen=True)
class DemoOptions:
    folder: DemoFolder
    rounds: int | None = None  # None: the ruleset's last round (the match may end earlier)
    seed: str = DEFAULT_SEED
    lang: str = "ru"
    force: bool = False  # write into a non-empty folder that is not demo output
    policies: tuple[str, str] = ("greedy", "greedy")  # left, right
    start: datetime = START
    mail: MailOptions | None = None  # a local SMTP inbox for a person's mail
    ruleset: str = "classic"  # the edition the match plays ("variant-001": the second)


@dataclass(frozen=True)
class RoundProgress:
    """What the progress display shows after each round."""

    number: int
    total: int  # rounds the demo will play at most
    teams: tuple[str, str]
    score: tuple[int, int]
    goals: int  # goals in this round
    verified: bool


@dataclass(frozen=True)
class MailInvite:
    """What a person needs to play by mail in the demo."""

    host: str
    port: int
    game: str  # "DB-1": the subject tag
    code: str  # invitation code for /start
    team: str
    number: int
    player: str
    wait: float


@dataclass(frozen=True)
class DemoResult:
    game: str  # "DB-1"
    seed: str
    teams: tuple[str, str]
    score: tuple[int, int]
    rounds: int  # rounds resolved
    end_reason: str | None  # the engine's (§1), None when the demo stopped the match
    verified: int  # rounds whose rerun matched their commitment and digest
    failed: tuple[int, ...]  # rounds that did not
    seconds: float
    summary: str  # the match summary (bot.render.match_summary), also reports/summary.txt
    folder: DemoFolder
    delivered: dict[str, int] = field(default_factory=dict)  # outbox items by kind

    @property
    def all_verified(self) -> bool:
        return not self.failed and self.verified == self.rounds


@dataclass
class _Demo:
    """The wired judge of one demo run and the people in it."""

    options: DemoOptions
    db: Database
    clock: FakeClock
    service: GameService
    worker: OutboxWorker
    transcript: TranscriptChannel
    ruleset: Ruleset
    game_id: int = 0
    mailbox: DemoMailbox | None = None
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def gm(self, op: Awaitable[Reply]) -> Reply:
        """A step of the local operator (the game master), which must succeed."""
        reply = await op
        if reply.status != "ok":
            raise DemoError(f"the judge refused a game master's step: {reply.text}")
        return reply

    async def say(self, side: Side, text: str) -> Reply:
        """A private Telegram message of a captain; it must be accepted whole,
        and the judge's answer is delivered before anything else happens."""
        user = str(CAPTAINS[side])
        msg = Inbound(
            channel="telegram",
            external_id=f"{user}:{next(self._ids)}",
            sender=user,
            text=text,
            raw=text.encode(),
            received_at=self.clock.now(),
            chat=user,
            # As a Telegram client tells it: the captain's app speaks the demo's language.
            meta={
                "name": cast.captain_name(side, self.options.lang),
                "language_code": self.options.lang,
            },
        )
        self.transcript.incoming(msg)
        reply = await self.service.receive(msg)
        if reply.status != "ok":
            raise DemoError(
                f"the judge did not accept the {side} captain's message ({reply.status}):\n"
                f"{text}\n---\n{reply.text}"
            )
        # The answer goes out at once, as the real worker sends it within seconds.
        await self.deliver()
        return reply

    async def deliver(self) -> None:
        """Hand everything queued to the transcript, until the outbox is empty."""
        while sum([await self.worker.drain(name) for name in self.worker.channels]):
            pass
        self.transcript.flush()

    async def resolved(self, number: int) -> bool:
        return number in await self.service.resolved_rounds(self.game_id)


async def run_demo(
    options: DemoOptions,
    on_round: Callable[[RoundProgress], None] | None = None,
    *,
    on_mail_ready: Callable[[MailInvite], None] | None = None,
    on_mail: Callable[[MailReceived], None] | None = None,
) -> DemoResult:
    """Play the demo match into ``options.folder``; ``on_round`` hears of every
    round; with ``options.mail``, ``on_mail_ready`` gets what a person needs to
    join by mail and ``on_mail`` hears of every mail received.

    Raises :class:`~bot.demo.folder.FolderError` for an unusable folder and
    :class:`DemoError` if the judge misbehaves.
    """
    began = time.perf_counter()
    folder = options.folder
    folder.prepare(force=options.force, lang=options.lang)
    db = Database(f"sqlite:///{folder.database.resolve()}")
    demo: _Demo | None = None
    try:
        upgrade(db)  # what `dragonball db upgrade` does
        demo = _wire(options, db)
        await _set_up(demo)
        if options.mail is not None:
            demo.mailbox = await _open_mailbox(demo, options.mail, on_mail_ready, on_mail)
        played, failed = await _play(demo, on_round)
        state = await asyncio.to_thread(record.position_after_last_round, db, demo.game_id)
        if state is None:
            raise DemoError("no round of the demo game was resolved")
        if not state.ended:  # stopped by --rounds: the game master ends it
            await demo.gm(demo.service.end(demo.game_id, stopped_title(played, options.lang)))
            await demo.deliver()
        events = await asyncio.to_thread(record.all_events, db, demo.game_id)
        summary = match_summary(events, state, demo.ruleset, lang=options.lang)
        if not state.ended:  # its title would say the match goes on
            summary = stopped_title(played, options.lang) + summary[summary.index("\n") :]
        folder.write_summary(summary)
        await demo.service.read(partial(_write_replay, folder, demo.game_id, options.lang))
    finally:
        if demo is not None:
            demo.transcript.flush()
        if demo is not None and demo.mailbox is not None:
            await demo.mailbox.close()
        db.dispose()
    left, right = state.teams
    return DemoResult(
        game=f"DB-{demo.game_id}",
        seed=options.seed,
        teams=(left.name, right.name),
        score=(left.score, right.score),
        rounds=played,
        end_reason=state.end_reason if state.ended else None,
        verified=played - len(failed),
        failed=tuple(failed),
        seconds=time.perf_counter() - began,
        summary=summary,
        folder=folder,
        delivered=dict(demo.transcript.delivered),
    )


def _wire(options: DemoOptions, db: Database) -> _Demo:
    """The composition of bot/app.py, with a fast clock and the transcript as channels."""
    if options.lang not in ("ru", "en"):
        raise ValueError(f"lang must be ru or en, not {options.lang!r}")
    clock = FakeClock(options.start)
    settings = ServiceSettings(
        lang=options.lang,
        ruleset=options.ruleset,
        channel_chat=PUBLIC_CHANNEL,
        # Reproducible dice: each seed of the judge derived from the demo seed.
        seed_source=partial(_service_seed, options.seed),
    )
    service = GameService(db, settings, reporter=RenderReporter(), clock=clock)
    transcript = TranscriptChannel(
        options.folder.transcript, public=PUBLIC_CHANNEL, now=clock.now, lang=options.lang
    )
    worker = OutboxWorker(service, {"telegram": transcript, "email": transcript}, clock)
    ruleset = load_ruleset(settings.ruleset)
    return _Demo(options, db, clock, service, worker, transcript, ruleset)


def _service_seed(demo_seed: str, purpose: str) -> str:
    return derive_seed(demo_seed, f"judge/{purpose}")


async def _set_up(demo: _Demo) -> None:
    """Game, teams, players and captains, as a game master and two players would."""
    service, lang = demo.service, demo.options.lang
    title = t("demo.game_title", lang)
    created = await demo.gm(service.create_game(title=title, lang=lang))
    assert created.game_id is not None
    demo.game_id = game = created.game_id
    for side in SIDES:
        await demo.gm(service.add_team(game, side, cast.team_name(side, lang)))
        for name in cast.roster(side, lang)[: demo.ruleset.players_per_team]:
            await demo.gm(service.add_player(game, side, name))
    for side in SIDES:
        invited = await demo.gm(service.invite(game, "captain", side=side))
        await demo.say(side, f"/start {invited.data['code']}")
    await demo.gm(service.start(game))
    await demo.deliver()


async def _open_mailbox(
    demo: _Demo,
    mail: MailOptions,
    on_ready: Callable[[MailInvite], None] | None,
    on_mail: Callable[[MailReceived], None] | None,
) -> DemoMailbox:
    """Invite a person to play one left player by mail and open the SMTP inbox."""
    from bot.mail.adapter import MailAdapter

    invited = await demo.gm(
        demo.service.invite(demo.game_id, "player", side="left", players=(MAIL_PLAYER,))
    )
    adapter = MailAdapter(demo.service, now=demo.clock.now)
    mailbox = DemoMailbox(adapter, demo.transcript, on_mail)
    port = await mailbox.start(mail.host, mail.port)
    if on_ready is not None:
        on_ready(
            MailInvite(
                host=mail.host,
                port=port,
                game=f"DB-{demo.game_id}",
                code=str(invited.data["code"]),
                team=cast.team_name("left", demo.options.lang),
                number=MAIL_PLAYER,
                player=cast.roster("left", demo.options.lang)[MAIL_PLAYER - 1],
                wait=mail.wait,
            )
        )
    return mailbox


async def _play(
    demo: _Demo, on_round: Callable[[RoundProgress], None] | None
) -> tuple[int, list[int]]:
    """Round after round until the match ends or the demo's rounds are played;
    returns the rounds played and those whose verification failed."""
    opts, service, rules = demo.options, demo.service, demo.ruleset
    total = min(opts.rounds or rules.max_rounds, rules.max_rounds)
    policies = dict(zip(SIDES, (POLICIES[p] for p in opts.policies), strict=True))
    failed: list[int] = []
    played = 0
    for number in range(1, total + 1):
        state = await service.position(demo.game_id)
        if state is None or state.round != number:
            raise DemoError(f"round {number} is not open (the judge is at {state and state.round})")
        policy_seed = derive_seed(opts.seed, f"policy/round{number}")
        for side in SIDES:
            orders = cast.describe(policies[side](state, rules, side, policy_seed), opts.lang)
            if opts.mail is not None and side == "left":
                # The person plays this one by mail: his captain leaves him alone, or
                # a captain's sheet stored after the person's mail would replace it.
                orders = replace(
                    orders, players=tuple(o for o in orders.players if o.number != MAIL_PLAYER)
                )
            await demo.say(side, format_orders(orders, state=state, ruleset=rules, lang=opts.lang))
        if opts.mail is not None:
            await _wait_for_mail(demo, number, opts.mail.wait)
        if not await demo.resolved(number):
            await _pass_deadline(demo, number)
        played = number
        check = await service.verify(demo.game_id, number)
        if not check.ok:
            failed.append(number)
        await demo.deliver()
        _file_round(demo, number)
        after = await asyncio.to_thread(record.position_after_last_round, demo.db, demo.game_id)
        assert after is not None
        if on_round is not None:
            events = await asyncio.to_thread(record.last_round_events, demo.db, demo.game_id)
            left, right = after.teams
            on_round(
                RoundProgress(
                    number=number,
                    total=total,
                    teams=(left.name, right.name),
                    score=(left.score, right.score),
                    goals=sum(1 for e in events if e.kind == Kind.GOAL),
                    verified=check.ok,
                )
            )
        if after.ended:
            break
    return played, failed


async def _pass_deadline(demo: _Demo, number: int) -> None:
    """Move the fast clock to the round's deadline and let the scheduler's pass run."""
    deadline = await demo.service.next_deadline()
    if deadline is None:
        raise DemoError(f"round {number} has no deadline")
    await demo.clock.set(max(deadline, demo.clock.now()))
    await demo.service.run_due(demo.clock.now())
    if not await demo.resolved(number):
        raise DemoError(f"round {number} was not resolved at its deadline")


async def _wait_for_mail(demo: _Demo, number: int, seconds: float) -> None:
    """Serve the SMTP inbox for up to ``seconds`` of real time, delivering the
    answers as they come.  Once the person has joined, the captains say /ready,
    so the person's own /ready plays the round at once (a team is ready when
    all its members are) and ends the wait."""
    until = time.monotonic() + seconds
    captains_ready = False
    while time.monotonic() < until:
        await asyncio.sleep(min(0.2, max(0.0, until - time.monotonic())))
        if not captains_ready and await _person_joined(demo):
            for side in SIDES:
                await demo.say(side, "/ready")
            captains_ready = True
        await demo.service.run_due(demo.clock.now())  # resolves only a ready round
        await demo.deliver()
        if await demo.resolved(number):
            return


async def _person_joined(demo: _Demo) -> bool:
    """Has someone who wrote to the inbox become a member of the demo game?"""
    if demo.mailbox is None:
        return False
    for address in sorted(demo.mailbox.senders):
        info = await demo.service.member_by_email(address)
        if info is not None and any(g == demo.game_id for g, *_ in info.memberships):
            return True
    return False


def _file_round(demo: _Demo, number: int) -> None:
    results = demo.transcript.public_results
    if len(results) != 1:
        raise DemoError(
            f"expected the results of round {number} once in the public channel, got {len(results)}"
        )
    demo.options.folder.file_round(number, results.pop())


def _write_replay(folder: DemoFolder, game_id: int, lang: str, tx: Tx) -> None:
    """The match's replay as static pages that open from the demo folder."""
    target = folder.replay
    target.mkdir(exist_ok=True)
    for name, html in replay_pages(tx, game_id, lang).items():
        (target / name).write_text(html, encoding="utf-8")
