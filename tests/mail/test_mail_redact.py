"""The stored copy of a mail carries no pass phrase, whatever the encoding,
and keeps everything else the judge reads from it."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from fakes import FakeMailService
from hypothesis import given, settings
from hypothesis import strategies as st
from mail_samples import ORDERS, email_message, encoded_word, raw_mail

from bot.mail.adapter import MailAdapter, MailPolicy
from bot.mail.imap import FetchedMail
from bot.mail.reading import read_message
from bot.mailtext.redact import MASK, leaks, redact_raw

PHRASE = "зелёный дракон над полем"
ENCODINGS = [
    ("utf-8", "8bit"),
    ("utf-8", "quoted-printable"),
    ("utf-8", "base64"),
    ("koi8-r", "8bit"),
    ("koi8-r", "quoted-printable"),
    ("windows-1251", "base64"),
]


def _stored(raw: bytes) -> bytes:
    return redact_raw(raw, read_message(raw).secrets)


@pytest.mark.parametrize(("charset", "cte"), ENCODINGS)
def test_the_pass_phrase_line_is_masked_in_any_encoding(charset: str, cte: str) -> None:
    body = f"пароль: {PHRASE}\n{ORDERS}\n\n> Пароль = {PHRASE}\n> старое письмо"
    raw = raw_mail(body, charset=charset, cte=cte)
    stored = _stored(raw)
    assert not leaks(stored, [PHRASE])
    for codec in ("utf-8", "koi8-r", "cp1251"):
        assert PHRASE.encode(codec) not in stored
    before, after = read_message(raw), read_message(stored)
    assert after.text == before.text == ORDERS  # the orders are read as before
    assert (after.passphrase, after.subject, after.message_id) == (
        MASK,
        before.subject,
        before.message_id,
    )
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert stored.split(b"\r\n\r\n", 1)[0] == head  # headers untouched, byte for byte


def test_a_mail_without_a_pass_phrase_is_stored_byte_for_byte() -> None:
    raw = raw_mail(ORDERS, cte="quoted-printable", charset="koi8-r")
    assert redact_raw(raw, read_message(raw).secrets) == raw
    assert redact_raw(raw, []) == raw


def test_the_subject_and_the_html_alternative_are_masked_too() -> None:
    html = f"<p>пароль:&nbsp;{PHRASE.replace(' ', '&nbsp;')}</p><p>{ORDERS}</p>"
    message = email_message(f"пароль: {PHRASE}\n{ORDERS}", html=html, subject="x")
    message.replace_header("Subject", f"[DB-12] приказы pw: {PHRASE}")
    raw = message.as_bytes()
    stored = _stored(raw)
    assert not leaks(stored, [PHRASE])
    after = read_message(stored)
    assert after.subject == "[DB-12] приказы" and after.text == ORDERS
    html_part = message_from_bytes(stored, policy=policy.default).get_body(("html",))
    assert html_part is not None
    shown = html_part.get_content()
    assert f"пароль:&nbsp;{MASK}" in shown and ORDERS.split("\n")[0] in shown  # still HTML


def test_new_and_short_pass_phrases_are_masked_in_their_lines_only() -> None:
    raw = raw_mail("pw: 1\nновый пароль: синий дракон под мостом\n1: 36 в1")
    stored = _stored(raw)
    assert not leaks(stored, ["1", "синий дракон под мостом"])
    after = read_message(stored)
    assert (after.passphrase, after.new_passphrase, after.text) == (MASK, MASK, "1: 36 в1")


def test_a_pass_phrase_where_nobody_expects_it_withholds_the_rest() -> None:
    raw = raw_mail(f"пароль: {PHRASE}\n{ORDERS}", headers={"X-Note": encoded_word(PHRASE, "utf-8")})
    stored = _stored(raw)
    assert not leaks(stored, [PHRASE])
    assert b"X-Dragonball-Redacted" in stored
    after = read_message(stored)
    assert after.text == ORDERS and after.message_id == "<m1@example.ru>"
    assert after.from_address == "vasya@example.ru"


async def test_the_adapter_hands_the_service_the_masked_copy() -> None:
    service = FakeMailService()
    service.add_member("vasya@example.ru", PHRASE)
    raw = raw_mail(f"пароль: {PHRASE}\n{ORDERS}", cte="base64", subject=f"[DB-12] pw: {PHRASE}")
    reply = await MailAdapter(service).handle(FetchedMail(1, 7, raw, len(raw)))
    assert reply.status == "ok"  # authenticated by the phrase it then masked
    stored = service.stored["<m1@example.ru>"]
    assert not leaks(stored.raw, [PHRASE]) and PHRASE not in (stored.subject or "")
    assert read_message(stored.raw).text == ORDERS


_WORDS = st.text(
    alphabet="абвгдеёжзийклмнопрстуфхцчшщыэюяABCdefxyz0123456789", min_size=2, max_size=9
)


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(_WORDS, min_size=2, max_size=4),
    encoding=st.sampled_from(ENCODINGS),
    keyword=st.sampled_from(["пароль: ", "Пароль = ", "pw:", "PASSPHRASE: ", "кодовая фраза:"]),
)
def test_no_encoding_lets_a_phrase_through(
    words: list[str], encoding: tuple[str, str], keyword: str
) -> None:
    phrase = " ".join(words)
    charset, cte = encoding
    raw = raw_mail(f"{ORDERS}\n{keyword}{phrase}\n", charset=charset, cte=cte)
    stored = _stored(raw)
    assert not leaks(stored, [phrase])
    assert read_message(stored).text == read_message(raw).text


async def test_an_oversized_mail_is_stored_without_its_pass_phrase_too() -> None:
    service = FakeMailService()
    service.add_member("vasya@example.ru", PHRASE)
    raw = raw_mail(f"пароль: {PHRASE}\n{ORDERS}\n" + "x" * 2000)
    reply = await MailAdapter(service, MailPolicy(max_message_bytes=500)).handle(
        FetchedMail(1, 7, raw, len(raw))
    )
    assert reply.status == "refused"  # too large: not read, answered with the limit
    assert not leaks(service.stored["<m1@example.ru>"].raw, [PHRASE])
