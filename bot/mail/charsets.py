"""Decoding text as Russian mail clients send it.

Mail from old or misconfigured clients carries charset labels the standard
library refuses (``win-1251``, ``koi8r``, ``unknown-8bit``) or labels that do
not match the bytes (``us-ascii`` on Windows-1251 text). :func:`decode_text`
maps the known aliases, and when the label is missing, unknown or wrong,
guesses among UTF-8, Windows-1251 and KOI8-R: strict UTF-8 wins when it
decodes, otherwise the candidate whose letters look most like Russian text.
"""

from __future__ import annotations

import codecs
import re
from email.header import decode_header

__all__ = [
    "GUESS_CANDIDATES",
    "cyrillic_score",
    "decode_header_value",
    "decode_text",
    "guess_decode",
    "normalize_charset",
]

GUESS_CANDIDATES = ("utf-8", "cp1251", "koi8-r")

# Labels seen in the wild that Python's codec registry does not know.
_ALIASES = {
    "win-1251": "cp1251",
    "win1251": "cp1251",
    "windows1251": "cp1251",
    "cp-1251": "cp1251",
    "x-cp1251": "cp1251",
    "windows-cp1251": "cp1251",
    "koi8r": "koi8-r",
    "koi8": "koi8-r",
    "koi-8-r": "koi8-r",
    "x-koi8-r": "koi8-r",
    "koi8-ru": "koi8-u",
    "utf8": "utf-8",
    "unicode-1-1-utf-8": "utf-8",
    "x-unicode20utf8": "utf-8",
    "win-866": "cp866",
    "ibm-866": "cp866",
    "x-mac-cyrillic": "mac-cyrillic",
}
# Labels that mean "some 8-bit charset, nobody knows which".
_UNKNOWN = frozenset(
    {"unknown-8bit", "x-unknown", "unknown", "x-user-defined", "8bit", "default", "charset"}
)

# Relative frequency (per mille) of Russian letters in ordinary prose.
_FREQ = dict(
    zip(
        "оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё",
        (110, 85, 80, 74, 67, 63, 55, 47, 45, 44, 35, 32, 30, 28, 26, 20, 19, 17, 17, 16, 16)
        + (15, 12, 10, 10, 9, 7, 6, 5, 3, 3, 1, 1),
        strict=True,
    )
)
_WORD = re.compile(r"[а-яёА-ЯЁ]+")
_CASE_SWAP = re.compile(r"[а-яё][А-ЯЁ]")


def normalize_charset(label: str | None) -> str | None:
    """The Python codec name for a MIME charset label, or None to guess.

    ``None`` means the label is missing, says "unknown", or names no codec.
    """
    if label is None:
        return None
    name = label.strip().strip("\"'").lower()
    if not name or name in _UNKNOWN:
        return None
    name = _ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def cyrillic_score(text: str) -> float:
    """How much ``text`` looks like Russian, from 0 (not at all) up to about 110.

    The mean frequency of its Cyrillic letters, lowered by words with a lower
    case letter followed by an upper case one ("пРИВЕТ": the KOI8-R/Windows-1251
    mix-up swaps cases) and by box-drawing symbols (what a wrong guess yields).
    """
    words = _WORD.findall(text)
    letters = sum(len(word) for word in words)
    if not letters:
        return 0.0
    mean = sum(_FREQ.get(char.lower(), 1) for word in words for char in word) / letters
    swapped = sum(1 for word in words if _CASE_SWAP.search(word)) / len(words)
    symbols = sum(1 for char in text if "\u2500" <= char <= "\u25ff" or char == "\ufffd")
    return mean * (1 - 0.8 * swapped) * max(0.0, 1 - 3 * symbols / letters)


def guess_decode(data: bytes) -> tuple[str, str]:
    """Decode bytes of unknown charset; returns ``(text, codec)``."""
    try:
        return data.decode("ascii"), "ascii"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best: tuple[float, str, str] | None = None
    for codec in GUESS_CANDIDATES[1:]:
        text = data.decode(codec, errors="replace")
        score = cyrillic_score(text)
        if best is None or score > best[0]:
            best = (score, text, codec)
    assert best is not None  # GUESS_CANDIDATES has 8-bit entries
    return best[1], best[2]


def decode_text(data: bytes, label: str | None) -> tuple[str, str, bool]:
    """Decode a text body; returns ``(text, codec used, guessed)``.

    The declared charset is trusted when it decodes the bytes strictly, except
    that ASCII-compatible labels on 8-bit data (``us-ascii``) are ignored.
    """
    codec = normalize_charset(label)
    if codec is not None and codec != "ascii":
        try:
            return data.decode(codec), codec, False
        except UnicodeDecodeError:
            pass
    elif codec == "ascii":
        try:
            return data.decode("ascii"), "ascii", False
        except UnicodeDecodeError:
            pass
    text, guessed = guess_decode(data)
    return text, guessed, True


def _header_chunk(chunk: bytes | str, label: str | None) -> str:
    if isinstance(chunk, str):
        data = chunk.encode("ascii", "surrogateescape") if _has_surrogates(chunk) else None
        return chunk if data is None else guess_decode(data)[0]
    if label is None:
        # Unencoded text between encoded words; 8-bit bytes come back as escapes.
        text = chunk.decode("raw-unicode-escape")
        if _has_surrogates(text):
            return guess_decode(text.encode("ascii", "surrogateescape"))[0]
        return text
    return decode_text(chunk, label)[0]


def _has_surrogates(text: str) -> bool:
    return any("\udc80" <= char <= "\udcff" for char in text)


def decode_header_value(raw: str) -> str:
    """Decode a raw header value: RFC 2047 words with any label, or bare 8-bit bytes.

    ``raw`` is the value as the parser stored it (8-bit bytes as surrogate
    escapes). Folding whitespace is collapsed.
    """
    unfolded = re.sub(r"\r?\n[ \t]+", " ", raw)
    try:
        parts = decode_header(unfolded)
    except (ValueError, LookupError):
        parts = [(unfolded, None)]
    text = "".join(_header_chunk(chunk, label) for chunk, label in parts)
    return " ".join(text.split())
