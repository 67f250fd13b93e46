"""Repository functions on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.exc import IntegrityError, StatementError
from sqlmodel import select

from storage import repo
from storage.db import Database
from storage.models import Blob, Game, InboundMessage, OrderRow, OutboxRow, Round, Snapshot

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def _game(db: Database, **kw: object) -> int:
    with db.transaction() as s:
        game = Game(ruleset="classic", timezone="Europe/Moscow", deadlines="21:00", **kw)
        s.add(game)
        s.flush()
        assert game.id is not None
        return game.id


def _round(db: Database, game_id: int, deadline: datetime, **kw: object) -> int:
    with db.transaction() as s:
        rnd = Round(
            game_id=game_id,
            number=1,
            opened_at=T0,
            deadline=deadline,
            seed="s",
            commitment="c",
            **kw,
        )
        s.add(rnd)
        s.flush()
        game = s.get(Game, game_id)
        assert game is not None and rnd.id is not None
        game.current_round_id = rnd.id
        game.status = "running"
        s.add(game)
        return rnd.id


def test_times_come_back_aware_utc(db: Database) -> None:
    moscow = datetime(2026, 3, 1, 21, 0, tzinfo=UTC).astimezone(ZoneInfo("Europe/Moscow"))
    game_id = _game(db, started_at=moscow)
    with db.transaction() as s:
        game = s.get(Game, game_id)
        assert game is not None
        assert game.started_at == datetime(2026, 3, 1, 21, 0, tzinfo=UTC)
        assert game.started_at.tzinfo is not None and game.started_at.utcoffset() == timedelta(0)


def test_naive_times_are_refused(db: Database) -> None:
    with pytest.raises(StatementError, match="naive datetime"), db.transaction() as s:
        s.add(
            Game(
                ruleset="classic",
                timezone="UTC",
                deadlines="21:00",
                started_at=datetime(2026, 1, 1),
            )
        )
        s.flush()


def test_inbound_is_unique_per_channel_and_external_id(db: Database) -> None:
    def message(channel: str) -> InboundMessage:
        return InboundMessage(
            channel=channel, external_id="42:7", sender="1", text="x", raw=b"x", received_at=T0
        )

    with db.transaction() as s:
        s.add(message("telegram"))
        s.add(message("email"))  # another channel may reuse the id
    with pytest.raises(IntegrityError), db.transaction() as s:
        s.add(message("telegram"))
    with db.transaction() as s:
        found = repo.inbound_by_external(s, "telegram", "42:7")
        assert found is not None and found.raw == b"x"


def test_superseded_orders_stay_on_record(db: Database) -> None:
    game_id = _game(db)
    with db.transaction() as s:
        for text in ("first", "second"):
            s.add(
                OrderRow(
                    game_id=game_id,
                    round_number=1,
                    side="left",
                    unit="player",
                    number=3,
                    tick=1,
                    text=text,
                    data={},
                )
            )
    with db.transaction() as s:
        rows = repo.current_orders(s, game_id, 1, "left")
        assert [r.text for r in rows] == ["first", "second"]
        assert repo.supersede(s, rows[:1], T0) == 1
        assert repo.supersede(s, rows[:1], T0) == 0  # already superseded
    with db.transaction() as s:
        assert [r.text for r in repo.current_orders(s, game_id, 1)] == ["second"]
        assert repo.current_orders(s, game_id, 1, "right") == []
        old = [r for r in s.exec(select(OrderRow)) if not r.current]
        assert [(r.text, r.superseded_at) for r in old] == [("first", T0)]


def test_due_rounds_follow_deadline_status_and_readiness(db: Database) -> None:
    past, future = _game(db), _game(db)
    ready, paused = _game(db), _game(db)
    _round(db, past, T0 - timedelta(minutes=1))
    _round(db, future, T0 + timedelta(hours=1))
    _round(db, ready, T0 + timedelta(hours=1), ready="left,right")
    _round(db, paused, T0 - timedelta(hours=1))
    with db.transaction() as s:
        game = s.get(Game, paused)
        assert game is not None
        game.status = "paused"
    with db.transaction() as s:
        assert [g for g, _, _ in repo.due_rounds(s, T0)] == [past, ready]
        assert repo.next_deadline(s) == T0 - timedelta(minutes=1)


def test_snapshots_and_events_round_trip(db: Database) -> None:
    game_id = _game(db)
    round_id = _round(db, game_id, T0)
    events = [
        {"round": 1, "tick": t, "step": 1, "kind": "player_move", "data": {"p": 0.1 * t}}
        for t in (1, 2, 3)
    ]
    with db.transaction() as s:
        repo.add_snapshot(s, game_id, round_id, 0, {"version": 1, "x": [1, 2]})
        repo.add_events(s, game_id, round_id, events)
    with db.transaction() as s:
        assert repo.snapshot(s, round_id, 0) == {"version": 1, "x": [1, 2]}
        assert repo.snapshot(s, round_id, 1) is None
        assert repo.events_of_round(s, round_id) == events
    with pytest.raises(IntegrityError), db.transaction() as s:
        s.add(Snapshot(game_id=game_id, round_id=round_id, tick=0, state={}))


def test_outbox_claims_lease_and_attachments(db: Database) -> None:
    png = b"\x89PNG fake"
    with db.transaction() as s:
        first = repo.enqueue(
            s,
            OutboxRow(
                channel="telegram", destination="1", kind="results", text="a", next_try_at=T0
            ),
            [("a.png", "image/png", png)],
        )
        repo.enqueue(
            s,
            OutboxRow(
                channel="telegram", destination="2", kind="results", text="b", next_try_at=T0
            ),
            [("b.png", "image/png", png)],
        )
        repo.enqueue(
            s, OutboxRow(channel="email", destination="x@y.z", kind="ack", text="c", next_try_at=T0)
        )
        repo.enqueue(
            s,
            OutboxRow(
                channel="telegram",
                destination="3",
                kind="ack",
                text="later",
                next_try_at=T0 + timedelta(hours=1),
            ),
        )
    lease = T0 + timedelta(minutes=5)
    with db.transaction() as s:
        rows = repo.claim_outbox(s, "telegram", T0, 10, lease)
        assert [r.text for r in rows] == ["a", "b"]
        assert {r.attempts for r in rows} == {1}
        files = repo.outbox_attachments(s, [r.id for r in rows if r.id])
        assert files[first] == [("a.png", "image/png", png)]
        assert len(s.exec(select(Blob)).all()) == 1  # the same picture is stored once
    with db.transaction() as s:  # leased: nobody else takes them
        assert repo.claim_outbox(s, "telegram", T0 + timedelta(minutes=1), 10, lease) == []
    with db.transaction() as s:  # the lease ran out (the worker died): they come back
        again = repo.claim_outbox(s, "telegram", lease, 1, lease + timedelta(minutes=5))
        assert [(r.text, r.attempts) for r in again] == [("a", 2)]


def test_inbound_is_stored_in_one_statement_once(db: Database) -> None:
    values = {
        "channel": "telegram", "external_id": "42:8", "sender": "1", "chat": "1",
        "subject": None, "text": "1: 36", "raw": b"{}", "received_at": T0, "edit_of": None,
        "authenticated": True,
    }  # fmt: skip
    with db.connection() as conn:
        first = repo.insert_inbound(conn, values)
    with db.connection() as conn:
        again = repo.insert_inbound(conn, {**values, "text": "other"})
    assert first is not None and again is None  # a redelivery changes nothing
    game_id = _game(db)
    with db.transaction() as s:
        repo.finish_inbound(s, first, status="ok", game_id=game_id, member_id=None)
    with db.transaction() as s:
        row = repo.inbound_by_external(s, "telegram", "42:8")
        assert row is not None
        assert (row.text, row.status, row.game_id, row.received_at) == ("1: 36", "ok", game_id, T0)


def test_orders_filed_in_one_statement_are_superseded_in_hand(db: Database) -> None:
    game_id = _game(db)
    with db.transaction() as s:
        row = OrderRow(game_id=game_id, round_number=1, side="left", unit="player", number=3,
                       tick=1, text="first", data={"number": 3}, created_at=T0)  # fmt: skip
        order_id = repo.add_order(s, row)
        assert row.id == order_id
        assert [r.id for r in repo.current_orders(s, game_id, 1, "left")] == [order_id]
        assert repo.supersede(s, [row], T0) == 1
        assert (row.current, row.superseded_at) == (False, T0)  # no re-read needed
        assert repo.current_orders(s, game_id, 1) == []


def test_the_same_game_row_is_not_read_twice(db: Database) -> None:
    game_id = _game(db)
    with db.transaction() as s:
        game = repo.get_game(s, game_id)
        assert game is not None and repo.get_game(s, game_id) is game
        locked = repo.lock_game(s, game_id)
        assert locked is game  # the lock (PostgreSQL) refreshes the same object
        assert repo.get_game(s, game_id + 1000) is None
        assert repo.round_by_id(s, None) is None


def test_a_membership_asked_again_in_a_transaction_is_not_read_again(db: Database) -> None:
    """The memo of ``repo.membership``: one query per transaction, yet never stale
    (a membership added, changed, deleted or rolled back is seen at once)."""
    from sqlalchemy import event

    from storage.models import Member, Membership

    game_id = _game(db)
    with db.transaction() as s:
        member = Member(name="Иванов")
        s.add(member)
        s.flush()
        assert member.id is not None
        member_id = member.id
    queries: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if "FROM memberships" in statement:
            queries.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        with db.transaction() as s:
            assert repo.membership(s, member_id, game_id) is None
            assert repo.membership(s, member_id, game_id) is None
            assert len(queries) == 1
            ms = Membership(member_id=member_id, game_id=game_id, side="left", role="player")
            s.add(ms)  # not flushed yet: the query flushes it and finds it
            assert repo.membership(s, member_id, game_id) is ms
            assert repo.membership(s, member_id, game_id) is ms
            assert len(queries) == 2
            ms.role = "captain"
            found = repo.membership(s, member_id, game_id)
            assert found is not None and found.role == "captain"
            with pytest.raises(RuntimeError), s.begin_nested():
                s.delete(ms)
                assert repo.membership(s, member_id, game_id) is None
                raise RuntimeError("a refusal undoes the savepoint")
            assert repo.membership(s, member_id, game_id) is not None  # back again
        with db.transaction() as s:  # a new transaction reads afresh
            before = len(queries)
            found = repo.membership(s, member_id, game_id)
            assert found is not None and found.role == "captain"
            assert len(queries) == before + 1
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def test_a_connection_dropped_while_idle_is_replaced_before_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL (SQLite has no server to drop a connection): a pooled
    connection idle for a while is tested before use, so a server that dropped
    it (restart, idle timeout) costs nobody a failed transaction; one used a
    moment ago is not tested (no round trip more)."""
    from sqlalchemy import create_engine, event, text

    from storage import db as db_module
    from storage.testing import POSTGRES_URL, temporary_database

    statements: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        statements.append(statement)

    with temporary_database("postgresql", tmp_path) as db:
        with db.transaction() as s:
            backend = s.execute(text("SELECT pg_backend_pid()")).scalar()
        event.listen(db.engine, "before_cursor_execute", count)
        with db.transaction() as s:  # used a moment ago: not tested
            assert s.execute(text("SELECT pg_backend_pid()")).scalar() == backend
        assert len(statements) == 1
        admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
        finally:
            admin.dispose()
        monkeypatch.setattr(db_module, "IDLE_PING_SECONDS", 0.0)  # as if idle for long
        with db.transaction() as s:
            assert s.execute(text("SELECT pg_backend_pid()")).scalar() != backend
        event.remove(db.engine, "before_cursor_execute", count)


