"""The recorded rounds and match of tests/render/data, and the golden reports
rendered from them (see record_fixture.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.render import match_summary, round_report, text_diagram
from engine.events import Event
from engine.geometry import Side
from engine.ruleset import Ruleset, load_ruleset
from engine.state import MatchState

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class RecordedRound:
    before: MatchState
    tick_states: tuple[MatchState, ...]
    events: tuple[Event, ...]
    descriptions: dict[tuple[Side, int, int], str]

    @property
    def after(self) -> MatchState:
        return self.tick_states[-1]

    @property
    def states(self) -> tuple[MatchState, ...]:
        return (self.before, *self.tick_states)


@cache
def load_round(name: str) -> RecordedRound:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    return RecordedRound(
        before=MatchState.from_json(data["before"]),
        tick_states=tuple(MatchState.from_json(s) for s in data["tick_states"]),
        events=tuple(Event.from_json(e) for e in data["events"]),
        descriptions={
            (side, number, tick): text for side, number, tick, text in data["descriptions"]
        },
    )


@cache
def load_match(name: str = "recorded_match.json") -> tuple[tuple[Event, ...], MatchState]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    return tuple(Event.from_json(e) for e in data["events"]), MatchState.from_json(data["final"])


def report(rec: RecordedRound, lang: str, audience: Side | None = None) -> str:
    return round_report(
        rec.events,
        before=rec.before,
        after=rec.after,
        ruleset=classic(),
        lang=lang,
        audience=audience,
        descriptions=rec.descriptions,
    )


def classic() -> Ruleset:
    return load_ruleset("classic")


def golden_reports() -> dict[str, str]:
    """Golden file name -> the text the renderer makes of the recorded data."""
    rec = load_round("recorded_round.json")
    events, final = load_match()
    return {
        "report_public_ru.txt": report(rec, "ru"),
        "report_public_en.txt": report(rec, "en"),
        "report_left_ru.txt": report(rec, "ru", "left"),
        "report_right_en.txt": report(rec, "en", "right"),
        "summary_ru.txt": match_summary(events, final, classic(), lang="ru"),
        "summary_en.txt": match_summary(events, final, classic(), lang="en"),
        "text_diagram_ru.txt": text_diagram(rec.after, classic(), lang="ru"),
        "text_diagram_en.txt": text_diagram(rec.after, classic(), lang="en"),
    }
