"""Pass phrases out of the stored mail: the one exception to "raw as received".

The judge stores every mail it receives, but not the pass phrase a player
wrote into it: :func:`redact_raw` gives the bytes to store, with each pass
phrase value replaced by :data:`MASK` — in the pass phrase lines of every text
part (quoted ones too), in the subject after ``pw:``, and, for phrases of
:data:`GLOBAL_MIN` characters or more, wherever else they occur (a quoted
earlier mail, the HTML alternative).

How, robustly whatever the encoding: the message is parsed (``compat32``,
which writes untouched parts and headers back as they were), every text part
is *decoded* (base64, quoted-printable, any charset), redacted as text,
encoded again in its own charset and transfer encoding, and the message is
serialised; only the parts and headers that held a phrase change. The
result is read back and checked (raw bytes, every decoded part, the subject,
the pass phrase lines); if a phrase can still be found — an HTML entity, a
header nobody expected, a part that does not decode — the body is replaced
by its redacted text and the header by a safe subset, and the mail says so
(``X-Dragonball-Redacted``). A mail without pass phrase is stored untouched.
"""

from __future__ import annotations

import base64
import quopri
import re
import unicodedata
from collections.abc import Iterable
from email import policy
from email.header import Header
from email.message import Message
from email.parser import BytesParser

from bot.mailtext.charsets import decode_header_value, decode_text
from bot.mailtext.htmltext import html_to_text

__all__ = ["GLOBAL_MIN", "MASK", "leaks", "phrase_values", "redact_raw", "redact_text"]

MASK = "********"
GLOBAL_MIN = 8  # shorter values (wrong guesses like "pw: 1") are masked in their lines only
_KEYWORD = (
    r"(?:нов(?:ый|ая)\s+(?:пароль|фраза)|new\s+(?:password|pass\s*phrase|passphrase)"
    r"|пароль|кодовая\s+фраза|pass\s*phrase|password|pass|pw)"
)
# A pass phrase line, also quoted ("> пароль: …"), or a "/passphrase …" command
# line; the value up to the line's end.
_LINE = re.compile(
    rf"^(?P<head>[ \t>]*(?:{_KEYWORD}\s*[:=]|/(?:passphrase|пароль)(?:@\w+)?(?=[ \t]))[ \t]*)"
    r"(?P<value>\S[^\r\n]*?)(?P<tail>[ \t]*)(?=\r?$)",
    re.IGNORECASE | re.MULTILINE,
)
_SUBJECT = re.compile(
    r"(?P<head>(?:^|\s)(?:pw|пароль|password|pass\s*phrase)\s*:\s*)(?P<value>\S.*)$",
    re.IGNORECASE,
)
_SAFE_HEADERS = (
    "From", "To", "Cc", "Date", "Message-ID", "In-Reply-To", "References", "MIME-Version",
    "Authentication-Results", "Auto-Submitted", "Precedence", "Return-Path",
)  # fmt: skip


def phrase_values(text: str) -> list[str]:
    """Every value of a pass phrase line in ``text`` (new ones and quoted ones too)."""
    return [m["value"].strip() for m in _LINE.finditer(text)]


def redact_text(text: str, phrases: Iterable[str], *, html: bool = False) -> str:
    """``text`` with pass phrase values masked (lines, then long phrases anywhere)."""
    out = _LINE.sub(lambda m: m["head"] + MASK + m["tail"], text)
    for phrase in _long(phrases):
        out = _phrase_pattern(phrase, html).sub(MASK, out)
    return out


def redact_raw(raw: bytes, phrases: Iterable[str]) -> bytes:
    """The bytes to store for ``raw``: the same, but without ``phrases``."""
    secrets = tuple(dict.fromkeys(p for p in phrases if p and p.strip()))
    if not secrets:
        return raw
    try:
        msg = BytesParser(policy=policy.compat32).parsebytes(raw)
        changed = _redact_subject(msg, secrets)
        for part in msg.walk():
            if not part.is_multipart() and part.get_content_maintype() == "text":
                changed = _redact_part(part, secrets) or changed
        out = _serialise(msg, raw) if changed else raw
    except Exception:  # a mail the library cannot rewrite: the safe form below
        out = b""
    if out and not leaks(out, secrets):
        return out
    return _withheld(raw, secrets)


