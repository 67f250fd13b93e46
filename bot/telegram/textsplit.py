"""Splitting long texts into Telegram messages.

Telegram takes at most 4096 characters a message, counted in UTF-16 code
units. A report is cut on line boundaries; a line that alone is too long is
cut at its last space that fits, or hard when it has none.
"""

from __future__ import annotations

from bot.service.kernel import textblocks as blocks

__all__ = [
    "MAX_CAPTION", "MAX_MESSAGE", "Part", "resplit", "split_formatted", "split_text", "utf16_len",
]  # fmt: skip

# A message to send: its text and its preformatted ranges (offset, length in
# UTF-16 units, as Telegram's entities count).
Part = tuple[str, tuple[tuple[int, int], ...]]

MAX_MESSAGE = 4096
MAX_CAPTION = 1024


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _cut(line: str, limit: int) -> list[str]:
    """A line longer than ``limit`` in pieces that fit, cut at spaces where possible."""
    pieces = []
    while utf16_len(line) > limit:
        # The longest prefix that fits (characters outside the BMP count twice).
        end, size = 0, 0
        for index, char in enumerate(line):
            size += 2 if ord(char) > 0xFFFF else 1
            if size > limit:
                break
            end = index + 1
        space = line.rfind(" ", 0, end)
        cut = space if space > 0 else end
        pieces.append(line[:cut])
        line = line[cut:].lstrip(" ") if space > 0 else line[cut:]
    pieces.append(line)
    return pieces


def split_text(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """``text`` in parts of at most ``limit`` UTF-16 units, cut between lines.

    Blank parts are dropped; an empty or blank text gives ``[]``.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        for piece in _cut(line, limit) if utf16_len(line) > limit else [line]:
            piece_size = utf16_len(piece)
            extra = piece_size + (1 if current else 0)  # +1 for the joining newline
            if current and size + extra > limit:
                parts.append("\n".join(current))
                current, size = [], 0
                extra = piece_size
            current.append(piece)
            size += extra
    if current:
        parts.append("\n".join(current))
    return [part.strip("\n") for part in parts if part.strip()]


def split_formatted(text: str, limit: int = MAX_MESSAGE) -> list[Part]:
    """:func:`split_text` for a text with preformatted blocks
    (:mod:`bot.service.kernel.textblocks`): the marks become ranges of each part,
    and a block cut between two parts stays preformatted in both."""
    if limit < 1:
        raise ValueError("limit must be positive")
    parts: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    size = 0
    for line, fixed in blocks.lines(text):
        for piece in _cut(line, limit) if utf16_len(line) > limit else [line]:
            extra = utf16_len(piece) + (1 if current else 0)
            if current and size + extra > limit:
                parts.append(current)
                current, size = [], 0
                extra = utf16_len(piece)
            current.append((piece, fixed))
            size += extra
    if current:
        parts.append(current)
    out: list[Part] = []
    for part in parts:
        while part and not part[0][0].strip():
            part = part[1:]
        while part and not part[-1][0].strip():
            part = part[:-1]
        if part:
            out.append(_with_ranges(part))
    return out


def _with_ranges(part: list[tuple[str, bool]]) -> Part:
    ranges: list[tuple[int, int]] = []
    offset = 0
    start: int | None = None
    end = 0
    for index, (line, fixed) in enumerate(part):
        if index:
            offset += 1  # the newline
        if fixed:
            if start is None:
                start = offset
            end = offset + utf16_len(line)
        elif start is not None:
            ranges.append((start, end - start))
            start = None
        offset += utf16_len(line)
    if start is not None:
        ranges.append((start, end - start))
    return "\n".join(line for line, _ in part), tuple(r for r in ranges if r[1] > 0)


def resplit(part: Part, limit: int) -> list[Part]:
    """``part`` cut again at a smaller ``limit`` (Telegram found it too long after
    all), its preformatted ranges kept: they become marks again, then are split."""
    text, ranges = part
    lines = text.split("\n")
    fixed = []
    offset = 0
    for line in lines:
        fixed.append(any(start <= offset < start + length for start, length in ranges))
        offset += utf16_len(line) + 1
    marked = []
    for index, line in enumerate(lines):
        opens = fixed[index] and (index == 0 or not fixed[index - 1])
        closes = fixed[index] and (index == len(lines) - 1 or not fixed[index + 1])
        marked.append(
            (blocks.PRE_OPEN if opens else "") + line + (blocks.PRE_CLOSE if closes else "")
        )
    return split_formatted("\n".join(marked), limit)
