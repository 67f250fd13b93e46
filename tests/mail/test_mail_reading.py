"""Reading received mail: charsets, HTML, quotes, signatures, pass phrases, robots."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from mail_samples import ORDERS, email_message, encoded_word, raw_mail

from bot.mail.quotes import ACK_MARKER
from bot.mail.reading import read_message

# ---------------------------------------------------------------- charsets and encodings


def test_koi8r_plain_8bit() -> None:
    mail = read_message(raw_mail(ORDERS, charset="koi8-r"))
    assert mail.text == ORDERS
    assert mail.problems == ()


def test_windows1251_quoted_printable() -> None:
    raw = raw_mail(ORDERS, charset="cp1251", label="windows-1251", cte="quoted-printable")
    assert b"=C" in raw  # really encoded: Cyrillic bytes as =XX
    assert read_message(raw).text == ORDERS


@pytest.mark.parametrize("label", ["win-1251", "windows1251", "cp-1251", "WIN1251"])
def test_broken_windows1251_labels_are_mapped(label: str) -> None:
    mail = read_message(raw_mail(ORDERS, charset="cp1251", label=label, cte="quoted-printable"))
    assert mail.text == ORDERS
    assert "charset guessed" not in mail.problems


@pytest.mark.parametrize("label", ["koi8r", "KOI8", "x-koi8-r"])
def test_broken_koi8_labels_are_mapped(label: str) -> None:
    assert read_message(raw_mail(ORDERS, charset="koi8-r", label=label)).text == ORDERS


@pytest.mark.parametrize("charset", ["koi8-r", "cp1251", "utf-8"])
@pytest.mark.parametrize("label", ["unknown-8bit", "x-unknown", "us-ascii", "no-such-charset"])
def test_unknown_or_wrong_label_is_guessed(charset: str, label: str) -> None:
    mail = read_message(raw_mail(ORDERS, charset=charset, label=label))
    assert mail.text == ORDERS
    assert "charset guessed" in mail.problems


def test_guess_tells_koi8r_from_windows1251_in_capitals() -> None:
    text = "ЛОВЕЦ 5 ЛЕТИТ В КЛЕТКУ 12"
    for charset in ("koi8-r", "cp1251"):
        assert read_message(raw_mail(text, charset=charset, label="unknown-8bit")).text == text


def test_base64_utf8() -> None:
    raw = raw_mail(ORDERS, cte="base64")
    assert ORDERS.encode() not in raw
    assert read_message(raw).text == ORDERS


def test_base64_body_with_broken_label() -> None:
    raw = raw_mail(ORDERS, charset="cp1251", label="win-1251", cte="base64")
    assert read_message(raw).text == ORDERS


def test_headers_with_broken_labels_and_raw_8bit() -> None:
    raw = raw_mail("x", charset="utf-8")
    subject = encoded_word("[DB-7] Приказы на раунд", "cp1251", "win-1251")
    raw = raw.replace(
        b"Subject: " + encoded_word("[DB-12] приказы", "utf-8").encode(),
        b"Subject: " + subject.encode(),
    )
    raw = raw.replace(
        b"From: " + encoded_word("Вася", "utf-8").encode(), "From: Вася".encode("koi8-r")
    )
    mail = read_message(raw)
    assert mail.subject == "[DB-7] Приказы на раунд"
    assert mail.game_tag == "DB-7"
    assert mail.from_name == "Вася"
    assert mail.from_address == "vasya@example.ru"


def test_modern_multipart_message_prefers_text_plain() -> None:
    msg = email_message(ORDERS, html="<p>Другое</p>")
    mail = read_message(msg.as_bytes())
    assert mail.text == ORDERS
    assert mail.message_id == "<m2@example.ru>"


# ---------------------------------------------------------------- HTML


def test_html_only_message_is_converted() -> None:
    html = (
        "<html><head><style>p {color: red}</style></head><body>"
        "<div>Ловец 5: лететь в клетку 12</div><div>Охотник 3 бьёт бладжер в&nbsp;дракона</div>"
        "<p>пароль: зелёный дракон</p></body></html>"
    )
    mail = read_message(raw_mail(html, charset="cp1251", cte="base64", subtype="html"))
    assert mail.text == ORDERS
    assert mail.passphrase == "зелёный дракон"
    assert "html converted to text" in mail.problems


def test_html_reply_blockquote_is_stripped() -> None:
    html = (
        "<div>Ловец 5: лететь в клетку 12<br>Охотник 3 бьёт бладжер в дракона</div>"
        '<div class="gmail_quote"><div>пт, 28 февр. 2025 г. в 21:00, Судья &lt;judge@example.org&gt;:'
        '</div><blockquote class="gmail_quote">'
        f"<div>{ACK_MARKER}</div><div>Приняты приказы: Ловец 2 лететь в клетку 40</div>"
        "</blockquote></div>"
    )
    assert read_message(raw_mail(html, subtype="html")).text == ORDERS


# ---------------------------------------------------------------- quotes and signatures

ACK = f"{ACK_MARKER}\n\nПриняты приказы команды 'Драконы':\nЛовец 2: лететь в клетку 40\n"


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())


def test_reply_quoting_the_acknowledgement_top_posted() -> None:
    body = f"{ORDERS}\n\nOn Sat, 1 Mar 2025 at 21:00, Judge <judge@example.org> wrote:\n{_quoted(ACK)}\n"
    assert read_message(raw_mail(body)).text == ORDERS


def test_reply_quoting_with_wrapped_gmail_attribution() -> None:
    body = f"{ORDERS}\n\nOn Sat, 1 Mar 2025 at 21:00, Судья Драконбола <\njudge@example.org> wrote:\n\n{_quoted(ACK)}"
    assert read_message(raw_mail(body)).text == ORDERS


def test_bottom_posted_reply_keeps_the_new_text() -> None:
    body = f"01.03.2025 21:00, Судья пишет:\n{_quoted(ACK)}\n\n{ORDERS}\n"
    assert read_message(raw_mail(body, charset="koi8-r")).text == ORDERS


def test_reply_above_the_quote_keeps_its_line_numbers() -> None:
    """Blank lines between the sender's lines stay, however many: the judge's
    errors name a line by its number, the line as the sender wrote it."""
    own = "Такт 1\n\n\nИванов: 89 в2\n\n\n\nКузнецв: 169 в2"
    body = (
        f"{own}\n\nOn Sat, 1 Mar 2025 at 21:00, Judge <judge@example.org> wrote:\n{_quoted(ACK)}\n"
    )
    text = read_message(raw_mail(body)).text
    assert text == own and text.splitlines()[7] == "Кузнецв: 169 в2"


def test_russian_attribution_written_with_brackets() -> None:
    body = f"{ORDERS}\n\n1 марта 2025 г., в 21:00, Судья <judge@example.org> написал(а):\n{_quoted(ACK)}"
    assert read_message(raw_mail(body, charset="cp1251")).text == ORDERS


def test_outlook_original_message_block_without_quote_marks() -> None:
    for separator in ("-----Original Message-----", "-----Исходное сообщение-----"):
        body = f"{ORDERS}\n\n{separator}\nFrom: Judge\nSent: Saturday\n\n{ACK}"
        assert read_message(raw_mail(body, charset="cp1251")).text == ORDERS


def test_outlook_header_block_without_separator() -> None:
    body = f"{ORDERS}\n\nОт: Судья Драконбола <judge@example.org>\nОтправлено: 1 марта 2025 г. 21:00\nКому: vasya@example.ru\nТема: Re: [DB-12]\n\n{ACK}"
    assert read_message(raw_mail(body)).text == ORDERS


def test_our_acknowledgement_quoted_without_any_marks() -> None:
    body = f"{ORDERS}\n\n{ACK}"
    assert read_message(raw_mail(body)).text == ORDERS


def test_reply_with_nothing_new_has_no_text() -> None:
    body = f"Sat, 1 Mar 2025 Judge <judge@example.org> wrote:\n{_quoted(ACK)}\n"
    assert read_message(raw_mail(body)).text == ""


def test_signature_is_stripped() -> None:
    for dashes in ("-- ", "--"):
        body = f"{ORDERS}\n{dashes}\nВася Пупкин\nОхотник 9 бьёт"
        assert read_message(raw_mail(body)).text == ORDERS


# ---------------------------------------------------------------- pass phrases, tags, ids


def test_passphrase_line_is_read_and_removed() -> None:
    mail = read_message(raw_mail(f"Пароль: зелёный дракон\n{ORDERS}", charset="koi8-r"))
    assert mail.passphrase == "зелёный дракон"
    assert mail.text == ORDERS


def test_passphrase_in_the_subject_is_removed_from_it() -> None:
    mail = read_message(raw_mail(ORDERS, subject="Re: [DB-12] приказы pw: зелёный дракон"))
    assert mail.passphrase == "зелёный дракон"
    assert mail.subject == "Re: [DB-12] приказы"
    assert "зелёный" not in mail.subject


def test_quoted_passphrase_does_not_count() -> None:
    body = f"{ORDERS}\n\nVasya wrote:\n> password: old secret\n"
    assert read_message(raw_mail(body)).passphrase is None


def test_new_passphrase_line() -> None:
    body = "password: old secret\nnew password: новый секрет\n"
    mail = read_message(raw_mail(body))
    assert (mail.passphrase, mail.new_passphrase, mail.text) == ("old secret", "новый секрет", "")
    mail = read_message(raw_mail("пароль: старый\nНовый пароль: другой секрет"))
    assert (mail.passphrase, mail.new_passphrase) == ("старый", "другой секрет")


@pytest.mark.parametrize(
    ("subject", "tag"),
    [
        ("[DB-12] приказы", "DB-12"),
        ("Re: Re: [db-3]", "DB-3"),
        ("[ ДБ-007 ] ход", "DB-7"),
        ("приказы", None),
        ("DB-12 without brackets", None),
    ],
)
def test_game_tag_in_the_subject(subject: str, tag: str | None) -> None:
    assert read_message(raw_mail("x", subject=subject)).game_tag == tag


def test_ids_dates_and_authentication_results() -> None:
    headers = {
        "In-Reply-To": "<ack-1@example.org>",
        "References": "<a@x> <ack-1@example.org>",
        "Authentication-Results": "mx.example.org; dkim=pass header.d=example.ru; spf=pass",
    }
    mail = read_message(raw_mail("x", headers=headers))
    assert mail.message_id == "<m1@example.ru>"
    assert mail.in_reply_to == "<ack-1@example.org>"
    assert mail.references == ("<a@x>", "<ack-1@example.org>")
    assert mail.authentication_results == (
        "mx.example.org; dkim=pass header.d=example.ru; spf=pass",
    )
    assert mail.date == datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
    assert read_message(raw_mail("x", message_id=None)).message_id is None


# ---------------------------------------------------------------- robots


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({"Auto-Submitted": "auto-replied"}, "auto-submitted: auto-replied"),
        ({"Auto-Submitted": "auto-generated"}, "auto-submitted: auto-generated"),
        ({"Precedence": "bulk"}, "precedence: bulk"),
        ({"Precedence": "list"}, "precedence: list"),
        ({"Return-Path": "<>"}, "bounce: empty return path"),
        ({"X-Autoreply": "yes"}, "auto-reply: x-autoreply"),
        ({"List-Id": "<players.example.ru>"}, "list mail"),
    ],
)
def test_automatic_mail_is_recognised(headers: dict[str, str], reason: str) -> None:
    assert read_message(raw_mail(ORDERS, headers=headers)).auto == reason


def test_mailer_daemon_and_subjects_of_robots() -> None:
    assert read_message(raw_mail("x", sender="MAILER-DAEMON@mx.example.ru")).auto == (
        "bounce: mailer-daemon"
    )
    assert read_message(raw_mail("x", subject="Автоответ: в отпуске")).auto == (
        "auto-reply: subject"
    )
    assert read_message(raw_mail("x", subject="Undeliverable: [DB-12]")).auto is not None


def test_people_are_not_robots() -> None:
    headers = {"Auto-Submitted": "no", "Return-Path": "<vasya@example.ru>"}
    assert read_message(raw_mail(ORDERS, headers=headers)).auto is None


def test_delivery_report_is_a_bounce() -> None:
    report = EmailMessage()
    report["From"] = "postmaster@example.ru"
    report["Subject"] = "Delivery report"
    report.set_content("could not deliver")
    report.make_mixed()
    report.replace_header("Content-Type", 'multipart/report; report-type="delivery-status"')
    assert read_message(report.as_bytes()).auto == "bounce: delivery or read report"


# ---------------------------------------------------------------- bad input never crashes


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe garbage without headers",
        b"From: \r\nSubject: =?bogus?Q?=ZZ?=\r\n\r\nbody",
        b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nbroken",
        b'Content-Type: text/plain; charset="\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!',
    ],
)
def test_malformed_mail_is_read_without_crashing(raw: bytes) -> None:
    mail = read_message(raw)
    assert mail.from_address is None
    assert mail.size == len(raw)


def test_several_from_headers_give_no_sender() -> None:
    raw = raw_mail("x", headers={"From": "mallory@example.com"})
    assert read_message(raw).from_address is None


def test_attachments_are_counted_and_ignored() -> None:
    msg = email_message(ORDERS)
    msg.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="a.pdf")
    msg.add_attachment("пароль: чужой\nЛовец 1", filename="orders.txt")
    mail = read_message(msg.as_bytes())
    assert mail.text == ORDERS
    assert mail.attachments == 2
    assert mail.passphrase is None


def test_too_large_message_is_not_read() -> None:
    raw = raw_mail(ORDERS + "\n" + "x" * 5000)
    mail = read_message(raw, max_bytes=1000)
    assert mail.text == ""
    assert "too large" in mail.problems
    assert mail.from_address == "vasya@example.ru"


def test_base64_helper_round_trip() -> None:
    # encoded_word is used by the samples above; check it encodes what it claims.
    word = encoded_word("Вася", "koi8-r", "koi8r")
    assert word.startswith("=?koi8r?B?")
    assert base64.b64decode(word[10:-2]).decode("koi8-r") == "Вася"
