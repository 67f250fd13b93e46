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
import sys
from email.errors import HeaderParseError
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
_ESCAPE_CODECS = frozenset({"unicode-escape", "raw-unicode-escape"})
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
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})")


def normalize_charset(label: str | None) -> str | None:
    """The Python codec name for a MIME charset label, or None to guess.

    ``None`` means the label is missing, says "unknown", or names no text codec:
    labels are whatever the sender wrote (8-bit bytes, NUL, ``base64``, ``rot13``).
    """
    if label is None:
        return None
    name = label.strip().strip("\"'").lower()
    if not name or name in _UNKNOWN:
        return None
    name = _ALIASES.get(name, name)
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):  # ValueError: surrogates (8-bit bytes), embedded NUL
        return None
    # Bytes-to-bytes and str-to-str codecs (base64, hex, rot13) decode no mail text,
    # nor do Python's escape codecs: no mail client writes them, and an invalid
    # escape makes them warn (an error where warnings are errors) or yield surrogates.
    if not info._is_text_encoding or info.name in _ESCAPE_CODECS:
        return None
    return info.name


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
    if codec is not None:
        try:
            text = data.decode(codec)
        except (LookupError, ValueError):  # UnicodeError too (idna, punycode raise it bare)
            pass
        else:
            # utf-7 can yield lone surrogates, which no database stores.
            if not _SURROGATE.search(text):
                return text, codec, False
    text, guessed = guess_decode(data)
    return text, guessed, True


def _header_chunk(chunk: bytes | str, label: str | None) -> str:
    if isinstance(chunk, str):
        return _undo_surrogates(chunk)
    if label is None:
        # Unencoded text between encoded words; 8-bit bytes come back as escapes.
        return _undo_surrogates(_unescape(chunk))
    return decode_text(chunk, label)[0]


def _undo_surrogates(text: str) -> str:
    """``text`` with the parser's surrogate escapes (bare 8-bit bytes) decoded by guessing."""
    if not any("\udc80" <= char <= "\udcff" for char in text):
        return text
    # UTF-8, not ASCII: an escape like \u0432 may have put real letters next to them.
    return guess_decode(text.encode("utf-8", "surrogateescape"))[0]


def _unescape(chunk: bytes) -> str:
    """Undo ``decode_header``'s raw-unicode-escape encoding of unencoded text.

    That encoding leaves a backslash as it is, so a literal ``\\u`` in the
    header is no escape: only well-formed ones are replaced, the rest stays.
    """
    return _ESCAPE.sub(_unescape_one, chunk.decode("latin-1"))


def _unescape_one(match: re.Match[str]) -> str:
    code = int(match[1] or match[2], 16)
    if code > sys.maxunicode or (0xD800 <= code <= 0xDFFF and not 0xDC80 <= code <= 0xDCFF):
        return match[0]  # no character, or a surrogate that no 8-bit byte stands for
    return chr(code)


def decode_header_value(raw: str) -> str:
    """Decode a raw header value: RFC 2047 words with any label, or bare 8-bit bytes.

    ``raw`` is the value as the parser stored it (8-bit bytes as surrogate
    escapes). Folding whitespace is collapsed.
    """
    unfolded = re.sub(r"\r?\n[ \t]+", " ", raw)
    try:
        parts = decode_header(unfolded)
    except (HeaderParseError, ValueError, LookupError):  # e.g. a broken base64 word
        parts = [(unfolded, None)]  # the raw text: an address next to the word survives
    text = "".join(_header_chunk(chunk, label) for chunk, label in parts)
    return " ".join(text.split())
