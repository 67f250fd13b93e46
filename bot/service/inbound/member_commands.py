"""The commands every member may send: orders, odds, status, help, rules, verify, language, joining."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.orderlang import help_text
from engine.ruleset import Ruleset, RulesetError, load_ruleset_label
from storage import repo
from storage.models import Game

from ..handlers import invitations, members, odds
from ..handlers.rulebook import RULES_PICTURES, edition, rules_params
from ..kernel import audience
from ..kernel.audience import PUBLIC, MailForm, Shown, View
from ..kernel.context import ServiceError, game_code
from ..kernel.i18n import N_, format_time, t
from ..kernel.outcome import Outcome
from ..kernel.ports import Report
from ..orders import submit as ordering
from ..rounds import resolve as rounds
from ..runtime.deadlines import ScheduleError, parse_zone
from .gm_commands import GM_COMMANDS
from .request import Request, group_chat, raw, to_int

__all__ = ["COMMANDS"]


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
    numbers = tuple(to_int(a) for a in args)
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
    return raw("\n\n".join(parts), secrecy=PUBLIC)


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
    v = rounds.verify(r.tx, game_id, to_int(number), to_int(attempt) if attempt else None)
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
    number = to_int(args[0])
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
