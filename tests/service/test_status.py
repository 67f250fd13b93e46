"""/status: the position as a picture, the score, the deadline in the game's
time zone, and who has not ordered yet — names only, of one's own team."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image
from support.service_table import FIRST_DEADLINE, GM, Table, make_table, orders_text, set_up_game

from bot.service import DeliveryResult, OutboxItem, OutboxWorker, PartLog, RenderReporter
from engine.state import MatchState, PlayerRef
from storage.db import Database
from storage.models import OutboxRow


class Inbox:
    name = "telegram"

    def __init__(self) -> None:
        self.items: list[OutboxItem] = []

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        self.items.append(item)
        return DeliveryResult(ok=True)


def _names(table: Table, side: str) -> list[str]:
    return [p.name for p in table.state().team_players(side)]  # type: ignore[arg-type]


async def test_a_member_sees_the_score_the_local_deadline_and_his_teams_missing_names(
    table: Table,
) -> None:
    left, right = _names(table, "left"), _names(table, "right")
    await table.say(202, orders_text(table.state(), "left", [2]))
    reply = await table.say(201, "/status")
    assert reply.status == "ok"
    text = reply.text
    assert "Счёт 0:0" in text and "2 мар. 2026\u202fг., 21:00 (Europe/Moscow)" in text
    missing = next(line for line in text.splitlines() if line.startswith("Без приказов"))
    assert "«Саламандры»" in missing
    assert all(name in missing for name in left if name != left[1])
    assert left[1] not in missing  # number 2 has orders for every tick now
    assert not any(name in text for name in right)  # nothing about the other team
    assert "Виверны»:" not in text

    other = await table.say(301, "/status")
    assert all(name in other.text for name in right)
    assert not any(name in other.text for name in left)


async def test_a_game_master_sees_both_teams_and_a_team_with_all_orders(table: Table) -> None:
    await table.say(201, orders_text(table.state(), "left"))
    reply = await table.say(GM, "/status")
    lines = reply.text.splitlines()
    assert "«Саламандры»: приказы есть у всех." in lines
    assert any(line.startswith("Без приказов — «Виверны»") for line in lines)
    await table.say(GM, "/lang en")
    english = await table.say(GM, "/status")
    assert "“Salamandry”" not in english.text  # team names are the game's, not translated
    assert "“Саламандры”: everybody has orders." in english.text.splitlines()
    assert "due Mar 2, 2026, 9:00\u202fPM (Europe/Moscow)" in english.text


async def test_the_answer_carries_the_picture_of_the_position(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    table.service.reporter = RenderReporter(pictures=True)
    await set_up_game(table)
    inbox = Inbox()
    worker = OutboxWorker(table.service, {"telegram": inbox}, table.clock)
    await worker.drain("telegram")
    member = await table.say(201, "/status")
    master = await table.say(GM, "/status")
    again = await table.say(202, "/status")
    await worker.drain("telegram")
    by_id = {i.id: i for i in inbox.items}
    shown = [by_id[r.outbox_ids[0]] for r in (member, master, again)]
    for item in shown:
        [picture] = item.attachments
        assert (picture.filename, picture.content_type) == ("position-round1.png", "image/png")
        assert Image.open(io.BytesIO(picture.data)).size[0] > 400
    assert shown[0].text == member.text  # the picture comes with the text, not instead
    rows = {r.id: r for r in table.rows(OutboxRow)}
    round_id = table.game().current_round_id
    assert rows[member.outbox_ids[0]].pictures == f"position/{round_id}/0/public/ru"
    assert rows[master.outbox_ids[0]].pictures == f"position/{round_id}/0/gm/ru"
    assert shown[0].attachments == shown[2].attachments  # the same picture, drawn once


async def test_status_before_the_start_and_after_the_end(table: Table) -> None:
    assert (await table.say(GM, "/endgame")).status == "ok"
    ended = await table.say(201, "/status")
    assert "окончена" in ended.text and "Без приказов" not in ended.text
    assert table.outbox(id=ended.outbox_ids[0])[0].pictures is not None
    created = await table.say(GM, "/newgame Тест")
    early = await table.say(GM, f"/status DB-{created.game_id}")
    assert early.status == "ok" and "подготовка" in early.text
    assert table.outbox(id=early.outbox_ids[0])[0].pictures is None


async def test_a_member_of_another_game_gets_the_public_part_only(sqlite_db: Database) -> None:
    table = make_table(sqlite_db)
    await set_up_game(table)
    first = table.game_id
    await set_up_game(table)  # 201, 202, 301 now play a second game; a stranger joins it
    invited = await table.say(GM, "/invite player right 1")
    assert (await table.say(555, f"/start {invited.data['code']}")).status == "ok"
    reply = await table.say(555, f"/status DB-{first}")
    assert reply.status == "ok" and f"DB-{first}" in reply.text
    assert "Без приказов" not in reply.text


def _yellow_and_red_on_the_right_head(state: MatchState) -> MatchState:
    """Left's 1 on the right dragon's head, at its height, with the yellow and
    the red: swallowed on the first tick, 15:0 decides the match (§1)."""
    head = state.dragon("right")
    carrier = dataclasses.replace(
        state.player("left", 1), cell=head.head, height=head.height, balls=("yellow", "red")
    )
    balls = tuple(
        dataclasses.replace(
            b, status="held", holder=PlayerRef("left", 1), cell=head.head, height=head.height
        )
        if b.name in ("yellow", "red")
        else b
        for b in state.balls
    )
    players = tuple(carrier if (q.side, q.number) == ("left", 1) else q for q in state.players)
    return dataclasses.replace(state, players=players, balls=balls)


async def test_status_after_the_engine_ends_the_match_gives_the_score_it_ended_with(
    table: Table,
) -> None:
    """Two big balls swallowed on the first tick decide the match (§1): /status
    says the score after that tick, not the one before the round."""

    table.plant(_yellow_and_red_on_the_right_head)
    # Nobody orders: the right dragon stays (its mouth open, §9.1) and swallows
    # the carrier on its head, at its height, with both balls.
    assert [r.round_number for r in await table.service.resolve_due(FIRST_DEADLINE)] == [1]
    assert table.game().status == "ended"
    final = await table.say(201, "/status")
    assert "окончена" in final.text and "15:0" in final.text, final.text


async def test_the_end_of_the_match_names_the_teams_as_the_reports_do(table: Table) -> None:
    """The announcement read «Игра DB-1 окончена: все мячи проглочены.
    Саламандры — Виверны 10:11.» above a summary saying «все мячи заброшены»
    and «Саламандры» 10 : 11 «Виверны»: unquoted names, another reason."""

    table.plant(_yellow_and_red_on_the_right_head)
    await table.service.resolve_due(FIRST_DEADLINE)
    left, right = (team.name for team in table.state().teams)
    ends = table.outbox(kind="match_end")
    assert ends
    first = ends[0].text.splitlines()[0]
    assert first == f"Игра DB-1 окончена: исход уже не изменить. Счёт «{left}» 15 : 0 «{right}».", (
        first
    )
