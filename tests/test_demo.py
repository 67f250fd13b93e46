"""``dragonball demo``: short matches through the real judge, checked in their output folder."""

from __future__ import annotations

import asyncio
import io
import sys
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import aiosmtplib
import pytest
from click.testing import CliRunner, Result
from PIL import Image, ImageSequence
from sqlmodel import col, select

from bot.cli import cli
from bot.demo import (
    DemoFolder,
    DemoOptions,
    DemoResult,
    FolderError,
    MailInvite,
    MailOptions,
    MailReceived,
    run_demo,
)
from bot.demo.runner import PUBLIC_CHANNEL
from bot.service.rounds.fairness import new_seed
from storage.db import Database
from storage.models import InboundMessage, OrderRow, Round
from storage.schema import current_revision, head_revision

ROUNDS = 3


@pytest.fixture(scope="module")
def short_demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """One three-round demo through the command line (stdout is no terminal: plain lines)."""
    out = tmp_path_factory.mktemp("demo") / "out"
    result = CliRunner().invoke(cli, ["demo", "--out", str(out), "--rounds", str(ROUNDS)])
    return result, out


def rows(out: Path, model: Any, *where: Any) -> list[Any]:
    """Rows of the demo's database, read as anyone inspecting it would."""
    db = Database(f"sqlite:///{out / 'dragonball.db'}")
    try:
        with db.transaction() as s:
            return list(s.exec(select(model).where(*where)))
    finally:
        db.dispose()


def test_demo_prints_each_round_and_a_summary(short_demo: tuple[Result, Path]) -> None:
    result, out = short_demo
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Демонстрационный матч: «Саламандры» против «Виверны», зерно 2026")
    assert [line.split(":")[0] for line in lines if line.startswith("Раунд ")] == [
        "Раунд 1/3",
        "Раунд 2/3",
        "Раунд 3/3",
    ]
    assert "Проверка: все 3 раунда проверены: зерно совпадает с обязательством" in lines
    assert "Матч остановлен после раунда 3 (dragonball demo --rounds 3)" in lines
    assert any(line.startswith("Итоговый счёт: «Саламандры» ") for line in lines)
    assert f"Всё записано в папку {out}:" in lines
    assert lines[-1] == "Повторить этот матч: dragonball demo --seed 2026 --rounds 3"


def test_database_is_at_schema_head_and_holds_every_message(
    short_demo: tuple[Result, Path],
) -> None:
    _, out = short_demo
    db = Database(f"sqlite:///{out / 'dragonball.db'}")
    try:
        assert current_revision(db) == head_revision()
    finally:
        db.dispose()
    messages = rows(out, InboundMessage)
    # two invitations redeemed, then each captain's orders every round; all accepted whole
    assert [m.text.split()[0] for m in messages[:2]] == ["/start", "/start"]
    assert len(messages) == 2 + 2 * ROUNDS
    assert {m.status for m in messages} == {"ok"}
    assert {m.sender for m in messages} == {"1001", "2001"}
    orders = rows(out, OrderRow, col(OrderRow.current).is_(True))
    assert {o.message_id for o in orders} == {m.id for m in messages[2:]}
    statuses = [(r.number, r.status) for r in rows(out, Round)]
    # the demo's game master ends the match after its rounds: the next round is cancelled
    assert statuses == [(1, "resolved"), (2, "resolved"), (3, "resolved"), (4, "cancelled")]


def test_every_round_has_a_readable_public_report(short_demo: tuple[Result, Path]) -> None:
    _, out = short_demo
    for n in range(1, ROUNDS + 1):
        text = (out / "reports" / f"round-{n:02d}.txt").read_text(encoding="utf-8")
        # One title with the game and round (not the service's header and the report's).
        assert text.splitlines()[0] == f"Игра DB-1, раунд {n}: отчёт"
        assert "итоги раунда" not in text
        assert "— Такт 3 —" in text
        assert any(line.startswith("Счёт: «Саламандры» ") for line in text.splitlines())
        assert "Зерно костей: " in text  # the seed is revealed with the results
    summary = (out / "reports" / "summary.txt").read_text(encoding="utf-8")
    assert summary.startswith("Матч остановлен после раунда 3")
    assert "Итоговый счёт: «Саламандры» " in summary and "Команда «Виверны»:" in summary
    assert not (out / "reports" / f"round-{ROUNDS + 1:02d}.txt").exists()
    assert (
        (out / "README.txt")
        .read_text(encoding="utf-8")
        .startswith("Судья «Драконбола»: результаты демонстрации")
    )


