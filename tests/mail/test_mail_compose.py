"""Outgoing mail: headers, threading, multipart layout, and that we can read it back."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage, MIMEPart

import pytest

from bot.mail.compose import build_message, reply_subject, to_bytes
from bot.mail.quotes import ACK_MARKER
from bot.mail.reading import read_message
from bot.service.kernel.api import Attachment, OutboxItem

NOW = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
GIF = b"GIF89a" + bytes(range(200))


def _build(item: OutboxItem) -> EmailMessage:
    msg = build_message(item, from_address="judge@example.org", now=NOW)
    # What the recipient gets: serialized and parsed again.
    parsed = message_from_bytes(to_bytes(msg), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def _parts(msg: MIMEPart) -> list[MIMEPart]:
    payload = msg.get_payload()
    assert isinstance(payload, list)
    parts = [part for part in payload if isinstance(part, MIMEPart)]
    assert len(parts) == len(payload)
    return parts


def _text(part: MIMEPart) -> str:
    content = part.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")


def test_acknowledgement_headers() -> None:
    item = OutboxItem(
        id=7,
        channel="email",
        destination="vasya@example.ru",
        kind="ack",
        text="Приказы приняты.",
        subject="[DB-12] приказы",
        reply_ref="<m1@example.ru>",
    )
    msg = _build(item)
    assert msg["Subject"] == "Re: [DB-12] приказы"
    assert msg["In-Reply-To"] == "<m1@example.ru>"
    assert msg["References"] == "<m1@example.ru>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["To"] == "vasya@example.ru"
    assert msg["From"].addresses[0].addr_spec == "judge@example.org"
    assert msg["From"].addresses[0].display_name == "Судья Драконбола"
    assert msg["Message-ID"].endswith("@example.org>")
    assert "outbox7" in msg["Message-ID"]
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    assert _text(body) == f"{ACK_MARKER}\n\nПриказы приняты.\n"


def test_notices_are_auto_generated_and_have_a_subject() -> None:
    item = OutboxItem(id=1, channel="email", destination="a@b.ru", kind="reminder", text="Скоро")
    msg = _build(item)
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["Subject"] == "Драконбол: напоминание о приказах"
    assert msg["In-Reply-To"] is None


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Re: [DB-12] приказы", "Re: [DB-12] приказы"),
        ("RE: Re: Ответ: [DB-12] x", "Re: [DB-12] x"),
        ("Re[2]: x", "Re: x"),
        # The tag the judge puts in front of a reply's subject, and replies to that.
        ("[DB-12] Re: приказы", "Re: [DB-12] приказы"),
        ("Re: [DB-12] Re: Re: приказы", "Re: [DB-12] приказы"),
        ("[DB-12] Re: [DB-12] приказы", "Re: [DB-12] приказы"),
        ("[DB-12] Re: [DB-3] x", "Re: [DB-12] [DB-3] x"),
        (None, "Драконбол: ответ судьи"),
        ("  ", "Драконбол: ответ судьи"),
    ],
)
def test_reply_subject_has_one_re(subject: str | None, expected: str) -> None:
    assert reply_subject(subject, "ack") == expected


def test_results_with_inline_diagrams_and_attachments() -> None:
    item = OutboxItem(
        id=9,
        channel="email",
        destination="vasya@example.ru",
        kind="results",
        text="Итоги раунда 3\n. o .\n. . .",
        subject="[DB-12] Итоги раунда 3",
        html='<html><body><p>Итоги</p><img src="cid:tick-1.png"></body></html>',
        attachments=(
            Attachment("tick-1.png", "image/png", PNG),
            Attachment("round-3.gif", "image/gif", GIF),
        ),
    )
    msg = _build(item)
    assert msg.get_content_type() == "multipart/mixed"
    alternative, gif = _parts(msg)
    assert alternative.get_content_type() == "multipart/alternative"
    plain, related = _parts(alternative)
    assert plain.get_content_type() == "text/plain"
    assert "Итоги раунда 3\n. o .\n. . ." in _text(plain)
    assert related.get_content_type() == "multipart/related"
    html, png = _parts(related)
    assert 'src="cid:tick-1.png"' in html.get_content()
    assert ACK_MARKER in html.get_content()
    assert png["Content-ID"] == "<tick-1.png>"
    assert png.get_content_disposition() == "inline"
    assert png.get_content() == PNG
    assert gif.get_content_disposition() == "attachment"
    assert gif.get_filename() == "round-3.gif"
    assert gif.get_content() == GIF


def test_attachments_without_html() -> None:
    item = OutboxItem(
        id=2,
        channel="email",
        destination="a@b.ru",
        kind="results",
        text="Итоги",
        attachments=(Attachment("tick-1.png", "image/png", PNG), Attachment("x", "weird", b"1")),
    )
    msg = _build(item)
    parts = list(msg.iter_attachments())
    assert [p.get_filename() for p in parts] == ["tick-1.png", "x"]
    assert parts[1].get_content_type() == "application/octet-stream"


def test_our_own_mail_read_back_is_a_robot_and_quotes_cut() -> None:
    item = OutboxItem(
        id=3, channel="email", destination="a@b.ru", kind="ack", text="Ловец 2: клетка 40"
    )
    raw = to_bytes(build_message(item, from_address="judge@example.org", now=NOW))
    mail = read_message(raw)
    assert mail.auto == "auto-submitted: auto-replied"  # a loop back to us is never answered
    assert mail.text == ""  # everything below the marker is the judge's, not new text


def test_headers_cannot_be_injected() -> None:
    item = OutboxItem(
        id=4, channel="email", destination="a@b.ru", kind="ack", text="x", subject="x\nBcc: e@v.il"
    )
    msg = _build(item)
    assert msg["Bcc"] is None
    assert msg["Subject"] == "Re: x Bcc: e@v.il"


def test_long_russian_subject_keeps_its_spaces() -> None:
    subject = "[DB-12] Драконбол: напоминание о приказах на раунд 3, осталось три часа до срока"
    item = OutboxItem(
        id=5, channel="email", destination="a@b.ru", kind="reminder", text="x", subject=subject
    )
    raw = to_bytes(build_message(item, from_address="judge@example.org", now=NOW))
    assert max(len(line) for line in raw.split(b"\r\n")) <= 78
    assert read_message(raw).subject == subject
