"""Errors of the order language: what a player sees when a line cannot be taken."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

__all__ = ["ErrorKind", "OrderError", "OrderLanguageError"]

ErrorKind = Literal[
    "syntax",
    "unknown_name",
    "ambiguous_name",
    "illegal",
    "forbidden",
    "too_large",
    "wrong_round",
]


class OrderLanguageError(Exception):
    """The only exception the order language raises (an internal failure, never bad input)."""


@dataclass(frozen=True, slots=True)
class OrderError:
    """One problem of one line: where it is, what kind, and a localised message.

    ``start``/``end`` are the span of the offending part in ``text`` (the
    line as cleaned: composed Unicode, no invisible marks); ``line`` is
    1-based, 0 for the message as a whole.  ``code`` is stable (a message
    catalogue key or an engine legality code) and ``suggestions`` are what
    the writer probably meant.
    """

    kind: ErrorKind
    line: int
    text: str
    start: int
    end: int
    message: str
    code: str
    suggestions: tuple[str, ...] = ()
    # The tick header the line was written under, as a line's own tick mark
    # («такт 2»): shown after the line, so the line copied back, put right,
    # keeps its tick (alone it would be for the next tick).
    context: str = ""
    context_at: int = -1  # where it goes in the line: before its comment; -1: the end

    def render(self) -> str:
        """The line, a caret line under the offending part, and the message."""
        if not self.text:
            return self.message
        shown = self.text.expandtabs(1)
        head = f"{self.line}: " if self.line else ""
        pad = " " * (len(head) + _width(shown[: self.start]))
        marks = "^" * max(1, _width(shown[self.start : self.end]))
        if self.context:
            at = len(shown) if self.context_at < 0 else min(self.context_at, len(shown))
            tag = f"   ({self.context})"
            if self.start >= at:
                pad += " " * _width(tag)
            shown = f"{shown[:at]}{tag}{' ' if at < len(shown) else ''}{shown[at:]}"
        return f"{head}{shown}\n{pad}{marks}\n{self.message}"


def _width(text: str) -> int:
    """Display columns: wide (East Asian, emoji) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
