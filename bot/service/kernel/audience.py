"""Who will read a message, and what of a game every one of them may see.

Every answer and post is addressed to an :class:`Audience`: one member (his
private chat or his letters), one team's group, the public channel, or the
game masters.  What it may show is the :class:`View` of its least-entitled
reader, never that of whoever asked:

- a member's private chat or letters: what he may see in that game — a game
  master everything, a team's member his team's secrets, anyone else the
  public part;
- the group linked to a team of that game: that team's secrets;
- any other group (the public channel, a group of both teams): the public part.

An answer says whose secret it is (``Outcome.secrecy``; by default the whole
view of the asker, except the plain answers of :data:`PUBLIC_KEYS`) and, when
it can be told to fewer, how it reads for a narrower view (``Outcome.shown``).
:func:`deliveries` then decides, the same way for every command: in place
when the audience may see it all; narrowed, with a word on where the rest is,
when it may see a part; otherwise privately to the asker, with a note in place.
Posts of the judge (reports, pictures) take their view from their
destination (:func:`destination_view`).  Secret input — orders and clears —
is taken only where every reader may see it (:func:`acting_view`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.geometry import SIDES, Side
from storage import repo
from storage.models import Game, Member

from .api import Inbound
from .context import Actor, ServiceError, Tx
from .i18n import N_, t
from .notify import Destination, member_destination

if TYPE_CHECKING:
    from .outcome import Outcome

__all__ = [
    "EVERYTHING",
    "PUBLIC",
    "PUBLIC_KEYS",
    "Audience",
    "Delivery",
    "Shown",
    "View",
    "acting_view",
    "admit",
    "answer_text",
    "asker_view",
    "check_team_chat",
    "deliveries",
    "destination_view",
    "group_lang",
    "group_of",
    "member_view",
    "private_audience",
    "reply_audience",
    "team_view",
    "view",
]


@dataclass(frozen=True)
class View:
    """What a reader may see of one game: the secrets of ``sides`` (their orders,
    who of them has ordered, their spells) and, if ``all_seeing``, what only a
    game master sees (hidden balls, every spell)."""

    sides: frozenset[str] = frozenset()
    all_seeing: bool = False

    def covers(self, other: View) -> bool:
        return other.sides <= self.sides and (self.all_seeing or not other.all_seeing)

    def meet(self, other: View) -> View:
        return View(self.sides & other.sides, self.all_seeing and other.all_seeing)

    @property
    def team(self) -> Side | None:
        """The one team whose secrets this view holds (None: none, or both)."""
        if len(self.sides) != 1:
            return None
        return "left" if "left" in self.sides else "right"

    @property
    def name(self) -> str:
        """ "public", "left", "right" or "gm" (the names of notify.Destination.audience)."""
        return "gm" if self.all_seeing else self.team or "public"

    @property
    def report(self) -> str:
        """The round report this view reads: a team's own, else the public one (the
        game master reads the public story; his pictures show what is hidden)."""
        if self.all_seeing:
            return "public"
        return self.team or "public"

    @property
    def picture(self) -> str:
        """The pictures this view gets: "gm" (all that is hidden drawn) or "public"."""
        return "gm" if self.all_seeing else "public"


PUBLIC = View()
EVERYTHING = View(frozenset(SIDES), True)


def team_view(side: str | None) -> View:
    return View(frozenset({side})) if side in SIDES else PUBLIC


def destination_view(dest: Destination) -> View:
    """The view of a post's destination, as :mod:`notify` addressed it."""
    if dest.audience == "gm":
        return EVERYTHING
    return team_view(dest.audience)


