"""Slash commands: reading them and carrying them out.

``/name arg arg …``: the name is case-blind, may carry Telegram's
``@botname`` and has Russian aliases for e-mail writers.  A game-master
command may name its game first (``/pause DB-12 storm``); otherwise the game
is the one the message is about (see :func:`members.choose_game`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from bot.orderlang import help_text
from engine.ruleset import Ruleset, RulesetError, load_ruleset_label
from storage import repo
from storage.models import Game

from ..handlers import gm, gm_setup, invitations, members, odds
from ..handlers.rulebook import RULES_PICTURES, edition, rules_params
from ..kernel import audience
from ..kernel.api import Inbound
from ..kernel.audience import PUBLIC, Audience, MailForm, Shown, View
from ..kernel.context import Actor, ServiceError, Tx, game_code, parse_game_code
from ..kernel.i18n import N_, format_time, t
from ..kernel.outcome import Outcome
from ..kernel.ports import Report
from ..orders import submit as ordering
from ..rounds import resolve as rounds
from ..runtime.deadlines import ScheduleError, parse_zone

__all__ = [
    "COMMANDS",
    "GM_COMMANDS",
    "Command",
    "group_chat",
    "known",
    "parse_command",
    "parse_duration",
    "run",
]


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[str, ...]
    rest: str  # the text after the command word, line breaks kept


ALIASES = {
    "приказы": "orders", "очистить": "clear", "стереть": "clear", "готов": "ready",
    "готовы": "ready", "ждать": "wait", "статус": "status", "помощь": "help",
    "правила": "rules", "проверить": "verify", "язык": "lang", "старт": "start",
    "игра": "game", "пароль": "passphrase", "sheet": "orders", "language": "lang",
    "приглашения": "invitations", "отозвать": "revoke",
    "опоздавшие": "lateorders", "отчёт": "report", "отчет": "report",
    "пояс": "tz", "timezone": "tz", "шансы": "odds",
}  # fmt: skip

_COMMAND = re.compile(r"\s*/(\w+)(?:@\w+)?(.*)", re.DOTALL)


def parse_command(text: str) -> Command | None:
    match = _COMMAND.match(text)
    if match is None:
        return None
    name = match[1].lower()
    rest = match[2].strip()
    return Command(ALIASES.get(name, name), tuple(rest.split()), rest)


def group_chat(msg: Inbound) -> str | None:
    """The group a Telegram message was written in; None for a private chat
    (its id is the sender's) or a letter.  Only a group can be a team chat."""
    return audience.group_of(msg)


@dataclass
class Request:
    """One command being carried out."""

    tx: Tx
    actor: Actor
    msg: Inbound
    cmd: Command
    inbound_id: int | None
    reply: Audience  # who reads the answer: its language, what it may show

    def game_id(self, args: tuple[str, ...] | None = None) -> tuple[int, tuple[str, ...]]:
        """The game (an explicit leading "DB-N" wins) and the remaining arguments."""
        args = self.cmd.args if args is None else args
        explicit = args[0] if args and args[0].upper().lstrip("#[").startswith("DB") else None
        if explicit is not None and parse_game_code(explicit) is not None:
            args = args[1:]
        game = members.choose_game(
            self.tx,
            self.actor,
            explicit=explicit,
            hint=self.msg.game_hint,
            chat=group_chat(self.msg),
        )
        assert game.id is not None
        return game.id, args

    @property
    def lang(self) -> str:
        """The language of the answer: its readers' (a group's own, not the writer's)."""
        return self.reply.lang

    def t(self, key: str, **params: object) -> str:
        return t(key, self.lang, **params)


def _raw(
    text: str, status: str = "ok", game_id: int | None = None, secrecy: View | None = None
) -> Outcome:
    return Outcome("raw", {"text": text}, status=status, game_id=game_id, secrecy=secrecy)


def _int(value: str) -> int:
    if not value.lstrip("-").isdigit():
        raise ServiceError("bad_number", value=value)
    return int(value)


def parse_duration(value: str) -> timedelta:
    """ "2h", "30m", "1d", "1h30m" → a timedelta."""
    parts = re.findall(r"(\d+)\s*([dhmдчм])", value.lower())
    if not parts or "".join(n + u for n, u in parts) != re.sub(r"\s", "", value.lower()):
        raise ServiceError("bad_duration", value=value)
    unit = {"d": "days", "д": "days", "h": "hours", "ч": "hours", "m": "minutes", "м": "minutes"}
    total = timedelta()
    for number, u in parts:
        total += timedelta(**{unit[u]: int(number)})
    return total


# ---------------------------------------------------------------- player commands
def _orders(r: Request) -> Outcome:
    game_id, args = r.game_id()
    tx = r.tx
    wanted = ordering.sheet_sides(tx, r.actor, game_id, args[0].lower() if args else None)

    def text(seen: View, lang: str) -> str | None:
        sides = wanted & seen.sides
        return ordering.sheet(tx, game_id, sides, lang) if sides else None

    return Outcome(
        "raw", game_id=game_id, secrecy=View(wanted), shown=Shown(text)
    )  # fmt: skip


def _odds(r: Request) -> Outcome:
    """The chances of the sheet on file: shown where the sheet may be."""
    game_id, args = r.game_id()
    tx = r.tx
    wanted = ordering.sheet_sides(tx, r.actor, game_id, args[0].lower() if args else None)

    def text(seen: View, lang: str) -> str | None:
        sides = wanted & seen.sides
        return odds.odds_text(tx, game_id, sides, lang) if sides else None

    return Outcome("raw", game_id=game_id, secrecy=View(wanted), shown=Shown(text))


def _clear(r: Request) -> Outcome:
    game_id, args = r.game_id()
    acting = audience.acting_view(r.tx, r.actor, r.reply, game_id)
    numbers = tuple(_int(a) for a in args)
    seen_by = acting.team if r.reply.group else None
    count = ordering.clear(r.tx, r.actor, game_id, numbers, within=acting.team, seen_by=seen_by)
    return Outcome("orders_cleared", {"count": count}, game_id=game_id, secrecy=acting)


def _ready(r: Request, ready: bool) -> Outcome:
    game_id, _ = r.game_id()
    team, number, whole = ordering.set_ready(r.tx, r.actor, game_id, ready)
    key = N_("waiting") if not ready else N_("ready") if whole else N_("ready_member")
    return Outcome(key, {"team": team, "round": number}, game_id=game_id)


def _status(r: Request) -> Outcome:
    game_id, _ = r.game_id()
    game = r.tx.s.get(Game, game_id)
    assert game is not None
    tx = r.tx
    return Outcome(
        "raw",
        game_id=game_id,
        shown=Shown(
            lambda seen, lang: members.status_text(tx, game, seen, lang),
            lambda seen, lang: members.status_pictures(tx, game, seen, lang),
        ),
    )


def _help(r: Request) -> Outcome:
    parts = [help_text(r.lang), r.t("help_commands")]
    if r.actor.global_gm or r.actor.trusted or _masters_a_game(r):
        # Made from the table of commands: it lists only what exists, each with
        # the usage its menu shows (a master in chat has no guide at hand).
        lines = "\n".join(_usage_line(name, r.t(f"menu.{name}")) for name in GM_COMMANDS)
        parts.append(r.t("help_gm", commands=lines))
    return _raw("\n\n".join(parts), secrecy=PUBLIC)


def _usage_line(name: str, menu: str) -> str:
    """``/warn left|right [REASON] — warning``; a menu text with no arguments
    (``start the match``) gets its dash."""
    return f"/{name} {menu}" if " — " in menu else f"/{name} — {menu}"


def _masters_a_game(r: Request) -> bool:
    member = r.actor.member
    if member is None or member.id is None:
        return False
    return any(ms.role == "game_master" for _, ms in repo.games_of_member(r.tx.s, member.id))


def _rules(r: Request) -> Outcome:
    game_id, _ = r.game_id()
    game = r.tx.s.get(Game, game_id)
    assert game is not None
    rules = rounds.ruleset_of(game)
    url = r.tx.settings.rules_url
    # The text is rendered for each reader later: the game's values are taken now.
    where = {"deadlines": game.deadlines, "timezone": game.timezone, "url": url}
    players = game.players_per_team  # /newgame players=2: the game's, not the ruleset's
    return Outcome(
        "rules",
        {
            name: partial(_rules_param, rules, where, players, name)
            for name in ("edition", "ticks", "rounds", "players", "deadlines", "timezone")
            + ("play", "spells", "where")
        },
        game_id=game_id,
        # Without a published rule book, the book itself and the field's picture.
        pictures=None if url else f"{RULES_PICTURES}{game.ruleset}/{r.lang}",
    )


def _rules_param(
    rules: Ruleset, where: dict[str, str], players: int | None, name: str, lang: str
) -> object:
    """One parameter of the ``rules`` text for a reader of ``lang``."""
    return rules_params(rules, lang, players=players, **where)[name]


def _verify(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) not in (1, 2):
        raise ServiceError("usage", usage="/verify N [RECEIPT]")
    # "3" is round 3 as played; "3/1" its first attempt (one a master rolled back).
    number, _, attempt = args[0].partition("/")
    v = rounds.verify(r.tx, game_id, _int(number), _int(attempt) if attempt else None)
    assert game_id is not None
    names = {side: team.name for side, team in repo.teams(r.tx.s, game_id).items()}
    orders = ", ".join(
        r.t("receipt_team", team=names.get(side, side), digest=digest)
        for side, digest in sorted(v.order_digests.items())
    )
    # The rules in words («классические правила (classic, версия 3)»), not the label
    # (the label itself when no such ruleset is known here any more).
    try:
        ruleset: object = partial(edition, load_ruleset_label(v.ruleset))
    except RulesetError:
        ruleset = v.ruleset
    if not v.ok:
        yes_no = {True: r.t("yes"), False: r.t("no")}
        return Outcome(
            "verify_failed",
            {"round": v.round_number, "commitment_ok": yes_no[v.commitment_ok],
             "result_ok": yes_no[v.result_ok], "state_ok": yes_no[v.state_ok],
             "orders_ok": yes_no[v.orders_ok], "ruleset": ruleset,
             "ruleset_ok": r.t("rules_same") if v.ruleset_ok else r.t("rules_changed")},
            status="rejected", game_id=game_id,
        )  # fmt: skip
    params = {"round": v.round_number, "seed": v.seed, "commitment": v.commitment,
              "digest": v.digest, "orders": orders, "ruleset": ruleset}  # fmt: skip
    if len(args) == 2:  # a receipt to check: does it match one team's played orders?
        given = args[1].strip().lower()
        team = next((s for s, d in v.order_digests.items() if d == given), None)
        if team is None:
            return Outcome("verify_receipt_mismatch", {**params, "receipt": given},
                           status="rejected", game_id=game_id)  # fmt: skip
        return Outcome("verify_receipt_match", {**params, "receipt": given,
                       "team": names.get(team, team)}, game_id=game_id)  # fmt: skip
    return Outcome("verify_ok", params, game_id=game_id)


def _report(r: Request) -> Outcome:
    """``/report N``: round N's report and pictures again, as its reader may see
    them (a team's member his team's report, others the public one)."""
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/report N")
    number = _int(args[0])
    tx = r.tx
    rnd = repo.resolved_round(tx.s, game_id, number)
    if rnd is None or rnd.id is None:
        raise ServiceError("verify_no_round", round=number)
    material = rounds.material(tx, rnd.id)
    game = r.tx.s.get(Game, game_id)
    assert game is not None
    round_id = rnd.id
    played = rnd

    def report(seen: View, lang: str) -> Report:
        footer = rounds.results_footer(tx, game, played, lang)
        return tx.reporter.round_report(material, audience=seen.report, lang=lang, footer=footer)

    def text(seen: View, lang: str) -> str:
        return f"{t('report_again', lang, round=number)}\n\n{report(seen, lang).text}"

    def mail(seen: View, lang: str) -> MailForm:
        # As the results mail was: HTML with the pictures inline, the text diagram in the plain part.
        head, again = t("report_again", lang, round=number), report(seen, lang)
        return MailForm(
            f"{head}\n\n{again.mail_text or again.text}",
            rounds.html_first(again.html, head),
            f"{round_id}/{seen.picture}/{lang}/mail",
        )

    return Outcome(
        "raw",
        game_id=game_id,
        secrecy=audience.asker_view(tx, r.actor, game_id),
        shown=Shown(text, lambda seen, lang: f"{round_id}/{seen.picture}/{lang}", mail),
    )


def _lang(r: Request) -> Outcome:
    lang = r.cmd.args[0].lower() if r.cmd.args else ""
    group = group_chat(r.msg)
    if group is not None:  # a group speaks its own language, set by its team's captain
        members.set_group_lang(r.tx, r.actor, group, lang)
        return Outcome("group_lang_set", {})
    return Outcome("lang_set", {}, data={"lang": members.set_lang(r.tx, r.actor, lang)})


def _tz(r: Request) -> Outcome:
    """``/tz Europe/Kiev``: deadlines written in that zone for this member
    (his private answers and announcements); ``/tz off``: the game's again."""
    member = r.actor.member
    if member is None:
        raise ServiceError("tz_usage")
    if not r.cmd.args:
        if member.timezone:
            return Outcome("tz_is", {"zone": member.timezone})
        return Outcome("tz_game")
    name = r.cmd.args[0]
    if name.lower() in ("off", "game", "нет", "игры"):
        member.timezone = None
        r.tx.s.add(member)
        return Outcome("tz_game")
    try:
        parse_zone(name)
    except ScheduleError:
        raise ServiceError("tz_unknown", zone=name) from None
    member.timezone = name
    r.tx.s.add(member)
    example = format_time(r.tx.now, name, r.lang)
    return Outcome("tz_set", {"zone": name, "now": example})


def _start(r: Request) -> Outcome:
    if not r.cmd.args:
        return _help(r)
    # A new Telegram member speaks what his app speaks (Russian unless English);
    # when it says nothing, or by e-mail, the game's language; /lang changes it.
    lang = (
        members.client_lang(r.msg.meta.get("language_code"))
        if r.msg.channel == "telegram"
        else None
    )
    return invitations.start(r.tx, r.actor, r.msg, r.cmd.args, lang)


def _game(r: Request) -> Outcome:
    if not r.cmd.args:
        raise ServiceError("usage", usage="/game DB-N")
    game = members.select_game(r.tx, r.actor, r.cmd.args[0])
    return Outcome("game_selected", {"game": game_code(game)}, game_id=game.id)


def _passphrase(r: Request) -> Outcome:
    members.set_passphrase(r.tx, r.actor, r.cmd.rest)
    return Outcome("passphrase_set")


# ---------------------------------------------------------------- game-master commands
def _newgame(r: Request) -> Outcome:
    options: dict[str, str | None] = dict.fromkeys(
        ("ruleset", "players", "tz", "deadline", "lang", "mintime")
    )
    title = []
    for arg in r.cmd.args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in options:
            options[key.lower()] = value
        else:
            title.append(arg)
    return gm_setup.create_game(
        r.tx, r.actor, ruleset=options["ruleset"], title=" ".join(title), timezone=options["tz"],
        deadlines=options["deadline"], lang=options["lang"],
        players_per_team=_int(options["players"] or "") if options["players"] else None,
        min_time=parse_duration(options["mintime"]) if options["mintime"] else None,
    )  # fmt: skip


def _side_and_rest(r: Request, usage: str) -> tuple[int, str, tuple[str, ...]]:
    game_id, args = r.game_id()
    if not args:
        raise ServiceError("usage", usage=usage)
    return game_id, _side_word(args[0]), args[1:]


def _side_word(word: str) -> str:
    w = word.lower()
    if w in ("left", "l", "лев", "левые", "левая", "слева"):
        return "left"
    if w in ("right", "r", "прав", "правые", "правая", "справа"):
        return "right"
    raise ServiceError("bad_side", side=word)


def _addteam(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/addteam left|right NAME")
    return gm_setup.add_team(r.tx, r.actor, game_id, side, " ".join(rest))


def _addplayer(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/addplayer left|right NAME")
    return gm_setup.add_player(r.tx, r.actor, game_id, side, " ".join(rest))


def _invite(r: Request) -> Outcome:
    usage = (
        "/invite captain|player|game_master [left|right] [NUMBER… dragon] "
        "[E-MAIL | @USERNAME] [for=3d]"
    )
    game_id, args = r.game_id()
    if not args:
        raise ServiceError("usage", usage=usage)
    role = {
        "gm": "game_master",
        "капитан": "captain",
        "игрок": "player",
        "судья": "game_master",
    }.get(args[0].lower(), args[0].lower())
    args = args[1:]
    side = None
    if role != "game_master":
        if not args:
            raise ServiceError("usage", usage=usage)
        side, args = _side_word(args[0]), args[1:]
    ttl = None
    rest = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in ("for", "ttl", "срок"):
            ttl = parse_duration(value)
        else:
            rest.append(arg)
    username = next((a for a in rest if a.startswith("@") and "@" not in a[1:]), None)
    email = next((a for a in rest if "@" in a[1:]), None)
    dragon = any(a.lower() in ("dragon", "дракон") for a in rest)
    numbers = tuple(_int(a) for a in rest if "@" not in a and a.lower() not in ("dragon", "дракон"))
    return gm_setup.invite(
        r.tx, r.actor, game_id, role=role, side=side, players=numbers, dragon=dragon, email=email,
        username=username, ttl=ttl,
    )  # fmt: skip


def _revoke(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/revoke CODE")
    return invitations.revoke(r.tx, r.actor, game_id, args[0])


def _deadline(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if not args:
        raise ServiceError("usage", usage="/deadline HH:MM[,HH:MM] [Time/Zone]")
    zone = args[-1] if "/" in args[-1] or args[-1].upper() == "UTC" else None
    schedule = " ".join(args[:-1] if zone else args)
    return gm.set_deadline(r.tx, r.actor, game_id, schedule, zone)


def _lateorders(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/lateorders refuse|next")
    return gm.set_late_orders(r.tx, r.actor, game_id, args[0])


def _simple(action: Callable[[Tx, Actor, int], Outcome]) -> Callable[[Request], Outcome]:
    def handler(r: Request) -> Outcome:
        game_id, _ = r.game_id()
        return action(r.tx, r.actor, game_id)

    return handler


def _pause(r: Request) -> Outcome:
    game_id, args = r.game_id()
    return gm.pause(r.tx, r.actor, game_id, " ".join(args))


def _extend(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/extend 2h | 30m | 1d | HH:MM")
    if _CLOCK.fullmatch(args[0]):  # the first such time after the current deadline
        return gm.extend(r.tx, r.actor, game_id, clock=args[0])
    return gm.extend(r.tx, r.actor, game_id, by=parse_duration(args[0]))


_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}")


def _rollback(r: Request) -> Outcome:
    """``/rollback``: played again at once; ``/rollback 2h`` or ``/rollback 21:00``:
    reopened with that deadline, for the teams to change their orders first."""
    game_id, args = r.game_id()
    if len(args) > 1:
        raise ServiceError("usage", usage="/rollback [2h | 30m | HH:MM]")
    if not args:
        return gm.rollback(r.tx, r.actor, game_id)
    if _CLOCK.fullmatch(args[0]):
        return gm.rollback(r.tx, r.actor, game_id, clock=args[0])
    return gm.rollback(r.tx, r.actor, game_id, by=parse_duration(args[0]))


def _mintime(r: Request) -> Outcome:
    game_id, args = r.game_id()
    if len(args) != 1:
        raise ServiceError("usage", usage="/mintime 10m | 1h")
    return gm.set_min_time(r.tx, r.actor, game_id, parse_duration(args[0]))


def _warn(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/warn left|right [REASON]")
    return gm.warn(r.tx, r.actor, game_id, side, " ".join(rest))


def _penalty(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/penalty left|right [TICK]")
    return gm.penalty(r.tx, r.actor, game_id, side, _int(rest[0]) if rest else 1)


def _substitute(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/substitute left|right OUT IN")
    if len(rest) != 2:
        raise ServiceError("usage", usage="/substitute left|right OUT IN")
    return gm.substitute(r.tx, r.actor, game_id, side, _int(rest[0]), _int(rest[1]))


def _endgame(r: Request) -> Outcome:
    game_id, args = r.game_id()
    return gm.end(r.tx, r.actor, game_id, " ".join(args))


def _announce(r: Request) -> Outcome:
    game_id, _ = r.game_id()
    text = r.cmd.rest
    first = text.split(maxsplit=1)
    if first and first[0].upper().startswith("DB") and parse_game_code(first[0]) is not None:
        text = first[1] if len(first) > 1 else ""
    return gm.announce(r.tx, r.actor, game_id, text)


def _linkchat(r: Request) -> Outcome:
    game_id, side, rest = _side_and_rest(r, "/linkchat left|right [CHAT]")
    # Without CHAT, the group it is written in: never a private chat (that would
    # make the writer's own chat the team's) nor a letter.
    chat = rest[0] if rest else group_chat(r.msg)
    if not chat:
        gm.locked_game(r.tx, r.actor, game_id)  # "only a game master" comes first
        raise ServiceError("usage", usage="/linkchat left|right CHAT")
    return gm_setup.link_team_chat(r.tx, r.actor, game_id, side, chat, r.msg.meta.get("thread_id"))


def _setchannel(r: Request) -> Outcome:
    game_id, args = r.game_id()
    chat = args[0] if args else group_chat(r.msg)  # a private chat is no channel
    if chat is None:
        gm.locked_game(r.tx, r.actor, game_id)  # "only a game master" comes first
        raise ServiceError("usage", usage="/setchannel CHAT [TOPIC] | off")
    if chat.lower() in ("off", "none", "нет"):
        return gm_setup.set_channel(r.tx, r.actor, game_id, None)
    thread = args[1] if len(args) > 1 else r.msg.meta.get("thread_id")
    return gm_setup.set_channel(r.tx, r.actor, game_id, chat, thread)


COMMANDS: dict[str, Callable[[Request], Outcome]] = {
    "orders": _orders,
    "odds": _odds,
    "clear": _clear,
    "ready": lambda r: _ready(r, True),
    "wait": lambda r: _ready(r, False),
    "status": _status,
    "help": _help,
    "rules": _rules,
    "verify": _verify,
    "report": _report,
    "lang": _lang,
    "tz": _tz,
    "start": _start,
    "game": _game,
    "passphrase": _passphrase,
}

GM_COMMANDS: dict[str, Callable[[Request], Outcome]] = {
    "newgame": _newgame,
    "addteam": _addteam,
    "addplayer": _addplayer,
    "invite": _invite,
    "invitations": _simple(invitations.listing),
    "revoke": _revoke,
    "deadline": _deadline,
    "lateorders": _lateorders,
    "startgame": _simple(gm_setup.start),
    "pause": _pause,
    "resume": _simple(gm.resume),
    "extend": _extend,
    "resolve": _simple(gm.resolve_now),
    "rollback": _rollback,
    "mintime": _mintime,
    "warn": _warn,
    "penalty": _penalty,
    "substitute": _substitute,
    "endgame": _endgame,
    "announce": _announce,
    "linkchat": _linkchat,
    "setchannel": _setchannel,
}

# What a sender the judge does not know yet may do.
ANONYMOUS = frozenset({"start", "help"})


def known(cmd: Command) -> bool:
    """Is this one of the judge's commands (any alias)?"""
    return cmd.name in COMMANDS or cmd.name in GM_COMMANDS


def run(
    tx: Tx,
    actor: Actor,
    msg: Inbound,
    cmd: Command,
    inbound_id: int | None,
    reply: Audience | None = None,
) -> Outcome:
    handler = COMMANDS.get(cmd.name) or GM_COMMANDS.get(cmd.name)
    if handler is None:
        raise ServiceError("unknown_command", command=cmd.name)
    reply = reply or audience.reply_audience(tx, msg, actor)
    audience.admit(cmd.name, reply)
    return handler(Request(tx, actor, msg, cmd, inbound_id, reply))
