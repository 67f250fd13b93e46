"""Members: languages, pass phrases, choosing a game, status, reminders."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from engine.geometry import SIDES
from engine.orders import RoundOrders
from engine.state import MatchState
from storage import repo
from storage.models import Game, Round

from ..kernel import notify
from ..kernel.audience import View
from ..kernel.context import Actor, ServiceError, Tx, game_code, parse_game_code
from ..kernel.i18n import LANGS, N_, STATUS_TEXTS, format_time, reader_zone, t
from ..orders import submit as ordering
from ..rounds import resolve as rounds
from . import gm

__all__ = [
    "choose_game",
    "client_lang",
    "hash_passphrase",
    "remind",
    "select_game",
    "set_group_lang",
    "set_lang",
    "set_passphrase",
    "status_pictures",
    "status_text",
    "verify_passphrase",
]

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MIN_PASSPHRASE = 8


def hash_passphrase(phrase: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(phrase.encode(), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_passphrase(phrase: str, stored: str | None) -> bool:
    if not stored:
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(
            phrase.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


def client_lang(language_code: str | None) -> str | None:
    """A new Telegram member's language from his app's ``language_code``:
    English for any English (``en``, ``en-GB``, ...), Russian for any other;
    None when the app says nothing (then the game's language is taken)."""
    code = (language_code or "").strip().lower()
    if not code:
        return None
    return "en" if code.startswith("en") else "ru"


def set_lang(tx: Tx, actor: Actor, lang: str) -> str:
    if lang not in LANGS or actor.member is None:
        raise ServiceError("lang_usage")
    actor.member.lang = lang
    tx.s.add(actor.member)
    return lang


def set_passphrase(tx: Tx, actor: Actor, phrase: str) -> None:
    if actor.member is None or len(phrase.strip()) < MIN_PASSPHRASE:
        raise ServiceError("passphrase_usage")
    actor.member.passphrase_hash = hash_passphrase(phrase.strip())
    tx.s.add(actor.member)


def _games_list(tx: Tx, actor: Actor) -> str:
    if actor.member is None or actor.member.id is None:
        return "-"
    games = [g for g, _ in repo.games_of_member(tx.s, actor.member.id) if g.status != "ended"]
    return ", ".join(game_code(g) for g in games) or "-"


def select_game(tx: Tx, actor: Actor, text: str) -> Game:
    game_id = parse_game_code(text)
    game = repo.get_game(tx.s, game_id) if game_id is not None else None
    if game is None:
        raise ServiceError("unknown_game", game=text.strip() or "?")
    if actor.member is None or actor.member.id is None:
        raise ServiceError("not_member", status="refused", game=game_code(game))
    if not actor.global_gm and repo.membership(tx.s, actor.member.id, game.id or 0) is None:
        raise ServiceError("not_member", status="refused", game=game_code(game))
    actor.member.current_game_id = game.id
    tx.s.add(actor.member)
    return game


def choose_game(
    tx: Tx, actor: Actor, *, explicit: str | None, hint: str | None, chat: str | None
) -> Game:
    """The game a message is about: named, hinted (e-mail subject tag), the team
    chat it was written in, the member's chosen game, or his only live one."""
    for text in (explicit, hint):
        game_id = parse_game_code(text)
        if game_id is not None:
            game = repo.get_game(tx.s, game_id)
            if game is None:
                raise ServiceError("unknown_game", game=game_code(game_id))
            return game
    if chat:
        game = repo.game_of_team_chat(tx.s, chat)
        if game is not None:
            return game
    member = actor.member
    if member is not None and member.id is not None:
        if member.current_game_id is not None:
            game = repo.get_game(tx.s, member.current_game_id)
            if game is not None:
                return game
        live = [g for g, _ in repo.games_of_member(tx.s, member.id) if g.status != "ended"]
        if len(live) == 1:
            return live[0]
    raise ServiceError("no_game", games=_games_list(tx, actor))


def set_group_lang(tx: Tx, actor: Actor, chat: str, lang: str) -> str:
    """A team group's language, set in the group by its team's captain or a game
    master of its game; every answer and post there speaks it."""
    team = repo.team_by_chat(tx.s, chat)
    if lang not in LANGS:
        raise ServiceError("lang_usage")
    if team is None:
        raise ServiceError("group_lang_unlinked")
    ms = (
        repo.membership(tx.s, actor.member.id, team.game_id)
        if actor.member is not None and actor.member.id is not None
        else None
    )
    captain = ms is not None and ms.role == "captain" and ms.side == team.side
    if not (captain or gm.is_gm(tx, actor, team.game_id)):
        raise ServiceError("group_lang_captain", status="refused")
    team.chat_lang = lang
    tx.s.add(team)
    return lang


def status_text(tx: Tx, game: Game, view: View, lang: str) -> str:
    """The game at a glance: teams, state, score, round, deadline (in the game's
    time zone), dice commitment, and who has not ordered yet — names only, of
    the teams whose secrets ``view`` holds (see docs/service.md)."""
    assert game.id is not None
    teams = repo.teams(tx.s, game.id)
    left = teams["left"].name if "left" in teams else "?"
    right = teams["right"].name if "right" in teams else "?"
    rnd = rounds.current_round(tx, game)
    params: dict[str, object] = {
        "game": game_code(game), "left": left, "right": right,
        "status_text": t(STATUS_TEXTS.get(game.status, "status_setup"), lang),
    }  # fmt: skip
    if rnd is None:  # before the start: no score, round or deadline to tell
        return t("status_not_started", lang, **params)
    lines = []
    key = N_("status_closed")
    state = rounds.load_state(tx, rnd)
    # A resolved round's score is the one after its last tick played (the match
    # may have ended on it); the position before it still lacks its goals.
    after = (
        rounds.load_state(tx, rnd, repo.last_snapshot_tick(tx.s, rnd.id))
        if rnd.status == "resolved" and rnd.id is not None
        else state
    )
    params["score"] = f"{after.teams[0].score}:{after.teams[1].score}"
    params["round"] = rnd.number
    if game.status == "ended":  # its last round closed or cancelled: only the result is news
        key = N_("status_over")
    elif rnd.status == "open":
        key = N_("status")
        params["deadline"] = format_time(rnd.deadline, game.timezone, lang)
        params["commitment"] = rnd.commitment
        lines = _missing_lines(tx, game, rnd, state, view, lang)
    return "\n".join([t(key, lang, **params), *lines])


def _missing_lines(
    tx: Tx, game: Game, rnd: Round, state: MatchState, view: View, lang: str
) -> list[str]:
    """Per team the view holds: who still lacks an order for some tick."""
    sides = [side for side in SIDES if side in view.sides]
    if not sides:
        return []
    assert game.id is not None
    rows = repo.current_orders(tx.s, game.id, rnd.number, sides[0] if len(sides) == 1 else None)
    orders = RoundOrders.from_json(rounds.orders_document(rows))
    ruleset = rounds.ruleset_of(game)
    lines = []
    for side in sides:
        names = ordering.missing_labels(orders, state, ruleset, side, None, lang)
        team = state.team(side).name
        if names:
            lines.append(t("status_missing", lang, team=team, players=", ".join(names)))
        else:
            lines.append(t("status_all_ordered", lang, team=team))
    return lines


def status_pictures(tx: Tx, game: Game, view: View, lang: str) -> str | None:
    """The picture of the game's current position for ``view`` (the all-seeing
    view draws what is hidden), as a reference drawn when the answer is
    delivered: ``position/<round id>/<tick>/<view>/<lang>``.  None before the start."""
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.id is None:
        return None
    # An open round's position is the one before it; after the last round, its end.
    tick = 0 if rnd.status == "open" else repo.last_snapshot_tick(tx.s, rnd.id)
    return f"position/{rnd.id}/{tick}/{view.picture}/{lang}"


def remind(tx: Tx, game_id: int, round_id: int) -> int:
    """Remind the members whose players still lack orders; once per round."""
    game = repo.lock_game(tx.s, game_id)
    if game is None:
        return 0
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.id != round_id or rnd.status != "open" or rnd.reminded_at is not None:
        return 0
    rnd.reminded_at = tx.now
    tx.s.add(rnd)
    if rnd.deadline <= tx.now:  # catching up: too late to remind anyone
        return 0
    state = rounds.load_state(tx, rnd)
    ruleset = rounds.ruleset_of(game)
    sent = 0
    for ms, member in repo.memberships(tx.s, game_id):
        if ms.role == "game_master" or ms.side is None:
            continue
        actor = Actor(identity=f"member:{member.id}", member=member, lang=member.lang)
        scope = ordering.scope_of(tx, actor, game)
        dest = notify.member_destination(member, audience=ms.side)
        if dest is None:
            continue
        names = ordering.member_reminder(tx, game, rnd, scope, state, ruleset, dest.lang)
        if not names:
            continue
        with reader_zone(dest.zone):  # his own zone, if he chose one with /tz
            deadline = format_time(rnd.deadline, game.timezone, dest.lang)
        params = {
            "game": game_code(game), "round": rnd.number, "players": ", ".join(names),
            "deadline": deadline,
        }  # fmt: skip
        notify.queue(
            tx, dest, "reminder", t("reminder", dest.lang, **params), game=game,
            subject=t("subject_reminder", dest.lang, **params),
        )  # fmt: skip
        sent += 1
    return sent