def test_every_tick_has_a_picture_and_every_round_an_animation(
    short_demo: tuple[Result, Path],
) -> None:
    _, out = short_demo
    pictures = out / "diagrams"
    expected = {f"round-{n:02d}-tick-{k}.png" for n in range(1, ROUNDS + 1) for k in (1, 2, 3)}
    expected |= {f"round-{n:02d}.gif" for n in range(1, ROUNDS + 1)}
    assert {p.name for p in pictures.iterdir()} == expected
    for n in range(1, ROUNDS + 1):
        for k in (1, 2, 3):
            with Image.open(pictures / f"round-{n:02d}-tick-{k}.png") as png:
                assert png.format == "PNG" and png.width >= 1280
                png.load()
        with Image.open(pictures / f"round-{n:02d}.gif") as gif:
            assert gif.format == "GIF"
            # the position before the round, then after each tick
            assert sum(1 for _ in ImageSequence.Iterator(gif)) == 4


def test_transcript_holds_orders_acknowledgements_and_results(
    short_demo: tuple[Result, Path],
) -> None:
    _, out = short_demo
    text = (out / "transcript.txt").read_text(encoding="utf-8")
    assert text.count("Telegram 1001 (чат 1001) → судье") == 1 + ROUNDS
    assert text.count("судья → Telegram 1001 · ответ") == 1 + ROUNDS
    assert "Команда Саламандры\nТакт 1\n" in text  # the captain's orders in the order language
    public_results = f"судья → Telegram {PUBLIC_CHANNEL} · итоги"
    assert text.count(public_results) == ROUNDS
    # round 1 opens at the start, each result opens the next (the demo then ends the match)
    assert text.count(f"судья → Telegram {PUBLIC_CHANNEL} · начало раунда") == ROUNDS + 1
    assert text.count(f"судья → Telegram {PUBLIC_CHANNEL} · конец матча") == 1
    assert "вложения: round1-tick1.png (" in text and "round3.gif (" in text


