"""A member who joins after his team's group was linked is not left out: he
is told where his team talks and gets what the team receives privately until
he is seen in the group."""

from __future__ import annotations

from support.service_table import FIRST_DEADLINE, GM, Table


async def test_a_late_joiner_hears_what_his_team_hears(table: Table) -> None:
    assert (await table.say(GM, "/linkchat left", chat="-1001")).status == "ok"
    code = (await table.say(GM, "/invite player left 3")).data["code"]
    welcome = await table.say(203, f"/start {code}")
    assert welcome.status == "ok" and "группе" in welcome.text, welcome.text
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    got = {r.kind for r in table.outbox(destination="203")}
    assert {"results", "round_open"} <= got
    # 202 joined before the link: he reads the group, no private copy.
    assert not [r for r in table.outbox(destination="202") if r.kind == "round_open"][1:]
    # Once he writes in the group, the group is where he reads.
    await table.say(203, "всем привет", chat="-1001")
    before = len(table.outbox(destination="203"))
    assert (await table.say(GM, "/announce завтра финал")).status == "ok"
    assert len(table.outbox(destination="203")) == before
    assert any("завтра финал" in r.text for r in table.outbox(destination="-1001"))
