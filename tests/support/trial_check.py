"""The check after a match against the real judge (:mod:`support.trial_match`):
the inbound record and the outbox compared with what the players sent and what
Telegram and the SMTP server were handed.

* every message sent is stored exactly once and worked on (none lost);
* every order filed counts in the round whose deadline was the first after the
  time it counts by — Telegram's stamp, the mail's INTERNALDATE — (none
  misfiled), and is in that round's played orders;
* a message refused as late really reached us after the deadline of the round
  it was for, or before its round existed (none wrongly refused);
* every round resolved exactly once, its results delivered to every reader
  (none lost); answers and reports delivered twice are counted — the
  documented at-least-once window — and reported, not failed, unless no
  SIGKILL fell between the two copies (then it is outside the window: a problem).

Every answer or report still undelivered is listed with its outbox row as it
stood (state, claim, attempts, next attempt, last error).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from itertools import pairwise

from sqlmodel import select

from storage.models import InboundMessage, OrderRow, OutboxRow, Round
from support.trial_match import Match, Sent

__all__ = ["Copy", "TrialReport", "check"]

_OUTBOX_ID = re.compile(r"\.outbox(\d+)@")


@dataclass(frozen=True)
class Copy:
    """One message handed to Telegram or the SMTP server: when, and its text."""

    at: float  # time.monotonic()
    text: str


@dataclass
class TrialReport:
    figures: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    undelivered: list[str] = field(default_factory=list)
    # Each report delivered more than once: its outbox row and when the copies
    # went, against the SIGKILL (or stop) nearest to them.
    twice: list[str] = field(default_factory=list)
    details: str = ""

    def line(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.figures.items())


def _mail_text(data: bytes) -> tuple[EmailMessage, str]:
    msg = message_from_bytes(data, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(("plain",))
    return msg, str(body.get_content()) if body is not None else ""


class _Delivered:
    """What reached the players, looked up by answer and by outbox row."""

    def __init__(self, match: Match) -> None:
        self.tg = match.tg
        self.answers: dict[str, list[Copy]] = {}  # Message-ID answered -> copies
        self.by_outbox: dict[int, list[Copy]] = {}
        if match.mail is not None:
            for captured in match.mail.smtp.messages:
                msg, text = _mail_text(captured.data)
                copy = Copy(captured.at, text)
                replied = str(msg.get("In-Reply-To", "")).strip()
                if replied:
                    self.answers.setdefault(replied, []).append(copy)
                found = _OUTBOX_ID.search(str(msg.get("Message-ID", "")))
                if found:
                    self.by_outbox.setdefault(int(found.group(1)), []).append(copy)

    def replies(self, m: Sent) -> list[Copy]:
        if m.channel == "email":
            return self.answers.get(m.ref, [])
        return [
            Copy(r.at, r.text) for r in self.tg.sent_to(int(m.user)) if r.reply_to == int(m.ref)
        ]

    def copies(self, row: OutboxRow) -> list[Copy]:
        if row.channel == "email":
            return self.by_outbox.get(row.id or 0, [])
        first = row.text.splitlines()[0] if row.text else ""
        return [
            Copy(m.at, m.text)
            for m in self.tg.sent_to(int(row.destination))
            if first and first in m.text
        ]


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _outside_window(windows: list[tuple[float, float]], copies: list[Copy]) -> bool:
    """Delivered again beyond the at-least-once window: a copy after the first
    with no SIGKILL or stop between (the window is a judge killed after Telegram
    or the SMTP server took the message, before it was marked sent, or stopped
    while a delivery was cut short)."""
    times = sorted(c.at for c in copies)
    # A request that reached the server as the judge died is recorded when the
    # server's loop gets to it: up to a second after the window closed.
    return any(
        not any(begin <= b and a <= end + 1.0 for begin, end in windows) for a, b in pairwise(times)
    )


def _in_flight(windows: list[tuple[float, float]], copies: list[Copy]) -> bool:
    """The first copy reached the server after the SIGKILL (or stop) that cut its
    delivery short: the request was in flight — the at-least-once window proper,
    as against a part accepted earlier but not on record when the judge died."""
    first = min(c.at for c in copies)
    return any(begin <= first <= end + 1.0 for begin, end in windows)


def _against(windows: list[tuple[float, float]], at: float) -> str:
    """``at`` as seconds from the nearest interruption's start (-: before it)."""
    if not windows:
        return "no interruption"
    begin = min((b for b, _ in windows), key=lambda b: abs(at - b))
    return f"{at - begin:+.3f} s"


def outbox_state(r: OutboxRow) -> str:
    return (
        f"outbox {r.id} {r.channel} {r.kind} {r.state} claimed_by={r.claimed_by}"
        f" attempts={r.attempts} next_try_at={r.next_try_at} created_at={r.created_at}"
        f" sent_at={r.sent_at} last_error={r.last_error!r}"
    )


