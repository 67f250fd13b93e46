"""Round reports: golden texts of a recorded round, privacy, and the sentences
built from hand-written events."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from render_fixtures import DATA, classic, golden_reports, load_round, report

from bot.render import redact, round_report
from bot.render.names import spell_spellings
from bot.render.phrases import percent
from engine.cases import parse_case, play
from engine.events import Event, Kind
from engine.ruleset import Ruleset
from engine.state import MatchState

GOLDEN = sorted(golden_reports())


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_texts_of_the_recorded_round_and_match(name: str) -> None:
    expected = (DATA / name).read_text(encoding="utf-8")
    assert golden_reports()[name] == expected, (
        f"{name} changed: read the new text, then run python tests/render/record_fixture.py --goldens"
    )


def _spells_in(text: str, ruleset: Ruleset) -> list[str]:
    low = text.lower()
    return [w for w in spell_spellings(ruleset) if w.lower() in low]


def test_public_report_of_a_round_with_enchanted_passes_names_no_spell(ruleset: Ruleset) -> None:
    rec = load_round("secret_round.json")
    enchanted = [e for e in rec.events if e.kind is Kind.PASS and e.data.get("spell")]
    assert len(enchanted) == 2  # the round is what the test needs
    assert not [e for e in rec.events if e.kind in (Kind.BLUDGER, Kind.DISENCHANT)]
    passer = enchanted[0].data["side"]
    opponent = "left" if passer == "right" else "right"
    for lang in ("ru", "en"):
        for audience in (None, opponent):
            text = report(rec, lang, audience)
            assert _spells_in(text, ruleset) == [], (lang, audience)
            # Not even the fact that a pass was enchanted (a team's own count aside).
            story = [
                line
                for line in text.lower().splitlines()
                if not line.startswith(("заговорённых пасов осталось", "enchanted passes left"))
            ]
            assert not [line for line in story if re.search("заговор|enchant", line)]


def test_the_passing_team_reads_its_own_spells(ruleset: Ruleset) -> None:
    rec = load_round("secret_round.json")
    enchanted = [e for e in rec.events if e.kind is Kind.PASS and e.data.get("spell")]
    side = enchanted[0].data["side"]
    ru = report(rec, "ru", side)
    en = report(rec, "en", side)
    for e in enchanted:
        pair = next(p for p in ruleset.spells if p.spell == e.data["spell"])
        assert f"Пас заговорён: «{pair.spell_ru}»" in ru
        assert f"The pass is enchanted: “{pair.spell}”" in en
    assert "Заговорённых пасов осталось:" in ru
    assert "Ваши заговорённые мячи в игре:" in ru


def test_a_spell_is_told_publicly_only_once_the_ball_knocks_someone_down(
    ruleset: Ruleset,
) -> None:
    rec = load_round("recorded_round.json")
    bludgers = [e for e in rec.events if e.kind is Kind.BLUDGER]
    assert bludgers
    text = report(rec, "ru")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if _spells_in(line, ruleset))
    assert lines[first].startswith("💫"), lines[first]
    pass_lines = [line for line in lines if "пасует" in line]
    assert pass_lines and not any(_spells_in(line, ruleset) for line in pass_lines)


def test_recorded_round_is_told_in_the_order_of_the_rules() -> None:
    text = report(load_round("recorded_round.json"), "ru")
    tick1 = text.split("— Такт 2 —")[0]
    order = [
        "Полёты",
        "Дракон команды",
        "Мячи (клетка/высота)",
        "пасует",
        "⚽ ГОЛ!",
        "ловит голубой",
    ]
    positions = [tick1.index(word) for word in order]
    assert positions == sorted(positions)


def _tick(*events: Event) -> list[Event]:
    return list(events)


def test_catch_sentence_names_chance_and_luck(opening: MatchState, ruleset: Ruleset) -> None:
    events = _tick(
        Event(
            1,
            1,
            6,
            Kind.CATCH_ROLL,
            {"side": "left", "number": 2, "ball": "green", "where": "adjacent", "second": False},
            p=0.5,
            roll=0.31,
            ok=True,
        ),
        Event(
            1, 1, 6, Kind.CATCH, {"side": "left", "number": 2, "ball": "green", "from_pass": False}
        ),
    )
    ru = round_report(events, before=opening, after=opening, ruleset=ruleset)
    en = round_report(events, before=opening, after=opening, ruleset=ruleset, lang="en")
    assert "Петров поймал зелёный мяч с соседней клетки — 50%, удача." in ru
    assert "Петров catches the green ball from the next cell — 50%, success." in en


def test_failed_roll_and_contested_catch(opening: MatchState, ruleset: Ruleset) -> None:
    events = _tick(
        Event(
            1,
            1,
            6,
            Kind.CATCH_ROLL,
            {
                "side": "left",
                "number": 2,
                "ball": "red",
                "where": "same_cell_other_height",
                "second": True,
            },
            p=0.65,
            roll=0.9,
            ok=False,
        ),
        Event(
            1,
            1,
            6,
            Kind.CATCH_ROLL,
            {"side": "left", "number": 1, "ball": "red", "where": "adjacent", "second": False},
            p=0.5,
            roll=0.1,
            ok=True,
        ),
        Event(
            1,
            1,
            6,
            Kind.CATCH_ROLL,
            {"side": "right", "number": 1, "ball": "red", "where": "adjacent", "second": False},
            p=0.5,
            roll=0.2,
            ok=True,
        ),
        Event(
            1,
            1,
            6,
            Kind.CATCH_PICK,
            {
                "ball": "red",
                "side": "right",
                "number": 1,
                "candidates": [{"side": "left", "number": 1}, {"side": "right", "number": 1}],
            },
            p=0.5,
            roll=0.7,
        ),
        Event(
            1, 1, 6, Kind.CATCH, {"side": "right", "number": 1, "ball": "red", "from_pass": False}
        ),
    )
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    assert (
        "Петров ловит красный мяч на своей клетке, другая высота (второй мяч в руки) — 65%, неудача."
        in text
    )
    assert "Иванов ловит красный мяч с соседней клетки — 50%, удача." in text
    assert "жребий (1 из 2) выбирает: Соколов." in text
    assert "Соколов поймал красный мяч." in text


def test_goal_with_points_magic_and_score(opening: MatchState, ruleset: Ruleset) -> None:
    events = _tick(
        Event(
            1,
            2,
            2,
            Kind.BALL_SWALLOW_ROLL,
            {
                "ball": "blue",
                "dragon": "right",
                "cell": 110,
                "height": 1,
                "where": "head_other_height",
            },
            p=0.75,
            roll=0.5,
            ok=True,
        ),
        Event(
            1,
            2,
            2,
            Kind.GOAL,
            {
                "ball": "blue",
                "dragon": "right",
                "scorer_side": "left",
                "points": 3,
                "score": {"left": 3, "right": 0},
            },
        ),
        Event(1, 2, 2, Kind.EFFECT_PENDING, {"dragon": "right", "effect": "extinguish"}),
    )
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    assert "— Такт 2 —" in text
    assert (
        "Дракон команды «Виверны» может проглотить голубой мяч (на голове, на другой "
        "высоте) — 75%, проглочен."
    ) in text
    assert (
        "⚽ ГОЛ! Дракон команды «Виверны» проглатывает голубой мяч: +3 очка команде "
        "«Саламандры». Счёт «Саламандры» 3 : 0 «Виверны»."
    ) in text
    assert "Магия мяча подействует со следующего такта: пламя погашено до конца матча." in text
    en = round_report(events, before=opening, after=opening, ruleset=ruleset, lang="en")
    assert "+3 points for Саламандры" in en


def test_fall_fire_and_budget(opening: MatchState, ruleset: Ruleset) -> None:
    events = _tick(
        Event(
            1,
            1,
            1,
            Kind.FIRE,
            {
                "side": "left",
                "fire": "volley",
                "cells": [105, 104, 103],
                "random": False,
                "short_left": 7,
                "volleys_left": 2,
            },
        ),
        Event(
            1,
            1,
            3,
            Kind.FALL,
            {
                "side": "right",
                "number": 3,
                "cell": 104,
                "height": 2,
                "cause": "fire",
                "return_round": 3,
            },
        ),
    )
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    assert (
        "🔥 Дракон команды «Саламандры» выдыхает огненный залп: клетки 103, 104, 105. "
        "Осталось: коротких 7, залпов 2."
    ) in text
    assert (
        "⬇ Новиков падает с высоты 2 на клетке 104 (огонь дракона) — в больничное крыло "
        "до раунда 3."
    ) in text
    # The round's end tells what remains of both budgets, under each team.
    table = text[text.index("Позиция после раунда 1") :].splitlines()
    left, right = table.index("«Саламандры»:"), table.index("«Виверны»:")
    assert any("огонь: коротких 7, залпов 3" in line for line in table[left:right])
    assert any("огонь: коротких 7, залпов 3" in line for line in table[right:])


def test_descriptions_are_woven_in_and_spells_in_them_hidden_from_others(
    opening: MatchState, ruleset: Ruleset
) -> None:
    events = _tick(
        Event(
            1,
            1,
            1,
            Kind.PASS,
            {
                "ball": "green",
                "side": "left",
                "number": 1,
                "from_cell": 36,
                "cell": 38,
                "height": 2,
                "spell": "gullis-dullis",
            },
        ),
        Event(
            1, 1, 4, Kind.PASS_MISSED, {"ball": "green", "cell": 38, "height": 2, "direction": "E"}
        ),
    )
    said = {
        ("left", 1, 1): "Кричу «Гуллис дуллис!» и бросаю",
        ("right", 1, 1): "Смотрю в небо",  # not in this tick's events: left out
    }
    public = round_report(events, before=opening, after=opening, ruleset=ruleset, descriptions=said)
    lines = public.splitlines()
    at = lines.index("Иванов пасует зелёный мяч: 36 → 38, высота 2.")
    assert lines[at + 1] == "💬 Иванов: «Кричу «[скрыто]!» и бросаю»"
    assert "Смотрю в небо" not in public
    assert _spells_in(public, ruleset) == []
    theirs = round_report(
        events, before=opening, after=opening, ruleset=ruleset, descriptions=said, audience="right"
    )
    assert _spells_in(theirs, ruleset) == []
    ours = round_report(
        events, before=opening, after=opening, ruleset=ruleset, descriptions=said, audience="left"
    )
    assert "Кричу «Гуллис дуллис!» и бросаю" in ours
    assert "Пас заговорён: «гуллис-дуллис»." in ours


def test_redact_catches_every_spelling(ruleset: Ruleset) -> None:
    for word in spell_spellings(ruleset):
        for variant in (word, word.upper(), word.replace("-", " "), word.replace("-", "—")):
            assert _spells_in(redact(f"say {variant}!", ruleset), ruleset) == [], variant


def test_the_vanished_yellow_ball_s_course_stays_hidden(
    opening: MatchState, ruleset: Ruleset
) -> None:
    events = _tick(
        Event(
            1, 1, 1, Kind.YELLOW_VANISH, {"ball": "yellow", "cell": 57}, p=0.5, roll=0.2, ok=True
        ),
        Event(
            1,
            1,
            1,
            Kind.BALL_MOVE,
            {
                "ball": "yellow",
                "from_cell": 57,
                "cell": 58,
                "height": 2,
                "direction": "E",
                "visible": False,
            },
        ),
        Event(
            1,
            1,
            1,
            Kind.BALL_DIRECTION,
            {"ball": "yellow", "cell": 58, "direction": "SW"},
            p=1 / 6,
            roll=0.4,
        ),
        Event(
            1, 2, 1, Kind.YELLOW_APPEAR, {"ball": "yellow", "cell": 59}, p=0.5, roll=0.7, ok=False
        ),
    )
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    assert "Жёлтый мяч исчезает на клетке 57 — 50%." in text
    assert "Жёлтый мяч остаётся невидимым — 50%." in text
    assert "58" not in text and "59" not in text


@pytest.mark.parametrize("kind", list(Kind))
@pytest.mark.parametrize(
    "data",
    [
        {},
        {
            "side": "nobody",
            "number": "x",
            "ball": 5,
            "cells": None,
            "players": None,
            "score": "?",
            "dragon": 3,
            "candidates": None,
        },
    ],
)
def test_malformed_events_never_break_a_report(
    opening: MatchState, ruleset: Ruleset, kind: Kind, data: dict[str, object]
) -> None:
    events = [Event(1, 1, 1, kind, dict(data), p=0.5, roll=0.1, ok=True)]
    for lang in ("ru", "en"):
        text = round_report(events, before=opening, after=opening, ruleset=ruleset, lang=lang)
        assert "{" not in text


def test_bad_arguments_get_clear_errors(opening: MatchState, ruleset: Ruleset) -> None:
    with pytest.raises(ValueError, match="unknown language"):
        round_report([], before=opening, after=opening, ruleset=ruleset, lang="fr")
    with pytest.raises(ValueError, match="audience"):
        round_report([], before=opening, after=opening, ruleset=ruleset, audience="middle")  # type: ignore[arg-type]


def test_percentages_read_naturally() -> None:
    assert percent(0.5) == "50%"
    assert percent(0.22) == "22%"
    assert percent(0.1667) == "16.7%"
    assert percent(1.0) == "100%"
    # Russian writes a decimal comma: a dazed dragon's random fire, 1 in 6.
    assert percent(1 / 6, "ru") == "16,7%"
    assert percent(0.5, "ru") == "50%"


def test_a_fraction_of_a_percent_has_a_decimal_comma_in_russian(
    opening: MatchState, ruleset: Ruleset
) -> None:
    roll = Event(1, 1, 1, Kind.RANDOM_FIRE_ROLL, {"side": "left"}, p=1 / 6, roll=0.9, ok=False)
    ru = round_report([roll], before=opening, after=opening, ruleset=ruleset, lang="ru")
    assert "может плюнуть огнём — 16,7%, обошлось." in ru and "16.7" not in ru
    en = round_report([roll], before=opening, after=opening, ruleset=ruleset, lang="en")
    assert "16.7%" in en


def test_reasons_are_told_in_words(opening: MatchState, ruleset: Ruleset) -> None:
    events = _tick(
        Event(1, 1, 1, Kind.NO_ORDER, {"side": "left", "number": 1, "reason": "none"}),
        Event(1, 1, 1, Kind.NO_ORDER, {"side": "left", "number": 2, "reason": "too_far"}),
        Event(1, 1, 1, Kind.FIRE_REFUSED, {"side": "right", "fire": "short", "reason": "budget"}),
        Event(
            1,
            1,
            1,
            Kind.DRAGON_MOVE,
            {
                "side": "right",
                "move": "stay",
                "height_step": 0,
                "head": 110,
                "facing": "W",
                "height": 2,
                "cells": [110, 111, 112],
                "ordered": False,
                "refused": None,
            },
        ),
        Event(1, 1, 1, Kind.DRAGON_MOUTH, {"side": "right", "open": True, "reason": "stay"}),
        Event(
            1,
            1,
            3,
            Kind.DRAGON_KNOCK_ROLL,
            {"dragon": "right", "side": "left", "number": 3, "part": "body"},
            p=0.5,
            roll=0.1,
            ok=True,
        ),
        Event(
            1,
            1,
            3,
            Kind.FALL,
            {
                "side": "left",
                "number": 3,
                "cell": 111,
                "height": 1,
                "cause": "dragon_body",
                "return_round": 2,
            },
        ),
        Event(
            1,
            1,
            6,
            Kind.CATCH_NOTHING,
            {"side": "left", "number": 4, "ball": "red", "reason": "out_of_reach"},
        ),
        Event(
            1,
            1,
            6,
            Kind.CATCH_NOTHING,
            {"side": "left", "number": 5, "ball": None, "reason": "none_in_reach"},
        ),
    )
    text = round_report(events, before=opening, after=opening, ruleset=ruleset)
    assert "Иванов без приказа на этот такт: остаётся на месте и роняет мячи." in text
    assert "Петров: приказ на этот такт невыполним (слишком далеко)" in text
    assert "Дракон команды «Виверны»: огонь не состоялся: запас огня исчерпан." in text
    assert (
        "остаётся на месте: голова на клетке 110, смотрит на З, высота 2; пасть открыта (пропуск хода)."
        in text
    )
    assert "Сидоров на клетке дракона (тело; дракон команды «Виверны») — 50%, сбит." in text
    assert "(удар о тело дракона)" in text
    assert "Смирнов не может поймать красный мяч: не дотянуться." in text
    story = text[: text.index("Итог раунда")]  # the table under it names everybody
    assert "Кузнецов" not in story  # a catch with no ball named and none in reach is not news


@pytest.mark.parametrize(
    ("case", "ru", "en"),
    [
        (
            "two-stealers-one-ball-a-draw-between-them",
            "но партнёр успел раньше (L1): жребий — 50%, красный мяч достаётся ему.",
            "but a team-mate was first (L1): the draw — 50%, the red ball goes to him.",
        ),
        (
            "two-stealers-one-ball-the-draw-may-keep-it-with-the-first",
            "жребий — 50%, мяч остаётся у партнёра.",
            "the draw — 50%, the team-mate keeps the ball.",
        ),
    ],
)
def test_a_contested_steal_is_told_with_its_draw(case: str, ru: str, en: str) -> None:
    path = Path(__file__).parents[2] / "cases" / "classic" / "s04" / f"{case}.toml"
    parsed = parse_case(tomllib.loads(path.read_text(encoding="utf-8")), name=case)
    played = play(parsed, "1")
    before = parsed.position
    for lang, words in (("ru", ru), ("en", en)):
        text = round_report(
            played.events, before=before, after=played.state, ruleset=classic(), lang=lang
        )
        assert words in text, text
