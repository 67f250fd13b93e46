"""Reading one received mail: from raw RFC 822 bytes to what the judge needs.

:func:`read_message` never raises on bad input: a message it cannot make
sense of still yields a :class:`MailText` (with empty text and the reason in
``problems``), because the raw bytes must be stored whatever they contain.

Pass phrase syntax (documented for players in ``docs/email.md``):

* a line of the body ``пароль: <фраза>`` (also ``кодовая фраза:``, ``passphrase:``,
  ``password:``, ``pass:``, ``pw:``; ``=`` instead of ``:`` is fine), removed from
  the text before it is read as orders;
* or, in the subject, ``pw: <фраза>`` (also ``пароль:``, ``password:``, ``passphrase:``) and
  everything after it up to the end of the subject, e.g. ``[DB-12] pw: зелёный дракон``;
  it is removed from the subject the judge quotes back in ``Re:``;
* a line ``новый пароль: <фраза>`` (``new password:``) asks to change it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime

from bot.mail.quotes import strip_quotes, strip_signature
from bot.mailtext.charsets import decode_header_value, decode_text
from bot.mailtext.htmltext import html_to_text
from bot.mailtext.redact import phrase_values

__all__ = [
    "MailText",
    "auto_reason",
    "body_text",
    "extract_passphrases",
    "find_game_tag",
    "header",
    "read_message",
    "split_subject_passphrase",
]

_TAG = re.compile(r"\[\s*(?:DB|ДБ)\s*-\s*(\d{1,9})\s*\]", re.IGNORECASE)
_PASS_LINE = re.compile(
    r"^\s*(?:пароль|кодовая\s+фраза|pass\s*phrase|password|pass|pw)\s*[:=]\s*(?P<phrase>\S.*?)\s*$",
    re.IGNORECASE,
)
_NEW_PASS_LINE = re.compile(
    r"^\s*(?:нов(?:ый|ая)\s+(?:пароль|фраза)|new\s+(?:password|pass\s*phrase|passphrase))"
    r"\s*[:=]\s*(?P<phrase>\S.*?)\s*$",
    re.IGNORECASE,
)
_SUBJECT_PASS = re.compile(
    r"(?:^|\s)(?:pw|пароль|password|pass\s*phrase)\s*:\s*(?P<phrase>.*)$", re.IGNORECASE
)
_PRECEDENCE_AUTO = frozenset({"bulk", "list", "junk", "auto_reply", "auto-reply"})
_AUTO_SUBJECT = re.compile(
    r"^\s*(?:auto(?:matic)?\s*(?:reply|response)?\s*:|автоответ|автоматический ответ"
    r"|out of (?:the )?office|undeliver(?:ed|able)|delivery status notification"
    r"|mail delivery (?:failed|failure)|returned mail|недоставленное сообщение"
    r"|не удалось доставить)",
    re.IGNORECASE,
)
_MSGID = re.compile(r"<[^<>\s]+>")


@dataclass(frozen=True)
class MailText:
    """What the judge reads from one mail; all text already decoded."""

    message_id: str | None  # "<id@host>", or None when the mail has none
    in_reply_to: str | None
    references: tuple[str, ...]
    from_address: str | None  # lower-case addr-spec
    from_name: str
    subject: str  # decoded, pass phrase removed
    game_tag: str | None  # "DB-12"
    text: str  # the sender's own text: no quotes, signature or pass phrase lines
    passphrase: str | None
    new_passphrase: str | None
    auto: str | None  # why this is automatic mail (never answered), or None
    authentication_results: tuple[str, ...]
    size: int
    attachments: int  # parts that are neither the text body nor inline text
    date: datetime | None
    problems: tuple[str, ...] = ()
    # Every pass phrase value the mail carries (body lines, quoted ones, the
    # subject): what the stored copy must not contain (bot.mailtext.redact).
    secrets: tuple[str, ...] = ()


def header(msg: Message, name: str) -> list[str]:
    """Every value of header ``name``, decoded whatever its charset label."""
    wanted = name.lower()
    return [
        decode_header_value(str(v)).replace("\x00", "")
        for k, v in msg.raw_items()
        if k.lower() == wanted
    ]


def _first(msg: Message, name: str) -> str | None:
    values = header(msg, name)
    return values[0] if values else None


def _clean_phrase(phrase: str) -> str:
    return unicodedata.normalize("NFC", phrase.strip())


def split_subject_passphrase(subject: str) -> tuple[str, str | None]:
    """``(subject without the pass phrase, pass phrase or None)``."""
    match = _SUBJECT_PASS.search(subject)
    if not match or not match["phrase"].strip():
        return subject, None
    return subject[: match.start()].strip(), _clean_phrase(match["phrase"])


def extract_passphrases(text: str) -> tuple[str, str | None, str | None]:
    """Remove pass phrase lines; returns ``(text, pass phrase, new pass phrase)``."""
    kept, phrase, new_phrase = [], None, None
    for line in text.splitlines():
        new_match = _NEW_PASS_LINE.match(line)
        if new_match:
            new_phrase = new_phrase or _clean_phrase(new_match["phrase"])
            continue
        match = _PASS_LINE.match(line)
        if match:
            phrase = phrase or _clean_phrase(match["phrase"])
            continue
        kept.append(line)
    return "\n".join(kept), phrase, new_phrase


def find_game_tag(subject: str) -> str | None:
    """``"DB-12"`` for a subject containing ``[DB-12]`` (or ``[ДБ-12]``)."""
    match = _TAG.search(subject)
    return f"DB-{int(match[1])}" if match else None


def auto_reason(msg: Message, from_address: str | None, subject: str) -> str | None:
    """Why ``msg`` is automatic mail that must never be answered, or None."""
    auto_submitted = (_first(msg, "Auto-Submitted") or "").strip().lower()
    if auto_submitted and not auto_submitted.startswith("no"):
        return f"auto-submitted: {auto_submitted}"
    precedence = (_first(msg, "Precedence") or "").strip().lower()
    if precedence in _PRECEDENCE_AUTO:
        return f"precedence: {precedence}"
    return_path = _first(msg, "Return-Path")
    if return_path is not None and return_path.strip() in ("<>", ""):
        return "bounce: empty return path"
    local = (from_address or "").split("@", 1)[0]
    if local in ("mailer-daemon", "mailer_daemon"):
        return "bounce: mailer-daemon"
    if msg.get_content_type() == "multipart/report":
        return "bounce: delivery or read report"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply"):
        if _first(msg, name) is not None:
            return f"auto-reply: {name.lower()}"
    if _first(msg, "List-Id") is not None or _first(msg, "List-Unsubscribe") is not None:
        return "list mail"
    if _AUTO_SUBJECT.match(subject):
        return "auto-reply: subject"
    return None


def _part_text(part: Message) -> tuple[str, bool]:
    """Decoded text of a leaf part; ``(text, charset guessed)``."""
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    text, _codec, guessed = decode_text(data, part.get_content_charset())
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", ""), guessed


def _is_attachment(part: Message) -> bool:
    return part.get_content_disposition() == "attachment" or (
        part.get_filename() is not None and part.get_content_maintype() != "text"
    )


def body_text(msg: EmailMessage) -> tuple[str, int, list[str]]:
    """``(text, attachments, problems)``: text/plain preferred, else HTML as text."""
    problems: list[str] = []
    plain: Message | None = None
    html: Message | None = None
    attachments = 0
    for part in msg.walk():
        if part.is_multipart():
            continue
        if _is_attachment(part):
            attachments += 1
        elif part.get_content_type() == "text/plain" and plain is None:
            plain = part
        elif part.get_content_type() == "text/html" and html is None:
            html = part
        elif part is not msg:
            attachments += 1
    if plain is not None:
        text, guessed = _part_text(plain)
    elif html is not None:
        raw_html, guessed = _part_text(html)
        text = html_to_text(raw_html)
        problems.append("html converted to text")
    else:
        return "", attachments, ["no text part"]
    if guessed:
        problems.append("charset guessed")
    return text, attachments, problems


def _parse_date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return parsed.astimezone(UTC) if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _msgids(value: str | None) -> tuple[str, ...]:
    return tuple(_MSGID.findall(value or ""))


def _from(msg: Message) -> tuple[str | None, str]:
    values = header(msg, "From")
    if len(values) != 1:
        return None, ""  # none, or several From headers: nobody to trust
    addresses = getaddresses(values)
    if len(addresses) != 1 or "@" not in addresses[0][1]:
        return None, ""
    name, address = addresses[0]
    return address.strip().lower(), name.strip()


def read_message(raw: bytes, *, max_bytes: int | None = None) -> MailText:
    """Read a received mail; never raises, whatever the bytes.

    A message larger than ``max_bytes`` has only its headers read; its text is
    empty and ``problems`` says ``"too large"``. Every text is fit for storage:
    no NUL characters (PostgreSQL refuses them) and no lone surrogates.
    """
    try:
        return _read(raw, max_bytes)
    except Exception as exc:  # a bug in reading must not keep the message from being stored
        return _unreadable(len(raw), f"unreadable: {type(exc).__name__}")


def _read(raw: bytes, max_bytes: int | None) -> MailText:
    size = len(raw)
    try:
        msg = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception as exc:  # the parser is lenient; anything here is a bug in it
        return _unreadable(size, f"unparseable: {type(exc).__name__}")
    assert isinstance(msg, EmailMessage)
    from_address, from_name = _from(msg)
    subject, subject_phrase = split_subject_passphrase(_first(msg, "Subject") or "")
    problems: list[str] = []
    text, attachments = "", 0
    if max_bytes is not None and size > max_bytes:
        problems.append("too large")
    else:
        try:
            text, attachments, problems = body_text(msg)
        except Exception as exc:  # a broken MIME tree must not lose the message
            problems.append(f"unreadable body: {type(exc).__name__}")
    secrets = [*phrase_values(text), *([subject_phrase] if subject_phrase else [])]
    text = strip_quotes(text)
    text, phrase, new_phrase = extract_passphrases(text)
    text = strip_signature(text)
    message_ids = _msgids(_first(msg, "Message-ID"))
    return MailText(
        message_id=message_ids[0] if message_ids else None,
        in_reply_to=next(iter(_msgids(_first(msg, "In-Reply-To"))), None),
        references=_msgids(" ".join(header(msg, "References"))),
        from_address=from_address,
        from_name=from_name,
        subject=subject,
        game_tag=find_game_tag(subject),
        text=text,
        passphrase=phrase or subject_phrase,
        new_passphrase=new_phrase,
        auto=auto_reason(msg, from_address, subject),
        authentication_results=tuple(header(msg, "Authentication-Results")),
        size=size,
        attachments=attachments,
        date=_parse_date(_first(msg, "Date")),
        problems=tuple(problems),
        secrets=tuple(dict.fromkeys(s for s in (*secrets, phrase, new_phrase) if s)),
    )


def _unreadable(size: int, problem: str) -> MailText:
    return MailText(
        message_id=None,
        in_reply_to=None,
        references=(),
        from_address=None,
        from_name="",
        subject="",
        game_tag=None,
        text="",
        passphrase=None,
        new_passphrase=None,
        auto=None,
        authentication_results=(),
        size=size,
        attachments=0,
        date=None,
        problems=(problem,),
    )
