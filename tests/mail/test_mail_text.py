"""The text helpers on their own: charset labels, header decoding, HTML to text."""

from __future__ import annotations

import pytest

from bot.mail.quotes import strip_quotes, strip_signature
from bot.mailtext.charsets import (
    cyrillic_score,
    decode_header_value,
    decode_text,
    guess_decode,
    normalize_charset,
)
from bot.mailtext.htmltext import html_to_text


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("windows-1251", "cp1251"),
        ("Win-1251", "cp1251"),
        ('"cp-1251"', "cp1251"),
        ("koi8r", "koi8-r"),
        ("UTF8", "utf-8"),
        ("ibm-866", "cp866"),
        ("unknown-8bit", None),
        ("x-unknown", None),
        ("", None),
        (None, None),
        ("no-such-thing", None),
        # What senders write must never make the lookup raise.
        ("\udcff", None),  # an 8-bit byte in the label, as the parser hands it over
        ("utf\x00-8", None),
        ("base64", None),  # codecs, but no text encodings
        ("rot13", None),
    ],
)
def test_normalize_charset(label: str | None, codec: str | None) -> None:
    assert normalize_charset(label) == codec


def test_declared_charset_wins_when_it_decodes() -> None:
    data = "Привет".encode("cp866")
    assert decode_text(data, "cp866") == ("Привет", "cp866", False)


def test_declared_utf8_that_is_not() -> None:
    text, codec, guessed = decode_text("Ловец летит".encode("cp1251"), "utf-8")
    assert (text, codec, guessed) == ("Ловец летит", "cp1251", True)


def test_ascii_is_ascii() -> None:
    assert guess_decode(b"Seeker 5 to 12") == ("Seeker 5 to 12", "ascii")


def test_score_prefers_real_russian() -> None:
    real = "Охотник бьёт бладжер"
    wrong = real.encode("koi8-r").decode("cp1251")
    assert cyrillic_score(real) > cyrillic_score(wrong)
    assert cyrillic_score("no letters") == 0.0


def test_decode_header_value_mixed_words_and_folding() -> None:
    raw = "=?utf-8?B?0J/RgNC40LrQsNC30Ys=?=\r\n =?koi8-r?Q?=CE=C1?= [DB-3]"
    assert decode_header_value(raw) == "Приказына [DB-3]"  # adjacent encoded words join
    assert decode_header_value("=?bogus-charset?Q?abc?=") == "abc"
    assert decode_header_value("plain   text") == "plain text"


def test_html_lists_tables_preformatted_and_scripts() -> None:
    html = (
        "<script>alert(1)</script><h1>Приказы</h1><ul><li>Ловец 5</li><li>Охотник 3</li></ul>"
        "<table><tr><td>а</td><td>б</td></tr><tr><td>в</td></tr></table>"
        "<pre>x  y\nz</pre>&lt;ok&gt;&amp;"
    )
    assert html_to_text(html) == "Приказы\n- Ловец 5\n- Охотник 3\nа б\nв\nx  y\nz\n<ok>&"


def test_html_nested_blockquotes_are_quoted() -> None:
    html = "new<blockquote>old<blockquote>older</blockquote></blockquote>after"
    assert html_to_text(html) == "new\n> old\n> > older\nafter"
    assert strip_quotes(html_to_text(html)) == "new\nafter"


def test_html_broken_markup_does_not_crash() -> None:
    assert html_to_text("<div><p>Ловец <b>5</div></blockquote></i>&#xZZ;<").startswith("Ловец 5")


def test_signature_only_at_a_dash_dash_line() -> None:
    assert strip_signature("a -- b\n--x\nc") == "a -- b\n--x\nc"
    assert strip_signature("a\n-- \nsig") == "a"


def test_text_without_quotes_is_unchanged() -> None:
    text = "Ловец 5: клетка 12\n\nОхотник 3: бить"
    assert strip_quotes(text) == text
