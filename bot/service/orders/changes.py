"""Telling a team when somebody else changes its order sheet.

When a teammate or a game master files or clears orders of a piece, the
team's captain and the member who controls that piece get a short private
notice: what changed (the new orders, or what was cleared) and by whom.
Nobody is told of his own change, nor of one written in his team's group if
he reads that group (a Telegram member of a team with a group); e-mail
readers are always told.  The notice holds that team's secrets only, and
goes only where its reader may see them (bot.service.kernel.audience).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.orderlang import format_orders
from engine.orders import DragonOrder, PlayerOrder, Substitution
from engine.ruleset import Ruleset
from engine.state import MatchState
from storage import repo
from storage.models import Game, Member, Membership, OrderRow, Round, Team

from ..kernel import audience, notify
from ..kernel.context import Actor, Tx, game_code
from ..kernel.i18n import t
from .filing import Order, bundle

__all__ = ["Piece", "tell"]


@dataclass(frozen=True)
class Piece:
    side: str
    unit: str  # player | dragon | substitution
    number: int  # shirt number; 0 for the dragon; the one going off for a substitution


def _piece(order: Order) -> Piece | None:
    if isinstance(order, PlayerOrder):
        return Piece(order.side, "player", order.number)
    if isinstance(order, DragonOrder):
        return Piece(order.side, "dragon", 0)
    if isinstance(order, Substitution):
        return Piece(order.side, "substitution", order.out_number)
    return None  # a penalty is the game master's, announced to everybody


class _Role(Protocol):
    side: str | None
    role: str
    players: str


def _concerns(ms: _Role, piece: Piece) -> bool:
    if ms.side != piece.side or ms.role not in ("captain", "player"):
        return False
    if ms.role == "captain":
        return True
    tokens = {p.strip().lower() for p in ms.players.split(",")}
    if piece.unit == "player":
        return str(piece.number) in tokens
    return piece.unit == "dragon" and "dragon" in tokens


def _author(tx: Tx, actor: Actor, game: Game, lang: str) -> str:
    member = actor.member
    name = member.name if member is not None and member.name else ""
    ms = (
        repo.membership(tx.s, member.id, game.id)
        if member is not None and member.id is not None and game.id is not None
        else None
    )
    role = ms.role if ms is not None else "game_master"
    words = t(f"role_{role}", lang)
    return f"{words} {name}".strip() if name else words


def tell(
    tx: Tx,
    game: Game,
    rnd: Round,
    actor: Actor,
    *,
    filed: Sequence[Order],
    cleared: Sequence[OrderRow],
    state: MatchState,
    ruleset: Ruleset,
    seen_by: str | None = None,
) -> int:
    """Queue the notices of one change; ``seen_by``: the team whose group the
    change was written in.  Returns how many were queued."""
    assert game.id is not None
    if not (filed or cleared):
        return 0
    author_id = actor.member.id if actor.member is not None else None
    teams: dict[str, Team] | None = None  # read once somebody is to be told
    sent = 0
    # Whom it concerns is read from plain rows; only those concerned are loaded
    # whole (usually the captain alone, or nobody).
    for brief in repo.membership_roles(tx.s, game.id):
        if brief.member_id == author_id or brief.side is None:
            continue
        mine = [o for o in filed if (p := _piece(o)) is not None and _concerns(brief, p)]
        gone = [r for r in cleared if _concerns(brief, Piece(r.side, r.unit, r.number))]
        if not (mine or gone):
            continue
        pair = repo.membership_and_member(tx.s, brief.id)
        if pair is None:
            continue
        ms, member = pair
        side = ms.side
        if side is None:
            continue
        if teams is None:
            teams = repo.teams(tx.s, game.id)
        dest = notify.member_destination(member, audience=side)
        team = teams.get(side)
        if dest is None or _reads_group(dest, team is not None and bool(team.chat), seen_by, ms):
            continue
        # A team's secrets, to one of that team's members: nowhere else.
        if not audience.member_view(tx, member, game.id, everywhere=False).covers(
            audience.team_view(side)
        ):
            continue
        text = _text(tx, game, rnd, actor, mine, gone, state, ruleset, member)
        notify.queue(
            tx, dest, "sheet_notice", text, game=game,
            subject=t("subject_sheet_changed", dest.lang, game=game_code(game), round=rnd.number),
        )  # fmt: skip
        sent += 1
    return sent


def _reads_group(
    dest: notify.Destination, has_group: bool, seen_by: str | None, ms: Membership
) -> bool:
    """He saw it already: written in his team's group, which he reads (Telegram)."""
    return has_group and seen_by == ms.side and dest.channel == "telegram"


def _text(
    tx: Tx,
    game: Game,
    rnd: Round,
    actor: Actor,
    filed: list[Order],
    cleared: list[OrderRow],
    state: MatchState,
    ruleset: Ruleset,
    reader: Member,
) -> str:
    lang = reader.lang
    parts = [
        t("sheet_changed", lang, game=game_code(game), round=rnd.number,
          who=_author(tx, actor, game, lang)),
    ]  # fmt: skip
    if filed:
        parts.append(format_orders(bundle(filed), state=state, ruleset=ruleset, lang=lang))
    if cleared:
        names = sorted({_name(state, r, lang) for r in cleared})
        parts.append(t("sheet_changed_cleared", lang, pieces=", ".join(names)))
    parts.append(t("sheet_changed_footer", lang))
    return "\n\n".join(parts)


def _name(state: MatchState, row: OrderRow, lang: str) -> str:
    """The piece a cleared order was for, as the sheet names it."""
    if row.unit == "dragon":
        return t("sheet_piece_dragon", lang)
    player = state.find_player("left" if row.side == "left" else "right", row.number)
    name = player.name if player is not None else f"№{row.number}"
    return t("sheet_piece_substitution", lang, name=name) if row.unit == "substitution" else name
