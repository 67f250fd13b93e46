"""Delivery bookkeeping of the outbox: claiming, drawing diagrams, marking.

The worker that calls these is :class:`bot.service.outbox.worker.OutboxWorker`; the
guarantee (at least once, never again once sent) is described there.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import update
from sqlmodel import col, select

from bot.logging import get_logger
from engine.ruleset import load_ruleset
from storage import repo
from storage.models import Game, OutboxRow, Team

from ..handlers.rulebook import RULES_PICTURES, rulebook_files
from ..kernel import notify
from ..kernel.api import DeliveryResult, OutboxItem
from ..kernel.context import Tx
from ..kernel.i18n import t
from ..rounds import resolve as rounds
from ..rounds import weblinks
from . import unreachable

__all__ = ["claim", "mark_failed", "mark_part", "mark_sent"]

log = get_logger(__name__)


def claim(tx: Tx, channel: str, limit: int) -> list[OutboxItem]:
    """Take up to ``limit`` due items of ``channel`` (one more attempt each, hidden
    for the lease) with their attachments, drawing diagrams not drawn yet."""
    rows = repo.claim_outbox(
        tx.s, channel, tx.now, limit, tx.now + tx.settings.outbox_lease, owner=tx.owner
    )
    ids = [r.id for r in rows if r.id is not None]
    files = repo.outbox_attachments(tx.s, ids)
    todo = [r for r in rows if r.pictures and r.id not in files]
    if todo:
        for row in todo:
            _draw(tx, row)
        files = repo.outbox_attachments(tx.s, ids)
    # A round-open mail's personal link is signed now, never stored (weblinks).
    return [
        weblinks.fill_links(tx, r, notify.outbox_item(r, files.get(r.id or 0, []))) for r in rows
    ]


def _draw(tx: Tx, row: OutboxRow) -> None:
    """Attach the round's diagrams, drawn once per round, view and language."""
    assert row.id is not None and row.pictures is not None
    if repo.copy_pictures(tx.s, row.id, row.pictures):
        return
    try:
        if row.pictures.startswith("position/"):  # a still: position/<round>/<tick>/<view>/<lang>
            files = _position(tx, row.pictures)
        elif row.pictures.startswith(RULES_PICTURES):  # /rules: rules/<ruleset>/<lang>
            name, lang = row.pictures.removeprefix(RULES_PICTURES).rsplit("/", 1)
            files = rulebook_files(tx.reporter, load_ruleset(name), lang)
        else:  # a round's diagrams: <round>/<view>/<lang>, "/mail" for a mail's smaller set
            round_id, view, lang, *kind = row.pictures.split("/")
            files = tx.reporter.diagrams(
                rounds.material(tx, int(round_id)),
                gm_view=view == "gm",
                lang=lang,
                mail=kind == ["mail"],
            )
    except Exception:  # the text still goes out; the pictures are a bonus
        log.exception("drawing the diagrams failed", outbox_id=row.id, pictures=row.pictures)
        return
    repo.add_attachments(tx.s, row.id, files)


def _position(tx: Tx, pictures: str) -> Sequence[tuple[str, str, bytes]]:
    _, round_id, tick, view, lang = pictures.split("/")
    rnd = repo.round_by_id(tx.s, int(round_id))
    game = repo.get_game(tx.s, rnd.game_id) if rnd is not None else None
    if rnd is None or game is None:
        raise ValueError(f"no round {round_id}")
    state = rounds.load_state(tx, rnd, int(tick))
    return tx.reporter.position(state, rounds.ruleset_of(game), gm_view=view == "gm", lang=lang)


def mark_sent(tx: Tx, outbox_id: int) -> bool:
    result = tx.s.execute(
        update(OutboxRow)
        .where(col(OutboxRow.id) == outbox_id, col(OutboxRow.state) == "pending")
        .values(state="sent", sent_at=tx.now)
    )
    return bool(getattr(result, "rowcount", 0))


def mark_part(tx: Tx, outbox_id: int, part: str) -> bool:
    """Record one part of an item as delivered (its channel's label); False if the
    item is no longer pending (then nothing of it is sent again anyway)."""
    row = tx.s.exec(select(OutboxRow).where(OutboxRow.id == outbox_id).with_for_update()).first()
    if row is None or row.state != "pending":
        return False
    done = list(row.parts_sent or ())
    if part not in done:
        row.parts_sent = [*done, part]
        tx.s.add(row)
    return True


def mark_failed(tx: Tx, outbox_id: int, result: DeliveryResult) -> str:
    row = tx.s.exec(select(OutboxRow).where(OutboxRow.id == outbox_id).with_for_update()).first()
    if row is None or row.state != "pending":
        return row.state if row else "missing"
    row.last_error = result.reason[:2000] or None
    row.claimed_by = None  # waiting for its retry: nobody's claim
    if result.new_destination:
        _moved(tx, row, result.new_destination)
        row.next_try_at = tx.now
    elif result.permanent or row.attempts >= tx.settings.outbox_max_attempts:
        row.state, row.failed_at = "failed", tx.now
        if row.kind != "gm_alert":
            _alert_dead(tx, row)
        if result.permanent:  # telegram: team-chat notice and e-mail copy, if any
            unreachable.reroute(tx, row, result.reason)
    else:
        delay = result.retry_after
        if delay is None:
            s = tx.settings
            delay = min(s.outbox_backoff_max, s.outbox_backoff_base * 2 ** max(0, row.attempts - 1))
        row.next_try_at = tx.now + timedelta(seconds=delay)
    tx.s.add(row)
    return row.state


def _moved(tx: Tx, row: OutboxRow, new: str) -> None:
    """A chat moved (Telegram group → supergroup): follow it everywhere, each
    message whole (the new chat has none of the parts the old one got)."""
    old = row.destination
    tx.s.execute(
        update(OutboxRow)
        .where(
            col(OutboxRow.channel) == row.channel,
            col(OutboxRow.destination) == old,
            col(OutboxRow.state) == "pending",
        )
        .values(destination=new, parts_sent=None)
    )
    row.destination, row.parts_sent = new, None
    if row.channel == "telegram":
        tx.s.execute(update(Team).where(col(Team.chat) == old).values(chat=new))
        tx.s.execute(update(Game).where(col(Game.channel_chat) == old).values(channel_chat=new))


def _alert_dead(tx: Tx, row: OutboxRow) -> None:
    """Tell the game masters a destination keeps failing (once a day per destination)."""
    key = {"channel": row.channel, "destination": row.destination}
    recent = repo.actions_since(tx.s, "delivery_failed", tx.now - timedelta(days=1))
    if any(a.args == key for a in recent):
        return
    repo.log_action(tx.s, row.game_id, "system", "delivery_failed", key, tx.now)
    game = repo.get_game(tx.s, row.game_id) if row.game_id is not None else None
    for dest in notify.gm_destinations(tx, game):
        if dest.key == (row.channel, row.destination):
            continue
        params = {**key, "reason": row.last_error or "-", "attempts": row.attempts}
        notify.queue(
            tx, dest, "gm_alert", t("gm_alert_dead", dest.lang, **params), game=game,
            subject=t("subject_gm_alert", dest.lang),
        )  # fmt: skip
