"""HTML mail to plain text, for orders written in an HTML-only mail client.

Only what matters for reading orders is kept: the text, line breaks where the
layout breaks lines (``<br>``, ``<p>``, ``<div>``, table rows, list items),
and quoting: the content of ``<blockquote>`` comes out prefixed with ``> ``,
so the quote stripper removes it like a plain-text quote. Scripts, styles and
the document head are dropped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_to_text"]

_BREAK_BEFORE_AND_AFTER = frozenset(
    {
        "p",
        "div",
        "tr",
        "table",
        "ul",
        "ol",
        "li",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "hr",
        "section",
        "article",
        "header",
        "footer",
        "address",
        "center",
        "dl",
        "dt",
        "dd",
    }
)
_SKIP = frozenset({"script", "style", "head", "title", "template", "noscript"})


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._current: list[str] = []
        self._skip_depth = 0
        self._quote_depth = 0
        self._pre_depth = 0

    def _break(self) -> None:
        text = "".join(self._current)
        if self._pre_depth == 0:
            text = " ".join(text.split())
        self.lines.append("> " * self._quote_depth + text if text else "> " * self._quote_depth)
        self._current = []

    def _soft_break(self) -> None:
        """A block boundary: end the current line unless it is empty already."""
        if "".join(self._current).strip():
            self._break()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip_depth += 1
        elif tag == "br":
            self._break()
        elif tag == "blockquote":
            self._soft_break()
            self._quote_depth += 1
        elif tag in _BREAK_BEFORE_AND_AFTER:
            self._soft_break()
            if tag == "li":
                self._current.append("- ")
            elif tag == "pre":
                self._pre_depth += 1
        elif tag in ("td", "th") and "".join(self._current).strip():
            self._current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag == "blockquote":
            self._soft_break()
            self._quote_depth = max(0, self._quote_depth - 1)
        elif tag in _BREAK_BEFORE_AND_AFTER:
            self._soft_break()
            if tag == "pre":
                self._pre_depth = max(0, self._pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self._skip_depth or not data:
            return
        data = data.replace("\xa0", " ")
        if self._pre_depth:
            # Preformatted text keeps its own line breaks.
            first, *rest = data.split("\n")
            self._current.append(first)
            for line in rest:
                self._break()
                self._current.append(line)
        else:
            self._current.append(data)

    def finish(self) -> str:
        self.close()
        if self._current:
            self._break()
        text = "\n".join(line.rstrip() for line in self.lines)
        return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def html_to_text(html: str) -> str:
    """The readable text of an HTML document, one line per visual line."""
    parser = _TextExtractor()
    parser.feed(html)
    return parser.finish()
