"""Preformatted blocks in the judge's texts, whatever channel carries them.

Some parts of an answer only read right in a fixed-width font: a line of an
order with ``^^^`` under the wrong word, the order sheet, the text diagram.
Such a part is wrapped by :func:`pre` in two private-use characters (no
player can type them: the order reader drops them from what it reads).  A
channel then shows the block its own way — Telegram as a ``pre`` entity
(no markup, so nothing needs escaping), an HTML mail as ``<pre>`` — or as
plain lines (:func:`plain`: a plain-text mail, the demo's transcript).
"""

from __future__ import annotations

from typing import Final

__all__ = ["PRE_CLOSE", "PRE_OPEN", "lines", "plain", "pre"]

PRE_OPEN: Final = "\ue000"
PRE_CLOSE: Final = "\ue001"


def pre(text: str) -> str:
    """``text`` as one preformatted block (put it on lines of its own)."""
    return f"{PRE_OPEN}{plain(text)}{PRE_CLOSE}" if text else ""


def plain(text: str) -> str:
    """``text`` without its block marks."""
    if PRE_OPEN not in text and PRE_CLOSE not in text:
        return text
    return text.replace(PRE_OPEN, "").replace(PRE_CLOSE, "")


def lines(text: str) -> list[tuple[str, bool]]:
    """The lines of ``text`` without marks, each with whether it is preformatted."""
    out: list[tuple[str, bool]] = []
    inside = False
    for raw in text.split("\n"):
        if raw.startswith(PRE_OPEN):
            inside = True
        closes = PRE_CLOSE in raw
        out.append((plain(raw), inside or PRE_OPEN in raw))
        if closes:
            inside = False
    return out