def leaks(raw: bytes, phrases: Iterable[str]) -> bool:
    """Can a pass phrase still be read from ``raw``?"""
    secrets = tuple(p for p in phrases if p and p.strip())
    long = _long(secrets)
    if any(_bytes_contain(raw, phrase) for phrase in long):
        return True
    try:
        msg = BytesParser(policy=policy.compat32).parsebytes(raw)
        texts = [decode_header_value(str(v)) for _, v in msg.items()]
        for part in msg.walk():
            if not part.is_multipart() and part.get_content_maintype() == "text":
                text = _decoded(part)[0]
                texts.append(text)
                if part.get_content_subtype() == "html":
                    texts.append(html_to_text(text))
    except Exception:
        return True
    for text in texts:
        norm = _fold(text)
        if any(_fold(phrase) in norm for phrase in long):
            return True
        for match in _LINE.finditer(text):  # short ones: their lines must be masked
            if match["value"].strip() != MASK and any(p in match["value"] for p in secrets):
                return True
        subject = _SUBJECT.search(text)
        if subject and any(p in subject["value"] for p in secrets):
            return True
    return False


# ---------------------------------------------------------------- helpers
def _long(phrases: Iterable[str]) -> list[str]:
    found = {unicodedata.normalize("NFC", p.strip()) for p in phrases if p}
    return sorted((p for p in found if len(p) >= GLOBAL_MIN), key=len, reverse=True)


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _phrase_pattern(phrase: str, html: bool) -> re.Pattern[str]:
    """The phrase with any run of white space (and, in HTML, ``&nbsp;``) between words."""
    gap = r"(?:\s|&nbsp;|&#160;|&#xa0;)+" if html else r"\s+"
    return re.compile(gap.join(re.escape(w) for w in phrase.split()), re.IGNORECASE)


def _bytes_contain(raw: bytes, phrase: str) -> bool:
    for codec in ("utf-8", "cp1251", "koi8-r", "utf-16-le"):
        try:
            if phrase.encode(codec) in raw:
                return True
        except UnicodeError:
            continue
    return False


def _decoded(part: Message) -> tuple[str, str]:
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    text, codec, _guessed = decode_text(data, part.get_content_charset())
    return text, codec


def _redact_part(part: Message, secrets: tuple[str, ...]) -> bool:
    text, codec = _decoded(part)
    html = part.get_content_subtype() == "html"
    redacted = redact_text(text, secrets, html=html)
    if redacted == text:
        normalised = unicodedata.normalize("NFC", text)
        redacted = redact_text(normalised, secrets, html=html)
        if redacted == normalised:
            return False
    data = redacted.encode(codec, "replace")
    cte = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
    if cte == "base64":
        part.set_payload(base64.encodebytes(data).decode("ascii"))
    elif cte == "quoted-printable":  # hard line breaks become the message's line ends
        part.set_payload(quopri.encodestring(data.replace(b"\r\n", b"\n")).decode("ascii"))
    else:  # 7bit, 8bit, binary: the bytes themselves
        part.set_payload(data.decode("ascii", "surrogateescape"))
    return True


def _redact_subject(msg: Message, secrets: tuple[str, ...]) -> bool:
    raw = msg.get("Subject")
    if raw is None:
        return False
    subject = decode_header_value(str(raw))
    redacted = _SUBJECT.sub(lambda m: m["head"] + MASK, subject)
    for phrase in _long(secrets):
        redacted = _phrase_pattern(phrase, False).sub(MASK, redacted)
    if redacted == subject:
        return False
    msg.replace_header("Subject", Header(redacted, "utf-8").encode())
    return True


def _serialise(msg: Message, raw: bytes) -> bytes:
    """The message as bytes, in the line ends of ``raw``; headers are not refolded."""
    crlf = b"\r\n" in raw[:4096]
    out_policy = policy.compat32.clone(linesep="\r\n" if crlf else "\n", max_line_length=None)
    return msg.as_bytes(policy=out_policy)


def _withheld(raw: bytes, secrets: tuple[str, ...]) -> bytes:
    """Last resort: the safe headers and the redacted text of the body."""
    msg = BytesParser(policy=policy.compat32).parsebytes(raw)
    texts = []
    for part in msg.walk():
        if not part.is_multipart() and part.get_content_maintype() == "text":
            text = _decoded(part)[0]
            if part.get_content_subtype() == "html":
                text = html_to_text(text)
            texts.append(redact_text(text, secrets))
    out = Message()
    for name in _SAFE_HEADERS:
        for value in msg.get_all(name, []):
            out[name] = value
    subject = decode_header_value(str(msg.get("Subject", "")))
    out["Subject"] = Header(redact_text(_SUBJECT.sub(r"\g<head>" + MASK, subject), secrets),
                            "utf-8").encode()  # fmt: skip
    out["X-Dragonball-Redacted"] = "pass phrase removed; body replaced by its text"
    out["Content-Type"] = 'text/plain; charset="utf-8"'
    out["Content-Transfer-Encoding"] = "base64"
    body = "\n\n".join(texts)
    if leaks(body.encode("utf-8"), secrets):
        body = ""
    out.set_payload(base64.encodebytes(body.encode("utf-8")).decode("ascii"))
    result = _serialise(out, raw)
    return result if not leaks(result, secrets) else b"X-Dragonball-Redacted: everything\r\n\r\n"