def check(match: Match, report: TrialReport) -> None:
    """Compare the record with what was sent and delivered (see the module doc)."""
    match.stamp_mail()
    delivered = _Delivered(match)
    problems = report.problems
    problems.extend(match.problems)
    f: Counter[str] = Counter()
    with match.db.transaction() as s:
        inbound = list(s.exec(select(InboundMessage)))
        outbox = list(s.exec(select(OutboxRow)))
    by_external = Counter((r.channel, r.external_id) for r in inbound)
    rows = {(r.channel, r.external_id): r for r in inbound}
    acks: dict[tuple[str, str], list[OutboxRow]] = {}
    for r in outbox:
        if r.reply_ref is not None:
            acks.setdefault((r.destination, r.reply_ref), []).append(r)
    for table in match.tables:
        game_id = table.game_id
        with match.db.transaction() as s:
            rounds = list(s.exec(select(Round).where(Round.game_id == game_id)))
            orders = list(s.exec(select(OrderRow).where(OrderRow.game_id == game_id)))
        played = [r for r in rounds if r.status == "resolved"]
        twice = [n for n, c in Counter(r.number for r in played).items() if c > 1]
        if twice:
            problems.append(f"game {game_id}: rounds resolved twice: {twice}")
        f["rounds_resolved"] += len(played)
        f["resolved_twice"] += len(twice)
        live = {r.number: r for r in rounds if r.status in ("resolved", "open")}
        deadline = {n: _aware(r.deadline) for n, r in live.items()}
        opened = {n: _aware(r.opened_at) for n, r in live.items()}
        filed: dict[int, set[int]] = {}
        for o in orders:
            if o.message_id is not None:
                filed.setdefault(o.message_id, set()).add(o.round_number)
        for m in (m for m in match.sent if m.game_id == game_id):
            key = (m.channel, m.external_id)
            f[f"sent_{m.channel}"] += 1
            if by_external[key] != 1:
                f["lost"] += 1
                problems.append(f"message {m.external_id} stored {by_external[key]} times")
                continue
            f["stored"] += 1
            row = rows[key]
            if row.status in ("received", "error") or m.stamp is None:
                f["lost"] += 1
                problems.append(f"message {m.external_id} left {row.status} (stamp {m.stamp})")
                continue
            stamp = m.stamp
            replies = delivered.replies(m)
            if row.status != "ignored":
                f["answers_lost"] += not replies
                f["answers_twice"] += len(replies) > 1
                if _outside_window(match.interruptions, replies):
                    f["twice_without_kill"] += 1
                    problems.append(f"message {m.external_id} answered twice with no kill between")
                if not replies:
                    problems.append(f"message {m.external_id} ({row.status}) never answered")
                    rows_of = acks.get((m.user, m.ref), [])
                    report.undelivered.append(
                        f"answer to {m.external_id} ({row.status}): "
                        + ("; ".join(outbox_state(r) for r in rows_of) or "no outbox row")
                    )
            assert row.id is not None
            numbers = filed.get(row.id, set())
            # The round it was for: open when it reached us, its deadline still ahead.
            due = [n for n in live if opened[n] <= stamp < deadline[n]]
            for number in numbers:
                earlier = deadline.get(number - 1)
                # A round still open at the end was never played (the game master
                # paused the match first): orders after its deadline may still count.
                in_time = stamp < deadline[number] or live[number].status == "open"
                if not (in_time and (earlier is None or earlier <= stamp)):
                    f["misfiled"] += 1
                    problems.append(f"message {m.external_id} at {stamp} filed for round {number}")
                    continue
                f["orders_counted"] += 1
                f[f"orders_counted_{m.channel}"] += 1
                rnd = live[number]
                if rnd.status == "resolved":
                    pieces = {
                        (p["side"], p["number"]) for p in (rnd.orders or {}).get("players", [])
                    }
                    mine = {(o.side, o.number) for o in orders if o.message_id == row.id}
                    if not mine <= pieces:
                        f["played_without"] += 1
                        problems.append(
                            f"message {m.external_id}: round {number} played without it"
                        )
            text = replies[0].text if replies else ""
            if not numbers and ("истёк" in text or "разыгран" in text):
                f["refused_late"] += 1
                if due:
                    f["refused_in_time"] += 1
                    problems.append(f"message {m.external_id} at {stamp} refused as late: {text!r}")
        for r in (r for r in outbox if r.kind == "results" and r.game_id == game_id):
            copies = delivered.copies(r)
            f["reports"] += 1
            if _outside_window(match.interruptions, copies):
                f["twice_without_kill"] += 1
                problems.append(f"results {r.id} to {r.destination} twice with no kill between")
            if r.state != "sent" or not copies:
                f["reports_lost"] += 1
                problems.append(
                    f"results {r.id} to {r.destination}: {r.state}, {len(copies)} delivered"
                )
                report.undelivered.append(f"results: {outbox_state(r)}, {len(copies)} delivered")
            f["reports_delivered"] += bool(copies)
            f["reports_twice"] += len(copies) > 1
            if len(copies) > 1:
                f["reports_twice_in_flight"] += _in_flight(match.interruptions, copies)
                report.twice.append(
                    f"results: {outbox_state(r)} parts_sent={r.parts_sent}, copies "
                    + ", ".join(_against(match.interruptions, c.at) for c in copies)
                )
    f["messages_sent"] = len(match.sent)
    f["outbox_given_up"] = sum(1 for r in outbox if r.state == "failed")
    f["outbox_max_attempts"] = max((r.attempts for r in outbox), default=0)
    f["backlog_at_last_start"] = match.backlog
    f["last_run_s"] = round(match.last_run_s)
    f["kills"] = match.kills
    order = [
        "kills", "messages_sent", "sent_telegram", "sent_email", "stored", "lost",
        "orders_counted", "orders_counted_telegram", "orders_counted_email", "misfiled",
        "refused_late", "refused_in_time", "played_without", "rounds_resolved",
        "resolved_twice", "reports", "reports_delivered", "reports_lost", "reports_twice",
        "reports_twice_in_flight", "answers_lost", "answers_twice", "twice_without_kill", "outbox_given_up",
        "outbox_max_attempts", "backlog_at_last_start", "last_run_s",
    ]  # fmt: skip
    report.figures |= {k: f[k] for k in order}
