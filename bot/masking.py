"""Pass phrases out of whatever the judge keeps of a received message.

Every inbound message is stored as it came (``bot.service.inbound.receive.store``),
with one exception: a pass phrase. :func:`stored_form` is the one function
that decides what is kept of a message's text and raw bytes, whatever the
channel — a mail (RFC 822 bytes), a Telegram update or a request of the
ordering page (JSON) — and what the mailbox keeps after reading
(``bot.mail.adapter``): the phrase of a ``/passphrase PHRASE`` command in the
text, and any other phrase the channel names (a mail's ``пароль:`` lines), are
replaced by :data:`MASK` in the text and wherever they appear in the raw bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from bot.mailtext.redact import GLOBAL_MIN, MASK, redact_raw

__all__ = ["MASK", "command_phrase", "mask_passphrase_command", "stored_form"]

_PASSPHRASE_COMMAND = re.compile(
    r"^(?P<head>\s*/(?:passphrase|пароль)(?:@\w+)?)(?=\s|$)(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)


def mask_passphrase_command(text: str) -> str:
    """``/passphrase PHRASE`` (or ``/пароль``) as it may be stored: the phrase
    masked; any other text unchanged."""
    match = _PASSPHRASE_COMMAND.match(text)
    if match is None or not match["rest"].strip():
        return text
    return f"{match['head']} {MASK}"


def command_phrase(text: str) -> str | None:
    """The phrase of a ``/passphrase PHRASE`` command (None for any other text)."""
    match = _PASSPHRASE_COMMAND.match(text)
    return match["rest"].strip() or None if match is not None else None


def stored_form(text: str, raw: bytes, phrases: Iterable[str] = ()) -> tuple[str, bytes]:
    """``text`` and ``raw`` as they may be kept: without the pass phrases in them."""
    secrets = [p.strip() for p in phrases if p and p.strip()]
    command = command_phrase(text)
    if command is not None:
        secrets.append(command)
    secrets = list(dict.fromkeys(secrets))
    text = _masked_text(text, secrets)
    if not secrets:
        return text, raw
    return text, _masked_raw(raw, secrets, text)


def _masked_text(text: str, secrets: list[str]) -> str:
    """The command's phrase, then every phrase long enough not to be a common word."""
    text = mask_passphrase_command(text)
    for phrase in sorted(secrets, key=len, reverse=True):
        if len(phrase) >= GLOBAL_MIN:
            text = text.replace(phrase, MASK)
    return text


def _masked_raw(raw: bytes, secrets: list[str], text: str) -> bytes:
    if raw.lstrip()[:1] not in (b"{", b"["):  # a mail: bot.mailtext.redact checks its own result
        return redact_raw(raw, secrets)
    # A Telegram update or a request of the ordering page.
    try:
        kept = json.dumps(_walk(json.loads(raw), secrets), ensure_ascii=False, sort_keys=True)
    except (ValueError, RecursionError):
        kept = ""
    if not kept or any(_readable(kept.encode(), p) for p in secrets if len(p) >= GLOBAL_MIN):
        # A phrase we could not mask in place: keep only the masked text.
        return json.dumps({"text": text, "raw": "withheld"}, ensure_ascii=False).encode()
    return kept.encode()


def _walk(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        return _masked_text(value, secrets)
    if isinstance(value, list):
        return [_walk(v, secrets) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, secrets) for k, v in value.items()}
    return value


def _readable(raw: bytes, phrase: str) -> bool:
    """Is ``phrase`` in ``raw`` as it stands, or JSON-escaped?"""
    forms = {phrase.encode(), json.dumps(phrase)[1:-1].encode()}
    return any(form in raw for form in forms)
