"""Messages in: redeliveries, strangers, e-mail trust, languages, edits,
choosing the game, privacy, and bad input that must not break anything."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import col
from support.service_table import GM, Table, make_table, orders_text, set_up_game

from bot.service import Inbound, Reply
from bot.service.kernel import textblocks
from bot.service.orders import submit as ordering
from storage.db import Database
from storage.models import Game, InboundMessage, Member, OrderRow


async def test_a_redelivered_message_changes_nothing(table: Table) -> None:
    text = orders_text(table.state(), "left")
    first = await table.say(201, text, external_id="201:77")
    outbox, orders = len(table.outbox()), len(table.rows(OrderRow))
    again = await table.say(201, text, external_id="201:77")
    assert first.status == "ok" and again.status == "duplicate"
    assert (len(table.outbox()), len(table.rows(OrderRow))) == (outbox, orders)
    assert again.outbox_ids == ()


async def test_chatter_in_a_team_group_is_ignored_quietly(table: Table) -> None:
    assert (await table.say(GM, "/linkchat left -100500")).status == "ok"
    before = len(table.outbox())
    reply = await table.say(201, "👍 -- отлично сыграли", chat="-100500")
    assert reply.status == "ignored" and len(table.outbox()) == before
    private = await table.say(201, "👍")
    assert private.status == "rejected" and "/help" in private.text


async def test_a_stranger_is_told_how_to_join(table: Table) -> None:
    reply = await table.say(999, "Иванов: 57 в2")
    assert reply.status == "unknown_sender" and "/start" in reply.text
    assert [r.destination for r in table.outbox(id=reply.outbox_ids[0])] == ["999"]
    assert (await table.say(999, "/start WRONGCODE")).status == "rejected"
    assert (await table.say(999, f"/start {table.codes['c_left']}")).text.startswith(
        "Этот код уже использован"
    )


async def test_unauthenticated_mail_is_refused_and_never_makes_a_referee(
    sqlite_db: Database,
) -> None:
    table = make_table(sqlite_db)
    forged = await table.mail("gm@judge.example", "/newgame", authenticated=False)
    assert forged.status == "refused" and forged.outbox_ids == ()
    assert table.rows(Game) == []
    real = await table.mail("gm@judge.example", "/newgame", subject="new game")
    assert real.status == "ok", real.text
    reply_row = table.outbox(id=real.outbox_ids[0])[0]
    assert (reply_row.channel, reply_row.destination, reply_row.subject) == (
        "email",
        "gm@judge.example",
        "[DB-1] Re: new game",
    )


async def test_mail_member_orders_by_registered_address_only(table: Table) -> None:
    invited = await table.say(GM, "/invite player right 1 sokolov@mail.example")
    code = invited.data["code"]
    assert (await table.mail("other@mail.example", f"/start {code}")).status == "rejected"
    joined = await table.mail("Sokolov@Mail.Example", f"/start {code}")
    assert joined.status == "ok", joined.text
    text = orders_text(table.state(), "right", [1])
    refused = await table.mail("sokolov@mail.example", text, authenticated=False)
    assert refused.status == "refused"
    # The refusal goes to the registered address, so a forgery reaches its victim.
    assert table.outbox(id=refused.outbox_ids[0])[0].destination == "sokolov@mail.example"
    assert (await table.mail("sokolov@mail.example", text)).status == "ok"
    assert await table.service.member_by_email("SOKOLOV@mail.example") is not None


async def test_passphrase_is_stored_hashed(table: Table) -> None:
    assert (await table.say(201, "/passphrase короткий")).status == "ok"
    assert (await table.say(201, "/passphrase abc")).status == "rejected"
    info = await table.service.member_by_telegram(201)
    assert info is not None and info.has_passphrase and info.memberships[0][1] == "captain"


async def test_check_passphrase(table: Table) -> None:
    reply = await table.say(GM, "/invite player left 3 petrov@x.example")
    assert (await table.mail("petrov@x.example", f"/start {reply.data['code']}")).status == "ok"
    assert (await table.mail("petrov@x.example", "/passphrase зелёный дракон")).status == "ok"
    assert await table.service.check_passphrase("petrov@x.example", "зелёный дракон")
    assert not await table.service.check_passphrase("petrov@x.example", "красный дракон")
    assert not await table.service.check_passphrase("nobody@x.example", "зелёный дракон")


async def test_language_can_be_switched(table: Table) -> None:
    assert (await table.say(201, "/lang en")).text == "Language: English."
    assert "Commands:" in (await table.say(201, "/help")).text
    assert (await table.say(201, "/lang de")).status == "rejected"


async def test_an_edit_replaces_the_orders_of_the_edited_message(table: Table) -> None:
    state = table.state()
    petrov = state.player("left", 2)
    first = await table.say(202, f"Такт 1\n{petrov.name}: {petrov.cell} в{petrov.height}")
    assert first.status == "ok", first.text
    original = max(table.rows(InboundMessage), key=lambda r: r.id or 0)
    edited = await table.say(
        202, f"Такт 2\n{petrov.name}: {petrov.cell} в{petrov.height}", edit_of=original.external_id
    )
    assert edited.status == "ok", edited.text
    current = table.rows(OrderRow, col(OrderRow.current).is_(True))
    assert [(r.number, r.tick) for r in current] == [(2, 2)]


async def test_the_game_is_chosen_by_hint_chat_or_choice(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    first = table.game_id
    await set_up_game(table)  # 201 is the left captain of a second game too (new codes)
    second = table.game_id
    assert second != first
    reply = await table.say(201, "/status")
    assert reply.game_id == second  # redeeming a code chose that game
    assert (await table.say(201, f"/game DB-{first}")).status == "ok"
    assert (await table.say(201, "/status")).game_id == first
    assert (await table.say(999, f"/game DB-{first}")).status == "unknown_sender"
    assert (await table.say(301, "/game DB-77")).status == "rejected"


async def test_a_member_sees_only_his_own_teams_orders(table: Table) -> None:
    state = table.state()
    await table.say(201, orders_text(state, "left"))
    await table.say(301, orders_text(state, "right"))
    sheet = (await table.say(202, "/orders")).text
    left = [p.name for p in state.team_players("left") if p.on_field]
    right = [p.name for p in state.team_players("right") if p.on_field]
    assert all(name in sheet for name in left)
    assert not any(name in sheet for name in right)
    # No message to the left team mentions a right player's order before resolution.
    for row in table.outbox():
        if row.destination in ("201", "202"):
            assert not any(f"{name}:" in row.text for name in right)
    both = (await table.say(GM, "/orders")).text
    assert all(name in both for name in left + right)


async def test_orders_outside_a_running_game_are_refused(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    reply = await table.say(GM, "/newgame")
    table.game_id = reply.game_id or 0
    await table.say(GM, "/invite captain left")
    assert (await table.say(GM, "Иванов: 1 в1")).status == "rejected"
    assert "не началась" in (await table.say(GM, "/orders")).text


@pytest.mark.parametrize(
    "text",
    [
        "/",
        "/verify x",
        "/extend когда-нибудь",
        "/penalty middle",
        "/substitute left 1",
        "/nosuch",
        "\x00\x01\x02",
        "Иванов: 999 в7",
        "Раунд 9\nИванов: 57 в2",
        "я" * 30_000,
    ],
)
async def test_bad_input_gets_a_clear_answer(table: Table, text: str) -> None:
    sender = GM if text.startswith("/") else 201
    reply = await table.say(sender, text)
    assert reply.status in ("rejected", "refused", "partial"), (reply.status, reply.text)
    assert reply.text.strip()
    assert table.game().status == "running"


async def test_a_failure_inside_keeps_the_message_and_tells_everyone(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object, **kw: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ordering, "submit", boom)
    reply = await table.say(201, "Иванов: 57 в2")
    assert reply.status == "refused" and "судьи извещены" in reply.text
    row = max(table.rows(InboundMessage), key=lambda r: r.id or 0)
    assert (row.text, row.status) == ("Иванов: 57 в2", "error") and "disk on fire" in (
        row.error or ""
    )
    assert any("disk on fire" in r.text for r in table.outbox(kind="gm_alert"))


async def test_a_player_may_be_given_the_dragon(table: Table) -> None:
    state = table.state()
    reply = await table.say(GM, "/invite player right 2 dragon")
    assert reply.status == "ok", reply.text
    assert (await table.say(302, f"/start {reply.data['code']}")).status == "ok"
    mine = await table.say(302, "Такт 1\nДракон: стоять")
    assert mine.status == "ok", mine.text
    other = state.player("right", 3)
    refused = await table.say(302, f"Такт 1\n{other.name}: {other.cell} в{other.height}")
    assert refused.status == "rejected"
    assert (
        await table.say(202, "Такт 1\nДракон: стоять")
    ).status == "rejected"  # 202 has no dragon


async def test_orders_received_after_the_deadline_are_too_late(table: Table) -> None:
    state = table.state()
    deadline = table.rounds()[0].deadline
    await table.clock.set(deadline + timedelta(seconds=20))  # the resolver has not run yet
    late = await table.say(201, orders_text(state, "left"))
    assert late.status == "rejected" and "истёк" in late.text
    # Received in time, processed a little later (a mailbox polled every minute): it counts.
    on_time = await table.say(
        301, orders_text(state, "right"), received_at=deadline - timedelta(seconds=5)
    )
    assert on_time.status == "ok", on_time.text
    assert {r.side for r in table.rows(OrderRow)} == {"right"}


async def test_a_refused_message_changes_nothing(table: Table) -> None:
    state = table.state()
    petrov = state.player("left", 2)
    first = await table.say(202, f"Такт 1\n{petrov.name}: {petrov.cell} в{petrov.height}")
    assert first.status == "ok"
    original = max(table.rows(InboundMessage), key=lambda r: r.id or 0)
    # An edit that names the wrong round is refused as a whole: the original orders stand.
    edited = await table.say(202, "Раунд 7\nТакт 1\nПетров: 1 в1", edit_of=original.external_id)
    assert edited.status == "rejected"
    assert [(r.number, r.current) for r in table.rows(OrderRow)] == [(2, True)]


async def test_mail_answers_carry_the_game_tag_once(table: Table) -> None:
    reply = await table.say(GM, "/invite player right 1 sokolov@mail.example")
    await table.mail("sokolov@mail.example", f"/start {reply.data['code']}", subject="join")
    status = await table.mail("sokolov@mail.example", "/status", subject="[DB-1] status")
    row = table.outbox(id=status.outbox_ids[0])[0]
    assert row.subject == "Re: [DB-1] status"
    joined = table.outbox(destination="sokolov@mail.example", kind="ack")[0]
    assert joined.subject == "[DB-1] Re: join"


async def test_a_guest_in_a_team_group_is_not_lectured(table: Table) -> None:
    before = len(table.outbox())
    assert (await table.say(888, "болею за Саламандр!", chat="-100500")).status == "ignored"
    assert len(table.outbox()) == before
    assert (await table.say(888, "/orders", chat="-100500")).status == "unknown_sender"


async def test_a_new_telegram_member_speaks_what_his_app_speaks(sqlite_db: Database) -> None:
    table = make_table(sqlite_db, lang="en")  # the judge's default does not decide
    await set_up_game(table)

    async def start(user: int, language_code: str) -> Reply:
        invited = await table.say(GM, "/invite player right 1")
        return await table.service.receive(
            Inbound(
                "telegram", f"{user}:1", str(user), f"/start {invited.data['code']}", b"{}",
                table.clock.now(), chat=str(user), meta={"language_code": language_code},
            )
        )  # fmt: skip

    english = await start(401, "en-GB")
    assert english.text.startswith("Welcome to game DB-1")
    for user, code in ((402, "ru"), (403, "de"), (405, "uk")):
        assert (await start(user, code)).text.startswith("Добро пожаловать")
    # An app that names no language: the game's (English here, as the judge's default made it).
    assert (await start(404, "")).text.startswith("Welcome to game DB-1")
    langs = {m.telegram_user_id: m.lang for m in table.rows(Member)}
    assert [langs[u] for u in (401, 402, 403, 404, 405)] == ["en", "ru", "ru", "en", "ru"]
    assert (await table.say(401, "/lang ru")).status == "ok"  # /lang still decides
    assert (await table.say(401, "/orders")).text.startswith("Игра DB-1")
    mail = await table.mail(
        "new@mail.example", f"/start {(await table.say(GM, '/invite player right 2')).data['code']}"
    )
    assert mail.text.startswith("Welcome")  # by e-mail nothing tells: the game's language


async def test_a_pass_phrase_command_is_stored_masked(table: Table) -> None:
    reply = await table.say(201, "/passphrase зелёный дракон над полем")
    assert reply.status == "ok"
    await table.say(202, "/пароль@judge_bot синий кит в море")
    texts = [m.text for m in table.rows(InboundMessage) if m.sender in ("201", "202")]
    assert "/passphrase ********" in texts and "/пароль@judge_bot ********" in texts
    assert not any("дракон" in t or "кит" in t for t in texts)
    members = {m.telegram_user_id: m for m in table.rows(Member)}
    assert members[201].passphrase_hash is not None  # the phrase itself still counted


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_an_answer_pasted_back_with_its_error_fixed_is_taken_whole(
    table: Table, lang: str
) -> None:
    """Players copy the judge's answer, fix the line it refused and send it all
    back: the judge's own lines (the first line, the error block's carets and
    reasons, the sheet's heading, the legend, the receipt, who lacks orders)
    are neither errors nor orders."""
    if lang == "en":
        assert (await table.say(201, "/lang en")).status == "ok"
    state = table.state()
    kuznetsov = state.player("left", 5)
    wrong = f"{kuznetsov.name[:-2]}{kuznetsov.name[-1]}: {kuznetsov.cell} h{kuznetsov.height}"
    first = await table.say(201, f"{orders_text(state, 'left', [1], ticks=(1,))}\n{wrong}")
    assert first.status == "partial"
    pasted = textblocks.plain(first.text)
    right = f"{kuznetsov.name}: {kuznetsov.cell} h{kuznetsov.height}"
    assert f"3: {wrong}" in pasted and "^^^" in pasted
    again = await table.say(201, pasted.replace(f"3: {wrong}", f"3: {right}"))
    assert again.status == "ok", again.text
    head = textblocks.plain(again.text).splitlines()[0]
    taken = "приказы приняты" if lang == "ru" else "orders taken"
    assert head.startswith(f"{'Раунд' if lang == 'ru' else 'Round'} 1: {taken}"), head
    assert "Ошибки" not in again.text and "Errors" not in again.text
    assert f"✎ {kuznetsov.name}: {kuznetsov.cell}" in textblocks.plain(again.text)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_an_answer_pasted_back_does_not_file_again_what_it_took_off(
    table: Table, lang: str
) -> None:
    """The orders an answer lists as taken off (by a clear, by an edit) are not
    on file: pasted back with the rest, they stay off."""
    if lang == "en":
        assert (await table.say(201, "/lang en")).status == "ok"
    state = table.state()
    ivanov, kuznetsov = state.player("left", 1), state.player("left", 5)
    assert (await table.say(201, orders_text(state, "left", [1], ticks=(1,)))).status == "ok"
    cancel = "отмена" if lang == "ru" else "cancel"
    wrong = f"{kuznetsov.name[:-2]}{kuznetsov.name[-1]}: {kuznetsov.cell} h{kuznetsov.height}"
    first = await table.say(201, f"{ivanov.name}: {cancel}\n{wrong}")
    pasted = textblocks.plain(first.text)
    heading = "Отменены (сняты с листа):" if lang == "ru" else "Cleared (taken off the sheet):"
    assert heading in pasted and f"{ivanov.name}: {ivanov.cell}" in pasted, pasted
    right = f"{kuznetsov.name}: {kuznetsov.cell} h{kuznetsov.height}"
    again = await table.say(201, pasted.replace(f"2: {wrong}", f"2: {right}"))
    assert again.status == "ok", again.text
    sheet = textblocks.plain(again.text)
    assert f"{kuznetsov.name}: {kuznetsov.cell}" in sheet
    assert f"{ivanov.name}: {ivanov.cell}" not in sheet, sheet  # still cancelled
