"""Invitations are redeemed only by whom they were made for: an address-bound
one from that address (or on Telegram with the code mailed there), a
username-bound one by that Telegram user; they expire, can be revoked, and
the game masters see who redeemed what."""

from __future__ import annotations

import re
from datetime import timedelta

from support.service_table import GM, Table, orders_text

from storage.models import Invitation, Member, Membership, OrderRow, OutboxRow

ADDRESS = "petrov@players.example"
STRANGER = 666


async def _invite(table: Table, text: str) -> str:
    reply = await table.say(GM, text)
    assert reply.status == "ok", reply.text
    return str(reply.data["code"])


def _members_of_game(table: Table) -> set[int]:
    return {m.member_id for m in table.rows(Membership, Membership.game_id == table.game_id)}


def _confirmation_mail(table: Table) -> OutboxRow:
    [mail] = table.outbox(kind="invitation_confirm")
    return mail


async def test_an_address_bound_invitation_is_not_redeemed_from_another_address(
    table: Table,
) -> None:
    code = await _invite(table, f"/invite player left 3 {ADDRESS}")
    before = _members_of_game(table)
    refused = await table.mail("someone@else.example", f"/start {code}")
    assert refused.status == "rejected" and "другого адреса" in refused.text
    assert _members_of_game(table) == before
    by_telegram = await table.say(STRANGER, f"/start {code}")  # another channel: the code's mail
    assert STRANGER not in {m.telegram_user_id for m in table.rows(Member) if m.id in before}
    assert by_telegram.status == "ok" and _members_of_game(table) == before
    joined = await table.mail(ADDRESS, f"/start {code}")  # authenticated (DKIM or pass phrase)
    assert joined.status == "ok" and "Добро пожаловать" in joined.text
    [member] = [m for m in table.rows(Member) if m.email == ADDRESS]
    assert member.id in _members_of_game(table)


async def test_a_forged_from_line_takes_the_code_mailed_to_the_address(table: Table) -> None:
    """Anyone can write «From: petrov@…»: a mail nothing authenticated redeems an
    address-bound invitation only with the code the judge mailed to that address."""
    code = await _invite(table, f"/invite player left 3 {ADDRESS}")
    before = _members_of_game(table)
    forged = await table.mail(ADDRESS, f"/start {code}", authenticated=False)
    assert forged.status == "refused" and _members_of_game(table) == before
    assert not [m for m in table.rows(Member) if m.email == ADDRESS]
    mail = _confirmation_mail(table)
    assert (mail.channel, mail.destination) == ("email", ADDRESS)
    assert "ничего не доказывает" in mail.text
    assert mail.subject is not None and mail.subject.count("DB-") == 1, mail.subject  # the tag
    confirmation = re.search(rf"/start {code} (\w+)", mail.text)
    assert confirmation is not None
    guessed = await table.mail(ADDRESS, f"/start {code} WRONGCODE", authenticated=False)
    assert guessed.status == "rejected" and _members_of_game(table) == before
    # The mailbox's owner answers the letter: joined.
    joined = await table.mail(ADDRESS, f"/start {code} {confirmation[1]}", authenticated=False)
    assert joined.status == "ok", joined.text
    [member] = [m for m in table.rows(Member) if m.email == ADDRESS]
    assert member.id in _members_of_game(table)
    [inv] = table.rows(Invitation, Invitation.code == code)
    assert inv.used_from == f"email:{ADDRESS}"


async def test_on_telegram_it_takes_the_code_mailed_to_the_address(table: Table) -> None:
    code = await _invite(table, f"/invite player left 3 {ADDRESS}")
    before = _members_of_game(table)
    # The stranger of the issue: he has the code, not the mailbox.
    asked = await table.say(STRANGER, f"/start {code}")
    assert asked.status == "ok" and "p…@players.example" in asked.text
    mail = _confirmation_mail(table)
    assert (mail.channel, mail.destination) == ("email", ADDRESS)
    confirmation = re.search(rf"/start {code} (\w+)", mail.text)
    assert confirmation is not None
    assert confirmation[1] not in asked.text  # only the mailbox learns it
    wrong = await table.say(STRANGER, f"/start {code} WRONGCODE")
    assert wrong.status == "rejected" and "4" in wrong.text
    assert _members_of_game(table) == before
    # Nobody else may start a confirmation meanwhile, nor use the one sent.
    other = await table.say(777, f"/start {code} {confirmation[1]}")
    assert other.status == "refused" and _members_of_game(table) == before
    # The stranger cannot order for anyone.
    state = table.state()
    ordered = await table.say(STRANGER, orders_text(state, "left", [3], ticks=(1,)))
    assert ordered.status == "unknown_sender"
    assert not table.rows(OrderRow)
    # The address's owner, on Telegram, with the mailed code: joined, address kept.
    joined = await table.say(STRANGER, f"/start {code} {confirmation[1].lower()}")
    assert joined.status == "ok", joined.text
    [member] = [m for m in table.rows(Member) if m.telegram_user_id == STRANGER]
    assert member.email == ADDRESS and member.id in _members_of_game(table)
    [inv] = table.rows(Invitation, Invitation.code == code)
    assert inv.used_from == f"telegram:{STRANGER}" and inv.confirm_hash is None


