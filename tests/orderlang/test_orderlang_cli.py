"""``dragonball check-orders``: the offline checker, as a player or game master runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from orderlang_states import midgame

from bot.cli import cli
from engine.orders import PlayerOrder, RoundOrders


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "state.json").write_text(json.dumps(midgame().to_json(), ensure_ascii=False))
    return tmp_path


def _run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check-orders", *args], input=stdin)
    return result.exit_code, result.output


def test_good_message_prints_the_sheet_and_exits_0(files: Path) -> None:
    (files / "m.txt").write_text("Такт 1\nИванов: 89 в2\nПетров 91 в2, ловить\n", encoding="utf-8")
    code, out = _run(str(files / "m.txt"), "--state", str(files / "state.json"), "--team", "left")
    assert code == 0, out
    assert out.startswith(
        "Раунд 2\nКоманда Саламандры\nТакт 1\nИванов: 89 в2\nПетров: 91 в2, ловить\n"
    )
    assert "Ещё нет приказа:" in out


def test_errors_are_all_printed_with_what_is_taken_and_exit_1(files: Path) -> None:
    message = "Tick 1\nIvanov: 89 h2\nPetrof: 91 h2\nPopov: 86 h2, catch abracadabra\n"
    code, out = _run(
        "-", "--state", str(files / "state.json"), "--team", "Саламандры", "--lang", "en",
        stdin=message,
    )  # fmt: skip
    assert code == 1
    # written under «Tick 1»: the line says it, so copied back alone it keeps its tick
    assert out.startswith("Errors (2):\n\n3: Petrof: 91 h2   (tick 1)\n   ^^^^^^\n")
    assert "4: Popov: 86 h2, catch abracadabra" in out
    assert out.rstrip().endswith("Taken:\nRound 2\nTeam Саламандры\nTick 1\nИванов: 89 h2")


def test_windows_1251_file_is_read(files: Path) -> None:
    (files / "m.txt").write_bytes("Иванов: 89 в2\r\n".encode("cp1251"))
    code, out = _run(str(files / "m.txt"), "--state", str(files / "state.json"), "--team", "left")
    assert code == 0 and "Иванов: 89 в2" in out


def test_writer_limits_and_game_master(files: Path) -> None:
    (files / "m.txt").write_text("Иванов: 89 в2\nПетров: 91 в2\nДракон: стоять\n", encoding="utf-8")
    args = [str(files / "m.txt"), "--state", str(files / "state.json")]
    code, out = _run(*args, "--team", "left", "--players", "1", "--no-dragon")
    assert code == 1 and out.count("Вы не можете отдавать приказы") == 2
    code, out = _run(*args, "--team", "gm")
    assert code == 1 and "Чья это строка?" in out  # a master names the dragon's team


def test_on_file_orders_are_checked_together(files: Path) -> None:
    on_file = RoundOrders(players=(PlayerOrder("left", 1, 1, 89, 2),))
    (files / "on_file.json").write_text(json.dumps(on_file.to_json()))
    (files / "m.txt").write_text("т2 Иванов: 90 в2\n", encoding="utf-8")
    args = [str(files / "m.txt"), "--state", str(files / "state.json"), "--team", "left"]
    code, out = _run(*args, "--on-file", str(files / "on_file.json"))
    assert code == 0 and "Такт 1\nИванов: 89 в2\nТакт 2\nИванов: 90 в2" in out
    code, out = _run(*args)
    assert code == 1 and "Слишком далеко" in out
    code, out = _run(*args, "--syntax-only")
    assert code == 0


def test_unreadable_inputs_exit_2(files: Path) -> None:
    (files / "m.txt").write_text("Иванов: 89 в2\n", encoding="utf-8")
    (files / "bad.json").write_text('{"version": 99}')
    code, out = _run(str(files / "m.txt"), "--state", str(files / "bad.json"), "--team", "left")
    assert code == 2 and "state version 99" in out
    code, out = _run(
        str(files / "nope.txt"), "--state", str(files / "state.json"), "--team", "left"
    )
    assert code == 2 and "cannot read the message file" in out
    code, out = _run(str(files / "m.txt"), "--state", str(files / "state.json"), "--team", "blue")
    assert code == 2 and "not left, right, gm or a team name" in out


def test_a_note_on_a_pasted_answer_of_another_round_is_printed(files: Path) -> None:
    (files / "m.txt").write_text(
        "Лист приказов команды «Саламандры» на раунд 1:\nИванов: 89 в2\n", encoding="utf-8"
    )
    code, out = _run(str(files / "m.txt"), "--state", str(files / "state.json"), "--team", "left")
    assert code == 0, out
    assert out.startswith(
        "В сообщении — ответ судьи на раунд 1; приказы из него взяты на текущий раунд 2.\n\nРаунд 2\n"
    )