def test_an_inbound_message_is_stored_in_one_statement_committed_at_once(db: Database) -> None:
    """``Database.one_statement``: the insert is committed when it returns (on
    PostgreSQL in autocommit, no BEGIN/COMMIT round trips); a redelivery is
    recognised there."""
    values = {
        "channel": "telegram", "external_id": "5:1", "sender": "5", "chat": "5",
        "subject": None, "text": "1: 36 в2", "raw": b"{}", "received_at": T0,
        "edit_of": None, "authenticated": False, "meta": None, "game_hint": None,
        "reply_ref": "1", "stored_at": T0,
    }  # fmt: skip
    with db.one_statement() as conn:
        first = repo.insert_inbound(conn, values)
        if not db.is_sqlite:  # committed already, while the connection is still open
            assert conn.connection.dbapi_connection.autocommit  # type: ignore[union-attr]
            with db.reading() as s:
                found = repo.inbound_by_external(s, "telegram", "5:1")
                assert found is not None and found.id == first
    with db.reading() as s:
        found = repo.inbound_by_external(s, "telegram", "5:1")
        assert found is not None and found.id == first
    with db.one_statement() as conn:
        assert repo.insert_inbound(conn, values) is None  # delivered twice: stored once
    with db.transaction() as s:  # the pooled connection is back in transactions
        s.add(InboundMessage(channel="email", external_id="x", sender="a", text="", raw=b"",
                             received_at=T0))  # fmt: skip
        s.flush()
        if not db.is_sqlite:
            assert not s.connection().connection.dbapi_connection.autocommit  # type: ignore[union-attr]


