"""Receipts: every acknowledgement carries the digest of the team's sheet on file;
the results publish the digest of the orders played; /verify checks a receipt."""

from __future__ import annotations

import re

from support.service_table import FIRST_DEADLINE, GM, Table, orders_text

from bot.service.rounds.receipts import sheet_digest, short, team_digests

RECEIPT = re.compile(r"Квитанция (\w{4}-\w{4}-\w{4})")


def _receipt(text: str) -> str:
    match = RECEIPT.search(text)
    assert match, text
    return match.group(1)


async def test_the_digest_ignores_the_order_of_filing_and_the_other_team(table: Table) -> None:
    state = table.state()
    for user, side in ((201, "left"), (301, "right")):
        assert (await table.say(user, orders_text(state, side))).status == "ok"
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    [rnd] = [r for r in table.rounds() if r.number == 1]
    doc = rnd.orders
    assert doc is not None and rnd.order_digests == team_digests(doc)
    shuffled = {key: list(reversed(value)) for key, value in doc.items()}
    assert team_digests(shuffled) == team_digests(doc)
    left_only = {k: [o for o in v if o.get("side") == "left"] for k, v in doc.items()}
    assert sheet_digest(left_only, "left") == sheet_digest(doc, "left")
    assert sheet_digest(left_only, "right") != sheet_digest(doc, "right")
    assert re.fullmatch(r"\w{4}-\w{4}-\w{4}", short(sheet_digest(doc, "left")))


async def test_the_last_receipt_is_what_the_round_was_played_with(table: Table) -> None:
    state = table.state()
    first = await table.say(201, orders_text(state, "left"))
    assert first.status == "ok", first.text
    assert "всех приказов команды «Саламандры» на раунд 1" in first.text
    receipt_one = _receipt(first.text)
    again = await table.say(202, orders_text(state, "left", [2], ticks=(1,)))
    assert _receipt(again.text) == receipt_one  # the same orders again: the same sheet
    two = next(p for p in state.team_players("left") if p.number == 2)
    moved = f"Такт 1\n{two.name}: {two.cell + 1} в{two.height}"
    second = await table.say(202, moved)
    assert second.status == "ok", second.text
    receipt_two = _receipt(second.text)
    assert receipt_two != receipt_one  # a team-mate changed the sheet: a new receipt
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    results = table.outbox(kind="results")
    assert results and all(f"«Саламандры» {receipt_two}" in r.text for r in results)
    verify = await table.say(201, "/verify 1")
    assert verify.status == "ok" and receipt_two in verify.text, verify.text
    match = await table.say(201, f"/verify 1 {receipt_two}")
    assert match.status == "ok" and "совпадает" in match.text
    stale = await table.say(201, f"/verify 1 {receipt_one}")
    assert stale.status == "rejected" and "НЕ совпадает" in stale.text


async def test_a_change_by_the_game_master_shows_in_the_published_digest(table: Table) -> None:
    state = table.state()
    mine = _receipt((await table.say(301, orders_text(state, "right"))).text)
    p = next(p for p in state.team_players("right") if p.on_field)
    cell = next(c for c in (p.cell + 1, p.cell - 1) if c > 0)
    changed = await table.say(GM, f"Команда Виверны\nТакт 1\n{p.name}: {cell} в{p.height}")
    assert changed.status == "ok", changed.text
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    [rnd] = [r for r in table.rounds() if r.number == 1]
    assert rnd.order_digests is not None and rnd.order_digests["right"] != mine
    assert _receipt(changed.text) == rnd.order_digests["right"]  # his receipt shows it too
    verify = await table.say(301, f"/verify 1 {mine}")
    assert verify.status == "rejected" and "НЕ совпадает" in verify.text
