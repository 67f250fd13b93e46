"""Rounds already played still verify after a ruling changes: each round
records the ruleset it was played under (name, version, digest) and is
re-played under it (docs/rules.md, "Ruleset versions")."""

from __future__ import annotations

from support.service_table import FIRST_DEADLINE, GM, Table, make_table, set_up_game

from bot.service.rounds.fairness import result_digest
from engine.orders import RoundOrders
from engine.resolve import resolve_round
from engine.ruleset import load_ruleset
from engine.state import MatchState
from storage import repo
from storage.db import Database
from storage.models import EventRow, Round

OLD = load_ruleset("classic", 1)
NEW = load_ruleset("classic")


def _set(table: Table, round_id: int | None = None, **values: object) -> None:
    """Change the game (or one round) in the database, as an upgrade would."""
    with table.db.transaction() as s:
        row = s.get(Round, round_id) if round_id else repo.get_game(s, table.game_id)
        assert row is not None
        for key, value in values.items():
            setattr(row, key, value)
        s.add(row)


async def test_an_old_round_verifies_under_its_rules_after_the_ruling_changes(
    sqlite_db: Database,
) -> None:
    # Round 1 is played by the release before today's ruling change: version 1,
    # where a penalty needs no warning.
    table = make_table(sqlite_db, ruleset="classic@1")
    await set_up_game(table)
    assert (await table.say(GM, "/penalty right 1")).status == "ok"
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    first = table.rounds()[0]
    assert (first.ruleset, first.ruleset_version, first.ruleset_digest) == (
        "classic",
        1,
        OLD.digest,
    )
    kinds = {e.kind for e in table.rows(EventRow, EventRow.round_id == first.id)}
    assert "penalty_nothing" in kinds and "penalty_refused" not in kinds

    # Today's ruling change: the game now follows the current version (2),
    # under which a penalty without a warning is refused.
    _set(table, ruleset="classic")
    assert (await table.say(GM, "/penalty right 1")).status == "rejected"
    second = table.rounds()[1]
    await table.clock.set(second.deadline)
    await table.service.resolve_due()
    second = table.rounds()[1]
    assert (second.ruleset_version, second.ruleset_digest) == (NEW.version, NEW.digest)

    old = await table.service.verify(table.game_id, 1)
    new = await table.service.verify(table.game_id, 2)
    assert old.ok and old.ruleset == "classic@1"
    assert new.ok and new.ruleset == f"classic@{NEW.version}"

    # The check means something: under today's rules round 1 comes out otherwise.
    with table.db.transaction() as s:
        before = repo.snapshot(s, first.id or 0, 0)
    assert before is not None and first.orders is not None
    replayed = resolve_round(
        MatchState.from_json(before), RoundOrders.from_json(first.orders), NEW, first.seed
    )
    assert result_digest(replayed.state, replayed.events) != first.result_digest

    # Data of a released version changed since are seen (and said); the round
    # still verifies when its result is the same.
    _set(table, first.id, ruleset_digest="0" * 64)
    changed = await table.service.verify(table.game_id, 1)
    assert changed.ok and not changed.ruleset_ok
    # A round from before rounds recorded their rules was played by version 1.
    _set(table, first.id, ruleset=None, ruleset_version=None, ruleset_digest=None)
    legacy = await table.service.verify(table.game_id, 1)
    assert legacy.ok and legacy.ruleset == "classic@1"


async def test_verify_names_the_rules_in_its_answer(table: Table) -> None:
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    reply = await table.say(GM, "/verify 1")
    assert reply.status == "ok", reply.text
    # In words, as the report names them: no «classic@3» for a Russian reader.
    assert f"правила: классические правила (classic, версия {NEW.version});" in reply.text
    assert "@" not in reply.text


async def test_the_round_report_names_the_ruleset_version(table: Table) -> None:
    await table.clock.set(FIRST_DEADLINE)
    await table.service.resolve_due()
    reports = [r.text for r in table.outbox(kind="results")]
    line = f"Игра по правилам: классические правила, версия {NEW.version}."
    assert reports and all(line in t for t in reports)