def test_sqlite_writers_of_one_process_queue_for_the_write_lock(tmp_path: Path) -> None:
    """A second writer waits for the first in the process (and starts when it
    ends) instead of sleeping in SQLite's busy handler: its BEGIN is sent only
    after the first one's COMMIT."""
    import threading

    from sqlalchemy import event, text

    from storage.testing import temporary_database

    with temporary_database("sqlite", tmp_path) as db:
        log: list[tuple[str, str]] = []

        def watch(_conn: object, _cursor: object, statement: str, *_: object) -> None:
            log.append((threading.current_thread().name, statement.split()[0]))

        event.listen(db.engine, "before_cursor_execute", watch)
        event.listen(
            db.engine, "commit", lambda _c: log.append((threading.current_thread().name, "COMMIT"))
        )

        def second() -> None:
            with db.transaction() as s:
                s.execute(text("SELECT 1"))

        with db.transaction() as s:
            s.execute(text("SELECT 1"))
            other = threading.Thread(target=second, name="second")
            other.start()
            other.join(timeout=0.2)  # it cannot begin while this one holds the lock
            assert other.is_alive() and not [e for e in log if e[0] == "second"]
        other.join()
        mine = threading.current_thread().name
        assert log.index((mine, "COMMIT")) < log.index(("second", "BEGIN"))


