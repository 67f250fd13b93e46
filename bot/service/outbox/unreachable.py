"""A member the bot may not write to privately (he never started it, or blocked it).

Called when a Telegram delivery to a private chat failed for good: the
member's team chat is told, once a day, with a button that opens the bot
(``bot:start``, which the Telegram channel turns into ``t.me/<bot>``), and the
message itself goes to the member's e-mail address when he has one.
"""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import col, select

from storage import repo
from storage.models import GmAction, OutboxRow

from ..kernel.context import Tx
from ..kernel.i18n import t
from ..kernel.notify import Destination, queue

__all__ = ["PRIVATE_FAILURES", "START_BUTTON_URL", "reroute"]

# First word of DeliveryResult.reason (bot.telegram.channel.REASONS) for a private chat.
PRIVATE_FAILURES = frozenset({"blocked", "not_started"})
START_BUTTON_URL = "bot:start"


def reroute(tx: Tx, row: OutboxRow, reason: str) -> list[int]:
    """Tell the team chat and copy ``row`` to e-mail; returns the outbox ids queued."""
    code = reason.split(":", 1)[0].strip()
    if row.channel != "telegram" or code not in PRIVATE_FAILURES:
        return []
    try:
        user_id = int(row.destination)
    except ValueError:
        return []
    member = repo.member_by_telegram(tx.s, user_id)
    if member is None or member.id is None:
        return []
    queued = []
    game = repo.get_game(tx.s, row.game_id) if row.game_id is not None else None
    if member.email:
        files = repo.outbox_attachments(tx.s, [row.id]) if row.id is not None else {}
        queued.append(
            queue(
                tx,
                Destination("email", member.email, member.lang),
                row.kind,
                row.text,
                game=game,
                subject=t("subject_unreachable", member.lang),
                attachments=files.get(row.id or 0, []),
                pictures=row.pictures,
            )
        )
    if game is None or game.id is None or _told_recently(tx, member.id):
        return queued
    membership = repo.membership(tx.s, member.id, game.id)
    team = repo.teams(tx.s, game.id).get(membership.side or "") if membership else None
    if team is None or not team.chat:
        return queued
    repo.log_action(tx.s, game.id, "system", "telegram_unreachable", {"member": member.id}, tx.now)
    name = member.name or f"id {user_id}"
    lang = team.chat_lang or game.lang  # the group's language, not the member's
    text = t(
        "unreachable_notice",
        lang,
        name=name,
        mail=t("unreachable_mail", lang) if member.email else "",
    )
    queued.append(
        queue(
            tx,
            Destination("telegram", team.chat, lang, team.thread, team.side),
            "notice",
            text,
            game=game,
            buttons=[(t("unreachable_button", lang), START_BUTTON_URL)],
        )
    )
    return queued


def _told_recently(tx: Tx, member_id: int) -> bool:
    since = tx.now - timedelta(days=1)
    actions = tx.s.exec(
        select(GmAction).where(
            GmAction.action == "telegram_unreachable", col(GmAction.created_at) >= since
        )
    ).all()
    return any(action.args == {"member": member_id} for action in actions)
