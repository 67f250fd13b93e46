"""What a play-by-mail player expects: an earlier round's report again
(/report N, as its reader may see it) and deadlines in his own zone (/tz)."""

from __future__ import annotations

from datetime import timedelta

from support.service_table import FIRST_DEADLINE, GM, Table, orders_text

from bot.service.rounds.resolve import html_first


async def _one_round(table: Table) -> None:
    await table.say(201, orders_text(table.state(), "left"))
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()


async def test_report_n_sends_the_round_again_as_its_reader_may_see_it(table: Table) -> None:
    await _one_round(table)
    first = {r.destination: r for r in table.outbox(kind="results")}
    mine = await table.say(201, "/report 1")
    assert mine.status == "ok", mine.text
    assert mine.text.startswith("Отчёт о раунде 1 — повторно")
    # The left team's own report, the same as the one sent at the deadline.
    assert first["201"].text in mine.text
    row = table.outbox(id=mine.outbox_ids[-1])[0]
    assert row.pictures is not None and row.pictures.endswith("/public/ru")
    # The right team's captain gets his team's report, not the left one's.
    theirs = await table.say(301, "/report 1")
    assert first["301"].text in theirs.text and first["201"].text not in theirs.text
    # The game master's pictures show what is hidden.
    gm = await table.say(GM, "/report 1")
    assert table.outbox(id=gm.outbox_ids[-1])[0].pictures.endswith("/gm/ru")  # type: ignore[union-attr]
    assert (await table.say(201, "/report 7")).status == "rejected"
    assert (await table.say(201, "/report")).status == "rejected"


async def test_report_by_mail(table: Table) -> None:
    code = (await table.say(GM, "/invite player right 3 ann@example.org")).data["code"]
    assert (await table.mail("ann@example.org", f"/start {code}")).status == "ok"
    await _one_round(table)
    reply = await table.mail("ann@example.org", "/report 1", subject="[DB-1] отчёт")
    assert reply.status == "ok" and "повторно" in reply.text
    row = table.outbox(id=reply.outbox_ids[-1])[0]
    # In the results mail's form (docs/email.md): HTML with the pictures inline, the
    # plain text with the text diagram, the mail's own (smaller) set of pictures.
    results = next(r for r in table.outbox(kind="results") if r.destination == "ann@example.org")
    assert row.channel == "email" and row.pictures == results.pictures
    assert row.pictures is not None and row.pictures.endswith("/public/ru/mail")
    assert row.html is not None and results.html is not None
    # One document, the line on top of its body (not before its <!DOCTYPE>).
    assert row.html.startswith("<!DOCTYPE html>") and row.html.count("<body") == 1
    body = row.html.split("<body", 1)[1].split(">", 1)[1]
    assert body.startswith("<p><b>Отчёт о раунде 1 — повторно")
    assert results.html.split("<body", 1)[1].split(">", 1)[1] in body
    assert row.text.startswith("Отчёт о раунде 1 — повторно")
    assert results.text in row.text


async def test_a_member_reads_deadlines_in_his_own_zone(table: Table) -> None:
    answer = await table.say(202, "/tz Europe/Kiev")
    assert answer.status == "ok" and "Europe/Kiev" in answer.text, answer.text
    assert (await table.say(202, "/tz Mars/Olympus")).status == "rejected"
    assert (await table.say(GM, "/extend 1h")).status == "ok"
    extended = {r.destination: r.text for r in table.outbox(kind="announce") if "продлил" in r.text}
    # 19:00 UTC: 22:00 in Moscow, 21:00 in Kyiv (winter time).
    assert "21:00 (Europe/Kiev)" in extended["202"]
    assert "22:00 (Europe/Moscow)" in extended["201"]
    status = await table.say(202, "/tz")
    assert "Europe/Kiev" in status.text
    await table.say(202, "/tz off")
    assert "поясу игры" in (await table.say(202, "/tz")).text


async def test_the_reminder_is_written_in_the_readers_own_zone(table: Table) -> None:
    assert (await table.say(301, "/tz Asia/Yekaterinburg")).status == "ok"
    assert await table.service.send_reminders(FIRST_DEADLINE - timedelta(hours=1)) == 3
    texts = {r.destination: r.text for r in table.outbox(kind="reminder")}
    # 18:00 UTC: 23:00 in Yekaterinburg (UTC+5) for him, 21:00 in the game's Moscow for the others.
    assert "23:00 (Asia/Yekaterinburg)" in texts["301"], texts["301"]
    assert "Europe/Moscow" not in texts["301"]
    assert "21:00 (Europe/Moscow)" in texts["201"]


def test_a_line_put_first_in_a_mail_goes_inside_its_body() -> None:
    # The replay mark after a rollback, the "again" line of /report N: the report's
    # <body> tag has a style, and the line once landed before the <!DOCTYPE>.
    doc = '<!DOCTYPE html>\n<html lang="ru"><body style="margin:0">\n<h2>Раунд 1</h2>\n</body></html>\n'
    out = html_first(doc, "Переигровка раунда 1 <попытка 2>")
    assert out == doc.replace(
        '<body style="margin:0">',
        '<body style="margin:0"><p><b>Переигровка раунда 1 &lt;попытка 2&gt;</b></p>',
    )
    assert html_first(None, "x") is None
