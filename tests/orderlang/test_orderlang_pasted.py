"""An answer of the judge pasted back: its own lines are comments to the reader.

The golden cases of ``golden/pasted_answers.toml`` are real answers: each
with an ``answer_to`` is the answer the service renders to that message
(bot/service/orders/acknowledge.py, as a plain-text channel shows it; in the
position ``answer_state``, if given: an answer of an earlier round), then the
player's ``edits``; a test here renders it again, so the cases follow the
catalogs and the printer.  The other tests check the recogniser itself.
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from orderlang_states import RULESET, STATES, midgame

from bot.i18n import format_deadline
from bot.orderlang import format_orders, format_sheet, parse_message
from bot.orderlang.echo import JudgeLines, is_judge_line
from bot.orderlang.messages import MESSAGES, message
from bot.service.kernel import textblocks
from bot.service.orders.acknowledge import Acknowledgement
from bot.service.rounds.receipts import receipt
from engine.geometry import SIDES, Side
from engine.state import MatchState

GOLDEN = Path(__file__).with_name("golden")
DEADLINE = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def answer(text: str, state: MatchState, side: Side | None, lang: str) -> str:
    """The service's answer to ``text``, the first message of the round (so the
    sheet on file is what it gave), as a plain-text mail shows it."""
    result = parse_message(text, state=state, ruleset=RULESET, side=side, lang=lang)
    o = result.orders
    taken = [*o.players, *o.dragons, *o.substitutions, *o.penalties]
    receipts = "\n".join(
        receipt(o.to_json(), s, state.team(s).name, state.round, lang)
        for s in ((side,) if side else SIDES)
    )
    ack = Acknowledgement(
        round=state.round,
        deadline=format_deadline(DEADLINE, "Europe/Moscow", lang),
        side=side,
        result=result,
        accepted=taken,
        refused=[],
        refusals=[],
        cleared=[],
        withdrawn=[],
        sheet=o,
        receipt=receipts if taken else "",
    )
    return textblocks.plain(ack.text(state, RULESET, lang))


def _pasted() -> list[Any]:
    with (GOLDEN / "pasted_answers.toml").open("rb") as f:
        cases = tomllib.load(f)["case"]
    return [pytest.param(c, id=c["name"]) for c in cases if "answer_to" in c]


@pytest.mark.parametrize("case", _pasted())
def test_the_golden_answers_are_what_the_judge_renders(case: dict[str, Any]) -> None:
    side = case.get("side", "left")
    text = answer(
        case["answer_to"].strip("\n"),
        STATES[case.get("answer_state", case.get("state", "midgame"))](),
        None if side == "gm" else side,
        case.get("lang", "ru"),
    )
    for old, new in case.get("edits", []):
        assert old in text, old
        text = text.replace(old, new)
    assert case["message"].strip("\n") == text


def test_an_answer_in_either_language_reads_as_its_sheet_alone() -> None:
    """Whatever the writer's language, either language's answer is read."""
    state = midgame()
    sent = "Такт 1\nИванов: 89 в2, пас красный -> 91 в2\nКузнецв: 169 в2\nПопов: 86 в2, ловть"
    for shown in ("ru", "en"):
        pasted = answer(sent, state, "left", shown)
        for reader in ("ru", "en"):
            r = parse_message(pasted, state=state, ruleset=RULESET, side="left", lang=reader)
            assert [e.code for e in r.errors] == ["unknown_player", "syntax_word"]
            assert [e.text.split(": ", 1)[0] for e in r.errors] == ["3", "4"]
            assert len(r.orders.players) == 1


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_error_message_is_a_judge_line(lang: str) -> None:
    """Each reason the judge gives, with a suggestion, led by its tick."""
    for code in MESSAGES:
        reason = message(code, lang)  # each placeholder a "?"
        assert is_judge_line(reason), reason
        suggested = f"{reason} {message('suggest', lang, suggestions='«x»')}"
        assert is_judge_line(suggested), suggested
        tick = "Такт" if lang == "ru" else "Tick"
        assert is_judge_line(f"{tick} 2: {reason}"), reason


def test_no_order_line_is_a_judge_line() -> None:
    """The canonical lines of every golden sheet, both languages, and the lines
    of every golden message but the pasted answers': orders still."""
    for path in sorted(GOLDEN.glob("*.toml")):
        written = path.name != "pasted_answers.toml"
        with path.open("rb") as f:
            cases = tomllib.load(f)["case"]
        for case in cases:
            state = STATES[case.get("state", "midgame")]()
            side = case.get("side", "left")
            r = parse_message(
                case["message"], state=state, ruleset=RULESET,
                side=None if side == "gm" else side, check_legality=False,
            )  # fmt: skip
            for lang in ("ru", "en"):
                sheet = format_orders(r.orders, state=state, ruleset=RULESET, lang=lang)
                lines = [*sheet.splitlines(), *(case["message"].splitlines() * written)]
                assert not [x for x in lines if is_judge_line(x)], case["name"]


