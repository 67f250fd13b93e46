"""The mail adapter's decisions, against an in-memory service (no servers)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from fakes import FakeMailService, Queued
from mail_samples import ORDERS, raw_mail

from bot.config import MailConfig
from bot.mail.adapter import MailAdapter, MailPolicy, content_id
from bot.mail.imap import FetchedMail

VASYA = "vasya@example.ru"
PHRASE = "зелёный дракон"
NOW = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def service() -> FakeMailService:
    fake = FakeMailService()
    fake.add_member(VASYA, PHRASE)
    return fake


def adapter(service: FakeMailService, clock: Clock | None = None, **policy: object) -> MailAdapter:
    return MailAdapter(service, MailPolicy(**policy), now=clock or Clock())  # type: ignore[arg-type]


def mail(body: str, n: int = 1, **kwargs: object) -> FetchedMail:
    raw = raw_mail(body, message_id=f"<a{n}@example.ru>", **kwargs)  # type: ignore[arg-type]
    return FetchedMail(uid=n, uidvalidity=77, raw=raw, size=len(raw))


async def test_orders_with_the_pass_phrase_are_accepted(service: FakeMailService) -> None:
    reply = await adapter(service).handle(mail(f"пароль: {PHRASE}\n{ORDERS}", charset="koi8-r"))
    assert reply.status == "ok"
    assert service.orders == {VASYA: [ORDERS]}
    stored = service.stored["<a1@example.ru>"]
    assert stored.authenticated
    assert stored.meta["auth"] == "passphrase"
    assert stored.game_hint == "DB-12"
    assert stored.reply_ref == "<a1@example.ru>"
    assert stored.received_at == NOW
    assert PHRASE not in stored.text
    assert service.outbox == [
        Queued(VASYA, "ack", f"orders accepted: {ORDERS}", "Re: [DB-12] приказы", "<a1@example.ru>")
    ]


async def test_pass_phrase_in_the_subject(service: FakeMailService) -> None:
    reply = await adapter(service).handle(mail(ORDERS, subject=f"[DB-12] pw: {PHRASE}"))
    assert reply.status == "ok"
    assert service.stored["<a1@example.ru>"].subject == "[DB-12]"


@pytest.mark.parametrize("body", [ORDERS, f"пароль: красный дракон\n{ORDERS}"])
async def test_missing_or_wrong_pass_phrase_changes_nothing(
    service: FakeMailService, body: str
) -> None:
    reply = await adapter(service).handle(mail(body))
    assert reply.status == "refused"
    assert service.orders == {}
    stored = service.stored["<a1@example.ru>"]
    assert not stored.authenticated
    assert stored.meta["auth"] in ("no_passphrase", "wrong_passphrase")
    # The answer goes to the registered address only (here the same as From).
    assert [q.destination for q in service.outbox] == [VASYA]


async def test_forged_from_of_a_stranger_gets_no_answer(service: FakeMailService) -> None:
    reply = await adapter(service).handle(mail(ORDERS, sender="Мэллори <mallory@evil.example>"))
    assert reply.status == "refused"
    assert service.stored["<a1@example.ru>"].meta["auth"] == "unknown_sender"
    assert service.outbox == []


def _wrong(n: int) -> FetchedMail:
    return mail(f"пароль: красный дракон {n}\n{ORDERS}", n)


async def _lock(mails: MailAdapter, clock: Clock, failures: int = 3) -> str:
    """``failures`` wrong phrases a minute apart, each answered; returns the unlock code."""
    for n in range(failures):
        clock.now = NOW + timedelta(minutes=n)
        assert (await mails.handle(_wrong(n))).status == "refused"
    ((address, key, params),) = service_told(mails)
    assert (address, key) == (VASYA, "mail_locked")
    return str(params["code"])


def service_told(mails: MailAdapter) -> list[tuple[str, str, dict[str, object]]]:
    fake = mails._service
    assert isinstance(fake, FakeMailService)
    return fake.told


async def test_wrong_phrases_lock_the_address_before_its_phrase_is_checked(
    service: FakeMailService,
) -> None:
    clock = Clock()
    mails = adapter(service, clock, max_failures=3, lock_for=timedelta(hours=1))
    code = await _lock(mails, clock)
    # Three refusals answered, then the game masters told once and Vasya sent a code.
    assert [q.kind for q in service.outbox] == ["ack", "ack", "ack", "gm_alert", "notice"]
    ((key, game_id, params),) = service.alerts
    assert (key, game_id) == ("gm_alert_mail_failures", 12)
    assert (params["sender"], params["failures"], params["lock"]) == (VASYA, 3, 60)
    assert service.outbox[-1] == Queued(VASYA, "notice", "mail_locked", "subject_mail_lock")
    assert len(code) == 9 and code[4] == "-"
    # Locked: the right phrase is not even looked at; nothing answered, nothing filed.
    right = f"пароль: {PHRASE}\n{ORDERS}"
    for n in range(10, 14):
        clock.now = NOW + timedelta(minutes=n)
        assert (await mails.handle(mail(right, n) if n % 2 else _wrong(n))).status == "ignored"
        assert service.stored[f"<a{n}@example.ru>"].meta["auth"] == "locked"
    assert service.orders == {} and len(service.alerts) == 1 and len(service.outbox) == 5
    # The lock ends an hour after the third failure: the right phrase is taken.
    clock.now = NOW + timedelta(minutes=63)
    assert (await mails.handle(mail(right, 20))).status == "ok"
    assert service.orders == {VASYA: [ORDERS]}


async def test_the_player_unlocks_his_address_with_the_code(service: FakeMailService) -> None:
    clock = Clock()
    mails = adapter(service, clock, max_failures=3)
    code = await _lock(mails, clock)
    clock.now = NOW + timedelta(minutes=5)
    wrong_code = "ABCD-EFGH" if code != "ABCD-EFGH" else "ABCD-EFGK"
    assert (await mails.handle(mail(f"пароль: {PHRASE}\n{wrong_code}", 30))).status == "ignored"
    assert service.stored["<a30@example.ru>"].meta["auth"] == "locked"
    # His reply carries the code (typed in lower case, with a Cyrillic lookalike).
    typed = code.lower().replace("a", "а")
    reply = await mails.handle(mail(f"{typed}\n", 31, subject="Re: Письма с вашего адреса"))
    assert reply.status == "ignored"
    assert service.stored["<a31@example.ru>"].meta["auth"] == "unlocked"
    assert service.outbox[-1] == Queued(VASYA, "notice", "mail_unlocked", "subject_mail_lock")
    assert (await mails.handle(mail(f"пароль: {PHRASE}\n{ORDERS}", 32))).status == "ok"
    assert service.orders == {VASYA: [ORDERS]}
    # Unlocked, the count starts afresh: two more wrong phrases lock nothing.
    for n in (33, 34):
        assert (await mails.handle(_wrong(n))).status == "refused"
    assert len(service.alerts) == 1
    # The same code does not unlock a later lock.
    assert (await mails.handle(_wrong(35))).status == "refused"
    assert (await mails.handle(mail(code, 36))).status == "ignored"
    assert service.stored["<a36@example.ru>"].meta["auth"] == "locked"


async def test_mail_without_a_phrase_is_no_guess(service: FakeMailService) -> None:
    mails = adapter(service, max_failures=2)
    statuses = [(await mails.handle(mail(ORDERS, n))).status for n in range(5)]
    assert statuses == ["refused"] * 5  # each answered: "no pass phrase"
    assert service.alerts == [] and service.told == []


async def test_the_joining_mail_is_no_failed_log_in(service: FakeMailService) -> None:
    """The third wrong phrase after joining is answered, as docs/email.md says."""
    service.codes.add("K7Q2")
    clock = Clock()
    mails = adapter(service, clock, max_failures=3)
    petya = "Петя <petya@example.ru>"
    joined = await mails.handle(mail(f"/start K7Q2\nпароль: {PHRASE}", 1, sender=petya))
    assert joined.status == "ok"
    statuses = []
    for n in range(2, 5):
        clock.now = NOW + timedelta(minutes=n)
        wrong = mail(f"пароль: красный дракон\n{ORDERS}", n, sender=petya)
        statuses.append((await mails.handle(wrong)).status)
    assert statuses == ["refused", "refused", "refused"]
    assert [q.destination for q in service.outbox if q.kind == "ack"][-3:] == [
        "petya@example.ru"
    ] * 3
    assert len(service.alerts) == 1 and [k for _a, k, _p in service.told] == ["mail_locked"]


async def test_strangers_are_rate_limited_without_alerts(service: FakeMailService) -> None:
    mails = adapter(service, max_failures=2)
    for n in range(4):
        await mails.handle(mail(ORDERS, n, sender="x@spam.example"))
    assert service.alerts == []
    assert service.stored["<a3@example.ru>"].meta["ignore"] == "too many failed attempts"
    # Wrong invitation codes count as well (each would be answered).
    for n in range(4, 7):
        await mails.handle(mail("/start NOPE", n, sender="y@spam.example"))
    assert service.stored["<a6@example.ru>"].meta["ignore"] == "too many failed attempts"


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"Return-Path": "<>"},
        {"List-Id": "<x.example.ru>"},
    ],
)
async def test_robots_are_stored_and_never_answered(
    service: FakeMailService, headers: dict[str, str]
) -> None:
    reply = await adapter(service).handle(mail(f"пароль: {PHRASE}\n{ORDERS}", headers=headers))
    assert reply.status == "ignored"
    assert "<a1@example.ru>" in service.stored
    assert service.outbox == []
    assert service.orders == {}


async def test_the_same_message_twice(service: FakeMailService) -> None:
    mails = adapter(service)
    first = mail(f"пароль: {PHRASE}\n{ORDERS}", 1)
    again = FetchedMail(uid=2, uidvalidity=77, raw=b"Delivered-To: judge\r\n" + first.raw, size=1)
    assert (await mails.handle(first)).status == "ok"
    assert (await mails.handle(again)).status == "duplicate"
    assert service.orders == {VASYA: [ORDERS]}
    assert len(service.outbox) == 1


async def test_message_without_message_id_is_known_by_its_bytes(service: FakeMailService) -> None:
    raw = raw_mail(f"пароль: {PHRASE}\n{ORDERS}", message_id=None)
    mails = adapter(service)
    assert (
        await mails.handle(FetchedMail(uid=5, uidvalidity=77, raw=raw, size=len(raw)))
    ).status == "ok"
    # The same mail under another UID and UIDVALIDITY (a rebuilt mailbox): a duplicate.
    again = FetchedMail(uid=1, uidvalidity=78, raw=raw, size=len(raw))
    assert (await mails.handle(again)).status == "duplicate"
    assert list(service.stored) == [content_id(raw)]
    assert content_id(raw).startswith("sha256:")


async def test_oversized_message_is_refused_unread(service: FakeMailService) -> None:
    raw = raw_mail(f"пароль: {PHRASE}\n{ORDERS}\n" + "x" * 3000)
    fetched = FetchedMail(uid=1, uidvalidity=77, raw=raw, size=len(raw))
    reply = await adapter(service, max_message_bytes=1000).handle(fetched)
    assert reply.status == "refused"
    stored = service.stored["<m1@example.ru>"]
    assert (stored.meta["refuse"], stored.meta["limit"]) == ("too_large", "1000")
    assert stored.text == ""
    assert service.orders == {}
    assert service.outbox[0].text == "too large, limit 1000"


async def test_header_only_fetch_is_oversized(service: FakeMailService) -> None:
    head = raw_mail("").split(b"\r\n\r\n")[0] + b"\r\n\r\n"
    fetched = FetchedMail(uid=1, uidvalidity=77, raw=head, size=5_000_000, truncated=True)
    assert (await adapter(service).handle(fetched)).status == "refused"


async def test_new_pass_phrase(service: FakeMailService) -> None:
    body = f"пароль: {PHRASE}\nновый пароль: синий дракон летит"
    assert (await adapter(service).handle(mail(body))).status == "ok"
    assert service.passphrases[VASYA] == "синий дракон летит"
    assert service.stored["<a1@example.ru>"].text == "/passphrase синий дракон летит"


async def test_new_pass_phrase_needs_the_old_one(service: FakeMailService) -> None:
    body = "пароль: не тот\nновый пароль: синий дракон летит"
    assert (await adapter(service).handle(mail(body))).status == "refused"
    assert service.passphrases[VASYA] == PHRASE


async def test_first_pass_phrase_comes_with_the_invitation(service: FakeMailService) -> None:
    service.codes.add("K7Q2")
    newcomer = "Петя <petya@example.ru>"
    reply = await adapter(service).handle(mail(f"/start K7Q2\nпароль: {PHRASE}", sender=newcomer))
    assert reply.status == "ok"
    assert service.passphrases["petya@example.ru"] == PHRASE
    assert service.stored["<a1@example.ru>#passphrase"].authenticated
    # A second code from a forged From cannot replace an existing pass phrase.
    service.codes.add("Z9Z9")
    forged = mail("/start Z9Z9\nпароль: чужой пароль", 2, sender=f"X <{VASYA}>")
    assert (await adapter(service).handle(forged)).status == "ok"
    assert service.passphrases[VASYA] == PHRASE


async def test_dkim_pass_of_our_server(service: FakeMailService) -> None:
    headers = {"Authentication-Results": "mx.judge.example; dkim=pass header.d=example.ru"}
    trusting = adapter(service, accept_dkim=True, authserv_id="mx.judge.example")
    assert (await trusting.handle(mail(ORDERS, 1, headers=headers))).status == "ok"
    assert service.stored["<a1@example.ru>"].meta["auth"] == "dkim"
    assert "dkim=pass" in service.stored["<a1@example.ru>"].meta["authentication_results"]
    # Without accept_dkim, the same header proves nothing.
    assert (await adapter(service).handle(mail(ORDERS, 2, headers=headers))).status == "refused"


async def test_no_pass_phrase_required(service: FakeMailService) -> None:
    assert (await adapter(service, require_passphrase=False).handle(mail(ORDERS))).status == "ok"


async def test_mail_without_from_is_stored_and_ignored(service: FakeMailService) -> None:
    raw = b"Subject: hi\r\nMessage-ID: <nofrom@x>\r\n\r\n" + ORDERS.encode()
    reply = await adapter(service).handle(FetchedMail(1, 1, raw, len(raw)))
    assert reply.status == "ignored"
    assert service.stored["<nofrom@x>"].meta["ignore"] == "no usable From address"


async def test_garbage_bytes_are_stored(service: FakeMailService) -> None:
    raw = b"\x00\xff\xfe\r\n\r\n\x80"
    assert (await adapter(service).handle(FetchedMail(9, 1, raw, len(raw)))).status == "ignored"
    assert service.stored[content_id(raw)].raw == raw


def test_policy_from_config() -> None:
    config = MailConfig(max_message_bytes=5000, accept_dkim=True, dkim_authserv_id="mx.example")
    policy = MailPolicy.from_config(config)
    assert (policy.max_message_bytes, policy.accept_dkim, policy.authserv_id) == (
        5000,
        True,
        "mx.example",
    )
    assert policy.old_mail == timedelta(days=30)
    assert MailPolicy.from_config(MailConfig(old_mail_days=0)).old_mail is None
    assert MailPolicy.from_config(MailConfig(old_mail_days=2)).old_mail == timedelta(days=2)
    locking = MailPolicy.from_config(
        MailConfig(max_failures=5, failure_window_minutes=30, lock_minutes=90)
    )
    assert (locking.max_failures, locking.failure_window, locking.lock_for) == (
        5, timedelta(minutes=30), timedelta(minutes=90),
    )  # fmt: skip


async def test_a_redelivered_failure_counts_once(service: FakeMailService) -> None:
    mails = adapter(service, max_failures=2)
    statuses = [(await mails.handle(_wrong(1))).status for _ in range(4)]
    assert statuses == ["refused", "duplicate", "duplicate", "duplicate"]
    assert not mails.strangers.exceeded(VASYA, NOW) and not mails.limiter.exceeded(VASYA, NOW)
    assert service.alerts == []


async def test_old_mail_is_stored_and_not_answered(service: FakeMailService) -> None:
    """Mail that reached the mailbox more than old_mail_days before it is read
    (a mailbox's backlog on the judge's first start) is stored, nothing else."""
    mails = adapter(service)
    body = f"пароль: {PHRASE}\n{ORDERS}"
    old = dataclasses.replace(mail(body, 1), arrived=NOW - timedelta(days=31))
    assert (await mails.handle(old)).status == "ignored"
    assert service.stored["<a1@example.ru>"].meta["ignore"].startswith("old mail: ")
    assert PHRASE.encode() not in service.stored["<a1@example.ru>"].raw  # masked all the same
    assert service.orders == {}
    # The game masters are told once, however many old mails follow.
    older = dataclasses.replace(mail(body, 4), arrived=NOW - timedelta(days=400))
    assert (await mails.handle(older)).status == "ignored"
    assert [(key, params["days"]) for key, _game, params in service.alerts] == [
        ("gm_alert_old_mail", 30)
    ]
    assert [q.destination for q in service.outbox] == ["gm@example.org"]  # none to Vasya
    # A month less a day: read and answered as usual (a judge down for a while).
    recent = dataclasses.replace(mail(body, 2), arrived=NOW - timedelta(days=29))
    assert (await mails.handle(recent)).status == "ok"
    assert [q.destination for q in service.outbox] == ["gm@example.org", VASYA]
    # With old_mail_days = 0 nothing is too old.
    ancient = dataclasses.replace(mail(body, 3), arrived=NOW - timedelta(days=3650))
    assert (await adapter(service, old_mail=None).handle(ancient)).status == "ok"