def test_a_member_is_read_with_his_chosen_game_role_and_round(db: Database) -> None:
    """``member_by_telegram(with_game=True)``: one query also brings his chosen
    game, his membership in it (or that he has none) and, on SQLite, its round;
    asking for them after it reads nothing."""
    from sqlalchemy import event

    from storage.models import Member, Membership

    game_id = _game(db)
    round_id = _round(db, game_id, T0 + timedelta(hours=3))
    with db.transaction() as s:
        s.add_all([Member(name="А", telegram_user_id=11, current_game_id=game_id),
                   Member(name="Б", telegram_user_id=12, current_game_id=game_id),
                   Member(name="В", telegram_user_id=13)])  # fmt: skip
        s.flush()
        first = repo.member_by_telegram(s, 11)
        assert first is not None and first.id is not None
        s.add(Membership(member_id=first.id, game_id=game_id, side="left", role="captain"))
    queries: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.startswith("SELECT"):
            queries.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        with db.transaction() as s:
            member = repo.member_by_telegram(s, 11, with_game=True)
            assert member is not None and member.id is not None and len(queries) == 1
            game = repo.get_game(s, game_id)
            ms = repo.membership(s, member.id, game_id)
            assert game is not None and ms is not None and ms.role == "captain"
            assert len(queries) == 1
            rnd = repo.round_by_id(s, game.current_round_id)
            assert rnd is not None and rnd.id == round_id
            assert len(queries) == (1 if db.is_sqlite else 2)  # PostgreSQL: after the lock
            other = repo.member_by_telegram(s, 12, with_game=True)
            assert other is not None and other.id is not None
            before = len(queries)
            assert repo.membership(s, other.id, game_id) is None  # none, and known so
            assert len(queries) == before
            alone = repo.member_by_telegram(s, 13, with_game=True)
            assert alone is not None and alone.name == "В"
            assert repo.member_by_telegram(s, 14, with_game=True) is None
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
