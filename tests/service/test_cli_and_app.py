"""`dragonball db`, `dragonball verify`, and the composition root behind `serve`."""

from __future__ import annotations

import asyncio
import importlib
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import update
from sqlmodel import col
from support.service_table import FIRST_DEADLINE, START, Table, orders_text, set_up_game

from bot.app import AppError, build_app, serve
from bot.cli import cli
from bot.config import load_config
from bot.service import FakeClock
from storage.db import Database
from storage.models import Round
from storage.schema import SchemaOutOfDate, upgrade
from storage.testing import POSTGRES_URL, temporary_database


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path / "judge.db"}"\n'
        "[game_masters]\ntelegram_ids = [100]\n"
    )
    return path


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout + result.stderr


def test_db_upgrade_and_current(config_file: Path) -> None:
    code, out = _run("--config", str(config_file), "db", "current")
    assert code == 1 and "revision none" in out and "dragonball db upgrade" in out
    code, out = _run("--config", str(config_file), "db", "upgrade")
    assert code == 0 and "upgraded from empty to" in out
    code, out = _run("--config", str(config_file), "db", "upgrade")
    assert code == 0 and "already at revision" in out
    code, out = _run("--config", str(config_file), "db", "current")
    assert code == 0 and "up to date" in out


def test_serve_refuses_a_database_without_the_schema(config_file: Path) -> None:
    code, out = _run("serve", "--config", str(config_file))
    assert code == 1
    assert "no judge schema yet: run `dragonball db upgrade`" in out


async def _played_round(config_file: Path) -> tuple[Table, Database]:
    config = load_config(config_file)
    db = Database(config.database.url)
    upgrade(db)
    app = build_app(config, clock=FakeClock(START))
    table = Table(app.service, app.service.clock, app.db)  # type: ignore[arg-type]
    await set_up_game(table)
    await table.say(201, orders_text(table.state(), "left"))
    await table.clock.set(FIRST_DEADLINE)
    assert len(await app.service.resolve_due()) == 1
    app.db.dispose()
    return table, db


def test_verify_command(config_file: Path) -> None:
    table, db = asyncio.run(_played_round(config_file))
    code, out = _run(
        "--config", str(config_file), "verify", "--game", f"DB-{table.game_id}", "--round", "1"
    )
    assert code == 0, out
    assert "round 1: OK" in out and "commitment ok, result ok, positions ok" in out
    code, out = _run("--config", str(config_file), "verify", "--game", str(table.game_id))
    assert code == 0 and out.count("round 1: OK") == 1
    code, out = _run(
        "--config", str(config_file), "verify", "--game", str(table.game_id), "--round", "5"
    )
    assert code == 1 and "no resolved round 5" in out
    with db.transaction() as s:
        s.execute(update(Round).where(col(Round.number) == 1).values(seed="ab" * 32))
    code, out = _run(
        "--config", str(config_file), "verify", "--game", str(table.game_id), "--round", "1"
    )
    assert code == 1 and "MISMATCH" in out and "commitment WRONG" in out
    db.dispose()


async def test_the_app_resolves_at_the_deadline_and_stops_cleanly(config_file: Path) -> None:
    config = load_config(config_file)
    db = Database(config.database.url)
    with pytest.raises(SchemaOutOfDate):
        build_app(config)
    upgrade(db)
    db.dispose()
    clock = FakeClock(START)
    app = build_app(config, clock=clock)
    table = Table(app.service, clock, app.db)
    await set_up_game(table)
    stop = asyncio.Event()
    running = asyncio.create_task(serve(app, stop))
    for _ in range(500):  # both loops asleep on the fake clock
        if clock.sleepers >= 2:
            break
        await asyncio.sleep(0.01)
    await clock.set(FIRST_DEADLINE + timedelta(seconds=1))
    for _ in range(1000):
        if table.rounds()[0].status == "resolved":
            break
        await asyncio.sleep(0.01)
    stop.set()
    await asyncio.wait_for(running, 10)
    assert [r.status for r in table.rounds()] == ["resolved", "open"]


