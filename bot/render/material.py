"""What a report of one resolved round is drawn from: plain data the service gathers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.events import Event
from engine.ruleset import Ruleset
from engine.state import MatchState

__all__ = ["RoundMaterial"]


@dataclass(frozen=True)
class RoundMaterial:
    """Everything a report of one resolved round may draw on."""

    before: MatchState
    after: MatchState
    tick_states: tuple[MatchState, ...]  # after tick 1, 2, 3
    events: tuple[Event, ...]
    ruleset: Ruleset
    # Free-text descriptions players gave with their orders (§1), keyed by
    # (side, shirt number, tick): woven into the report, never interpreted.
    descriptions: Mapping[tuple[str, int, int], str] = field(default_factory=dict)
    game: str = ""  # the game's code ("DB-1"), named in the report's title
