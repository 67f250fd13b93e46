"""A member the bot may not write to: team-chat notice with a start button, e-mail copy."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlmodel import select

from bot.service import DeliveryResult, GameService, RenderReporter, ServiceSettings
from storage import repo
from storage.db import Database
from storage.models import Member, Membership, OutboxRow
from storage.testing import temporary_database

BLOCKED = DeliveryResult(ok=False, permanent=True, reason="blocked: Forbidden: bot was blocked")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    with temporary_database("sqlite", tmp_path) as database:
        yield database


async def make_game(service: GameService, db: Database, *, email: str | None) -> int:
    game_id = (await service.create_game(title="t")).game_id
    assert game_id is not None
    await service.add_team(game_id, "left", "Драконы")
    await service.add_team(game_id, "right", "Фениксы")
    await service.link_team_chat(game_id, "left", "-1001")
    now = datetime.now(UTC)
    with db.transaction() as s:
        member = Member(name="Алиса", telegram_user_id=1001, email=email, created_at=now)
        s.add(member)
        s.flush()
        assert member.id is not None
        s.add(
            Membership(
                member_id=member.id, game_id=game_id, role="captain", side="left", created_at=now
            )
        )
    return game_id


def private_reminder(db: Database, game_id: int) -> int:
    now = datetime.now(UTC)
    with db.transaction() as s:
        row = OutboxRow(
            game_id=game_id, channel="telegram", destination="1001", kind="reminder",
            text="Пора отдать приказы", next_try_at=now, created_at=now,
        )  # fmt: skip
        return repo.enqueue(s, row, [("t1.png", "image/png", b"\x89PNG fake")])


def rows(db: Database, **where: str) -> list[OutboxRow]:
    with db.transaction() as s:
        found = s.exec(select(OutboxRow)).all()
        return [r for r in found if all(getattr(r, k) == v for k, v in where.items())]


async def test_blocked_member_gets_a_notice_in_the_team_chat_and_an_email(db: Database) -> None:
    service = GameService(
        db, ServiceSettings(gm_telegram_ids=frozenset({7})), reporter=RenderReporter()
    )
    game_id = await make_game(service, db, email="alice@example.org")
    failed = private_reminder(db, game_id)
    assert await service.mark_failed(failed, BLOCKED) == "failed"
    [mail] = rows(db, channel="email")
    assert mail.destination == "alice@example.org"
    assert mail.text == "Пора отдать приказы"
    assert mail.kind == "reminder"
    with db.transaction() as s:
        assert repo.outbox_attachments(s, [mail.id or 0])[mail.id or 0][0][0] == "t1.png"
    notices = rows(db, channel="telegram", kind="notice")
    assert [n.destination for n in notices] == ["-1001"]
    assert "Алиса" in notices[0].text and "почту" in notices[0].text
    assert notices[0].buttons == [["Запустить бота", "bot:start"]]
    assert rows(db, kind="gm_alert", destination="7")  # the game masters hear of it too
    # A second failure the same day: another e-mail copy, no second notice.
    assert await service.mark_failed(private_reminder(db, game_id), BLOCKED) == "failed"
    assert len(rows(db, channel="email")) == 2
    assert len(rows(db, kind="notice")) == 1


async def test_without_an_address_only_the_notice(db: Database) -> None:
    service = GameService(db, ServiceSettings(), reporter=RenderReporter())
    game_id = await make_game(service, db, email=None)
    await service.mark_failed(private_reminder(db, game_id), BLOCKED)
    assert rows(db, channel="email") == []
    [notice] = rows(db, kind="notice")
    assert "почту" not in notice.text


async def test_other_failures_are_not_rerouted(db: Database) -> None:
    service = GameService(db, ServiceSettings(), reporter=RenderReporter())
    game_id = await make_game(service, db, email="alice@example.org")
    gone = DeliveryResult(ok=False, permanent=True, reason="chat_not_found: Chat not found")
    await service.mark_failed(private_reminder(db, game_id), gone)
    assert rows(db, channel="email") == []
    assert rows(db, kind="notice") == []
