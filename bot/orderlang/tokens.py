"""The lexer of the order language: a line's order part → :class:`Word` tokens.

Words are classified through the vocabulary of :mod:`.lexicon` (every
synonym of a keyword becomes the one terminal of its type), fillers ("мяч",
"у", "the") are dropped, and unknown symbols and emoji are skipped.  The
classification of a word is cached: a message repeats its words, and a
player's next message repeats most of them again.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from .lexicon import NUMBER_WORDS, keyword_type, norm_word

__all__ = ["MAX_DIGITS", "Word", "tokenize"]

MAX_DIGITS: Final = 6  # longer numbers are no cell, height, tick or round


class Word(NamedTuple):
    """A token: its type (a keyword type, WORD, INT…), normalised value and span.

    The parser reads only ``type`` (a tuple is far cheaper to make than a
    lark ``Token``, and a message has thousands at worst).
    """

    type: str
    value: str
    start: int
    end: int

    @property
    def kind(self) -> str:
        return self.type


_TOKEN: Final = re.compile(
    r"(?P<INT>\d+)(?:-?(?:ый|ой|ий|й|st|nd|rd|th)(?![^\W\d_]))?"
    # "в2", "h2" glued: one token, not two; "н2" is h2 typed with the Cyrillic look-alike
    r"|(?P<HEIGHT>[вbvhн](?P<digit>\d)(?!\d))"
    r"|(?P<WORD>[^\W\d_]+(?:['’\-‐][^\W\d_]+)*)"
    r"|(?P<ARROW>[-–—=]+>|[→⟶⇒➡➔⇨]|>)"
    r"|(?P<DASH>[-–—−‐])"
    r"|(?P<SLASH>/)",
    re.IGNORECASE,
)

# (type, normalised text, offset in the matched word) of each token a word gives.
_Parts = tuple[tuple[str, str, int], ...]


_CLASSIFIED: dict[str, _Parts] = {}  # a plain dict: looked up for every word read
_MAX_CLASSIFIED: Final = 8192


def _classified(raw: str) -> _Parts:
    parts = _CLASSIFIED.get(raw)
    if parts is None:
        if len(_CLASSIFIED) >= _MAX_CLASSIFIED:
            _CLASSIFIED.clear()
        parts = _CLASSIFIED[raw] = _classify(raw)
    return parts


def _classify(raw: str) -> _Parts:
    """The tokens one matched word gives: usually one, none for a filler,
    several for keywords glued by hyphens ("вперёд-вверх")."""
    word = norm_word(raw)
    kind = keyword_type(word)
    if kind == "FILLER":
        return (("FILLER", word, 0),) if word == "player" else ()
    if kind is None and word in NUMBER_WORDS:
        return (("INT", NUMBER_WORDS[word], 0),)
    if kind is None and "-" in word:
        parts = word.split("-")
        kinds = [keyword_type(p) for p in parts]
        if all(k is not None and k != "FILLER" for k in kinds):
            out, pos = [], 0
            for part, part_kind in zip(parts, kinds, strict=True):
                assert part_kind is not None
                out.append((part_kind, part, pos))
                pos += len(part) + 1
            return tuple(out)
    return ((kind or "WORD", word, 0),)


def tokenize(text: str, limit: int | None = None) -> list[Word]:
    """Tokens of the order part of a line; unknown symbols and emoji are skipped.
    With ``limit``, stops once it has that many (a line that long is refused)."""
    out: list[Word] = []
    for m in _TOKEN.finditer(text):
        if limit is not None and len(out) >= limit:
            break
        kind = m.lastgroup
        start, end = m.span()
        if kind == "WORD":
            parts = _classified(m.group())
            if len(parts) == 1:
                part_kind, word, _ = parts[0]
                before = out[-1].type if out else None
                if part_kind == "STAY" and before == "TO":
                    out[-1] = Word("STAY", word, out[-1].start, end)  # "на месте"
                    if len(out) > 1 and out[-2].type == "STAY":  # "стоять на месте"
                        out[-2:] = [Word("STAY", out[-2].value, out[-2].start, end)]
                elif part_kind == "FILLER":  # "player": only "to player" means something
                    if before in ("TO", "ARROW"):
                        out[-1] = Word("RECEIVER", word, out[-1].start, end)
                elif part_kind == "STAY" and before == "STAY":  # "stay put"
                    out[-1] = Word("STAY", out[-1].value, out[-1].start, end)
                else:
                    out.append(Word(part_kind, word, start, end))
            else:
                for part_kind, word, offset in parts:
                    out.append(Word(part_kind, word, start + offset, start + offset + len(word)))
        elif kind == "INT":
            digits = m.group("INT")
            out.append(Word("INT" if len(digits) <= MAX_DIGITS else "BADNUM", digits, start, end))
        elif kind == "HEIGHT":
            out.append(Word(kind, m.group("digit"), start, end))
        else:
            assert kind is not None
            out.append(Word(kind, m.group(), start, end))
    return out
