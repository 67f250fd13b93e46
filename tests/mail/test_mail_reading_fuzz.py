"""Mutated real mail: ``read_message`` always answers, with text any database stores.

One mail the reader chokes on used to block the whole mailbox (the IMAP loop
fetched it again forever), so the property is simply: whatever the bytes, a
:class:`MailText` comes back, its size is right, and its texts hold no NUL
and no lone surrogate (PostgreSQL and SQLite refuse them).
"""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mail_samples import ORDERS, email_message, encoded_word, raw_mail

from bot.mail.reading import MailText, read_message


def _multipart() -> bytes:
    msg = email_message(ORDERS, html=f"<p>{ORDERS}</p>")
    msg.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="a.pdf")
    return msg.as_bytes()


def _nested() -> bytes:
    inner = email_message("Ловец 5: лететь в клетку 12", message_id="<inner@example.ru>")
    outer = email_message(ORDERS, subject="Fwd: приказы")
    outer.add_attachment(inner)
    assert isinstance(outer, EmailMessage)
    return outer.as_bytes()


# Real-looking mail as Russian clients send it: 8-bit KOI8-R, QP Windows-1251,
# base64 UTF-8 with a broken label, multipart with HTML and an attachment, a forward.
SEEDS = (
    raw_mail(ORDERS),
    raw_mail(ORDERS, charset="koi8-r", label="koi8r"),
    raw_mail(ORDERS, charset="cp1251", label="win-1251", cte="quoted-printable"),
    raw_mail(ORDERS, cte="base64", label="utf8", subject=f"[DB-7] {encoded_word('х', 'koi8-r')}"),
    raw_mail(f"<p>{ORDERS}</p>", subtype="html", charset="cp1251", label="x-unknown"),
    _multipart(),
    _nested(),
)

# Encoded words and parameters with every kind of wrong label or payload.
JUNK = (
    b"=?\xff?Q?x?=",
    b"=?\x00?B?QQ==?=",
    b"=??Q??=",
    b"=?utf-8?B?!!!?=",
    b"=?utf-8?B?0JLQ?=",
    b"=?utf-8?X?abc?=",
    b"=?koi8r*ru?Q?=ZZ?=",
    b"=?base64?Q?x?=",
    b"=?rot13?Q?x?=",
    b"=?idna?Q?\xff?=",
    b"=?punycode?Q?\xff-?=",
    b"=?utf-7?Q?+2AA-?=",
    b"=?unicode-escape?Q?\\ud800?=",
    b"=?utf-8?Q?=00?=",
    b"\\utCw \\U0001F600 \\UFFFFFFFF",
    b"\x00",
    b"\xff\xfe\xd7",
    b"; charset=utf-7",
    b"; charset=unicode-escape",
    b"; charset=\xff",
    b'; boundary=""',
    b"; boundary=\xff",
    b"\r\n--",
    b"\r\n\r\n",
    b"\r\nContent-Type: multipart/mixed; boundary=x\r\n",
)

_mutation = st.one_of(
    st.tuples(st.just("flip"), st.floats(0, 1), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.floats(0, 1), st.just(0)),
    st.tuples(st.just("junk"), st.floats(0, 1), st.integers(0, len(JUNK) - 1)),
    st.tuples(st.just("bytes"), st.floats(0, 1), st.binary(min_size=1, max_size=8)),
)


def mutate(raw: bytes, mutations: list[tuple[str, float, object]]) -> bytes:
    data = bytearray(raw)
    for kind, where, what in mutations:
        at = min(int(where * len(data)), len(data))
        if kind == "flip" and at < len(data):
            assert isinstance(what, int)
            data[at] = what
        elif kind == "cut":
            del data[at:]
        elif kind == "junk":
            assert isinstance(what, int)
            data[at:at] = JUNK[what]
        elif kind == "bytes":
            assert isinstance(what, bytes)
            data[at:at] = what
    return bytes(data)


def assert_storable(mail: MailText, raw: bytes) -> None:
    assert isinstance(mail, MailText)
    assert mail.size == len(raw)
    texts = [
        mail.text,
        mail.subject,
        mail.from_name,
        *mail.references,
        *mail.authentication_results,
    ]
    texts += [v for v in (mail.message_id, mail.in_reply_to, mail.from_address) if v is not None]
    for text in texts:
        text.encode("utf-8")  # raises on a lone surrogate
        assert "\x00" not in text
    assert not any(problem.startswith("unreadable:") for problem in mail.problems), mail.problems


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.sampled_from(SEEDS),
    mutations=st.lists(_mutation, min_size=1, max_size=5),
)
@example(seed=b"From: <a@b.c>\r\nSubject: =?\xff?Q?x?=\r\n\r\nhi", mutations=[("cut", 1.0, 0)])
def test_mutated_mail_is_always_read(
    seed: bytes, mutations: list[tuple[str, float, object]]
) -> None:
    raw = mutate(seed, mutations)
    assert_storable(read_message(raw), raw)


@pytest.mark.parametrize(
    ("raw", "subject"),
    [
        # The reviewer's case: an 8-bit charset label used to raise UnicodeEncodeError.
        (b"From: <a@b.c>\r\nSubject: =?\xff?Q?x?=\r\n\r\nhi", "x"),
        # A bytes-to-bytes codec as label (LookupError on decoding).
        (b"From: <a@b.c>\r\nSubject: =?base64?Q?eA==?= ok\r\n\r\nhi", "eA== ok"),
        # A backslash-u that is no escape (the stdlib's round trip raised on it).
        (b"From: <a@b.c>\r\nSubject: =?utf-8?B?0JI=?=\\utCw\r\n\r\nhi", "В\\utCw"),
        # Broken base64 in the From: the address next to it survives.
        (b"From: =?utf-8?B?0JLQ\xc8fsNGB0Y8=?= <a@b.c>\r\nSubject: s\r\n\r\nhi", "s"),
    ],
)
def test_broken_header_keeps_the_rest_of_the_mail(raw: bytes, subject: str) -> None:
    mail = read_message(raw)
    assert_storable(mail, raw)
    assert mail.from_address == "a@b.c"
    assert mail.subject == subject
    assert mail.text == "hi"


def test_an_escape_codec_named_in_a_header_word_is_guessed_not_warned() -> None:
    # Found by the fuzzer: Python's unicode-escape codec warns on the invalid
    # escape ("\\ "), and with warnings as errors the mail was "unreadable".
    raw = (
        b"From: <a@b.c>\r\nSubject: x\r\n"
        b"Date: Sat=?unicode-escape?Q?\\\x00d800?=, 01 Mar 2025 18:00:00 +0000\r\n"
        b"Content-Type: text/plain; charset=win-1251\r\n\r\n"
    ) + "Ловец".encode("cp1251")
    mail = read_message(raw)
    assert_storable(mail, raw)
    assert mail.text == "Ловец"


def test_nul_and_surrogate_producing_charsets_give_storable_text() -> None:
    raw = (
        b"From: <a@b.c>\r\nSubject: x\x00y\r\nMessage-ID: <a\x00b@c>\r\n"
        b"Content-Type: text/plain; charset=unicode-escape\r\n\r\n\\ud800 \x00"
    ) + "Ловец".encode("koi8-r")
    mail = read_message(raw)
    assert_storable(mail, raw)
    assert mail.subject == "xy"
    assert mail.message_id == "<ab@c>"
    assert mail.text == "\\ud800 Ловец"  # the label made a lone surrogate: guessed instead
    assert "charset guessed" in mail.problems
