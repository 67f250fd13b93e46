"""Real-looking mail as Russian mail clients send it, built byte by byte."""

from __future__ import annotations

import base64
import quopri
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime

__all__ = ["ORDERS", "email_message", "encoded_word", "raw_mail"]

ORDERS = "Ловец 5: лететь в клетку 12\nОхотник 3 бьёт бладжер в дракона"


def encoded_word(text: str, charset: str, label: str | None = None) -> str:
    """An RFC 2047 B-encoded word, optionally with a (broken) label."""
    data = base64.b64encode(text.encode(charset)).decode("ascii")
    return f"=?{label or charset}?B?{data}?="


def raw_mail(
    body: str,
    *,
    charset: str = "utf-8",
    label: str | None = None,
    cte: str = "8bit",
    subtype: str = "plain",
    sender: str = "Вася <vasya@example.ru>",
    subject: str = "[DB-12] приказы",
    message_id: str | None = "<m1@example.ru>",
    headers: dict[str, str] | None = None,
) -> bytes:
    """A single-part message; body encoded in ``charset`` and labelled ``label``."""
    data = body.encode(charset)
    if cte == "quoted-printable":
        data = quopri.encodestring(data)
    elif cte == "base64":
        data = base64.encodebytes(data)
    data = data.replace(b"\n", b"\r\n")  # on the wire every line ends in CRLF
    sender_name, _, address = sender.partition(" <")
    head = [
        f"From: {encoded_word(sender_name, 'utf-8')} <{address}" if address else f"From: {sender}",
        "To: judge@example.org",
        f"Subject: {encoded_word(subject, 'utf-8')}",
        f"Date: {format_datetime(datetime(2025, 3, 1, 18, 0, tzinfo=UTC))}",
        "MIME-Version: 1.0",
        f"Content-Type: text/{subtype}; charset={label or charset}",
        f"Content-Transfer-Encoding: {cte}",
    ]
    if message_id is not None:
        head.append(f"Message-ID: {message_id}")
    head += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return "\r\n".join(head).encode("ascii") + b"\r\n\r\n" + data


def email_message(
    text: str,
    *,
    sender: str = "vasya@example.ru",
    subject: str = "[DB-12] приказы",
    message_id: str = "<m2@example.ru>",
    html: str | None = None,
) -> EmailMessage:
    """A message as a modern client (UTF-8, multipart) would build it."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = message_id
    msg["Date"] = format_datetime(datetime(2025, 3, 1, 18, 0, tzinfo=UTC))
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return msg
