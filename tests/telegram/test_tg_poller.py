"""The poller confirms an update only once the service has stored it."""

from __future__ import annotations

from datetime import UTC, datetime

from support.fake_telegram import FakeTelegram
from support.fake_telegram_world import ApiError
from support.telegram_doubles import RecordingService
from test_tg_runner import running, wait_received


async def test_an_update_that_could_not_be_stored_is_fetched_again(tg: FakeTelegram) -> None:
    service = RecordingService(unstored=frozenset({"lost?"}), unstored_times=2)
    alice = tg.user(1001, "Алиса")
    async with running(tg, service) as runner:
        runner.poller._backoff_initial = 0.05  # the retry pause of a unit test
        tg.send_text(alice, text="lost?")
        await wait_received(tg, service, 1)
    assert [m.text for m in service.received] == ["lost?"]
    assert service.started == ["lost?"] * 3  # twice not stored, then stored
    assert tg.sent_to(alice) == []  # no apology: it was answered once stored


async def test_a_poisoned_update_is_given_up_while_the_others_go_through(
    tg: FakeTelegram,
) -> None:
    service = RecordingService(unstored=frozenset({"poison"}))
    alice = tg.user(1001, "Алиса")
    async with running(tg, service) as runner:
        runner.poller._backoff_initial = 0.01
        tg.send_text(alice, text="poison")
        tg.send_text(alice, text="fine")
        await wait_received(tg, service, 1)
        await tg.wait_for(lambda: runner.poller.given_up == 1, timeout=30)
        tg.send_text(alice, text="after")
        await tg.wait_for(lambda: service.received[-1].text == "after", timeout=10)
    # "fine" came again with each retry of its batch (the service knows it by its id).
    unique = {m.external_id: m.text for m in service.received}
    assert list(unique.values()) == ["fine", "after"]


async def test_read_until_moves_only_after_a_complete_handled_poll(tg: FakeTelegram) -> None:
    marks: list[datetime] = []
    service = RecordingService(delays={"slow": 0.5})
    alice = tg.user(1001, "Алиса")
    before = datetime.now(UTC)
    async with running(tg, service, on_mark=marks.append) as runner:
        await tg.wait_for(lambda: marks, timeout=10)  # the first (empty) poll
        tg.send_text(alice, text="slow")
        sent_at = datetime.now(UTC)
        await wait_received(tg, service, 1)
        runner.poller.refresh(datetime.now(UTC))
        await tg.wait_for(lambda: marks[-1] > sent_at, timeout=10)
    assert marks == sorted(marks) and marks[0] >= before


async def test_get_updates_faults_lose_nothing_and_repeat_nothing(tg: FakeTelegram) -> None:
    """The fault matrix of long polling on the local Bot API server: 429 with
    retry_after, 5xx, 409 Conflict (another instance polling; the game masters
    are told once) — each message is worked on exactly once, in order."""
    conflicts: list[str] = []
    service = RecordingService()
    alice = tg.user(1001, "Алиса")
    async with running(tg, service, on_conflict=conflicts.append) as runner:
        runner.poller._backoff_initial = 0.01
        runner.poller._backoff_max = 0.05
        await tg.wait_for(lambda: runner.poller.calls >= 1, timeout=10)
        faults = [
            (ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1}), 1),
            (ApiError(502, "Bad Gateway"), 1),
            (ApiError(500, "Internal Server Error"), 2),
            (ApiError(409, "Conflict: terminated by other getUpdates request"), 4),
        ]
        for n, (error, times) in enumerate(faults):
            tg.fail_next_with("getUpdates", error, times=times)
            tg.send_text(alice, text=f"m{n}")
            runner.poller.refresh(datetime.now(UTC))  # end the current long poll now
            await tg.wait_for(lambda n=n: len(service.received) > n, timeout=60)
    assert [m.text for m in service.received] == [f"m{n}" for n in range(len(faults))]
    assert len({m.external_id for m in service.received}) == len(faults)
    assert len(conflicts) == 1  # told once for a run of conflicts, not every retry
    assert tg.world.updates == []  # every one confirmed, once stored
