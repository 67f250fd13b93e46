"""The syntax nodes of the order language: what one line says, with spans.

:mod:`.syntax` builds them (one per line) and :mod:`.resolve` reads them
against the position.  Spans are character offsets in the cleaned line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .tokens import Word

__all__ = [
    "Action",
    "CatchAct",
    "ClearLine",
    "DragonLine",
    "Flight",
    "Line",
    "Node",
    "PassAct",
    "PenaltyLine",
    "PlayerLine",
    "Receiver",
    "Ref",
    "RoundHeader",
    "StealAct",
    "SubstLine",
    "SyntaxIssue",
    "TeamHeader",
    "TickHeader",
    "Ticks",
]


@dataclass(frozen=True, slots=True)
class Ticks:
    first: int | None  # None: all ticks still to play
    last: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Ref:
    """A player named by words (surname, full name) or by shirt number, or
    by both ("Иванов (1):", as the judge writes a player): then they must agree."""

    words: tuple[str, ...]
    number: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Flight:
    cell: int
    height: int | None
    start: int
    end: int
    # A move as a round report prints it, "88/2→89/2": where it starts (cell,
    # height), to be where the player stands when the tick begins.
    origin: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Receiver:
    """A pass's target named as a team-mate ("игроку 2", "to player Petrov")."""

    who: Ref
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PassAct:
    words: tuple[Word, ...]  # ball, spell and SPELL markers, before and after the target
    target: Flight | Receiver
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class CatchAct:
    words: tuple[Word, ...]  # ball, counter-spell and COUNTER markers
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class StealAct:
    target: Ref
    start: int
    end: int


Action = PassAct | CatchAct | StealAct


@dataclass(frozen=True, slots=True)
class RoundHeader:
    number: int
    ticks: tuple[Ticks, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class TickHeader:
    ticks: tuple[Ticks, ...]


@dataclass(frozen=True, slots=True)
class TeamHeader:
    words: tuple[Word, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PlayerLine:
    ticks: tuple[Ticks, ...]
    subject: Ref
    flight: Flight | Word | None  # a STAY word: where he is
    action: Action | None
    clear: bool
    end: int
    safety: bool = False  # the second edition's «чебурыхнус-парашутис»


@dataclass(frozen=True, slots=True)
class DragonLine:
    ticks: tuple[Ticks, ...]
    items: tuple[Word, ...]
    clear: bool
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SubstLine:
    out: Ref
    into: Ref


@dataclass(frozen=True, slots=True)
class ClearLine:
    ticks: tuple[Ticks, ...]
    what: Ref | Literal["dragon"] | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PenaltyLine:
    ticks: tuple[Ticks, ...]
    start: int
    end: int


Node = (
    RoundHeader
    | TickHeader
    | TeamHeader
    | PlayerLine
    | DragonLine
    | SubstLine
    | ClearLine
    | PenaltyLine
)


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    """Why a line cannot be read: a message ``code``, the span and its params."""

    code: str
    start: int
    end: int
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    """One source line: its number (1-based), text, and what was read from it."""

    number: int
    text: str
    node: Node | None  # None: blank, comment, or a syntax issue
    description: str
    issue: SyntaxIssue | None = None
    desc_only: bool = False  # a "// …" line: continues the description above
