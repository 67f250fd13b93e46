"""The privacy sweep: every command × every chat kind × every role × several
moments of a round, and not one answer or post shows a reader what he may not
see (issue 15).

Secrets are planted as markers that nothing else produces: each team's orders
of the open round (their canonical lines, free-text descriptions no other text
has, the dragon's fire), who of a team has not ordered yet, the spell of each
team's enchanted passes, and the cell of the vanished yellow ball.  After every
command every text the judge queued since — the answer in place, private copies,
reports and notices to other audiences — is searched for the markers its
readers may not see.  Who reads a destination is worked out here, from the
test's own table of people and chats, not by bot/service/kernel/audience.py.

The commands come from the command registry (``commands.COMMANDS`` and
``GM_COMMANDS``), so a new command is swept without a word here; ``ARGS``
only gives some of them arguments that reach further than a usage message.
Every combination starts from the moment's saved database, so one command's
effect (a resolution, a revoked membership, a cleared sheet) does not change
what the next one is tried on.  The count of combinations is printed in the
terminal summary (tests/service/conftest.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import re
import shutil
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text as sql
from sqlmodel import select
from support.service_table import GM, Table, make_table, set_up_game
from support.sweep_count import SWEEP_COUNT, SweepCount

from bot.i18n import t
from bot.service import Reply
from bot.service.inbound.commands import COMMANDS, GM_COMMANDS
from bot.service.kernel.context import Tx
from bot.service.kernel.positions import PositionCache
from bot.service.orders import submit as ordering
from bot.service.rounds import resolve as rounds
from engine.geometry import SIDES, neighbours
from engine.state import MatchState, PlayerRef
from storage.db import Database
from storage.models import Game, Member, OutboxRow, Team, metadata

LEFT_GROUP, RIGHT_GROUP, CHANNEL = "-100500", "-100600", "-100800"
OUTSIDER = 401
ROLES = {"outsider": OUTSIDER, "player": 202, "captain": 201, "gm": GM, "other_captain": 301}
SIDE_OF = {201: "left", 202: "left", 301: "right"}
EMAIL = {
    201: "c.left@team.example",
    202: "p.left@team.example",
    301: "c.right@team.example",
    GM: "gm@judge.example",
    OUTSIDER: "stranger@nowhere.example",
}
CHATS = ("private", "own_group", "other_group", "channel", "email")
VANISHED_CELL, VANISHED_HEIGHT = 204, 1  # five cells from anyone: nothing else names it
SPELLS = {"left": "trullis-zapullis", "right": "figus-zatsapus"}

# Arguments that take a command past its usage line; "{code}" is the left
# player's invitation, "{game}" the game's code.  A command not named here is
# tried without arguments.
ARGS: dict[str, tuple[str, ...]] = {
    "orders": ("", "left", "right"),
    "verify": ("1",),
    "lang": ("en",),
    "start": ("", "{code}"),
    "game": ("{game}",),
    "passphrase": ("совсем тайная фраза",),
    "newgame": ("Ещё кубок",),
    "addteam": ("left Новые",),
    "addplayer": ("left Новичок",),
    "invite": ("player left 3", "captain right someone@else.example"),
    "revoke": ("{code}",),
    "deadline": ("22:00",),
    "lateorders": ("next",),
    "pause": ("гроза",),
    "extend": ("2h",),
    "warn": ("right грубость",),
    "penalty": ("right 1",),
    "substitute": ("left 2 3",),
    "endgame": ("конец",),
    "announce": ("Всем привет",),
    "linkchat": ("left",),
    "setchannel": ("",),
}
ORDERS = "<orders>"  # not a command: the role's own team's orders, as a message


# ------------------------------------------------------------------ the secrets
@dataclass
class Secrets:
    """What only some readers may see at one moment."""

    orders: dict[str, list[str]] = field(default_factory=dict)  # side → marker texts
    readiness: dict[str, list[str]] = field(default_factory=dict)  # side → status lines
    spells: dict[str, list[str]] = field(default_factory=dict)  # side → its spell's spellings
    vanished: re.Pattern[str] | None = None
    every_spell: list[list[str]] = field(default_factory=list)  # the ruleset's, each spelling
    round: int = 1  # the round whose orders are the order markers

    def leaks(self, text: str, sides: frozenset[str], all_seeing: bool) -> list[str]:
        found = []
        listing = all(
            any(re.search(_spelling(s), text, re.I) for s in pair) for pair in self.every_spell
        )
        for side in SIDES:
            if side in sides:
                continue
            for marker in self.orders.get(side, []) + self.readiness.get(side, []):
                if marker.lower() in text.lower():
                    found.append(f"{side} secret {marker!r}")
            if not listing:  # the rules list every spell; that names nobody's
                for spell in self.spells.get(side, []):
                    if re.search(_spelling(spell), text, re.I):
                        found.append(f"{side} spell {spell!r}")
        if not all_seeing and self.vanished is not None:
            for m in self.vanished.finditer(text):
                found.append(
                    f"the vanished ball's cell: …{text[max(0, m.start() - 80) : m.end() + 40]!r}"
                )
        return found


def _spelling(spell: str) -> str:
    """A spell as a pattern: any dash or a space between its halves."""
    return r"[\s\u2010-\u2015-]".join(re.escape(half) for half in re.split(r"[-\s]", spell))


# A player's line ("Иванов: 37 в3, …") or the dragon's, as the judge prints orders.
ORDER_LINE = re.compile(r"^(?:[^\W\d]+: \d+ |(?:Дракон|Dragon): )")


def _in_tx(table: Table, fn):  # type: ignore[no-untyped-def]
    with table.db.transaction() as s:
        return fn(table.service._new_tx(s))


def _order_markers(table: Table, side: str) -> list[str]:
    """The team's orders on file as the judge prints them, line by line, in
    both languages (the round header aside), and the descriptions in them."""

    def lines(tx: Tx) -> list[str]:
        out = []
        for lang in ("ru", "en"):
            sheet = ordering.sheet(tx, table.game_id, frozenset({side}), lang)
            for line in sheet.splitlines():
                order, _, description = line.strip(" ✎").partition(" // ")
                if ORDER_LINE.match(order):
                    out += [order, description] if description else [order]
        return out

    markers = _in_tx(table, lines)
    assert any(m.startswith("тайна-") for m in markers), markers  # the orders are on file
    return markers


def _readiness_markers(team: str) -> list[str]:
    out = []
    for lang in ("ru", "en"):
        missing = t("status_missing", lang, team=team, players="\x00")
        out += [missing.split("\x00")[0], t("status_all_ordered", lang, team=team)]
    return out


def _every_spell(table: Table) -> list[list[str]]:
    ruleset = rounds.ruleset_of(table.game())
    return [[p.spell, p.spell_ru] for p in ruleset.spells]


def _spell_markers(table: Table, side: str) -> list[str]:
    ruleset = rounds.ruleset_of(table.game())
    pair = next(p for p in ruleset.spells if p.spell == SPELLS[side])
    return [pair.spell, pair.spell_ru]


# ------------------------------------------------------------------ who reads what
@dataclass(frozen=True)
class Readers:
    """What the readers of one destination may see (the test's own reckoning)."""

    sides: frozenset[str]
    all_seeing: bool = False


def _person(user: int) -> Readers:
    if user == GM:
        return Readers(frozenset(SIDES), True)
    side = SIDE_OF.get(user)
    return Readers(frozenset({side} if side else ()))


def readers_of(channel: str, address: str) -> Readers:
    if channel == "email":
        owner = next((u for u, a in EMAIL.items() if a == address.lower()), None)
        return _person(owner) if owner is not None else Readers(frozenset())
    groups = {LEFT_GROUP: frozenset({"left"}), RIGHT_GROUP: frozenset({"right"})}
    if address in groups:
        return Readers(groups[address])
    if address.lstrip("-").isdigit() and not address.startswith("-"):
        return _person(int(address))
    return Readers(frozenset())  # the public channel, any other group


def texts_of(row: OutboxRow) -> list[str]:
    """Every text of a queued message a reader gets: body, subject, HTML (with
    its image alt texts), button labels."""
    out = [row.text or "", row.subject or "", row.html or ""]
    out += [str(label) for label, *_ in row.buttons]
    return out


# ------------------------------------------------------------------ the moments
def _seed(purpose: str) -> str:
    """The same dice in every run: a leak the sweep finds, it finds again."""
    return hashlib.sha256(f"privacy sweep {purpose}".encode()).hexdigest()


def _order_text(state: MatchState, side: str, moves: dict[int, str], dragon: str) -> str:
    lines = ["Такт 1"]
    for number, order in moves.items():
        lines.append(f"{state.player(side, number).name}: {order}")  # type: ignore[arg-type]
    lines.append(f"Дракон: {dragon}")
    return "\n".join(lines)


def _held(state: MatchState, side: str, number: int, ball: str) -> MatchState:
    p = state.player(side, number)  # type: ignore[arg-type]
    balls = tuple(
        dataclasses.replace(b, status="held", holder=PlayerRef(side, number), cell=p.cell,  # type: ignore[arg-type]
                            height=p.height)
        if b.name == ball else b
        for b in state.balls
    )  # fmt: skip
    players = tuple(dataclasses.replace(q, balls=(ball,)) if q is p else q for q in state.players)
    return dataclasses.replace(state, balls=balls, players=players)


def _in_flight(state: MatchState, side: str, number: int, ball: str, to: int) -> MatchState:
    """An enchanted pass of ``side`` in the air, landing on tick 1."""
    p = state.player(side, number)  # type: ignore[arg-type]
    balls = tuple(
        dataclasses.replace(
            b, status="free", cell=p.cell, height=p.height, pass_to=(to, p.height),
            passer=PlayerRef(side, number), spell=SPELLS[side], enchanted_by=side,  # type: ignore[arg-type]
            pass_ticks_left=2,
        )
        if b.name == ball else b
        for b in state.balls
    )  # fmt: skip
    return dataclasses.replace(state, balls=balls)


def _vanished(state: MatchState) -> MatchState:
    balls = tuple(
        dataclasses.replace(b, status="vanished", cell=VANISHED_CELL, height=VANISHED_HEIGHT)
        if b.name == "yellow" else b
        for b in state.balls
    )  # fmt: skip
    return dataclasses.replace(state, balls=balls)


@dataclass
class Moment:
    name: str
    path: Path  # the saved database
    game_id: int
    codes: dict[str, str]
    secrets: Secrets
    baseline: int  # outbox rows of the setup, checked once


async def _base(folder: Path) -> Table:
    """Two teams with a group each, the public channel, the people of ROLES
    (e-mail addresses too), the game started."""
    db = Database(f"sqlite:///{folder / 'base.db'}")
    metadata.create_all(db.engine)
    table = make_table(db, seed_source=_seed)
    await set_up_game(table)
    for text in (f"/linkchat left {LEFT_GROUP}", f"/linkchat right {RIGHT_GROUP}",
                 f"/setchannel {CHANNEL}"):  # fmt: skip
        assert (await table.say(GM, text)).status == "ok", text
    with db.transaction() as s:
        for user, address in EMAIL.items():
            member = s.exec(select(Member).where(Member.telegram_user_id == user)).first()
            if member is not None and user != GM:
                member.email = address
                s.add(member)
    return table


async def _orders(table: Table, round_: int, spells: bool) -> None:
    """Both teams file orders full of markers; the left's pass is enchanted."""
    state = table.state()
    tag = f"р{round_}"
    left_moves = {2: f"{_step(state, 'left', 2)} в3 // тайна-левых-{tag}"}
    right_moves = {2: f"{_step(state, 'right', 2)} в1 // тайна-правых-{tag}"}
    if spells:
        ivanov, sokolov = state.player("left", 1), state.player("right", 1)
        left_moves[1] = (
            f"{ivanov.cell} в{ivanov.height}, пас красный -> {_step(state, 'left', 1)} "
            f"в{ivanov.height} труллис-запуллис // тайна-левых-пас-{tag}"
        )
        right_moves[1] = (
            f"{sokolov.cell} в{sokolov.height}, пас чёрный -> {_step(state, 'right', 1)} "
            f"в{sokolov.height} фигус-зацапус // тайна-правых-пас-{tag}"
        )
    left = _order_text(state, "left", left_moves, "стоять, пламя")
    right = _order_text(state, "right", right_moves, "налево")
    for user, text in ((201, left), (301, right)):
        reply = await table.say(user, text)
        assert reply.status == "ok", reply.text


def _step(state: MatchState, side: str, number: int) -> int:
    """A cell next to the player, away from the centre line's crowd."""
    p = state.player(side, number)  # type: ignore[arg-type]
    assert p.cell is not None
    return sorted(neighbours(p.cell))[0 if side == "left" else -1]


async def _moment(base: Path, folder: Path, name: str) -> Moment:
    path = folder / f"{name}.db"
    shutil.copy(base, path)
    db = Database(f"sqlite:///{path}")
    table = make_table(db, seed_source=_seed)
    with db.transaction() as s:
        game = s.exec(select(Game)).one()
    table.game_id = game.id or 0
    planted = name in ("enchanted_pass_in_flight", "after_resolution")
    vanished = name in ("yellow_ball_vanished", "after_resolution")

    def edit(state: MatchState) -> MatchState:
        if planted:
            state = _held(state, "left", 1, "red")
            state = _held(state, "right", 1, "black")
            state = _in_flight(state, "left", 3, "green", _step(state, "left", 3))
            state = _in_flight(state, "right", 3, "blue", _step(state, "right", 3))
        return _vanished(state) if vanished else state

    table.plant(edit)
    table = make_table(db, seed_source=_seed)  # a service that has read nothing yet
    table.game_id = game.id or 0
    table._ids = itertools.count(1_000)  # past the base's messages
    number = 1
    if name == "after_resolution":
        await _orders(table, 1, spells=True)
        assert (await table.say(GM, "/resolve")).status == "ok"
        number = 2
    await _orders(table, number, spells=planted and name != "after_resolution")
    secrets = Secrets(round=number, every_spell=_every_spell(table))
    names = {side: team.name for side, team in
             ((t_.side, t_) for t_ in table.rows(Team))}  # fmt: skip
    for side in SIDES:
        secrets.orders[side] = _order_markers(table, side)
        secrets.readiness[side] = _readiness_markers(names[side])
        secrets.spells[side] = _spell_markers(table, side)
    final = table.state()
    yellow = next(b for b in final.balls if b.name == "yellow")
    if yellow.status == "vanished":
        secrets.vanished = re.compile(rf"(?<![\w.:/-]){yellow.cell}(?![\w:/])")
    codes: dict[str, str] = {}
    baseline = max((r.id or 0) for r in table.rows(OutboxRow))
    db.dispose()
    _watch(path)
    return Moment(name, path, table.game_id, codes, secrets, baseline)


# ------------------------------------------------------------------ the sweep
# Tables that hold what a command may change; the ones it only adds to
# (inbound, outbox, …) do not make the next combination start elsewhere.
# Triggers (of the sweep's copy only) note any change to them.
STATE_TABLES = ("games", "teams", "players", "members", "memberships", "invitations",
                "rounds", "orders", "snapshots")  # fmt: skip


def _watch(path: Path) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE sweep_dirty (n INTEGER)")
        for table in STATE_TABLES:
            for op in ("INSERT", "UPDATE", "DELETE"):
                conn.execute(
                    f"CREATE TRIGGER sweep_{table}_{op} AFTER {op} ON {table} "
                    "BEGIN INSERT INTO sweep_dirty VALUES (1); END"
                )
        conn.commit()


def _chat(role: str, kind: str) -> str | None:
    """The Telegram chat a role writes in for a chat kind (None: e-mail)."""
    user = ROLES[role]
    own, other = (
        (RIGHT_GROUP, LEFT_GROUP) if SIDE_OF.get(user) == "right" else (LEFT_GROUP, RIGHT_GROUP)
    )
    return {"private": str(user), "own_group": own, "other_group": other, "channel": CHANNEL,
            "email": None}[kind]  # fmt: skip


def _message(role: str, command: str, args: str, moment: Moment, state: MatchState) -> str:
    if command == ORDERS:  # the role's own team's orders (a game master names the team)
        side = SIDE_OF.get(ROLES[role], "left")
        p = state.player(side, 2)  # type: ignore[arg-type]
        body = f"Такт 2\n{p.name}: {p.cell} в{p.height}"
        return f"Команда {side}\n{body}" if role == "gm" else body
    args = args.format(code=moment.codes.get("p_left", "X"), game=f"DB-{moment.game_id}")
    return f"/{command} {args}".rstrip()


@dataclass
class Sweep:
    combinations: int = 0
    texts: int = 0
    leaks: list[str] = field(default_factory=list)

    def check(self, where: str, readers: Readers, texts: list[str], secrets: Secrets) -> None:
        for text in texts:
            if not text:
                continue
            self.texts += 1
            for leak in secrets.leaks(text, readers.sides, readers.all_seeing):
                self.leaks.append(f"{where}: {leak} in {text[:300]!r}")

    def check_row(self, where: str, row: OutboxRow, secrets: Secrets) -> None:
        readers = readers_of(row.channel, row.destination)
        self.check(f"{where} → {row.channel}:{row.destination}", readers, texts_of(row), secrets)
        if row.pictures and "/gm/" in f"/{row.pictures}/" and not readers.all_seeing:
            self.leaks.append(f"{where} → {row.destination}: the all-seeing picture {row.pictures}")


def commands_to_sweep() -> list[tuple[str, str]]:
    """(command, arguments) for every command of the registry, and order messages."""
    out = [(name, args) for name in [*COMMANDS, *GM_COMMANDS] for args in ARGS.get(name, ("",))]
    return [*out, (ORDERS, "")]


def played(secrets: Secrets) -> Secrets:
    """Once a round is resolved (or rolled back) its orders were played and the
    reports tell them: what stays secret is the rest."""
    return dataclasses.replace(secrets, orders={}, readiness={})


class Work:
    """The moment's database, put back whenever a command changed it."""

    def __init__(self, moment: Moment, folder: Path) -> None:
        self.moment = moment
        self.path = folder / f"work-{moment.name}.db"
        shutil.copy(moment.path, self.path)
        self.db = Database(f"sqlite:///{self.path}")
        self.table = make_table(self.db, seed_source=_seed)
        self.table.game_id = moment.game_id
        self.table._ids = itertools.count(10_000)  # past the moment's own messages
        self.state = self.table.state()
        self.source = sqlite3.connect(moment.path)
        self.base = self.last = self.last_id()  # the moment's own outbox
        self.restores = 0

    def restore(self) -> None:
        """Back to the moment: its pages copied over (SQLite's backup), and a
        service that remembers no position of what was undone."""
        with closing(sqlite3.connect(self.path)) as target:
            self.source.backup(target)
        self.table.service.positions = PositionCache()
        self.restores += 1

    def after(self, before: int) -> tuple[bool, int, list[OutboxRow]]:
        """Whether the last command changed the moment, the latest round's
        number, and what it queued (outbox rows past ``before``)."""
        with self.db.engine.connect() as conn:
            dirty = conn.execute(sql("SELECT count(*) FROM sweep_dirty")).scalar_one()
            number = conn.execute(sql("SELECT max(number) FROM rounds")).scalar_one()
            rows = conn.execute(
                sql("SELECT channel, destination, text, subject, html, buttons, pictures, id "
                    "FROM outbox WHERE id > :id"),
                {"id": before},
            ).all()  # fmt: skip
        queued = [
            OutboxRow(channel=r[0], destination=r[1], kind="", text=r[2], subject=r[3], html=r[4],
                      buttons=json.loads(r[5]) if isinstance(r[5], str) else r[5] or [],
                      pictures=r[6])
            for r in rows
        ]  # fmt: skip
        self.last = max([before, *(r[7] for r in rows)])
        return bool(dirty), int(number), queued

    def last_id(self) -> int:
        with self.db.engine.connect() as conn:
            return int(conn.execute(sql("SELECT coalesce(max(id), 0) FROM outbox")).scalar_one())

    def close(self) -> None:
        self.source.close()
        self.db.dispose()


async def sweep_moment(moment: Moment, folder: Path, sweep: Sweep) -> None:
    work = Work(moment, folder)
    for row in work.table.rows(OutboxRow):  # what the moment's own setting up sent
        sweep.check_row(f"{moment.name}: setting up", row, moment.secrets)
    # Posts no command triggers: the reminders before the deadline, and the
    # round resolved at its deadline (its reports to every audience).
    deadline = await work.table.service.next_deadline()
    assert deadline is not None
    await work.table.service.send_reminders(deadline - timedelta(minutes=1))
    await work.table.service.resolve_due(deadline + timedelta(seconds=1))
    _, _, queued = work.after(work.base)
    assert len({r.destination for r in queued}) >= 5  # to every audience
    for row in queued:
        sweep.check_row(f"{moment.name}: at the deadline", row, played(moment.secrets))
    work.restore()
    before = work.base
    for command, args in commands_to_sweep():
        for role, user in ROLES.items():
            for kind in CHATS:
                where = f"{moment.name}: {role} {kind} {command} {args}".rstrip()
                text = _message(role, command, args, moment, work.state)
                chat = _chat(role, kind)
                reply: Reply
                if chat is None:
                    reply = await work.table.mail(EMAIL[user], text)
                    here = readers_of("email", EMAIL[user])
                else:
                    reply = await work.table.say(user, text, chat=chat)
                    here = readers_of("telegram", chat)
                assert reply.status != "duplicate", where  # every combination is worked on
                sweep.combinations += 1
                dirty, number, queued = work.after(before)
                secrets = (
                    moment.secrets if number == moment.secrets.round else played(moment.secrets)
                )
                sweep.check(f"{where} (answer)", here, [reply.text or ""], secrets)
                for row in queued:
                    sweep.check_row(where, row, secrets)
                before = work.last
                if dirty:
                    work.restore()
                    before = work.base
    work.close()


MOMENTS = ("orders_on_file", "enchanted_pass_in_flight", "yellow_ball_vanished", "after_resolution")


@pytest.mark.parametrize("name", MOMENTS)
async def test_no_reader_sees_what_he_may_not(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    base = await _base(tmp_path)
    codes = dict(base.codes)
    base.db.dispose()
    moment = await _moment(tmp_path / "base.db", tmp_path, name)
    moment.codes = codes
    sweep = Sweep()
    await sweep_moment(moment, tmp_path, sweep)
    count = request.config.stash.setdefault(SWEEP_COUNT, SweepCount())
    count.combinations += sweep.combinations
    count.texts += sweep.texts
    count.moments += 1
    assert not sweep.leaks, "\n".join(sweep.leaks[:40]) + f"\n… {len(sweep.leaks)} leaks"


def test_the_sweep_sees_a_leak_when_there_is_one() -> None:
    """The markers catch what they are for (else the sweep could pass blind)."""
    secrets = Secrets(
        orders={"left": ["Петров: 52 в3", "тайна-левых-р1"]},
        readiness={"right": _readiness_markers("Виверны")},
        spells={"left": ["trullis-zapullis", "труллис-запуллис"]},
        vanished=re.compile(rf"(?<![\w.:/-]){VANISHED_CELL}(?![\w:/])"),
        every_spell=[["gullis-dullis"], ["trullis-zapullis"], ["figus-zatsapus"]],
    )
    right, left, gm = frozenset({"right"}), frozenset({"left"}), frozenset(SIDES)
    assert secrets.leaks("Такт 1\nПетров: 52 в3", right, False)
    assert secrets.leaks("💬 Петров: «тайна-левых-р1»", right, False)
    assert secrets.leaks(t("status_missing", "ru", team="Виверны", players="Соколов"), left, False)
    assert secrets.leaks("пас заговорён: труллис запуллис", right, False)
    vanished = t("panel.vanished_gm", "ru", ball="жёлтый", cell=VANISHED_CELL, height=1)
    assert secrets.leaks(vanished, right, False) and not secrets.leaks(vanished, gm, True)
    # What each may see, and what names nobody's secret.
    assert not secrets.leaks("Такт 1\nПетров: 52 в3 // тайна-левых-р1", left, False)
    assert not secrets.leaks("gullis-dullis, trullis-zapullis, figus-zatsapus", right, False)
    assert not secrets.leaks("Счёт 0:0, срок 21:00, квитанция 2041af", right, False)
    assert readers_of("telegram", LEFT_GROUP) == Readers(left)
    assert readers_of("telegram", CHANNEL) == Readers(frozenset())
    assert readers_of("email", EMAIL[301]) == Readers(right)
    assert readers_of("telegram", str(GM)) == Readers(gm, True)