def test_the_database_verifies_with_the_verify_command(
    short_demo: tuple[Result, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What README.txt tells the reader to do: every round reruns to its published result."""
    _, out = short_demo
    monkeypatch.chdir(out)
    monkeypatch.setenv("DRAGONBALL_DATABASE__URL", "sqlite:///dragonball.db")
    result = CliRunner().invoke(cli, ["verify", "--game", "DB-1"])
    assert result.exit_code == 0, result.output
    assert [line.split(" (")[0] for line in result.output.splitlines() if "OK" in line] == [
        "round 1: OK",
        "round 2: OK",
        "round 3: OK",
    ]


async def test_the_same_seed_plays_the_same_match(tmp_path: Path) -> None:
    async def play(name: str, seed: str) -> tuple[DemoResult, list[tuple[str, str | None]]]:
        folder = DemoFolder(tmp_path / name)
        result = await run_demo(DemoOptions(folder, rounds=2, seed=seed))
        played = rows(folder.root, Round, Round.status == "resolved")
        return result, [(r.seed, r.result_digest) for r in played]

    first, first_rounds = await play("a", "7")
    again, again_rounds = await play("b", "7")
    other, other_rounds = await play("c", "8")
    assert again.score == first.score and again.summary == first.summary
    assert again_rounds == first_rounds  # same dice, same results, byte for byte
    # The whole conversation too (invitation codes, the order of messages sent
    # side by side): a refactoring is checked by diffing two demo folders.
    transcript = DemoFolder(tmp_path / "a").transcript.read_bytes()
    assert transcript == DemoFolder(tmp_path / "b").transcript.read_bytes()
    assert transcript != DemoFolder(tmp_path / "c").transcript.read_bytes()
    assert {s for s, _ in other_rounds}.isdisjoint({s for s, _ in first_rounds})
    assert first.all_verified and other.all_verified


def test_a_foreign_folder_is_refused_and_kept(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(cli, ["demo", "--out", str(tmp_path), "--rounds", "1"])
    assert result.exit_code == 1
    assert result.stdout == ""  # nothing but the reason, on standard error
    assert "не пуста, и в ней нет прежних результатов демонстрации" in result.stderr
    assert "--force" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    with pytest.raises(FolderError, match="это файл, а не папка"):
        DemoFolder(tmp_path / "notes.txt").prepare()


async def test_an_earlier_demo_output_is_replaced_but_other_files_stay(tmp_path: Path) -> None:
    folder = DemoFolder(tmp_path / "out")
    options = DemoOptions(folder, rounds=2, lang="en")
    await run_demo(options)
    (folder.root / "notes.txt").write_text("mine", encoding="utf-8")
    result = await run_demo(replace(options, rounds=1))
    assert result.rounds == 1
    assert sorted(p.name for p in folder.reports.iterdir()) == ["round-01.txt", "summary.txt"]
    assert len(list(folder.diagrams.iterdir())) == 4
    assert (folder.root / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert len(rows(folder.root, Round, Round.status == "resolved")) == 1  # a fresh database


def test_english_and_quiet(tmp_path: Path) -> None:
    out = tmp_path / "en"
    result = CliRunner().invoke(
        cli, ["demo", "--out", str(out), "--rounds", "1", "--lang", "en", "-q"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "The demo is over: game DB-1"  # --quiet: the summary only
    assert "Verification: the round is verified: its seed matches its commitment" in lines
    report = (out / "reports" / "round-01.txt").read_text(encoding="utf-8")
    assert report.splitlines()[0] == "Game DB-1, round 1: report"
    assert any(line.startswith("Score: Salamanders ") for line in report.splitlines())


@pytest.mark.slow
async def test_the_default_demo_plays_the_match_to_its_end(tmp_path: Path) -> None:
    seen: list[int] = []
    folder = DemoFolder(tmp_path / "full")
    result = await run_demo(DemoOptions(folder), lambda p: seen.append(p.number))
    assert result.end_reason is not None  # the match ended by the rules (§1), not by the demo
    assert seen == list(range(1, result.rounds + 1))
    assert result.all_verified and result.verified == result.rounds
    assert len(list(folder.reports.glob("round-*.txt"))) == result.rounds
    assert len(list(folder.diagrams.glob("*.gif"))) == result.rounds
    assert result.summary.startswith("Итоги матча")
    assert result.delivered["match_end"] == 3  # public channel and both captains


async def test_a_person_plays_by_mail(tmp_path: Path) -> None:
    """--mail: a real SMTP conversation with the demo's inbox, through the judge's mail path."""
    invites: list[MailInvite] = []
    got: list[MailReceived] = []
    ready = asyncio.Event()

    def on_ready(invite: MailInvite) -> None:
        invites.append(invite)
        ready.set()

    async def person() -> None:
        await ready.wait()
        invite = invites[0]

        async def send(subject: str, body: str) -> None:
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = "Игрок <me@example.org>", "judge@x", subject
            msg.set_content(body)
            await aiosmtplib.send(msg, hostname=invite.host, port=invite.port)

        tag = f"[{invite.game}]"
        await send(f"{tag} привет", f"/start {invite.code}\nпароль: зелёный дракон")
        await send(f"{tag} приказы", f"пароль: зелёный дракон\nт1-3 {invite.player}: на месте")
        await send(f"{tag} всё", "пароль: зелёный дракон\n/ready")

    folder = DemoFolder(tmp_path / "mail")
    # The round waits for mail for an hour unless everybody says /ready: it must end
    # on the person's /ready (the bound of wait_for only keeps a failure from hanging).
    options = DemoOptions(folder, rounds=1, mail=MailOptions(port=0, wait=3600))
    result, _ = await asyncio.wait_for(
        asyncio.gather(run_demo(options, on_mail_ready=on_ready, on_mail=got.append), person()),
        timeout=300,
    )
    assert result.all_verified and result.rounds == 1
    assert [(m.sender, m.status) for m in got] == [("me@example.org", "ok")] * 3
    mailed = rows(folder.root, InboundMessage, InboundMessage.channel == "email")
    orders = rows(folder.root, OrderRow, col(OrderRow.current).is_(True), OrderRow.number == 7)
    left_seven = [o for o in orders if o.side == "left"]
    assert {o.message_id for o in left_seven} <= {m.id for m in mailed} and len(left_seven) == 3
    transcript = folder.transcript.read_text(encoding="utf-8")
    assert "почта me@example.org → судье" in transcript
    assert "зелёный дракон" not in transcript  # the pass phrase is never written down
    assert (
        transcript.count("судья → почта me@example.org · ответ") == 4
    )  # welcome, phrase, orders, ready
    assert "судья → почта me@example.org · итоги" in transcript


def test_a_seed_source_must_give_a_seed() -> None:
    assert new_seed(lambda purpose: "ab" * 32, "game1/setup") == "ab" * 32
    with pytest.raises(ValueError, match="not 64 lower-case hex digits"):
        new_seed(lambda purpose: purpose, "game1/setup")
    assert len(new_seed()) == 64 and new_seed() != new_seed()


def test_on_a_terminal_the_progress_is_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.commands.demo import _display
    from bot.demo import RoundProgress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    teams = ("Саламандры", "Виверны")
    with _display("ru", quiet=False) as display:
        display.show(RoundProgress(1, 2, teams, (0, 0), goals=0, verified=True))
        display.show(RoundProgress(2, 2, teams, (3, 0), goals=1, verified=True))
    shown = screen.getvalue()
    assert "Раунд 2/2: «Саламандры» 3 : 0 «Виверны» — гол!" in shown  # stays on the screen
    assert "2/2" in shown and "━" in shown  # the bar, complete


def test_every_captains_message_is_answered_at_once_in_the_transcript(
    short_demo: tuple[Result, Path],
) -> None:
    """The answer follows the message, at the same minute: the demo shows the
    judge's speed as it is, not a day late with the results."""
    _, out = short_demo
    text = (out / "transcript.txt").read_text(encoding="utf-8")
    heads = [block.strip().splitlines()[0] for block in text.split("─" * 72) if block.strip()]
    incoming = [i for i, h in enumerate(heads) if "→ судье" in h]
    assert len(incoming) == 2 + 2 * ROUNDS
    for i in incoming:
        stamp, who = heads[i].split(" · ")[:2]
        chat = who.split()[1]
        answer = heads[i + 1]
        assert answer.startswith(f"{stamp} · судья → Telegram {chat} · ответ"), (heads[i], answer)
