"""The fault matrix of the Telegram channel on the local Bot API server.

Each case injects a fault into the fake server (tests/support/fake_telegram.py:
an error answer, a proxy's HTML page, a stalled or dropped connection) under
the real PTB client and the real game service on SQLite, and ends in one of
two outcomes: delivered exactly once, or reported to the game masters —
nothing lost, nothing stored twice.

Every wait is on a condition with a generous bound (the machine may be
loaded); nothing is timed. PTB's timeouts are small only where a case needs
one to expire (a stalled ``getUpdates`` is given up 1 + 3 s after it began, a
stalled send after 3 s); elsewhere an answer may take 30 s, so that a slow
moment of the machine is no lost answer and no duplicate.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import func, select
from support.fake_telegram import ApiError, Drop, FakeTelegram, Fault, Raw, Serve, Stall
from support.telegram_e2e import Judge, judge

from bot.i18n import t
from storage import repo
from storage.models import InboundMessage, OutboxRow

WAIT = 60.0  # bound of every wait: generous, the machine may be loaded
POLLING: dict[str, Any] = {
    "poll_read_timeout": 3.0,  # a stalled long poll is given up 1 + 3 s after it began
    "read_timeout": 30.0,  # sending: see the module's doc
    "poll_backoff": (0.05, 0.4),
    "conflict_alert_after": 0.5,
}


@asynccontextmanager
async def polling_judge(tg: FakeTelegram, folder: Path) -> AsyncIterator[Judge]:
    async with judge(tg, folder, **POLLING) as j:
        await j.gm_says("/start")
        yield j


class Sent:
    """Messages the game master wrote, with their update ids."""

    def __init__(self, j: Judge) -> None:
        self.j = j
        self.messages: list[dict[str, Any]] = []
        self.update_ids: list[int] = []

    def say(self, text: str) -> None:
        self.messages.append(self.j.tg.send_text(self.j.gm, text=text))
        self.update_ids.append(self.j.tg.world.history[-1]["update_id"])

    def answers(self, message: dict[str, Any]) -> list[Any]:
        sent = self.j.tg.sent_to(self.j.gm)
        return [s for s in sent if s.reply_to == message["message_id"]]

    async def all_answered(self) -> None:
        tg, j = self.j.tg, self.j
        await tg.wait_for(lambda: all(self.answers(m) for m in self.messages), WAIT)
        # Quiet: every update confirmed, two more polls made (a repeat would have
        # come in them), nothing left to send (a second answer would be out).
        await tg.wait_for(lambda: tg.world.updates == [], WAIT)
        calls = j.runner.poller.calls
        await tg.wait_for(lambda: j.runner.poller.calls >= calls + 2, WAIT)
        await j.settled(WAIT)

    def assert_once(self) -> None:
        tg = self.j.tg
        for message in self.messages:
            assert len(self.answers(message)) == 1, message["text"]
        served = [uid for call in tg.calls_of("getUpdates") for uid in call.served]
        for uid in self.update_ids:
            assert served.count(uid) == 1, f"update {uid} handed to the bot {served.count(uid)}×"
        with self.j.service.db.transaction() as s:
            for message in self.messages:
                external_id = f"{self.j.gm.id}:{message['message_id']}"
                rows = s.exec(
                    select(func.count())
                    .select_from(InboundMessage)
                    .where(InboundMessage.external_id == external_id)
                ).one()
                assert rows == 1, external_id


RECEIVE_FAULTS: dict[str, list[Fault]] = {
    "429 retry_after": [ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})],
    "5xx": [Raw(502), ApiError(500, "Internal Server Error"), ApiError(502, "Bad Gateway")],
    # The long poll hands out the new updates, then the answer never comes.
    "timeout": [Stall(accept=True, with_updates=True)],
    "dropped mid-long-poll": [Drop(accept=True, with_updates=True)],
    # A batch is handed out and stored; the next polls (the ones that would
    # confirm it) fail; it is confirmed by the first that succeeds, not re-read.
    "updates, then failures": [Serve(with_updates=True), Raw(502), Drop(accept=True)],
}


@pytest.mark.parametrize("faults", RECEIVE_FAULTS.values(), ids=RECEIVE_FAULTS.keys())
async def test_receive_faults_read_every_update_once(
    tg: FakeTelegram, tmp_path: Path, faults: list[Fault]
) -> None:
    async with polling_judge(tg, tmp_path) as j:
        sent = Sent(j)
        failures = j.runner.poller.failures
        tg.fail_next_with("getUpdates", faults[0])
        for fault in faults[1:]:
            tg.fail_next_with("getUpdates", fault)
        # The first fault is met: its call is under way (or failed already).
        await tg.wait_for(lambda: tg.faults_left("getUpdates") < len(faults), WAIT)
        sent.say("/help")
        sent.say("/status")
        await tg.wait_for(lambda: tg.faults_left("getUpdates") == 0, WAIT)
        sent.say("/game")  # after the faults: the channel works again
        await sent.all_answered()
        sent.assert_once()
        failed = j.runner.poller.failures - failures
    assert failed == sum(not isinstance(f, Serve) for f in faults)
    lost = {uid for call in tg.calls_of("getUpdates") for uid in call.lost}
    if any(getattr(f, "with_updates", False) for f in faults if not isinstance(f, Serve)):
        assert sent.update_ids[0] in lost  # the answer that carried it never arrived
    if isinstance(faults[0], Serve):  # stored from the one answer, confirmed after the faults
        [first] = [c for c in tg.calls_of("getUpdates") if sent.update_ids[0] in c.served]
        after = tg.calls[tg.calls.index(first) + 1 :]
        assert [c.status for c in after if c.method == "getUpdates"][:2] == [502, 0]


async def test_a_lasting_conflict_is_retried_and_reported_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """409 Conflict: another process polls with this token. The judge keeps
    polling (and reading) between the conflicts; a passing one is only logged,
    one that lasts is reported to the game masters once, not at every retry."""
    conflict = ApiError(409, "Conflict: terminated by other getUpdates request")
    alert = t("gm_alert_telegram_conflict", "ru", error=conflict.description)

    def alerts() -> list[str]:
        return [m for m in tg.texts(j.gm) if m == alert]

    async with polling_judge(tg, tmp_path) as j:
        sent = Sent(j)
        poller = j.runner.poller
        tg.fail_next_with("getUpdates", conflict)  # passing: one 409, then polls succeed
        sent.say("/help")
        await tg.wait_for(lambda: poller.conflicts == 1 and sent.answers(sent.messages[0]), WAIT)
        assert alerts() == []
        # Lasting: five in a row, at least 0.05 + 0.1 + 0.2 + 0.4 s (less jitter) apart.
        tg.fail_next_with("getUpdates", conflict, times=5)
        sent.say("/status")
        await tg.wait_for(lambda: poller.conflicts == 6, WAIT)
        await tg.wait_for(alerts, WAIT)
        tg.fail_next_with("getUpdates", conflict, times=3)  # the same episode: no new alert
        await tg.wait_for(lambda: poller.conflicts == 9, WAIT)
        sent.say("/game")
        await sent.all_answered()
        sent.assert_once()
        told = alerts()
    assert len(told) == 1


# ---------------------------------------------------------------- sending


@asynccontextmanager
async def sending_judge(tg: FakeTelegram, folder: Path, **runner_kw: Any) -> AsyncIterator[Judge]:
    """The judge with quick outbox retries (a failed item is tried again 0.1 s,
    0.2 s, ... later; 3 attempts at most); the game master has started the bot."""
    settings = {"outbox_backoff_base": 0.1, "outbox_max_attempts": 3}
    runner_kw.setdefault("read_timeout", 30.0)
    async with judge(tg, folder, idle_sleep=0.2, settings=settings, **runner_kw) as j:
        await j.gm_says("/start")
        yield j


def queue(
    j: Judge, destination: object, text: str, game_id: int | None = None, *, wake: bool = True
) -> int:
    """An item in the outbox, as the service queues them; the worker is woken."""
    now = j.clock.now()
    with j.service.db.transaction() as s:
        row = OutboxRow(
            game_id=game_id, channel="telegram", destination=str(destination), kind="notice",
            text=text, next_try_at=now, created_at=now,
        )  # fmt: skip
        outbox_id = repo.enqueue(s, row)
    if wake:
        j.worker.wake()
    return outbox_id


def row(j: Judge, outbox_id: int) -> OutboxRow:
    with j.service.db.transaction() as s:
        found = s.get(OutboxRow, outbox_id)
        assert found is not None
        s.expunge(found)
        return found


async def done(j: Judge, outbox_id: int) -> OutboxRow:
    """The item once it is sent or given up, and nothing else is left to send."""
    await j.tg.wait_for(lambda: row(j, outbox_id).state != "pending", WAIT)
    await j.settled(WAIT)
    return row(j, outbox_id)


def alerts_about(j: Judge, destination: object) -> list[str]:
    return [m for m in j.tg.texts(j.gm) if str(destination) in m and "telegram" in m]


SEND_FAULTS: dict[str, tuple[list[Fault], int]] = {
    # name: (the faults of the first sendMessage calls, attempts until delivered)
    "429 retry_after": ([ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})], 2),
    "5xx": ([ApiError(500, "Internal Server Error"), Raw(502)], 3),
    "dropped before it was taken": ([Drop(accept=False)], 2),
}


@pytest.mark.parametrize(("faults", "attempts"), SEND_FAULTS.values(), ids=SEND_FAULTS.keys())
async def test_send_faults_deliver_once(
    tg: FakeTelegram, tmp_path: Path, faults: list[Fault], attempts: int
) -> None:
    async with sending_judge(tg, tmp_path) as j:
        team = tg.group("Драконы", [j.gm])
        for fault in faults:
            tg.fail_next_with("sendMessage", fault)
        sent = await done(j, queue(j, team.id, "Раунд 2 открыт"))
        assert alerts_about(j, team.id) == []
    assert (sent.state, sent.attempts) == ("sent", attempts)
    assert tg.texts(team) == ["Раунд 2 открыт"]
    assert tg.faults_left("sendMessage") == 0


async def test_a_message_taken_but_unanswered_may_arrive_twice(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The at-least-once window: Telegram took the message, its answer never came
    (past the read timeout). The Bot API has no idempotency key, so the judge
    cannot tell; it sends again: the chat shows the message twice, the outbox
    records it sent once, nobody is alerted."""
    async with sending_judge(tg, tmp_path, read_timeout=3.0) as j:
        team = tg.group("Драконы", [j.gm])
        tg.fail_next_with("sendMessage", Stall(accept=True))
        sent = await done(j, queue(j, team.id, "Раунд 2 открыт"))
        assert alerts_about(j, team.id) == []
    assert (sent.state, sent.attempts) == ("sent", 2)
    assert tg.texts(team) == ["Раунд 2 открыт"] * 2
    assert tg.abandoned == 1