def test_an_enabled_channel_that_cannot_load_is_named(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(config_file)
    db = Database(config.database.url)
    upgrade(db)
    db.dispose()
    config.smtp.enabled = True
    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> object:
        if name == "bot.mail.smtp":
            raise ImportError("No module named 'bot.mail.smtp'")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(
        AppError,
        match=r"smtp is enabled in the configuration, but bot\.mail\.smtp cannot be loaded",
    ):
        build_app(config)


def test_verify_of_a_file_that_is_no_judge_database_creates_nothing(
    config_file: Path, tmp_path: Path
) -> None:
    code, out = _run("--config", str(config_file), "verify", "--game", "DB-1")
    assert code == 1 and "not a judge's database" in out and "db upgrade" not in out
    assert not (tmp_path / "judge.db").exists()
    (tmp_path / "judge.db").write_bytes(b"")  # a file, but not the judge's
    code, out = _run("--config", str(config_file), "verify", "--game", "DB-1")
    assert code == 1 and "not a judge's database" in out


def test_db_upgrade_needs_no_channel_secrets(tmp_path: Path) -> None:
    path = tmp_path / "judge.toml"
    path.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path / "judge.db"}"\n'
        "[telegram]\nenabled = true\n[imap]\nenabled = true\n"
    )
    code, out = _run("--config", str(path), "db", "upgrade")
    assert code == 0 and "upgraded from empty to" in out, out
    code, out = _run("--config", str(path), "serve")  # serving needs them, and says so
    assert code == 2 and "telegram.token" in out


def test_the_live_position_exported_is_what_check_orders_reads(
    config_file: Path, tmp_path: Path
) -> None:
    table, db = asyncio.run(_played_round(config_file))
    db.dispose()
    code, out = _run("--config", str(config_file), "engine", "export", "--game", "DB-1")
    assert code == 0, out
    state_file = tmp_path / "state.json"
    state_file.write_text(out, encoding="utf-8")
    assert '"round": 2' in out
    orders = tmp_path / "orders.txt"
    player = next(p for p in table.state().team_players("left") if p.on_field)
    orders.write_text(f"т1 {player.name}: {player.cell} в{player.height}\n", encoding="utf-8")
    code, out = _run("check-orders", str(orders), "--state", str(state_file), "--team", "left")
    assert code == 0, out
    code, out = _run("--config", str(config_file), "engine", "export", "--game", "DB-1",
                     "--round", "1")  # fmt: skip
    assert code == 0 and '"round": 1' in out
    code, out = _run("--config", str(config_file), "engine", "export", "--game", "DB-9")
    assert code == 1 and "no game DB-9" in out


def test_engine_new_without_a_seed_draws_one_and_says_which() -> None:
    result = CliRunner().invoke(cli, ["engine", "new"])
    assert result.exit_code == 0, result.output
    seed = result.stderr.strip().removeprefix("seed: ")
    assert len(seed) == 64
    again = CliRunner().invoke(cli, ["engine", "new", "--seed", seed])
    assert again.stdout == result.stdout


async def test_a_configured_game_master_address_gets_its_pass_phrase(tmp_path: Path) -> None:
    path = tmp_path / "judge.toml"
    path.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path / "judge.db"}"\n'
        '[game_masters]\nemails = ["Referee@Judge.example"]\n'
    )
    assert _run("--config", str(path), "db", "upgrade")[0] == 0
    code, out = _run("--config", str(path), "gm", "passphrase", "stranger@x.example",
                     "--phrase", "long enough phrase")  # fmt: skip
    assert code == 1 and "not in game_masters.emails" in out
    code, out = _run("--config", str(path), "gm", "passphrase", "referee@judge.example",
                     "--phrase", "short")  # fmt: skip
    assert code == 1 and "at the least" in out
    code, out = _run("--config", str(path), "gm", "passphrase", "referee@judge.example",
                     "--phrase", "зелёный дракон")  # fmt: skip
    assert code == 0 and "пароль" in out
    app = build_app(load_config(path), clock=FakeClock(START))
    try:
        service = app.service
        assert await service.check_passphrase("referee@judge.example", "зелёный дракон")
        assert not await service.check_passphrase("referee@judge.example", "красный дракон")
        table = Table(service, service.clock, app.db)  # type: ignore[arg-type]
        reply = await table.mail("referee@judge.example", "/newgame Почтовый кубок")
        assert reply.status == "ok", reply.text
    finally:
        app.db.dispose()


def test_the_app_on_postgresql_is_built_whole(tmp_path: Path) -> None:
    # Several processes share PostgreSQL: the service is given its leadership,
    # watermarks, shared marks and courier registry when it is built, the same
    # objects the outbox worker and the readers use; nothing is set on it after.
    with temporary_database("postgresql", migrate=True) as db:
        path = tmp_path / "judge.toml"
        url = f"{POSTGRES_URL}?options=-csearch_path%3D{db.schema}"
        path.write_text(f'[database]\nurl = "{url}"\n')
        app = build_app(load_config(path), clock=FakeClock(START))
        try:
            service = app.service
            assert app.leadership is not None
            assert service.shared_marks is not None
            assert service.shared_marks.owner == app.worker.worker_id
            assert service.shared_marks.marks is service.watermarks
            assert service.couriers is app.worker.couriers
            assert service.reminding() is False  # no leader yet: this process sends none
            assert [part.name for part in app.parts][-1] == "reminders"
            assert len(service.listeners) == 1
        finally:
            app.db.dispose()
