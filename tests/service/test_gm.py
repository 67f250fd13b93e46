"""Game-master operations: set-up, the deadline, §10 penalties, substitutions,
ending, announcements; each logged and announced."""

from __future__ import annotations

from datetime import datetime, timedelta

from support.service_table import FIRST_DEADLINE, GM, START, Table, make_table

from storage.db import Database
from storage.models import EventRow, GmAction, Invitation, OrderRow, Team


async def test_rosters_and_team_sizes_shape_the_opening_position(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    reply = await table.say(GM, "/newgame players=3 deadline=09:00,21:00 tz=Europe/Berlin Кубок")
    assert reply.status == "ok", reply.text
    table.game_id = reply.game_id or 0
    await table.say(GM, "/addteam left Саламандры")
    await table.say(GM, "/addteam right Виверны")
    for name in ("Аня", "Боря", "Вера", "Гоша"):
        assert (await table.say(GM, f"/addplayer left {name}")).status == "ok"
    await table.say(GM, "/addplayer right Дима")
    short = await table.say(GM, "/startgame")
    assert short.status == "rejected" and "не меньше 3" in short.text  # the right team has 1 of 3
    for name in ("Ева", "Жора"):
        await table.say(GM, f"/addplayer right {name}")
    started = await table.say(GM, "/startgame")
    assert started.status == "ok"
    state = table.state()
    assert [(p.number, p.name, p.status) for p in state.team_players("left")] == [
        (1, "Аня", "active"), (2, "Боря", "active"), (3, "Вера", "active"), (4, "Гоша", "reserve"),
    ]  # fmt: skip
    assert state.team("right").name == "Виверны"
    # 12:00 UTC is 13:00 in Berlin: the next deadline is 21:00 Berlin = 20:00 UTC.
    assert table.rounds()[0].deadline == datetime(2026, 3, 2, 20, 0, tzinfo=START.tzinfo)
    seed = table.game().setup_seed
    assert seed and seed in started.text  # nobody else to tell yet: the master reads it
    assert (
        await table.say(GM, "/addplayer left Поздний")
    ).status == "rejected"  # only before the start


async def test_only_configured_masters_create_games(table: Table) -> None:
    assert (await table.say(201, "/newgame")).status == "refused"
    reply = await table.say(GM, "/invite game_master")
    await table.say(555, f"/start {reply.data['code']}")
    assert (await table.say(555, "/pause отпуск")).status == "ok"  # a master of this game ...
    assert (await table.say(555, "/newgame")).status == "refused"  # ... but not of all games


async def test_deadline_changes_are_announced(table: Table) -> None:
    reply = await table.say(GM, "/deadline 20:00 Europe/Moscow")
    assert reply.status == "ok", reply.text
    assert table.rounds()[0].deadline == FIRST_DEADLINE - timedelta(hours=1)
    assert (await table.say(GM, "/extend 1h30m")).status == "ok"
    assert table.rounds()[0].deadline == FIRST_DEADLINE + timedelta(minutes=30)
    assert (await table.say(GM, "/extend 23:15")).status == "ok"
    assert table.rounds()[0].deadline == FIRST_DEADLINE + timedelta(hours=2, minutes=15)
    assert (await table.say(GM, "/deadline 25:00")).status == "rejected"
    texts = [r.text for r in table.outbox(kind="announce", destination="201")]
    assert any("продлил раунд 1" in t and "23:15" in t for t in texts)
    assert [a.action for a in table.rows(GmAction)][-3:] == ["set_deadline", "extend", "extend"]


async def test_penalty_throw_in_reaches_the_engine(table: Table) -> None:
    # §10: the penalty comes in the round after the warning, never before.
    refused = await table.say(GM, "/penalty right 3")
    assert refused.status == "rejected" and "/warn" in refused.text
    assert (await table.say(GM, "/warn right мячи держат")).status == "ok"
    same_round = await table.say(GM, "/penalty right 3")  # warned in this very round
    assert same_round.status == "rejected" and "/warn" not in same_round.text
    assert "предупредили в этом раунде (1)" in same_round.text
    assert "/penalty в раунде 2" in same_round.text
    assert [(r.unit, r.side) for r in table.rows(OrderRow)] == [("warning", "right")]
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    first, second = table.rounds()[:2]
    assert first.orders is not None and first.orders["warnings"] == [{"side": "right"}]
    kinds = {e.kind for e in table.rows(EventRow, EventRow.round_id == first.id)}
    assert "warning" in kinds
    assert table.state().team("right").warned_round == 1
    reply = await table.say(GM, "/penalty right 3")
    assert reply.status == "ok", reply.text
    assert (await table.say(301, "/orders")).status == "ok"
    await table.clock.set(second.deadline)
    await table.service.resolve_due()
    second = table.rounds()[1]
    assert second.orders is not None and second.orders["penalties"] == [
        {"side": "right", "tick": 3}
    ]
    kinds = {e.kind for e in table.rows(EventRow, EventRow.round_id == second.id)}
    assert kinds & {"penalty_throw_in", "penalty_nothing"}


async def test_substitution_by_the_referee(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    reply = await table.say(GM, "/newgame players=2")
    table.game_id = reply.game_id or 0
    for text in ("/addteam left A", "/addteam right B", "/addplayer left Аня", "/addplayer left Боря",
                 "/addplayer left Вера", "/addplayer right Дима", "/addplayer right Ева", "/startgame"):  # fmt: skip
        assert (await table.say(GM, text)).status == "ok", text
    assert (await table.say(GM, "/substitute left 2 1")).status == "rejected"  # 1 is no reserve
    assert (await table.say(GM, "/substitute left 2 3")).status == "ok"
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    after = table.state()
    assert (
        after.player("left", 3).status == "active" and after.player("left", 2).status == "reserve"
    )


async def test_ending_and_announcing(table: Table) -> None:
    said = await table.say(GM, "/announce Завтра играем в 20:00!")
    assert said.status == "ok"
    # One copy per reader: the master who said it reads his answer, not a copy.
    heard = table.outbox(kind="announce")[-3:]
    assert sorted(r.destination for r in heard) == ["201", "202", "301"]
    assert all("Завтра играем" in r.text for r in heard)
    assert "Объявлено: 3 участника лично." in said.text
    ended = await table.say(GM, "/endgame по соглашению капитанов")
    assert ended.status == "ok"
    assert table.game().status == "ended" and table.rounds()[0].status == "cancelled"
    posts = table.outbox(kind="match_end")
    assert len(posts) == 3
    for text in (ended.text, *(p.text for p in posts)):  # the match summary, to everybody
        assert "по соглашению капитанов" in text and "Счёт «Саламандры» 0 : 0 «Виверны»." in text
        assert "Итоги матча" in text or "Матч" in text, text
    assert (await table.say(201, "Иванов: 36 в2")).status == "rejected"
    assert (await table.say(GM, "/pause")).status == "rejected"


async def test_channel_and_expired_invitations(table: Table) -> None:
    assert (await table.say(GM, "/setchannel @dragonball_cup 7")).status == "ok"
    game = table.game()
    assert (game.channel_chat, game.channel_thread) == ("@dragonball_cup", "7")
    await table.say(GM, "/announce привет")
    public = table.outbox(destination="@dragonball_cup")
    assert public and public[-1].thread_id == "7"
    code = (await table.say(GM, "/invite captain left")).data["code"]
    invitation = table.rows(Invitation, Invitation.code == code)[0]
    assert invitation.expires_at is not None
    await table.clock.set(invitation.expires_at + timedelta(seconds=1))
    assert "истёк" in (await table.say(777, f"/start {code}")).text
    assert (await table.say(GM, "/setchannel off")).status == "ok"
    assert table.game().channel_chat is None


async def test_an_invitation_says_the_link_once_the_bot_name_is_known(table: Table) -> None:
    unknown = await table.say(GM, "/invite player left 1")
    code = unknown.data["code"]
    assert f"/start {code}" in unknown.text and "t.me" not in unknown.text
    row = table.outbox(id=unknown.outbox_ids[0])[0]
    assert row.buttons == [["Приглашение: открыть бота", f"bot:start?{code}"]]
    table.service.learn_bot_username("@judge_bot")
    known = await table.say(GM, "/invite captain right")
    code = known.data["code"]
    assert known.data["link"] == f"https://t.me/judge_bot?start={code}"
    lines = known.text.splitlines()
    assert f"Ссылка для приглашённого: https://t.me/judge_bot?start={code}" in lines
    assert f"Или пусть пришлёт боту: /start {code}" in lines
    via_api = await table.service.invite(table.game_id, "player", side="right", players=(2,))
    assert "https://t.me/judge_bot?start=" in via_api.text


async def test_linkchat_and_setchannel_never_take_a_private_chat(table: Table) -> None:
    """Written in the master's private chat (or by mail) without a CHAT,
    /linkchat and /setchannel are refused with their usage: they used to make
    the master's own chat the team's group or the public channel."""
    linked = await table.say(GM, "/linkchat left")
    assert linked.status == "rejected" and "/linkchat left|right CHAT" in linked.text
    channel = await table.say(GM, "/setchannel")
    assert channel.status == "rejected" and "/setchannel CHAT" in channel.text
    by_mail = await table.mail("gm@judge.example", "/linkchat right", subject="[DB-1]")
    assert by_mail.status == "rejected"
    assert (await table.say(201, "/linkchat left")).text == "Это может только судья."
    game = table.game()
    assert game.channel_chat is None
    assert all(team.chat is None for team in table.rows(Team, Team.game_id == table.game_id))
    # In the group itself it links that group; "off" says the channel is gone.
    assert (await table.say(GM, "/linkchat left", chat="-1001")).status == "ok"
    assert (await table.say(GM, "/setchannel", chat="-1002")).status == "ok"
    assert table.game().channel_chat == "-1002"
    off = await table.say(GM, "/setchannel off")
    assert off.status == "ok" and "убран" in off.text and table.game().channel_chat is None


async def test_listing_and_sheets_speak_the_readers_language(table: Table) -> None:
    """/invitations names the dragon in words (it showed the stored "2,dragon"),
    and a master's /orders names both teams as two (not «Саламандры, Виверны»)."""
    assert (await table.say(GM, "/invite player left 2 dragon")).status == "ok"
    listing = await table.say(GM, "/invitations")
    assert "(2, дракон)" in listing.text and "dragon" not in listing.text
    sheets = await table.say(GM, "/orders")
    assert "Приказы команд «Саламандры» и «Виверны»:" in sheets.text
    await table.say(GM, "/lang en")
    assert "(2, the dragon)" in (await table.say(GM, "/invitations")).text
    assert "Orders of teams “Саламандры” and “Виверны”:" in (await table.say(GM, "/orders")).text
