"""Building the judge's outgoing mail from an outbox item.

Every message starts its text with :data:`~bot.mail.quotes.ACK_MARKER`, so a
player's reply that quotes it (even without ``>``) is cut there. Headers keep
other robots quiet: ``Auto-Submitted: auto-replied`` on acknowledgements and
``auto-generated`` on everything else (RFC 3834), ``X-Auto-Response-Suppress``
for Exchange's out-of-office replies.

Layout of a message with HTML (round results with field diagrams)::

    multipart/alternative
      text/plain          the text, with the text diagram
      multipart/related
        text/html         the HTML, images as <img src="cid:FILENAME">
        image/gif, png    the images the HTML refers to, inline

(``multipart/mixed`` around it only if an attachment is not shown by the
HTML.)  Without HTML it is text/plain with every attachment attached.
"""

from __future__ import annotations

import html as html_lib
import re
from datetime import datetime
from email.header import Header
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime, make_msgid

from bot.mail.quotes import ACK_MARKER
from bot.service.kernel import textblocks
from bot.service.kernel.api import Attachment, OutboxItem

__all__ = [
    "DEFAULT_SUBJECTS",
    "MAIL_POLICY",
    "SENDER_NAME",
    "build_message",
    "reply_subject",
    "to_bytes",
]

SENDER_NAME = "Судья Драконбола"

DEFAULT_SUBJECTS = {
    "ack": "Драконбол: ответ судьи",
    "round_open": "Драконбол: новый раунд",
    "reminder": "Драконбол: напоминание о приказах",
    "results": "Драконбол: итоги раунда",
    "match_end": "Драконбол: матч окончен",
    "announce": "Драконбол: объявление",
    "notice": "Драконбол: сообщение судьи",
    "gm_alert": "Драконбол: внимание судьям",
}


class _MailPolicy(EmailPolicy):
    """SMTP policy that folds non-ASCII subjects with the legacy ``Header`` encoder.

    Python 3.11's folder can put the space between two words outside the
    encoded words when it splits a long Cyrillic subject, and RFC 2047 readers
    then drop it ("напоминаниео приказах").
    """

    def _legacy(self, name: str, value: str) -> str | None:
        if name.lower() != "subject" or str(value).isascii():
            return None
        encoded = Header(str(value), "utf-8", header_name=name).encode(linesep=self.linesep)
        return f"{name}: {encoded}{self.linesep}"

    def fold(self, name: str, value: str) -> str:
        return self._legacy(name, value) or super().fold(name, value)

    def fold_binary(self, name: str, value: str) -> bytes:
        legacy = self._legacy(name, value)
        return legacy.encode("ascii") if legacy else super().fold_binary(name, value)


MAIL_POLICY = _MailPolicy(linesep="\r\n")

_RE_PREFIX = re.compile(r"^\s*(?:re|fwd?|ответ|отв)\s*(?:\[\d+\])?\s*:\s*", re.IGNORECASE)
_TAG = re.compile(r"^(\[[^\[\]]{1,40}\])\s*")
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


def reply_subject(subject: str | None, kind: str) -> str:
    """The subject for ``kind``: acknowledgements get exactly one ``Re:``, in
    front, before the game's tag (``Re: [DB-1] Re: x`` and ``[DB-1] Re: x``
    become ``Re: [DB-1] x``)."""
    text = " ".join((subject or "").split())
    if kind != "ack":
        return text or DEFAULT_SUBJECTS.get(kind, DEFAULT_SUBJECTS["notice"])
    tag = ""
    while True:
        while _RE_PREFIX.match(text):
            text = _RE_PREFIX.sub("", text, count=1)
        found = _TAG.match(text)
        if found is None or (tag and found.group(1) != tag):
            break
        tag = found.group(1)  # the same tag twice is said once
        text = text[found.end() :]
    text = " ".join(part for part in (tag, text) if part)
    return f"Re: {text}" if text else DEFAULT_SUBJECTS["ack"]


def _with_marker_html(html: str) -> str:
    marker = f'<p style="color:#888">{html_lib.escape(ACK_MARKER)}</p>'
    match = _BODY_OPEN.search(html)
    if match:
        return html[: match.end()] + marker + html[match.end() :]
    return marker + html


def _cids(html: str) -> set[str]:
    return set(re.findall(r"""cid:([^"'\s>)]+)""", html))


def _split_type(attachment: Attachment) -> tuple[str, str]:
    maintype, _, subtype = attachment.content_type.partition("/")
    return (maintype, subtype) if maintype and subtype else ("application", "octet-stream")


def build_message(
    item: OutboxItem,
    *,
    from_address: str,
    now: datetime,
    sender_name: str = SENDER_NAME,
) -> EmailMessage:
    """The RFC 5322 message for an e-mail outbox item."""
    domain = from_address.rsplit("@", 1)[-1]
    msg = EmailMessage(policy=MAIL_POLICY)
    msg["From"] = Address(sender_name, addr_spec=from_address)
    msg["To"] = item.destination
    msg["Subject"] = reply_subject(item.subject, item.kind)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = make_msgid(idstring=f"outbox{item.id}", domain=domain)
    msg["Auto-Submitted"] = "auto-replied" if item.kind == "ack" else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg["X-Dragonball-Kind"] = item.kind
    if item.reply_ref:
        msg["In-Reply-To"] = item.reply_ref
        msg["References"] = item.reply_ref
    text = textblocks.plain(item.text)  # a plain-text mail shows blocks as they are
    msg.set_content(f"{ACK_MARKER}\n\n{text}", subtype="plain", charset="utf-8")
    inline_names: set[str] = set()
    if item.html is not None:
        msg.add_alternative(_with_marker_html(item.html), subtype="html", charset="utf-8")
        inline_names = _cids(item.html)
        parts = msg.get_payload()
        assert isinstance(parts, list)
        html_part = parts[-1]
        assert isinstance(html_part, EmailMessage)
        for attachment in item.attachments:
            if attachment.filename in inline_names:
                maintype, subtype = _split_type(attachment)
                html_part.add_related(
                    attachment.data,
                    maintype=maintype,
                    subtype=subtype,
                    cid=f"<{attachment.filename}>",
                    disposition="inline",
                    filename=attachment.filename,
                )
    for attachment in item.attachments:
        if attachment.filename not in inline_names:
            maintype, subtype = _split_type(attachment)
            msg.add_attachment(
                attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename
            )
    return msg


def to_bytes(msg: EmailMessage) -> bytes:
    """The message as sent over SMTP (CRLF line ends, subjects folded safely)."""
    return msg.as_bytes(policy=MAIL_POLICY)
