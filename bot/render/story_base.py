"""The frame of a tick's story: sentences, secrets and the helpers the
event handlers share (names, chances, the phrase book)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from engine.events import Event
from engine.geometry import SIDES, Side
from engine.ruleset import Ruleset
from engine.state import MatchState

from .names import ball_name, dragon_name
from .phrases import percent, why
from .values import as_int

__all__ = ["Actor", "Line", "Secrets", "StoryBase", "other_side", "score_text"]

Actor = tuple[str, int]


@dataclass
class Line:
    """A sentence and the players it is about (descriptions are woven after
    it): ``flights`` marks a team's flights line, ``action`` a line telling a
    player's own action (a catch, steal, pass, return from the hospital)."""

    text: str
    actors: frozenset[Actor] = frozenset()
    flights: bool = False
    action: bool = False


@dataclass
class Secrets:
    """What the reader may know: whose spells, and whether the yellow ball shows."""

    audience: Side | None
    yellow_visible: bool = True


def score_text(state: MatchState, left: int, right: int, lang: str) -> str:
    """«Саламандры» 1 : 0 «Виверны», Salamanders 1 : 0 Wyverns."""
    names = state.teams[0].name, state.teams[1].name
    return t("report.score_line", lang, left=names[0], a=left, b=right, right=names[1])


@dataclass
class StoryBase:
    """The events of one tick and what has been told of them; subclasses add
    an ``on_<kind>`` handler per event kind."""

    events: Sequence[Event]
    names: MatchState
    ruleset: Ruleset
    lang: str
    secrets: Secrets
    # Each dragon's lasting magic (daze, sneeze) as the tick began: what a
    # pepper ball ends.
    lasting: dict[str, str | None] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    _used: set[int] = field(default_factory=set)

    # -- helpers --------------------------------------------------------
    def t(self, key: str, **values: Any) -> str:
        return t(key, self.lang, **values)

    def where(self, code: Any) -> str:
        return why(code, self.lang)

    def because(self, code: Any) -> str:
        """«: reason» for a known code, nothing for an unknown one."""
        reason = self.where(code)
        return f": {reason}" if reason else ""

    def name(self, side: Any, number: Any) -> str:
        if side not in SIDES:
            return str(number)
        p = self.names.find_player(side, as_int(number))
        return p.name if p is not None and p.name else f"{side}{number}"

    def team(self, side: Any) -> str:
        return self.names.team(side).name if side in SIDES else str(side)

    def dragon(self, side: Any, capital: bool = False) -> str:
        text = dragon_name(self.names, side, self.lang) if side in SIDES else str(side)
        return text[:1].upper() + text[1:] if capital else text

    def ball(self, ball: Any, capital: bool = False) -> str:
        text = ball_name(str(ball), self.lang)
        return text[:1].upper() + text[1:] if capital else text

    def chance(self, e: Event) -> str:
        """«50%» for a roll, «1 из 3» for a fair pick."""
        if e.p is None:
            return ""
        if e.ok is None and e.p > 0:
            n = round(1 / e.p)
            return self.t("report.one_in", n=n)
        return percent(e.p, self.lang)

    def score(self, value: Any) -> str:
        left, right = _score_pair(value, self.names)
        return score_text(self.names, left, right, self.lang)

    def actor(self, e: Event) -> Actor:
        """The player an event is about."""
        return str(e.data.get("side")), as_int(e.data.get("number"))

    def roll(self, e: Event, yes: str, no: str, *, action: bool = False, **values: Any) -> None:
        """A player's roll told by its outcome: ``yes`` or ``no`` with his name
        and the chance."""
        actor = self.actor(e)
        text = self.t(yes if e.ok else no, name=self.name(*actor), p=self.chance(e), **values)
        self.add(text, actor, action=action)

    def add(self, text: str, *actors: Actor, flights: bool = False, action: bool = False) -> None:
        self.lines.append(Line(text, frozenset(actors), flights, action))

    def find(self, start: int, match: Callable[[Event], bool]) -> int | None:
        for j in range(start, len(self.events)):
            if j not in self._used and match(self.events[j]):
                return j
        return None

    # -- the story --------------------------------------------------------
    def tell(self) -> list[Line]:
        handlers: dict[str, Callable[[int, Event], None]] = {
            name[3:]: getattr(self, name) for name in dir(self) if name.startswith("on_")
        }
        for i, e in enumerate(self.events):
            if i in self._used:
                continue
            handler = handlers.get(str(e.kind))
            if handler is not None:
                handler(i, e)
        return self.lines


def other_side(side: str) -> Side:
    return "left" if side == "right" else "right"


def _score_pair(value: Any, state: MatchState) -> tuple[int, int]:
    if isinstance(value, dict):
        return as_int(value.get("left")), as_int(value.get("right"))
    if isinstance(value, list | tuple) and len(value) == 2:
        return as_int(value[0]), as_int(value[1])
    return state.teams[0].score, state.teams[1].score
