"""A game master starts a game of the second edition (/newgame … ruleset=
variant-001); /rules names the edition, and the judge resolves its rounds."""

from __future__ import annotations

from support.service_table import FIRST_DEADLINE, GM, make_table

from engine.ruleset import load_ruleset
from storage.db import Database


async def test_a_game_of_the_second_edition_names_it_and_plays(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    reply = await table.say(GM, "/newgame Квадрат ruleset=variant-001")
    assert reply.status == "ok", reply.text
    table.game_id = reply.game_id
    for text in ("/addteam left Саламандры", "/addteam right Виверны"):
        assert (await table.say(GM, text)).status == "ok"
    reply = await table.say(GM, "/invite captain left")
    code = str(reply.data["code"])
    assert (await table.say(201, f"/start {code}")).status == "ok"
    assert (await table.say(GM, "/startgame")).status == "ok"
    ru = await table.say(201, "/rules")
    version = load_ruleset("variant-001").version
    assert (
        f"второе издание правил (001), на квадратном поле (variant-001, версия {version})"
        in ru.text
    )
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    reports = [r.text for r in table.outbox(kind="results")]
    assert reports and all("Раунд" in t or "раунд" in t for t in reports)


async def test_odds_on_the_square_field_say_there_are_none_yet(sqlite_db: Database) -> None:
    # engine.odds reckons on the hex field: on the square one /odds must not fail
    # ("internal error") nor give hex figures.
    table = make_table(sqlite_db)
    table.game_id = (await table.say(GM, "/newgame Квадрат ruleset=variant-001")).game_id
    for text in ("/addteam left Саламандры", "/addteam right Виверны"):
        assert (await table.say(GM, text)).status == "ok"
    code = str((await table.say(GM, "/invite captain left")).data["code"])
    assert (await table.say(201, f"/start {code}")).status == "ok"
    assert (await table.say(GM, "/startgame")).status == "ok"
    mine = next(p for p in table.state().players if p.side == "left")
    order = await table.say(201, f"{mine.name}: {mine.cell} в{mine.height}, ловить")
    assert order.status == "ok", order.text
    reply = await table.say(201, "/odds")
    assert reply.status == "ok", reply.text
    assert "второго издания" in reply.text and "/orders" in reply.text
    await table.say(201, "/lang en")
    assert "second edition" in (await table.say(201, "/odds")).text
