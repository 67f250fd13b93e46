"""The poller confirms an update only once the service has stored it."""

from __future__ import annotations

from datetime import UTC, datetime

from support.fake_telegram import FakeTelegram
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