async def test_a_blocked_member_is_reported_not_retried(tg: FakeTelegram, tmp_path: Path) -> None:
    async with sending_judge(tg, tmp_path) as j:
        alice = tg.user(1001, "Алиса")
        await j.say(alice, "/start")
        tg.block(alice)
        before = len(tg.calls_of("sendMessage"))
        failed = await done(j, queue(j, alice.id, "Ваш ход"))
        told = alerts_about(j, alice.id)
    assert (failed.state, failed.attempts) == ("failed", 1)
    assert (failed.last_error or "").startswith("blocked")
    assert len(told) == 1
    to_alice = [
        c for c in tg.calls_of("sendMessage")[before:] if c.params["chat_id"] == str(alice.id)
    ]
    assert [c.status for c in to_alice] == [403]  # once, not retried


async def test_a_migrated_group_is_followed_and_remembered(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with sending_judge(tg, tmp_path) as j:
        team = tg.group("Драконы", [j.gm])
        game_id = (await j.service.create_game(title="Финал")).game_id
        assert game_id is not None
        await j.service.add_team(game_id, "left", "Драконы")
        await j.service.link_team_chat(game_id, "left", str(team.id))
        supergroup = tg.migrate(team)
        # Both (and the notice of the link, if still pending) likely in one batch:
        # the second still names the old chat when the first learns the new one.
        first = queue(j, team.id, "Раунд 1 открыт", game_id, wake=False)
        second = queue(j, team.id, "Срок: 21:00", game_id)
        rows = [await done(j, first), await done(j, second)]
        with j.service.db.transaction() as s:
            chat = repo.teams(s, game_id)["left"].chat
        third = await done(j, queue(j, chat, "Раунд 2 открыт", game_id))
    assert chat == str(supergroup.id)  # the team's link moved with the chat
    assert [(r.state, r.destination) for r in [*rows, third]] == [("sent", chat)] * 3
    ours = ["Раунд 1 открыт", "Срок: 21:00", "Раунд 2 открыт"]
    assert sorted(m for m in tg.texts(supergroup) if m in ours) == sorted(ours)
    assert not [m for m in tg.texts(team) if m in ours]
    refused = [c for c in tg.calls_of("sendMessage") if c.status == 400]
    assert len(refused) == 1  # the first one learnt the new chat; the others went there at once


async def test_a_message_telegram_finds_too_long_is_cut_and_delivered(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    report = "\n".join(f"Такт {i}: Иванов летит на поле {i + 10}" for i in range(40))
    async with sending_judge(tg, tmp_path) as j:
        team = tg.group("Драконы", [j.gm])
        tg.fail_next_with("sendMessage", ApiError(400, "Bad Request: message is too long"))
        sent = await done(j, queue(j, team.id, report))
        assert alerts_about(j, team.id) == []
    assert (sent.state, sent.attempts) == ("sent", 1)
    texts = tg.texts(team)
    assert len(texts) >= 2 and "\n".join(texts) == report  # cut between lines, all of it
    assert all(len(text) <= len(report) // 2 + 1 for text in texts)


PERMANENT: dict[str, tuple[list[Fault], int, str]] = {
    # name: (faults, attempts until given up, first word of the recorded error)
    "a permanent 400": ([ApiError(400, "Bad Request: TOPIC_CLOSED")], 1, "bad_request"),
    "5xx on every attempt": ([ApiError(500, "Internal Server Error")] * 3, 3, "network"),
}


@pytest.mark.parametrize(("faults", "attempts", "reason"), PERMANENT.values(), ids=PERMANENT.keys())
async def test_an_undeliverable_message_is_reported_once_and_given_up(
    tg: FakeTelegram, tmp_path: Path, faults: list[Fault], attempts: int, reason: str
) -> None:
    async with sending_judge(tg, tmp_path) as j:
        team = tg.group("Драконы", [j.gm])
        for fault in faults:
            tg.fail_next_with("sendMessage", fault)
        failed = await done(j, queue(j, team.id, "Раунд 2 открыт"))
        # The worker goes on: a later message to the same chat goes through.
        later = await done(j, queue(j, team.id, "Раунд 3 открыт"))
        told = alerts_about(j, team.id)
    assert (failed.state, failed.attempts) == ("failed", attempts)
    assert (failed.last_error or "").startswith(reason)
    assert len(told) == 1
    assert later.state == "sent" and tg.texts(team) == ["Раунд 3 открыт"]
    tries = [c for c in tg.calls_of("sendMessage") if c.params["chat_id"] == str(team.id)]
    assert len(tries) == attempts + 1  # no retry after it was given up
