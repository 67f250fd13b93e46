"""Invitations: made for one person, redeemed only by him.

An invitation gives one role (a captain; a player with his pieces; a game
master) and may be bound to whom it was made for:

- an e-mail address: redeemed by mail from that address, or on Telegram only
  with the confirmation code the judge then mails to the address
  (``/start CODE CONFIRMATION``);
- a Telegram username: redeemed only by that Telegram user.

Every invitation expires (``ServiceSettings.invitation_ttl``, or ``for=3d``)
and can be revoked (``/revoke CODE``; a redeemed one then ends the membership
it gave).  The game masters are told of every redemption and see them all
with ``/invitations``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from storage import repo
from storage.models import Game, Invitation, Member, Membership

from ..kernel import notify
from ..kernel.api import Inbound
from ..kernel.audience import PUBLIC
from ..kernel.context import Actor, ServiceError, Tx, game_code
from ..kernel.i18n import N_, ROLE_TEXTS, SIDE_TEXTS, format_time, t
from ..kernel.outcome import Outcome
from .gm import local_time, locked_game, record, side_of

__all__ = ["CONFIRM_TRIES", "CONFIRM_TTL", "create", "listing", "revoke", "start"]

ROLES = ("captain", "player", "game_master")
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CONFIRM_TTL = timedelta(hours=1)
CONFIRM_TRIES = 5


def _code(tx: Tx, length: int, purpose: str) -> str:
    source = tx.settings.seed_source
    if source is None:
        return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))
    # Only the demo sets a seed source: the same demo seed hands out the same
    # codes, so its transcript is the same from run to run.
    drawn = bytes.fromhex(source(purpose))
    return "".join(_CODE_ALPHABET[b % len(_CODE_ALPHABET)] for b in drawn[:length])


def _made(tx: Tx, game_id: int) -> int:
    """How many invitations the game has had (only for the demo's codes)."""
    return len(repo.invitations(tx.s, game_id)) if tx.settings.seed_source else 0


def _username(text: str | None) -> str | None:
    name = (text or "").strip().lstrip("@").lower()
    return name or None


def create(
    tx: Tx,
    actor: Actor,
    game_id: int | None,
    *,
    role: str,
    side: str | None = None,
    players: tuple[int, ...] = (),
    dragon: bool = False,
    email: str | None = None,
    username: str | None = None,
    ttl: timedelta | None = None,
) -> Outcome:
    """An invitation code for one person: a captain (his whole team and the
    dragon), a player (the shirt numbers given, and the dragon if ``dragon``)
    or a game master; bound to ``email`` or to the Telegram ``username``."""
    game = locked_game(tx, actor, game_id)
    assert game.id is not None
    if role not in ROLES:
        raise ServiceError("bad_role", role=role)
    if role != "game_master":
        side_of(side or "")
    if role == "player" and not (players or dragon):
        raise ServiceError("usage", usage="/invite player left|right NUMBER...")
    if email and username:
        raise ServiceError("invite_one_binding")
    if ttl is not None and ttl <= timedelta(0):
        raise ServiceError("bad_duration", value=str(ttl))
    code = _code(tx, 10, f"game{game.id}/invitation{_made(tx, game.id)}")
    expires = tx.now + (ttl or tx.settings.invitation_ttl)
    address = email.strip().lower() if email else None
    user = _username(username)
    tx.s.add(
        Invitation(
            code=code,
            game_id=game.id,
            side=side if role != "game_master" else None,
            role=role,
            players=",".join(
                [str(n) for n in sorted(set(players))] + (["dragon"] if dragon else [])
            ),
            email=address,
            telegram_username=user,
            created_by=actor.identity,
            created_at=tx.now,
            expires_at=expires,
        )
    )
    record(
        tx, actor, game, "invite", role=role, side=side, players=list(players), email=address,
        username=user, expires=expires,
    )  # fmt: skip
    params: dict[str, object] = {
        "game": game_code(game), "code": code,
        "role": lambda lang: t(ROLE_TEXTS.get(role, "role_player"), lang),
        "side": (lambda lang: ", " + t(SIDE_TEXTS[side], lang)) if side in SIDE_TEXTS else "",
        "bound": _bound(address, user), "expires": local_time(expires, game),
    }  # fmt: skip
    bot = tx.settings.telegram_bot
    if bot:
        params["link"] = f"https://t.me/{bot}?start={code}"
    # The Telegram channel turns "bot:start?CODE" into the same link (or drops the
    # button when it does not know its own name either).
    button = (t("invite_button", actor.lang), f"bot:start?{code}")
    return Outcome(
        N_("invited_link") if bot else N_("invited"),
        params,
        game_id=game.id,
        data={"code": code, **({"link": params["link"]} if bot else {})},
        buttons=(button,),
    )


def _bound(address: str | None, user: str | None) -> object:
    if address:
        return lambda lang: t("invite_bound_email", lang, address=address)
    if user:
        return lambda lang: t("invite_bound_telegram", lang, username=user)
    return lambda lang: t("invite_bound_none", lang)


def _hash(invitation: Invitation, confirmation: str) -> str:
    key = invitation.code.encode()
    return hmac.new(key, confirmation.strip().upper().encode(), hashlib.sha256).hexdigest()


def _usable(tx: Tx, code: str) -> Invitation:
    inv = repo.invitation_by_code(tx.s, code.strip().upper())
    if inv is None:
        raise ServiceError("bad_code")
    if inv.revoked_at is not None:
        raise ServiceError("code_revoked")
    if inv.used_at is not None:
        raise ServiceError("code_used")
    if inv.expires_at is not None and inv.expires_at <= tx.now:
        raise ServiceError("code_expired")
    return inv


def start(tx: Tx, actor: Actor, msg: Inbound, args: tuple[str, ...], lang: str | None) -> Outcome:
    """``/start CODE [CONFIRMATION]``: redeem an invitation, if it was made for
    the sender; ``lang`` is a new member's language (None: the game's)."""
    inv = _usable(tx, args[0])
    username = _username(msg.meta.get("username"))
    if inv.telegram_username is not None:
        if msg.channel != "telegram":
            raise ServiceError("code_telegram_only")
        if username != inv.telegram_username:
            raise ServiceError("code_other_user")
    if inv.email is not None:
        if msg.channel == "email" and inv.email != msg.sender.strip().lower():
            raise ServiceError("code_other_address")
        if msg.channel not in ("telegram", "email"):
            raise ServiceError("code_other_address")
        # A From: line alone proves nothing (anyone can write it): unless the mail
        # was authenticated (DKIM, a pass phrase), the mailbox itself must answer.
        if msg.channel == "telegram" or not msg.authenticated:
            pending = _confirmed(tx, actor, msg, inv, args[1] if len(args) > 1 else None)
            if pending is not None:
                return pending
    return _redeem(tx, actor, msg, inv, lang, username)


def _confirmed(
    tx: Tx, actor: Actor, msg: Inbound, inv: Invitation, confirmation: str | None
) -> Outcome | None:
    """On Telegram, or by a mail nothing authenticated, an address-bound
    invitation needs the code mailed to the address: None once it is given
    right, else the answer to send (by mail it is no redemption yet, so its
    status is not "ok": the mail adapter takes no first pass phrase with it)."""
    by_mail = msg.channel == "email"
    who = f"email:{msg.sender.strip().lower()}" if by_mail else f"telegram:{msg.sender}"
    waiting = "refused" if by_mail else "ok"
    live = inv.confirm_until is not None and inv.confirm_until > tx.now
    if confirmation is not None and live and inv.confirm_for == who:
        if inv.confirm_tries >= CONFIRM_TRIES:
            return Outcome("code_confirm_locked", status="refused", secrecy=PUBLIC)
        if inv.confirm_hash is not None and hmac.compare_digest(
            inv.confirm_hash, _hash(inv, confirmation)
        ):
            return None
        inv.confirm_tries += 1
        tx.s.add(inv)
        left = CONFIRM_TRIES - inv.confirm_tries
        return Outcome("code_confirm_wrong", {"left": left}, status="rejected", secrecy=PUBLIC)
    if live and inv.confirm_for != who:
        # Somebody else is confirming it: no second letter to the address for him.
        return Outcome("code_confirm_busy", status="refused", secrecy=PUBLIC)
    if live:
        return Outcome("code_confirm_sent", {"address": _masked(inv.email)}, status=waiting,
                       secrecy=PUBLIC)  # fmt: skip
    confirmation = _code(tx, 8, f"invitation{inv.id}/confirmation{inv.confirm_tries}")
    inv.confirm_hash, inv.confirm_for = _hash(inv, confirmation), who
    inv.confirm_until, inv.confirm_tries = tx.now + CONFIRM_TTL, 0
    tx.s.add(inv)
    game = repo.get_game(tx.s, inv.game_id)
    assert game is not None and inv.email is not None
    name = msg.meta.get("name") or who
    username = _username(msg.meta.get("username"))
    params = {
        "game": game_code(game), "code": inv.code, "confirmation": confirmation,
        "name": f"{name} (@{username})" if username else name,
        "role": lambda lang: t(ROLE_TEXTS.get(inv.role, "role_player"), lang), "until": local_time(inv.confirm_until, game),
    }  # fmt: skip
    dest = notify.Destination("email", inv.email, game.lang)
    key = N_("invitation_confirm_reply") if by_mail else N_("invitation_confirm_mail")
    notify.queue(
        tx, dest, "invitation_confirm", t(key, dest.lang, **params),
        game=game, subject=t("subject_invitation_confirm", dest.lang, **params),
    )  # fmt: skip
    repo.log_action(tx.s, game.id, who, "invitation_confirm", {"invitation": inv.id}, tx.now)
    return Outcome("code_confirm_sent", {"address": _masked(inv.email)}, status=waiting,
                   secrecy=PUBLIC)  # fmt: skip


def _masked(address: str | None) -> str:
    local, _, domain = (address or "").partition("@")
    return f"{local[:1]}…@{domain}" if domain else "…"


def _redeem(
    tx: Tx, actor: Actor, msg: Inbound, inv: Invitation, lang: str | None, username: str | None
) -> Outcome:
    member = actor.member
    game = repo.get_game(tx.s, inv.game_id)
    assert game is not None and game.id is not None
    if member is None:
        lang = lang or game.lang
        if msg.channel == "telegram":
            member = Member(telegram_user_id=int(msg.sender), notify="telegram")
        elif msg.channel == "email":
            member = Member(email=msg.sender.strip().lower(), notify="email")
        else:
            raise ServiceError("bad_code")
        member.name, member.lang, member.created_at = msg.meta.get("name", ""), lang, tx.now
        tx.s.add(member)
        tx.s.flush()
    assert member.id is not None
    if inv.email and member.email is None and repo.member_by_email(tx.s, inv.email) is None:
        member.email = inv.email  # he proved it is his: letters may reach him there too
    ms = repo.membership(tx.s, member.id, inv.game_id) or Membership(
        member_id=member.id, game_id=inv.game_id, role=inv.role, created_at=tx.now
    )
    ms.role, ms.side, ms.players = inv.role, inv.side, inv.players
    tx.s.add(ms)
    inv.used_by, inv.used_at = member.id, tx.now
    inv.used_from = f"{msg.channel}:{msg.sender}" + (f" @{username}" if username else "")
    inv.confirm_hash = None
    tx.s.add(inv)
    member.current_game_id = inv.game_id
    tx.s.add(member)
    team = _team_of(tx, game, ms.side)
    role = ms.role
    _tell_masters(tx, game, member, inv, team)
    group = repo.teams(tx.s, game.id).get(ms.side or "")
    key = N_("welcome")
    if group is not None and group.chat and role != "game_master":
        # His team talks in its group, which he may not be in yet: until he is seen
        # writing there, what the team receives reaches him privately too.
        ms.private_copies = True
        tx.s.add(ms)
        key = N_("welcome_group")
    return Outcome(
        key,
        {"game": game_code(game), "role": lambda lang: t(ROLE_TEXTS.get(role, "role_player"), lang),
         "team": (lambda lang: ", " + t("name.quoted", lang, text=team)) if team else ""},
        game_id=game.id, data={"member_id": member.id},
    )  # fmt: skip


def _team_of(tx: Tx, game: Game, side: str | None) -> str:
    if side is None or game.id is None:
        return ""
    team = repo.teams(tx.s, game.id).get(side)
    return team.name if team else side


def _who(member: Member, used_from: str | None) -> str:
    return f"{member.name or '?'} ({used_from or '-'})"


def _tell_masters(tx: Tx, game: Game, member: Member, inv: Invitation, team: str) -> None:
    params = {
        "game": game_code(game), "who": _who(member, inv.used_from), "code": inv.code,
        "role": lambda lang: t(ROLE_TEXTS.get(inv.role, "role_player"), lang), "team": (lambda lang: " " + t("name.quoted", lang, text=team)) if team else "",
    }  # fmt: skip
    for dest in notify.gm_destinations(tx, game):
        if (dest.channel, dest.address) in (
            ("telegram", str(member.telegram_user_id)), ("email", member.email or ""),
        ):  # fmt: skip
            continue
        notify.queue(
            tx, dest, "gm_notice", t("invitation_redeemed_gm", dest.lang, **params), game=game,
            subject=t("subject_invitation_redeemed", dest.lang, **params),
        )  # fmt: skip


def revoke(tx: Tx, actor: Actor, game_id: int | None, code: str) -> Outcome:
    """Revoke an invitation; a redeemed one ends the membership it gave (its
    member is told)."""
    game = locked_game(tx, actor, game_id)
    assert game.id is not None
    inv = repo.invitation_by_code(tx.s, code.strip().upper())
    if inv is None or inv.game_id != game.id:
        raise ServiceError("bad_code")
    if inv.revoked_at is not None:
        raise ServiceError("code_revoked")
    inv.revoked_at = tx.now
    tx.s.add(inv)
    ended = "-"
    member = tx.s.get(Member, inv.used_by) if inv.used_by is not None else None
    if member is not None and member.id is not None:
        ms = repo.membership(tx.s, member.id, game.id)
        if ms is not None and ms.role == inv.role and ms.side == inv.side:
            tx.s.delete(ms)
            ended = _who(member, inv.used_from)
            if member.current_game_id == game.id:
                member.current_game_id = None
                tx.s.add(member)
            dest = notify.member_destination(member)
            if dest is not None:
                notify.queue(
                    tx, dest, "notice", t("membership_ended", dest.lang, game=game_code(game)),
                    game=game, subject=t("subject_announce", dest.lang, game=game_code(game)),
                )  # fmt: skip
    record(tx, actor, game, "revoke", code=inv.code, ended=ended)
    return Outcome(
        "invitation_revoked", {"game": game_code(game), "code": inv.code, "ended": ended},
        game_id=game.id,
    )  # fmt: skip


def listing(tx: Tx, actor: Actor, game_id: int | None) -> Outcome:
    """Every invitation of the game: for whom, until when, who redeemed it."""
    game = locked_game(tx, actor, game_id)
    assert game.id is not None
    rows = repo.invitations(tx.s, game.id)
    members = {m.id: m for _, m in repo.memberships(tx.s, game.id)}

    def text(lang: str) -> str:
        lines = [t("invitations_header", lang, game=game_code(game), count=len(rows))]
        for inv in rows:
            lines.append(_line(tx, game, inv, members, lang))
        return "\n".join(lines)

    return Outcome("raw", {"text": text}, game_id=game.id)


def _line(tx: Tx, game: Game, inv: Invitation, members: dict[int | None, Member], lang: str) -> str:
    team = _team_of(tx, game, inv.side)
    what = t(ROLE_TEXTS.get(inv.role, "role_player"), lang)
    what += " " + t("name.quoted", lang, text=team) if team else ""
    if inv.players and inv.role == "player":  # "2,dragon" as stored
        pieces = [
            t("sheet_piece_dragon", lang) if piece == "dragon" else piece
            for piece in inv.players.split(",")
        ]
        what += f" ({', '.join(pieces)})"
    bound = _bound(inv.email, inv.telegram_username)
    assert callable(bound)
    if inv.revoked_at is not None:
        state = t("invitation_state_revoked", lang, when=_at(inv.revoked_at, game, lang))
    elif inv.used_at is not None:
        member = members.get(inv.used_by) or (
            tx.s.get(Member, inv.used_by) if inv.used_by is not None else None
        )
        who = _who(member, inv.used_from) if member is not None else inv.used_from or "?"
        state = t("invitation_state_used", lang, who=who, when=_at(inv.used_at, game, lang))
    elif inv.expires_at is not None and inv.expires_at <= tx.now:
        state = t("invitation_state_expired", lang, when=_at(inv.expires_at, game, lang))
    else:
        until = _at(inv.expires_at, game, lang) if inv.expires_at else "-"
        state = t("invitation_state_open", lang, when=until)
    return f"{inv.code} — {what}; {bound(lang)}; {state}"


def _at(when: datetime, game: Game, lang: str) -> str:
    return format_time(when, game.timezone, lang)
