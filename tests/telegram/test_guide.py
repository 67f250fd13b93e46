"""The game master's guide, followed literally: docs/game-master.md's "First
match" — its config.toml, its shell commands and every chat exchange it shows —
replayed against `dragonball serve` on the local Bot API server, from an empty
database to the first round's results.  The guide cannot drift: an answer that
changes fails here until the guide shows it.

In the guide's ```chat blocks a line ``> Имя: text`` (or ``> Имя в «Группа»:``)
is a message a person writes (the lines after it, up to the next line that
starts another message or an answer, belong to it); ``< text`` is the bot's
answer to it (several ``<`` lines: one answer of several lines); ``<< «Чат»:
text`` is a post the bot makes in that chat (``канал`` is the public channel).
``…`` stands for what differs from one run to the next (codes, dates, seeds).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.fake_telegram import FakeChat, FakeTelegram, FakeUser, SentMessage
from support.judge_process import JudgeProcess, toml_config

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "game-master.md"
RECORD = os.environ.get("GUIDE_RECORD") == "1"  # print what the bot said (to write the guide)

_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def blocks(text: str) -> list[tuple[str, str]]:
    return [(m[1], m[2]) for m in _FENCE.finditer(text)]


@dataclass
class Step:
    kind: str  # "say" | "post"
    who: str  # a person's name, or the chat of a post
    where: str | None  # the group a person writes in (None: his private chat)
    text: str
    answer: list[str] = field(default_factory=list)


_SAY = re.compile(r"^> (\w+)(?: в «([^»]+)»)?: ?(.*)$")
_POST = re.compile(r"^<< (канал|«[^»]+»): (.*)$")


def steps(chat: str, people: set[str]) -> list[Step]:
    out: list[Step] = []
    for line in chat.splitlines():
        say = _SAY.match(line)
        post = _POST.match(line)
        if say and say[1] in people:
            out.append(Step("say", say[1], say[2], say[3]))
        elif post:
            out.append(Step("post", post[1].strip("«»"), None, "", [post[2]]))
        elif line.startswith("> "):
            out[-1].text += "\n" + line[2:]
        elif line.startswith("< "):
            out[-1].answer.append(line[2:])
        elif line == "<":
            out[-1].answer.append("")
        elif line.strip():
            raise AssertionError(
                f"a line of the guide's chat that is neither said nor answered: {line!r}"
            )
    return out


def pattern(lines: list[str]) -> re.Pattern[str]:
    parts = [re.escape(p) for p in "\n".join(lines).split("…")]
    return re.compile(".*?".join(parts), re.S)


def fits(lines: list[str], text: str) -> bool:
    return pattern(lines).fullmatch(text.strip()) is not None


def shell(block: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines with the output the guide shows under each."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out and line.strip():
            out[-1][1].append(line)
    return out


async def test_the_first_match_goes_as_the_guide_says(
    tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guide = section(GUIDE.read_text(encoding="utf-8"), "Your first match, step by step")
    found = blocks(guide)
    config_text = next(body for kind, body in found if kind == "toml")
    config: dict[str, Any] = tomllib.loads(config_text)
    # The guide's configuration, in the folder the judge runs in (this test's),
    # pointed at this test's Bot API server.
    monkeypatch.chdir(tmp_path)
    config["telegram"].update(token=tg.token, base_url=tg.base_url)
    config.setdefault("logging", {})["level"] = "INFO"
    judge = JudgeProcess(tmp_path, config)
    judge.write_config()
    assert toml_config(config)  # it is a configuration the harness can write

    gm_id = config["game_masters"]["telegram_ids"][0]
    channel = str(config["telegram"]["channel_chat_id"]).lstrip("@")
    people = {
        "Судья": tg.user(gm_id, "Судья", "referee"),
        "Алиса": tg.user(1001, "Алиса", "alice"),
        "Боб": tg.user(1002, "Боб", "bob"),
    }
    chats: dict[str, FakeChat] = {"канал": tg.channel("Лига", channel)}
    chats["Драконы"] = tg.group("Драконы", [people["Алиса"], people["Судья"]])
    chats["Фениксы"] = tg.group("Фениксы", [people["Боб"], people["Судья"]])

    codes: list[str] = []
    try:
        for kind, body in found:
            if kind == "console":
                for command, expected in shell(body):
                    await _run(judge, command, expected)
            elif kind == "chat":
                for step in steps(body, set(people)):
                    await _step(tg, step, people, chats, codes)
    finally:
        judge.stop()
    assert "round resolved" in judge.log_text()


async def _run(judge: JudgeProcess, command: str, expected: list[str]) -> None:
    words = command.split()
    assert words[0] == "dragonball", command
    if words[1:] == ["serve"]:
        judge.start()
        return
    if words[1] == "pip":
        return  # the install: this checkout is installed already
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "--config", str(judge.config_path), *words[1:]],
        capture_output=True, text=True, env=judge._environ(), check=False,
    )  # fmt: skip
    said = (done.stdout + done.stderr).strip()
    if RECORD:
        print(f"$ {command}\n{said}")
    assert done.returncode == 0, said
    assert fits(expected, said), (expected, said)


async def _step(
    tg: FakeTelegram,
    step: Step,
    people: dict[str, FakeUser],
    chats: dict[str, FakeChat],
    codes: list[str],
) -> None:
    if step.kind == "post":
        chat = chats[step.who]

        def posted() -> list[SentMessage]:
            return [s for s in tg.sent_to(chat) if fits(step.answer, s.text)]

        if RECORD:
            print(f"<< {step.who}:", *(s.text for s in tg.sent_to(chat)), sep="\n---\n")
        assert await tg.wait_for(posted, timeout=60), (step.answer, tg.texts(chat))
        return
    text = step.text
    if text.startswith("/start ") and codes:
        text = f"/start {codes.pop(0)}"  # the code the invitation above gave
    user = people[step.who]
    message = tg.send_text(user, chats[step.where] if step.where else None, text)
    chat_id = message["chat"]["id"]

    def answers() -> list[SentMessage]:
        return [s for s in tg.sent_to(chat_id) if s.reply_to == message["message_id"]]

    got = await tg.wait_for(answers, timeout=60)
    said = "\n\n".join(s.text for s in got)
    if RECORD:  # in the guide's own form, to paste
        print("\n".join(f"< {line}" if line else "<" for line in said.splitlines()))
    codes += re.findall(r"/start (\w{6,})", said)
    assert fits(step.answer, said), (step.answer, said)