async def test_wrong_confirmations_lock_it_for_the_hour(table: Table) -> None:
    code = await _invite(table, f"/invite player left 3 {ADDRESS}")
    await table.say(STRANGER, f"/start {code}")
    for _ in range(5):
        await table.say(STRANGER, f"/start {code} NOPE")
    confirmation = re.search(rf"/start {code} (\w+)", _confirmation_mail(table).text)
    assert confirmation is not None
    locked = await table.say(STRANGER, f"/start {code} {confirmation[1]}")
    assert locked.status == "refused" and "через час" in locked.text
    await table.clock.advance(timedelta(hours=1, minutes=1))
    again = await table.say(STRANGER, f"/start {code}")  # a fresh code, mailed again
    assert again.status == "ok" and len(table.outbox(kind="invitation_confirm")) == 2


async def test_a_username_bound_invitation_is_for_that_telegram_user_only(table: Table) -> None:
    code = await _invite(table, "/invite player left 3 @Carol_Plays")
    other = await table.say(STRANGER, f"/start {code}", meta={"username": "mallory"})
    assert other.status == "rejected" and "другому пользователю" in other.text
    by_mail = await table.mail(ADDRESS, f"/start {code}")
    assert by_mail.status == "rejected" and "Telegram" in by_mail.text
    joined = await table.say(555, f"/start {code}", meta={"username": "carol_plays"})
    assert joined.status == "ok", joined.text
    [inv] = table.rows(Invitation, Invitation.code == code)
    assert inv.used_from == "telegram:555 @carol_plays"


async def test_an_invitation_expires(table: Table) -> None:
    code = await _invite(table, "/invite player left 3 for=2h")
    await table.clock.advance(timedelta(hours=3))
    late = await table.say(555, f"/start {code}")
    assert late.status == "rejected" and "истёк" in late.text


async def test_a_revoked_invitation_cannot_be_redeemed_and_ends_what_it_gave(
    table: Table,
) -> None:
    code = await _invite(table, "/invite player left 3")
    assert (await table.say(GM, f"/revoke {code}")).status == "ok"
    refused = await table.say(555, f"/start {code}")
    assert refused.status == "rejected" and "отозвано" in refused.text
    # A redeemed one: the membership it gave ends, and its member is told.
    used = table.codes["p_left"]  # player 202 redeemed it
    reply = await table.say(GM, f"/revoke {used}")
    assert reply.status == "ok" and "202" in reply.text
    told = [r for r in table.outbox(destination="202") if r.kind == "notice"]
    assert told and "больше не участвуете" in told[-1].text
    state = table.state()
    after = await table.say(202, orders_text(state, "left", [2], ticks=(1,)))
    assert after.status in ("refused", "rejected") and not table.rows(OrderRow)


async def test_the_game_masters_see_who_redeemed_what(table: Table) -> None:
    notices = [r for r in table.outbox(destination=str(GM)) if r.kind == "gm_notice"]
    assert len(notices) == 3  # the two captains and the player of set_up_game
    assert any("telegram:201" in n.text for n in notices)
    open_code = await _invite(table, f"/invite player right 2 {ADDRESS} for=1d")
    revoked = await _invite(table, "/invite player right 3")
    await table.say(GM, f"/revoke {revoked}")
    listing = (await table.say(GM, "/invitations")).text
    lines = listing.splitlines()
    assert lines[0] == f"DB-{table.game_id}: приглашения (5)"
    used = next(line for line in lines if line.startswith(table.codes["c_left"]))
    assert "использовал" in used and "telegram:201" in used and "капитан" in used
    bound = next(line for line in lines if line.startswith(open_code))
    assert f"только для {ADDRESS}" in bound and "действует до" in bound
    assert "отозвано" in next(line for line in lines if line.startswith(revoked))
    # Only a game master, and never in a group.
    assert (await table.say(201, "/invitations")).status == "refused"
    await table.say(GM, "/linkchat left -100500")
    in_group = await table.say(GM, "/invitations", chat="-100500")
    here, private = (table.outbox(id=i)[0] for i in in_group.outbox_ids)
    assert table.codes["c_left"] not in here.text and table.codes["c_left"] in private.text