def test_a_line_of_who_lacks_orders_counts_only_under_its_heading() -> None:
    state = midgame()
    missing = format_sheet(
        parse_message("Иванов: 89 в2", state=state, ruleset=RULESET, side="left").orders,
        state=state, ruleset=RULESET, side="left",
    ).split("\n\n")[1]  # fmt: skip
    head, first, *_ = missing.splitlines()
    judge = JudgeLines(state, "left")
    assert not judge.ignores(first)  # no heading above it: the writer's own line
    assert judge.ignores(head) and judge.ignores(first)
    assert not judge.ignores("такт 2: Иванов, Кузнецв")  # not a name of the team
    judge.gap()
    assert not judge.ignores(first)  # a blank line ended the list
    other = JudgeLines(state, "right")
    assert other.ignores(head) and not other.ignores(first)  # the other team's names


def test_a_long_line_is_the_writers_own() -> None:
    reason = message("syntax_word", "ru", got="ловть" * 1000)
    assert not is_judge_line(reason) and is_judge_line(message("syntax_word", "ru", got="x"))


def test_an_answer_of_another_round_says_which_round_its_orders_went_to() -> None:
    """Pasted last round's answer: its sheet, labelled «Раунд 1», is not taken
    (and the error says how to give it for this round); order lines read from
    it otherwise are this round's, and the answer says so."""
    last, now = STATES["last_round"](), midgame()
    pasted = answer("Такт 1\nИванов: 89 в2\nПетров: 91 в2", last, "left", "ru")
    r = parse_message(pasted, state=now, ruleset=RULESET, side="left")
    assert [e.code for e in r.errors] == ["pasted_round"] and not r.orders.players
    assert r.round is None  # the service would refuse a message of round 1 whole
    assert "«Раунд 2» вместо «Раунд 1»" in r.errors[0].message and not r.notes
    fixed = parse_message(
        pasted.replace("Раунд 1\nКоманда", "Раунд 2\nКоманда"),
        state=now, ruleset=RULESET, side="left",
    )  # fmt: skip
    assert fixed.ok and len(fixed.orders.players) == 2
    assert fixed.notes == (
        "В сообщении — ответ судьи на раунд 1; приказы из него взяты на текущий раунд 2.",
    )
    # the writer's own «Раунд 1», with no answer of round 1 above it: refused whole, as ever
    own = parse_message("Раунд 1\nИванов: 89 в2", state=now, ruleset=RULESET, side="left")
    assert [e.code for e in own.errors] == ["wrong_round"] and own.round == 1
    # the note, in the answer, is the judge's line when pasted back in its turn
    again = answer(pasted.replace("Раунд 1\nКоманда", "Команда"), now, "left", "ru")
    assert fixed.notes[0] in again.splitlines() and is_judge_line(fixed.notes[0])
    # an answer of this round names no other: no note
    same = parse_message(
        answer("Иванов: 89 в2", now, "left", "ru"), state=now, ruleset=RULESET, side="left"
    )
    assert same.ok and not same.notes


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_lines_quoted_with_a_chevron_are_said_to_be_unread(lang: str) -> None:
    """«>» lines are a quotation, not orders; the answer names them, so a line
    written so by mistake is not lost unseen — and the note, pasted back, is
    the judge's own line."""
    state = midgame()
    text = "Иванов: 89 в2\n> Петров: 91 в2\n>> Попов: 86 в2\n\n> Кузнецов: 169 в2"
    r = parse_message(text, state=state, ruleset=RULESET, side="left", lang=lang)
    assert len(r.orders.players) == 1 and not r.errors
    assert len(r.notes) == 1 and r.notes[0].endswith(": 2–3, 5.")
    assert is_judge_line(r.notes[0])
