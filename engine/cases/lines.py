"""Which line of a case file a key is on, so an error names it.

``tomllib`` gives values without places; a :class:`CaseError` names the key
at fault (``expect.L1.cell.not``).  This reads the file's text again, just
enough of TOML to know where each key and each array item starts: tables
(``[a.b]``, ``[[a]]``), dotted and quoted keys, inline tables and arrays
over several lines.

    load_case(text, name="s04/held-on")   # a Case, or CaseError("line 12: …")
"""

from __future__ import annotations

import re
import tomllib
from typing import Final

from .case import Case, parse_case
from .text import CaseError

__all__ = ["error_line", "key_lines", "load_case"]

_TOKEN: Final = re.compile(
    r'(?P<string>"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\')'
    r"|(?P<word>[A-Za-z0-9_+\-.:/]+)"
    r"|(?P<punct>[\[\]{}=,])"
    r"|(?P<newline>\n)"
    r"|(?P<comment>#[^\n]*)"
    r"|(?P<space>[ \t\r]+)"
    r"|(?P<other>.)"
)
_WHERE: Final = re.compile(r"^\[?([A-Za-z0-9_\-. ]+?)\]?(?::| must)")

Token = tuple[str, str, int]  # kind, text, line
Path = tuple[str, ...]


def _tokens(text: str) -> list[Token]:
    out: list[Token] = []
    line = 1
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind not in ("comment", "space"):
            out.append((kind, m.group(), line))
        line += m.group().count("\n")
    return out


def _parts(token: Token) -> list[str]:
    kind, text, _ = token
    # A quoted key is one part, but a message names a moment "2.1" as
    # "….2.1", so it is split the same way.
    return [p for p in (text[1:-1] if kind == "string" else text).split(".") if p]


class _Reader:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.i = 0
        self.found: list[tuple[Path, int]] = []
        self.arrays: dict[Path, int] = {}

    def peek(self, skip_newlines: bool = False) -> Token | None:
        while skip_newlines and self.i < len(self.tokens) and self.tokens[self.i][0] == "newline":
            self.i += 1
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, skip_newlines: bool = False) -> Token | None:
        token = self.peek(skip_newlines)
        self.i += token is not None
        return token

    def key(self) -> tuple[Path, int] | None:
        """A (dotted) key up to its ``=``, and its line."""
        parts: list[str] = []
        line = 0
        while (token := self.peek()) is not None and token[0] in ("word", "string"):
            line = line or token[2]
            parts += _parts(token)
            self.i += 1
        token = self.take()
        if not parts or token is None or token[1] != "=":
            return None
        return tuple(parts), line

    def value(self, path: Path) -> None:
        token = self.take(skip_newlines=True)
        if token is None:
            return
        if token[1] == "{":
            while (nxt := self.peek(skip_newlines=True)) is not None and nxt[1] != "}":
                if nxt[1] == ",":
                    self.i += 1
                    continue
                key = self.key()
                if key is None:
                    return
                self.found.append((path + key[0], key[1]))
                self.value(path + key[0])
            self.i += 1
        elif token[1] == "[":
            n = 0
            while (nxt := self.peek(skip_newlines=True)) is not None and nxt[1] != "]":
                if nxt[1] == ",":
                    self.i += 1
                    continue
                n += 1
                self.found.append((path + (str(n),), nxt[2]))
                self.value(path + (str(n),))
            self.i += 1

    def read(self) -> list[tuple[Path, int]]:
        table: Path = ()
        while (token := self.peek(skip_newlines=True)) is not None:
            if token[1] == "[":
                self.i += 1
                many = self.peek() is not None and self.peek() == ("punct", "[", token[2])
                self.i += many
                parts: list[str] = []
                while (t := self.take()) is not None and t[1] != "]":
                    parts += _parts(t)
                self.i += many
                table = tuple(parts)
                if many:
                    self.arrays[table] = self.arrays.get(table, 0) + 1
                    table += (str(self.arrays[table]),)
                self.found.append((table, token[2]))
            else:
                key = self.key()
                if key is None:  # not a key: skip the line
                    while (t := self.take()) is not None and t[0] != "newline":
                        pass
                    continue
                self.found.append((table + key[0], key[1]))
                self.value(table + key[0])
        return self.found


def key_lines(text: str) -> list[tuple[Path, int]]:
    """Every key and array item of a TOML text with the line it starts on."""
    return _Reader(text).read()


def _subsequence(short: Path, long: Path) -> bool:
    it = iter(long)
    return all(part in it for part in short)


def error_line(text: str, message: str) -> int | None:
    """The line of the key a case error's message begins with
    (``expect.L1.cell: …``), or None when it names no key of the text."""
    m = _WHERE.match(message)
    if m is None:
        return None
    target = tuple(p for p in m.group(1).split(".") if p)
    best, line = 0, None
    for path, at in key_lines(text):
        # A path the message's key holds in order (the first tick's orders
        # are "orders.L1" in the file, "orders.1.1.L1" in the message).
        if path and path[0] == target[0] and len(path) > best and _subsequence(path, target):
            best, line = len(path), at
    return line


def load_case(text: str, name: str = "case", source: str = "") -> Case:
    """A case from its file's text; a :class:`CaseError` names the line of
    the key at fault (a TOML syntax error names its own)."""
    doc = tomllib.loads(text)
    try:
        return parse_case(doc, name=name, source=source)
    except CaseError as exc:
        line = error_line(text, str(exc))
        if line is None:
            raise
        raise CaseError(f"line {line}: {exc}") from None
