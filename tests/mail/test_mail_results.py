"""A round's results by mail, end to end, as docs/email.md describes them:
the HTML with the round's animation and each tick's picture inline, a
plain-text alternative with the text diagram, nothing merely attached, one
«Re:» in the answers' subjects, and refusals that say what was wrong."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from email.message import EmailMessage

import pytest
from mail_samples import raw_mail
from PIL import Image
from support.mail_judge import PETYA, PHRASE, MailJudge, invite, mail_judge, parse
from support.mailservers import CaptureSmtp, Dovecot
from support.service_table import FIRST_DEADLINE, orders_text

from bot.service.rounds.reports import MAIL_LAYOUT
from storage.db import Database

pytestmark = pytest.mark.mailserver

SENDER = f"Петя <{PETYA}>"


@pytest.fixture
async def judge(
    db: Database, dovecot: Dovecot, smtp_server: CaptureSmtp
) -> AsyncIterator[MailJudge]:
    async with mail_judge(db, dovecot, smtp_server, pictures=True) as running:
        code = await invite(running)
        body = f"/start {code}\nпароль: {PHRASE}\n"
        await running.post(raw_mail(body, sender=SENDER, message_id="<join@example.ru>"))
        await running.flush()
        running.smtp.clear()
        yield running


async def _results(judge: MailJudge) -> EmailMessage:
    orders = orders_text(judge.table.state(), "right", [2])
    subject = f"[DB-{judge.table.game_id}] приказы"
    await judge.post(
        raw_mail(f"пароль: {PHRASE}\n{orders}", subject=subject, sender=SENDER,
                 message_id="<orders@example.ru>")
    )  # fmt: skip
    await judge.flush()
    judge.smtp.clear()
    await judge.table.clock.set(FIRST_DEADLINE)
    assert [r.round_number for r in await judge.table.service.resolve_due()] == [1]
    sent = await judge.flush()
    results = [parse(m) for m in sent if parse(m)["X-Dragonball-Kind"] == "results"]
    assert len(results) == 1 and sent[0].rcpt_tos == (PETYA,)
    return results[0]


async def test_results_come_as_html_with_the_pictures_inline_and_a_text_diagram(
    judge: MailJudge,
) -> None:
    msg = await _results(judge)
    assert msg.get_content_type() == "multipart/alternative"
    plain = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    assert plain is not None and html is not None
    text = str(plain.get_content())
    assert "Позиция после раунда 1 (клетка/высота):" in text  # the end-of-round table
    assert "Под номером клетки: А7/Б7" in text  # the text diagram's legend, under its map
    assert "Клетки:" not in text  # its listing would repeat the table
    assert "Зерно костей: " in text and "итоги раунда" not in text
    page = str(html.get_content())
    assert "Позиция после раунда 1" in page and "Зерно костей" in page
    cids = re.findall(r'src="cid:([^"]+)"', page)
    assert cids == ["round1.gif", "round1-tick1.png", "round1-tick2.png", "round1-tick3.png"]
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    inline = {
        str(p["Content-ID"]).strip("<>"): p
        for p in related.iter_parts()
        if p.get_content_maintype() == "image"
    }
    assert set(inline) == set(cids)
    # Nothing merely attached: every picture is shown where it belongs.
    assert not [p for p in msg.walk() if p.get_content_disposition() == "attachment"]
    for name, part in inline.items():
        picture = Image.open(io.BytesIO(part.get_content()))
        assert picture.width == MAIL_LAYOUT.width, name  # the mail's own, smaller set
        assert part.get_content_disposition() == "inline"
    animation = Image.open(io.BytesIO(inline["round1.gif"].get_content()))
    assert getattr(animation, "n_frames", 1) == 4  # the start and three ticks


async def test_report_n_by_mail_is_the_results_mail_again(judge: MailJudge) -> None:
    first = await _results(judge)
    judge.smtp.clear()
    subject = f"[DB-{judge.table.game_id}] отчёт"
    (reply,) = await judge.post(
        raw_mail(f"пароль: {PHRASE}\n/report 1", subject=subject, sender=SENDER,
                 message_id="<report@example.ru>")
    )  # fmt: skip
    assert reply.status == "ok", reply.text
    (sent,) = await judge.flush()
    again = parse(sent)
    assert again["Subject"] == f"Re: {subject}"
    assert again.get_content_type() == "multipart/alternative"
    html = again.get_body(preferencelist=("html",))
    plain = again.get_body(preferencelist=("plain",))
    assert html is not None and plain is not None
    page, text = str(html.get_content()), str(plain.get_content())
    assert "Отчёт о раунде 1 — повторно" in page and "Отчёт о раунде 1 — повторно" in text
    assert "Под номером клетки: А7/Б7" in text  # the text diagram, as in the results mail
    assert re.findall(r'src="cid:([^"]+)"', page) == re.findall(
        r'src="cid:([^"]+)"',
        str(first.get_body(preferencelist=("html",)).get_content()),  # type: ignore[union-attr]
    )
    assert not [p for p in again.walk() if p.get_content_disposition() == "attachment"]


async def test_answers_to_replies_carry_one_re(judge: MailJudge) -> None:
    game = f"DB-{judge.table.game_id}"
    subjects = (f"Re: [{game}] Re: приказы", f"[{game}] Re: Re: приказы", "Re: приказы")
    for i, subject in enumerate(subjects):
        (reply,) = await judge.post(
            raw_mail(f"пароль: {PHRASE}\n/status", subject=subject, sender=SENDER,
                     message_id=f"<status{i}@example.ru>")
        )  # fmt: skip
        assert reply.status == "ok", (subject, reply.text)
        (sent,) = await judge.flush()
        assert parse(sent)["Subject"] == f"Re: [{game}] приказы", subject
        judge.smtp.clear()


async def test_a_wrong_pass_phrase_is_not_called_a_missing_one(judge: MailJudge) -> None:
    subject = f"[DB-{judge.table.game_id}] приказы"
    wrong = raw_mail("пароль: совсем не тот\n/status", subject=subject, sender=SENDER,
                     message_id="<wrong@example.ru>")  # fmt: skip
    (reply,) = await judge.post(wrong)
    assert reply.status == "refused"
    assert "неверный" in reply.text and "нет пароля" not in reply.text
    none = raw_mail("/status", subject=subject, sender=SENDER, message_id="<none@example.ru>")
    (reply,) = await judge.post(none)
    assert reply.status == "refused"
    assert "нет пароля игрока" in reply.text
    assert "в любой строке" in reply.text and "pw:" in reply.text  # where docs/email.md says
    await judge.flush()
    texts = [
        str(parse(m).get_body(preferencelist=("plain",)).get_content()) for m in judge.smtp.messages
    ]  # type: ignore[union-attr]
    assert len(texts) == 2 and "неверный" in texts[0] and "нет пароля игрока" in texts[1]
