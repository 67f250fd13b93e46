"""The way in: store the message, find out who wrote it, carry it out, answer.

Storing comes first and in its own transaction, so a message is never lost
even when working on it fails; a redelivery (same channel and external id)
is recognised there and changes nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Connection

from bot.masking import stored_form
from storage import repo
from storage.models import InboundMessage, Member

from ..handlers import members
from ..kernel import audience, notify
from ..kernel.api import PASSPHRASE_MASK, Inbound
from ..kernel.audience import PUBLIC, Audience
from ..kernel.context import Actor, ServiceError, Tx
from ..kernel.i18n import N_, lang_or_default, reader_zone, t
from ..kernel.outcome import Outcome
from ..orders import submit as ordering
from . import commands

__all__ = ["Plan", "answer", "from_row", "identify", "plan", "process", "store"]


def store(conn: Connection, msg: Inbound, now: datetime | None = None) -> int | None:
    """Insert the raw message; None when it was already received (the unique
    key on channel and external id decides, also between two racing deliveries).
    Everything needed to work on it again is kept (:func:`from_row`), but a
    pass phrase, in any field (bot.masking)."""
    text, raw = stored_form(msg.text, msg.raw)
    return repo.insert_inbound(
        conn,
        {
            "channel": msg.channel,
            "external_id": msg.external_id,
            "sender": msg.sender,
            "chat": msg.chat,
            "subject": msg.subject,
            # The only change to what was received: a pass phrase is never stored.
            "text": text,
            "raw": raw,
            "received_at": msg.received_at,
            "edit_of": msg.edit_of,
            "authenticated": msg.authenticated,
            "meta": dict(msg.meta) or None,
            "game_hint": msg.game_hint,
            "reply_ref": msg.reply_ref,
            "stored_at": now or datetime.now(UTC),
        },
    )


def from_row(row: InboundMessage) -> Inbound:
    """The message as its channel handed it over, from what :func:`store` kept."""
    return Inbound(
        channel=row.channel,
        external_id=row.external_id,
        sender=row.sender,
        text=row.text,
        raw=row.raw,
        received_at=row.received_at,
        chat=row.chat,
        game_hint=row.game_hint,
        edit_of=row.edit_of,
        reply_ref=row.reply_ref,
        subject=row.subject,
        authenticated=row.authenticated,
        meta={str(k): str(v) for k, v in (row.meta or {}).items()},
    )


def identify(tx: Tx, msg: Inbound) -> Actor:
    """The member behind (channel, sender); configured game masters get a member row."""
    settings = tx.settings
    member: Member | None = None
    global_gm = False
    # Somebody the judge meets for the first time is answered in his app's language
    # (as an invitee is: members.client_lang), else in the configured one.
    first_lang = members.client_lang(msg.meta.get("language_code")) or settings.lang
    if msg.channel == "telegram":
        try:
            user_id = int(msg.sender)
        except ValueError:
            return Actor(identity=f"telegram:{msg.sender}", lang=first_lang)
        member = repo.member_by_telegram(tx.s, user_id, with_game=True)
        global_gm = user_id in settings.gm_telegram_ids
        if global_gm and member is None:
            member = Member(
                telegram_user_id=user_id, notify="telegram", lang=first_lang, created_at=tx.now
            )
    elif msg.channel == "email":
        address = msg.sender.strip().lower()
        member = repo.member_by_email(tx.s, address, with_game=True)
        # A forged From: must not make anyone a game master.
        global_gm = msg.authenticated and address in settings.gm_emails
        if global_gm and member is None:
            member = Member(email=address, notify="email", lang=settings.lang, created_at=tx.now)
    elif msg.channel in ("cli", "demo"):
        return Actor(identity="cli", lang=settings.lang)
    if member is not None and member.id is None:
        tx.s.add(member)
        tx.s.flush()
    lang = lang_or_default(member.lang if member else None, first_lang)
    return Actor(
        identity=f"{msg.channel}:{msg.sender}", member=member, global_gm=global_gm, lang=lang
    )


Plan = ordering.OrderPlan


def plan(tx: Tx, msg: Inbound) -> Plan | None:
    """For an order message: its orders read and checked as :func:`process` will
    file them (``ordering.plan_orders``), in a transaction that takes no lock.
    None for anything else (commands, refusals) or when it cannot be planned."""
    if msg.meta.get("ignore") or msg.meta.get("refuse"):
        return None
    if commands.parse_command(msg.text) is not None or not msg.text.strip():
        return None
    if msg.channel == "email" and not msg.authenticated:
        return None
    actor = identify(tx, msg)
    if actor.member is None and not actor.trusted:
        return None
    game = members.choose_game(
        tx, actor, explicit=None, hint=msg.game_hint, chat=commands.group_chat(msg)
    )
    assert game.id is not None
    replaces = None
    if msg.edit_of is not None:
        original = repo.inbound_by_external(tx.s, msg.channel, msg.edit_of)
        replaces = original.id if original is not None else None
    reply = audience.reply_audience(tx, msg, actor)
    acting = audience.acting_view(tx, actor, reply, game.id)
    return ordering.plan_orders(
        tx, actor, game.id, msg.text, replaces_message=replaces, lang=reply.lang,
        within=acting.team,
    )  # fmt: skip


def process(tx: Tx, msg: Inbound, inbound_id: int) -> tuple[Outcome, Actor]:
    """Carry the message out; ServiceError becomes a refusal the sender can read."""
    actor = identify(tx, msg)
    cmd = commands.parse_command(msg.text)
    reply = audience.reply_audience(tx, msg, actor)
    tx.answering = reply.dest.key if reply.dest is not None else None
    _seen_in_group(tx, msg, actor)
    try:
        # A refusal undoes whatever the operation had done before it refused.
        with tx.s.begin_nested():
            outcome = _dispatch(tx, msg, actor, reply, cmd, inbound_id)
    except ServiceError as err:
        # What was wrong with the request: nothing of the game's secrets.
        outcome = Outcome(err.key, dict(err.params), status=err.status, secrecy=PUBLIC)
    # The actor may have just become a member (/start CODE) or changed language.
    if actor.member is None and outcome.data.get("member_id") is not None:
        member = tx.s.get(Member, outcome.data["member_id"])
        actor = Actor(
            actor.identity, member, actor.global_gm, member.lang if member else actor.lang
        )
    elif "lang" in outcome.data:
        actor = Actor(actor.identity, actor.member, actor.global_gm, str(outcome.data["lang"]))
    return outcome, actor


_REFUSALS = {
    "no_passphrase": N_("unauthenticated"),
    "wrong_passphrase": N_("unauthenticated_wrong"),
    "passphrase_not_set": N_("unauthenticated_unset"),
}


def _dispatch(
    tx: Tx,
    msg: Inbound,
    actor: Actor,
    reply: Audience,
    cmd: commands.Command | None,
    inbound_id: int,
) -> Outcome:
    # The e-mail adapter's verdicts: robots and rate-limited senders are stored, never
    # answered; an oversized message is refused unread (the answer says why).
    if msg.meta.get("ignore"):
        return Outcome("raw", {"text": ""}, status="ignored")
    if cmd is not None and cmd.name == "passphrase" and cmd.rest.strip() == PASSPHRASE_MASK:
        # Worked on after a restart: the phrase was never stored, so it is not known.
        return Outcome("passphrase_resend", status="refused")
    if msg.meta.get("refuse") == "too_large":
        return Outcome("mail_too_large", {"limit": msg.meta.get("limit", "?")}, status="refused")
    if msg.channel == "email" and not msg.authenticated and not (cmd and cmd.name == "start"):
        # Say what was wrong: a wrong phrase is not a missing one (the adapter's verdict).
        # Say what was wrong: a wrong phrase is not a missing one (the adapter's verdict).
        key = _REFUSALS.get(str(msg.meta.get("auth")), _REFUSALS["no_passphrase"])
        return Outcome(key, status="refused")
    if actor.member is None and not actor.trusted:
        if cmd is not None and cmd.name in commands.ANONYMOUS:
            return commands.run(tx, actor, msg, cmd, inbound_id, reply)
        if cmd is None and _in_group(msg):  # a guest chatting in a team group
            return Outcome("raw", {"text": ""}, status="ignored")
        return Outcome("unknown_sender", status="unknown_sender")
    if cmd is not None:
        if _in_group(msg) and not commands.known(cmd) and not msg.meta.get("addressed"):
            # "/shrug" in a team group is not for the judge (docs/service.md)
            return Outcome("raw", {"text": ""}, status="ignored")
        return commands.run(tx, actor, msg, cmd, inbound_id, reply)
    if not msg.text.strip():
        # A photo, a file or a voice message in a private chat may well be meant
        # as orders: say what the judge reads.  Stickers are reactions: no answer.
        if msg.meta.get("media") not in (None, "sticker") and not _in_group(msg):
            return Outcome("media_text_only", status="rejected")
        return Outcome("raw", {"text": ""}, status="ignored")
    game = members.choose_game(
        tx, actor, explicit=None, hint=msg.game_hint, chat=commands.group_chat(msg)
    )
    assert game.id is not None
    replaces = None
    quiet = _in_group(msg)  # in a team group only orders are answered (docs/service.md)
    if msg.edit_of is not None:
        original = repo.inbound_by_external(tx.s, msg.channel, msg.edit_of)
        replaces = original.id if original is not None else None
        # An edit of a message that was answered is answered: it may take orders back.
        quiet = quiet and (original is None or original.status == "ignored")
    if quiet and not ordering.looks_like_orders(tx, actor, game, msg.text):
        return Outcome("raw", {"text": ""}, status="ignored", game_id=game.id)
    # Orders are a team's secret: taken only where every reader may see them.
    acting = audience.acting_view(tx, actor, reply, game.id)
    status, text = ordering.submit(
        tx, actor, game.id, msg.text, message_id=inbound_id, replaces_message=replaces,
        received_at=msg.received_at, lang=reply.lang, within=acting.team,
        seen_by=acting.team if reply.group else None,
    )  # fmt: skip
    if status == "ignored" and not _in_group(msg):
        status = "rejected"  # in a private chat or a letter the writer expects an answer
    return Outcome("raw", {"text": text}, status=status, game_id=game.id, secrecy=acting)


def _seen_in_group(tx: Tx, msg: Inbound, actor: Actor) -> None:
    """A member who writes in his team's group reads it: the private copies he got
    while he was not known to be there stop (notify's team destinations)."""
    chat = commands.group_chat(msg)
    member = actor.member
    if chat is None or member is None or member.id is None:
        return
    team = repo.team_by_chat(tx.s, chat)
    if team is None:
        return
    ms = repo.membership(tx.s, member.id, team.game_id)
    if ms is not None and ms.private_copies and ms.side == team.side:
        ms.private_copies = False
        tx.s.add(ms)


def _in_group(msg: Inbound) -> bool:
    return commands.group_chat(msg) is not None


def answer(tx: Tx, msg: Inbound, actor: Actor, outcome: Outcome) -> tuple[str, list[int]]:
    """Queue the outcome to whoever will read it (bot.service.kernel.audience decides
    what, where and in which language); returns the answer in place."""
    if outcome.status == "ignored":  # stored, never answered
        return t(outcome.key, actor.lang, **outcome.params), []
    reply = audience.reply_audience(tx, msg, actor)  # the actor may speak another language now
    ids: list[int] = []
    text = ""
    # A private answer writes deadlines in the asker's own zone (/tz), a group's in the game's.
    zone = actor.member.timezone if actor.member is not None and reply.private else None
    with reader_zone(zone):
        planned = audience.deliveries(tx, actor, reply, outcome)
    for d in planned:
        if d.answer:
            text = d.text
        dest = d.audience.dest
        if dest is None or not d.text:
            continue
        subject = f"Re: {msg.subject}" if msg.subject and d.answer else None
        ids.append(
            notify.queue(
                tx, dest, "ack", d.text, game=outcome.game_id, subject=subject,
                reply_ref=msg.reply_ref if d.answer else None,
                buttons=outcome.buttons if d.content else (), pictures=d.pictures, html=d.html,
                # Pictures are drawn when the worker claims the answer: not a courier's job.
                claim=dest.channel in tx.express and d.pictures is None,
            )
        )  # fmt: skip
    return text, ids
