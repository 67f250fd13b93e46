"""Round reports and diagrams for the outbox, made by :mod:`bot.render`.

The service asks a :class:`Reporter` for one :class:`Report` per audience
("public", "left", "right", "gm") and language.  Privacy is the audience's
business: a team's report may show its own secret spells, the public one
none, the game master's everything (rule book §5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.render import png_bytes, render_position, render_round, round_report
from engine.events import Event
from engine.geometry import Side
from engine.ruleset import Ruleset
from engine.state import MatchState

__all__ = ["AUDIENCES", "RenderReporter", "Report", "Reporter", "RoundMaterial"]

AUDIENCES = ("public", "left", "right", "gm")


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


@dataclass(frozen=True)
class Report:
    text: str
    html: str | None = None  # e-mail HTML part; diagrams referenced as cid:<filename>


class Reporter(Protocol):
    def round_report(self, material: RoundMaterial, *, audience: str, lang: str) -> Report: ...

    def diagrams(
        self, material: RoundMaterial, *, gm_view: bool, lang: str
    ) -> Sequence[tuple[str, str, bytes]]:
        """(filename, content type, data): a picture per tick and one of the round."""
        ...

    def position(
        self, state: MatchState, ruleset: Ruleset, *, gm_view: bool, lang: str
    ) -> Sequence[tuple[str, str, bytes]]:
        """(filename, content type, data): a still picture of one position."""
        ...


class RenderReporter:
    """The reporter of the service: texts and pictures by :mod:`bot.render`.

    ``pictures=False`` leaves the diagrams out (text-only deployments, the
    deadline benchmark's text-only figure).
    """

    def __init__(self, *, pictures: bool = True) -> None:
        self.pictures = pictures

    def round_report(self, material: RoundMaterial, *, audience: str, lang: str) -> Report:
        side: Side | None = (
            "left" if audience == "left" else "right" if audience == "right" else None
        )
        # The game master reads the public story; his pictures show what is hidden.
        text = round_report(
            material.events,
            before=material.before,
            after=material.after,
            ruleset=material.ruleset,
            lang=lang,
            audience=side,
            descriptions=_descriptions(material),
            game=material.game or None,
        )
        return Report(text)

    def diagrams(
        self, material: RoundMaterial, *, gm_view: bool, lang: str
    ) -> Sequence[tuple[str, str, bytes]]:
        if not self.pictures:
            return ()
        pictures = render_round(
            (material.before, *material.tick_states),
            material.events,
            material.ruleset,
            lang=lang,
            gm_view=gm_view,
        )
        number = material.before.round
        files = [
            (f"round{number}-tick{i}.png", "image/png", png)
            for i, png in enumerate(pictures.ticks, start=1)
        ]
        files.append((f"round{number}.gif", "image/gif", pictures.gif))
        return files

    def position(
        self, state: MatchState, ruleset: Ruleset, *, gm_view: bool, lang: str
    ) -> Sequence[tuple[str, str, bytes]]:
        if not self.pictures:
            return ()
        image = render_position(state, ruleset, gm_view=gm_view, lang=lang)
        return [(f"position-round{state.round}.png", "image/png", png_bytes(image))]


def _descriptions(material: RoundMaterial) -> dict[tuple[Side, int, int], str]:
    out: dict[tuple[Side, int, int], str] = {}
    for (side, number, tick), text in material.descriptions.items():
        out[("left" if side == "left" else "right", number, tick)] = text
    return out
