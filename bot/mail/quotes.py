"""Removing quoted earlier messages and signatures from a mail's text.

A reply that quotes the judge's last acknowledgement must not submit the
quoted orders again, so everything that is not the sender's own new text goes:

* lines quoted with ``>`` (bottom-posting keeps the unquoted lines between them);
* an attribution line ("On … wrote:", "… писал(а):", "… <addr>:"): when quoted
  lines follow it, only the attribution goes; otherwise (a client that quotes
  without ``>``) it and everything below it;
* an Outlook/Thunderbird separator ("-----Original Message-----",
  "-----Исходное сообщение-----", "-------- Пересылаемое сообщение --------",
  a line of underscores) or an Outlook header block ("From: … / Sent: …",
  "От: … / Отправлено: …") and everything below it;
* the judge's own marker line (:data:`ACK_MARKER`) quoted without ``>``, and
  everything below it;
* a signature: the first line that is ``--`` (with or without the trailing
  space of RFC 3676) and everything below it.
"""

from __future__ import annotations

import re

__all__ = ["ACK_MARKER", "strip_quotes", "strip_signature"]

# First line of every text the judge sends: a reply quoting it without ">"
# is cut there. Cyrillic and ASCII survive every charset Russian clients use.
ACK_MARKER = "=== Судья Драконбола / Dragonball judge ==="

_QUOTED = re.compile(r"^\s*>")
_MARKER = re.compile(r"^\s*={3,}\s*(?:Судья Драконбола|Dragonball judge)", re.IGNORECASE)
_ATTRIBUTION = re.compile(
    r"(?:\b(?:wrote|writes|schrieb|a écrit)"
    r"|(?:на)?писал(?:а|\(а\))?|пишет|написала)\s*:\s*$"
    r"|<[^<>@\s]+@[^<>\s]+>\s*:\s*$",
    re.IGNORECASE,
)
# Gmail and Apple Mail wrap a long attribution: "On <date>, <name>" / "<addr>> wrote:".
_ATTRIBUTION_START = re.compile(r"^\s*(?:On|Le|Am)\s.+", re.IGNORECASE)
_ATTRIBUTION_END = re.compile(r"^\s*\S*\s*(?:wrote|writes)\s*:\s*$", re.IGNORECASE)
_SEPARATOR = re.compile(
    r"^\s*(?:-{2,}\s*(?:Original Message|Исходное сообщение|Пересылаемое сообщение"
    r"|Forwarded message|Переадресованное сообщение)\s*-{2,}|_{10,})\s*$",
    re.IGNORECASE,
)
_HEADER_FROM = re.compile(r"^\s*\*?(?:From|От|Sender|Отправитель)\s*:\*?\s*\S", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\s*\*?(?:Sent|Date|To|Subject|Отправлено|Дата|Кому|Тема)\s*:\*?", re.IGNORECASE
)
_SIGNATURE = re.compile(r"^--[ \t]?$")


def _is_attribution(lines: list[str], index: int) -> int:
    """Number of lines (0, 1 or 2) of an attribution starting at ``index``."""
    line = lines[index]
    if _QUOTED.match(line) or not line.strip():
        return 0
    if _ATTRIBUTION.search(line):
        return 1
    if (
        _ATTRIBUTION_START.match(line)
        and index + 1 < len(lines)
        and _ATTRIBUTION_END.match(lines[index + 1])
    ):
        return 2
    return 0


def _next_text_is_quoted(lines: list[str], start: int) -> bool:
    for line in lines[start:]:
        if line.strip():
            return bool(_QUOTED.match(line))
    return False


def _is_header_block(lines: list[str], index: int) -> bool:
    if not _HEADER_FROM.match(lines[index]):
        return False
    following = [line for line in lines[index + 1 : index + 5] if line.strip()]
    return any(_HEADER_NEXT.match(line) for line in following[:3])


def strip_quotes(text: str) -> str:
    """The sender's own text, without quoted earlier messages."""
    lines = text.splitlines()
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _MARKER.match(line) or _SEPARATOR.match(line) or _is_header_block(lines, index):
            break
        attribution = _is_attribution(lines, index)
        if attribution:
            if not _next_text_is_quoted(lines, index + attribution):
                break
            index += attribution
            continue
        if not _QUOTED.match(line):
            kept.append(line)
        index += 1
    return _tidy(kept)


def strip_signature(text: str) -> str:
    """``text`` without its signature (the ``-- `` line and below)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if _SIGNATURE.match(line):
            return _tidy(lines[:index])
    return _tidy(lines)


def _tidy(lines: list[str]) -> str:
    """Join lines, drop trailing spaces and the blank lines before and after
    the text (not those between its lines, however many: the judge's errors
    name a line by its number, which must be the line the sender wrote)."""
    return "\n".join(line.rstrip() for line in lines).strip("\n")
