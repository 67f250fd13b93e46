"""Who hears about a game, in which language, and queueing it in the outbox.

Destinations of a game:
- public: the game's channel (telegram), in the game's language;
- a team: its linked group chat (in the group's language), and every member
  of the team who reads by e-mail, or by private Telegram chat when the team
  has no group (in the member's language);
- game masters: the game's own masters, else the configured ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from storage import repo
from storage.models import Game, Member, Membership, OutboxRow, Team

from .api import Attachment, OutboxItem
from .context import Tx, game_code
from .i18n import N_, reader_zone, t

__all__ = [
    "Destination",
    "announce",
    "game_destinations",
    "gm_destinations",
    "member_destination",
    "message",
    "outbox_item",
    "public_destinations",
    "queue",
    "queue_all",
]


@dataclass(frozen=True)
class Destination:
    channel: str
    address: str
    lang: str
    thread: str | None = None
    audience: str = "public"  # public | left | right | gm
    zone: str | None = None  # one reader's own time zone (/tz); None: the game's

    @property
    def key(self) -> tuple[str, str]:
        return (self.channel, self.address)


def message(
    tx: Tx,
    dest: Destination,
    kind: str,
    text: str,
    *,
    game: Game | int | None = None,
    subject: str | None = None,
    html: str | None = None,
    reply_ref: str | None = None,
    buttons: Sequence[tuple[str, str]] = (),
    pictures: str | None = None,
) -> OutboxRow:
    """An outbox row for ``dest`` (not yet written): e-mail gets the subject,
    tagged with the game (given as a row or its id), and the HTML part;
    Telegram the forum topic."""
    if dest.channel == "email" and subject is not None and game is not None:
        tag = f"[{game_code(game)}]"  # replies keep the tag, so answers find their game
        subject = subject if tag in subject else f"{tag} {subject}"
    return OutboxRow(
        game_id=game.id if isinstance(game, Game) else game,
        channel=dest.channel,
        destination=dest.address,
        kind=kind,
        text=text,
        subject=subject if dest.channel == "email" else None,
        html=html if dest.channel == "email" else None,
        reply_ref=reply_ref,
        thread_id=dest.thread,
        buttons=[list(b) for b in buttons],
        pictures=pictures,
        next_try_at=tx.now,
        created_at=tx.now,
    )


def queue(
    tx: Tx,
    dest: Destination,
    kind: str,
    text: str,
    *,
    game: Game | int | None = None,
    subject: str | None = None,
    html: str | None = None,
    attachments: Sequence[tuple[str, str, bytes]] = (),
    reply_ref: str | None = None,
    buttons: Sequence[tuple[str, str]] = (),
    pictures: str | None = None,
    claim: bool = False,
) -> int:
    """Queue one message; returns its outbox id.

    ``claim``: the message is written already claimed for delivery (one attempt,
    hidden for the lease, as the outbox worker's claim does) and collected in
    ``tx.claimed``, for a courier to deliver as soon as the transaction commits.
    If nobody does, the lease runs out and the worker delivers it."""
    row = message(
        tx, dest, kind, text, game=game, subject=subject, html=html, reply_ref=reply_ref,
        buttons=buttons, pictures=pictures,
    )  # fmt: skip
    if claim:
        row.attempts, row.next_try_at = 1, tx.now + tx.settings.outbox_lease
        row.claimed_by = tx.owner
    outbox_id = repo.enqueue(tx.s, row, attachments)
    tx.queued.append(outbox_id)
    if claim:
        tx.claimed.append(outbox_item(row, list(attachments)))
    return outbox_id


def outbox_item(row: OutboxRow, files: Sequence[tuple[str, str, bytes]]) -> OutboxItem:
    """What a channel is handed for a stored outbox row and its attachments."""
    assert row.id is not None
    return OutboxItem(
        id=row.id,
        channel=row.channel,
        destination=row.destination,
        kind=row.kind,
        text=row.text,
        subject=row.subject,
        html=row.html,
        attachments=tuple(Attachment(f, c, d) for f, c, d in files),
        reply_ref=row.reply_ref,
        thread_id=row.thread_id,
        buttons=tuple((str(b[0]), str(b[1])) for b in row.buttons),
        attempts=row.attempts,
        parts_sent=tuple(row.parts_sent or ()),
    )


def queue_all(tx: Tx, rows: Sequence[OutboxRow]) -> list[int]:
    """Queue many messages in one database round trip; returns their ids."""
    tx.s.add_all(rows)
    tx.s.flush()
    ids = [r.id for r in rows if r.id is not None]
    tx.queued.extend(ids)
    return ids


def member_destination(member: Member, *, audience: str = "public") -> Destination | None:
    """Where a member reads private messages (his chosen channel, else the other)."""
    zone = member.timezone
    email = (
        Destination("email", member.email, member.lang, audience=audience, zone=zone)
        if member.email
        else None
    )
    tg = (
        Destination(
            "telegram", str(member.telegram_user_id), member.lang, audience=audience, zone=zone
        )
        if member.telegram_user_id is not None
        else None
    )
    return (email or tg) if member.notify == "email" else (tg or email)


def public_destinations(game: Game) -> list[Destination]:
    if not game.channel_chat:
        return []
    return [Destination("telegram", game.channel_chat, game.lang, game.channel_thread)]


def _team(
    game: Game, side: str, team: Team | None, people: list[tuple[Membership, Member]]
) -> list[Destination]:
    out: list[Destination] = []
    if team is not None and team.chat:
        # The group speaks its own language (set there with /lang), else the game's.
        lang = team.chat_lang or game.lang
        out.append(Destination("telegram", team.chat, lang, team.thread, side))
    for ms, member in people:
        if ms.side != side or ms.role == "game_master":
            continue
        dest = member_destination(member, audience=side)
        # Members in the team's group read the group; e-mail readers get their own
        # copy, and so does a member who joined after the group was linked and has
        # not been seen there yet (Membership.private_copies).
        in_group = dest is not None and dest.channel == "telegram" and team is not None
        if dest is not None and not (in_group and team and team.chat and not ms.private_copies):
            out.append(dest)
    return _unique(out)


def gm_destinations(
    tx: Tx, game: Game | None, people: list[tuple[Membership, Member]] | None = None
) -> list[Destination]:
    out: list[Destination] = []
    if game is not None and game.id is not None:
        if people is None:
            people = repo.memberships(tx.s, game.id)
        for ms, member in people:
            dest = member_destination(member, audience="gm") if ms.role == "game_master" else None
            if dest is not None:
                out.append(dest)
    if not out:
        lang = tx.settings.lang
        out += [
            Destination("telegram", str(i), lang, audience="gm")
            for i in sorted(tx.settings.gm_telegram_ids)
        ]
        out += [Destination("email", a, lang, audience="gm") for a in sorted(tx.settings.gm_emails)]
    return _unique(out)


def game_destinations(tx: Tx, game: Game) -> list[Destination]:
    """Everybody of a game, each once: public channel, both teams, game masters."""
    assert game.id is not None
    teams = repo.teams(tx.s, game.id)
    people = repo.memberships(tx.s, game.id)
    return _unique(
        public_destinations(game)
        + _team(game, "left", teams.get("left"), people)
        + _team(game, "right", teams.get("right"), people)
        + gm_destinations(tx, game, people)
    )


def announce(
    tx: Tx,
    game: Game,
    key: str,
    /,
    *,
    kind: str = "announce",
    subject_key: str = N_("subject_announce"),
    to: Iterable[Destination] | None = None,
    extra: Callable[[Destination], tuple[str, Sequence[tuple[str, str]]]] | None = None,
    **params: object,
) -> list[int]:
    """Queue the text ``key`` to everybody of the game, each in his language;
    ``extra`` gives a destination's own addition (text after it, buttons)."""
    params.setdefault("game", game_code(game))
    rows = []
    for dest in to if to is not None else game_destinations(tx, game):
        more, buttons = extra(dest) if extra is not None else ("", ())
        with reader_zone(dest.zone):  # his deadlines in his own zone, if he chose one
            text, subject = t(key, dest.lang, **params), t(subject_key, dest.lang, **params)
        rows.append(
            message(tx, dest, kind, text + more, game=game, subject=subject, buttons=buttons)
        )
    return queue_all(tx, rows)


def _unique(dests: Iterable[Destination]) -> list[Destination]:
    seen: set[tuple[str, str]] = set()
    out = []
    for d in dests:
        if d.key not in seen:
            seen.add(d.key)
            out.append(d)
    return out