# Answers that hold nothing of anybody's secrets: shown wherever they were asked.
# Everything else is, unless it says otherwise, the asker's secret.
PUBLIC_KEYS = frozenset(
    {
        "rules", "verify_ok", "verify_failed", "lang_set", "group_lang_set", "game_selected",
        "welcome", "passphrase_set", "game_created", "team_added", "player_added",
        "deadline_set", "game_started_gm", "paused", "resumed", "extended", "resolved",
        "rolled_back", "warned", "penalty_ordered", "substituted", "ended_by_gm", "announced",
        "team_chat_linked", "channel_set", "channel_off",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Shown:
    """How an answer reads for a view narrower than the one it was made for:
    ``text(view, lang)`` is None when nothing of it may be shown to that view;
    ``pictures(view, lang)`` the reference of its pictures for that view."""

    text: Callable[[View, str], str | None]
    pictures: Callable[[View, str], str | None] | None = None
    # By mail, where it differs: the results mail's form (docs/email.md).
    mail: Callable[[View, str], MailForm] | None = None


@dataclass(frozen=True)
class MailForm:
    """An answer as a mail: its plain text, HTML (pictures inline) and pictures."""

    text: str
    html: str | None = None
    pictures: str | None = None


@dataclass(frozen=True)
class Audience:
    """The readers of one message: a Telegram group (``group``), or one reader
    (``reader``, a member; ``everywhere`` when he is a game master of every
    game or the local operator).  ``dest`` is where it goes (None: nowhere
    to send it, the operator reads the reply itself)."""

    dest: Destination | None
    lang: str
    reader: Member | None = None
    everywhere: bool = False
    group: str | None = None

    @property
    def private(self) -> bool:
        return self.group is None


@dataclass(frozen=True)
class Delivery:
    audience: Audience
    text: str
    pictures: str | None = None
    answer: bool = True  # the answer in place (False: the private copy of it)
    html: str | None = None  # by mail, the HTML part
    content: bool = True  # it carries the answer (False: a note on where it went)


def member_view(tx: Tx, member: Member | None, game_id: int | None, *, everywhere: bool) -> View:
    """What one member may see of a game."""
    if everywhere:
        return EVERYTHING
    if member is None or member.id is None or game_id is None:
        return PUBLIC
    ms = repo.membership(tx.s, member.id, game_id)
    if ms is None:
        return PUBLIC
    return EVERYTHING if ms.role == "game_master" else team_view(ms.side)


def asker_view(tx: Tx, actor: Actor, game_id: int | None) -> View:
    return member_view(tx, actor.member, game_id, everywhere=actor.global_gm or actor.trusted)


def group_view(tx: Tx, chat: str, game_id: int | None) -> View:
    """A group is a team's only if it is linked to a team of that very game."""
    if game_id is None:
        return PUBLIC
    for team in repo.teams(tx.s, game_id).values():
        if team.chat == chat:
            return team_view(team.side)
    return PUBLIC


def view(tx: Tx, audience: Audience, game_id: int | None) -> View:
    if audience.group is not None:
        return group_view(tx, audience.group, game_id)
    return member_view(tx, audience.reader, game_id, everywhere=audience.everywhere)


def group_of(msg: Inbound) -> str | None:
    """The group a Telegram message was written in; None for a private chat
    (its id is the sender's) or a letter."""
    if msg.channel == "telegram" and msg.chat is not None and msg.chat != msg.sender:
        return msg.chat
    return None


def group_lang(tx: Tx, chat: str) -> str:
    """The language a group is spoken to in: its own setting (``/lang`` in the
    group), else that of the game it belongs to, else the judge's."""
    team = repo.team_by_chat(tx.s, chat)
    if team is not None:
        if team.chat_lang:
            return team.chat_lang
        game = repo.get_game(tx.s, team.game_id)
        if game is not None:
            return game.lang
    game = repo.game_by_channel(tx.s, chat)
    return game.lang if game is not None else tx.settings.lang


def reply_audience(tx: Tx, msg: Inbound, actor: Actor) -> Audience:
    """Who reads the answer to ``msg``: the chat it came from; for e-mail the
    member's registered address (never an unverified From: of a stranger)."""
    everywhere = actor.global_gm or actor.trusted
    group = group_of(msg)
    if group is not None:
        lang = group_lang(tx, group)
        return Audience(
            Destination("telegram", group, lang, msg.meta.get("thread_id")), lang, group=group
        )
    dest: Destination | None = None
    if msg.channel == "telegram":
        dest = Destination(
            "telegram", msg.chat or msg.sender, actor.lang, msg.meta.get("thread_id")
        )
    elif msg.channel == "email":
        if actor.member is not None and actor.member.email:
            dest = Destination("email", actor.member.email, actor.lang)
        elif msg.authenticated:
            dest = Destination("email", msg.sender.strip().lower(), actor.lang)
    return Audience(dest, actor.lang, reader=actor.member, everywhere=everywhere)


def private_audience(actor: Actor) -> Audience | None:
    """Where the asker reads alone (his chosen channel), if anywhere."""
    member = actor.member
    dest = member_destination(member) if member is not None else None
    if dest is None:
        return None
    return Audience(dest, member.lang if member else actor.lang, reader=member,
                    everywhere=actor.global_gm)  # fmt: skip


def _secrecy(tx: Tx, actor: Actor, outcome: Outcome) -> View:
    if outcome.secrecy is not None:
        return outcome.secrecy
    # A refusal names what was wrong with the request, nothing of the game's secrets
    # (an order message's own errors come as "raw" answers, which are the asker's).
    refusal = outcome.status in ("refused", "rejected", "unknown_sender") and outcome.key != "raw"
    if outcome.key in PUBLIC_KEYS or refusal:
        return PUBLIC
    return asker_view(tx, actor, outcome.game_id)


def _text(outcome: Outcome, seen: View, lang: str) -> str | None:
    if outcome.shown is not None:
        return outcome.shown.text(seen, lang)
    return answer_text(outcome, lang)


def answer_text(outcome: Outcome, lang: str) -> str:
    """The answer's text; a change to a game says who was told of it."""
    text = t(outcome.key, lang, **outcome.params)
    return text if outcome.told is None else f"{text}\n{outcome.told(lang)}"


def _pictures(outcome: Outcome, seen: View, lang: str) -> str | None:
    if outcome.shown is not None and outcome.shown.pictures is not None:
        return outcome.shown.pictures(seen, lang)
    return outcome.pictures


def deliveries(tx: Tx, actor: Actor, reply: Audience, outcome: Outcome) -> list[Delivery]:
    """Where the answer ``outcome`` goes and what it says there (see the module's
    docstring); the first is the answer in place."""
    secret = _secrecy(tx, actor, outcome)
    here = view(tx, reply, outcome.game_id)
    if here.covers(secret):
        return [_whole(outcome, secret, reply)]
    narrow = here.meet(secret)
    private = private_audience(actor)
    if private is not None and (
        private.dest == reply.dest or not view(tx, private, outcome.game_id).covers(secret)
    ):
        private = None
    part = _text(outcome, narrow, reply.lang) if outcome.shown is not None else None
    if part is not None:
        key = N_("audience_rest_private") if private else N_("audience_rest_withheld")
        note = t(key, reply.lang)
        return [Delivery(reply, f"{part}\n\n{note}", _pictures(outcome, narrow, reply.lang))]
    if private is None:
        return [Delivery(reply, t("audience_not_here", reply.lang), content=False)]
    return [
        Delivery(reply, t("audience_sent_private", reply.lang), content=False),
        _whole(outcome, secret, private, answer=False),
    ]


def _whole(outcome: Outcome, seen: View, to: Audience, *, answer: bool = True) -> Delivery:
    """The whole answer as ``to`` reads it: by mail in its mail form, if it has one."""
    mail = outcome.shown.mail if outcome.shown is not None else None
    if mail is not None and to.dest is not None and to.dest.channel == "email":
        form = mail(seen, to.lang)
        return Delivery(to, form.text, form.pictures, answer=answer, html=form.html)
    text = _text(outcome, seen, to.lang) or ""
    return Delivery(to, text, _pictures(outcome, seen, to.lang), answer=answer)


# Commands whose input is itself a secret of the writer: taken only where he
# reads alone (a pass phrase shown to a group is no longer secret).
PRIVATE_INPUT = frozenset({"passphrase"})


def admit(command: str, reply: Audience) -> None:
    """Refuse, unread, a command whose input its readers must not see."""
    if command in PRIVATE_INPUT and not reply.private:
        raise ServiceError("private_input_only", status="refused")


def check_team_chat(tx: Tx, game: Game, side: str, chat: str) -> None:
    """A team's group reads that team's secrets: it may not be the game's public
    channel, nor the other team's group."""
    assert game.id is not None
    if chat == game.channel_chat:
        raise ServiceError("team_chat_public")
    for team in repo.teams(tx.s, game.id).values():
        if team.side != side and team.chat == chat:
            raise ServiceError("team_chat_other_team", team=team.name)


def acting_view(tx: Tx, actor: Actor, reply: Audience, game_id: int) -> View:
    """The view under which the asker's secret input (orders, clears) is taken
    here: his own, if every reader here may see it.  A game master in a team's
    group acts for that team only.  Anywhere else it is refused, unread."""
    own = asker_view(tx, actor, game_id)
    here = view(tx, reply, game_id)
    if here.covers(own):
        return own
    if own.all_seeing and here.team is not None:
        return here
    raise ServiceError("orders_in_foreign_chat", status="refused")
