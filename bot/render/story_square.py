"""The second edition's events told (seed 001, ruleset ``variant-001``):
strikes, players thrown aside, the dragons' fight, shots at the head, the
race of a spell and a steal, the green ball's sneeze, and a fall that ends
in the next round or out of the game."""

from __future__ import annotations

from bot.i18n import N_
from engine.events import Event

from .names import direction_name
from .story_base import StoryBase
from .values import as_int, as_list


class SquareStory(StoryBase):
    def on_fall(self, i: int, e: Event) -> None:
        d = e.data
        if "safety" not in d:  # a classic fall: the hospital wing
            super_fall = getattr(super(), "on_fall", None)
            if super_fall is not None:
                super_fall(i, e)
            return
        actor = (str(d.get("side")), as_int(d.get("number")))
        key = N_("report.fall_saved") if d.get("safety") else N_("report.fall_out")
        self.add(
            self.t(
                key,
                name=self.name(*actor),
                height=d.get("height"),
                cell=d.get("cell"),
                cause=self.where(d.get("cause")) or "—",
                round=d.get("return_round"),
            ),
            actor,
        )

    def on_strike(self, i: int, e: Event) -> None:
        d = e.data
        key = N_("report.strike_tail") if d.get("strike") == "tail" else N_("report.strike_wings")
        self.add(self.t(key, dragon=self.dragon(d.get("side"), capital=True)))

    def on_thrown(self, i: int, e: Event) -> None:
        d = e.data
        actor = (str(d.get("side")), as_int(d.get("number")))
        cell = d.get("cell")
        key = N_("report.thrown") if cell is not None else N_("report.thrown_dome")
        self.add(
            self.t(
                key,
                name=self.name(*actor),
                cell=cell,
                from_cell=d.get("from_cell"),
                direction=direction_name(d.get("direction"), self.lang),
            ),
            actor,
        )

    def on_dragon_fight(self, i: int, e: Event) -> None:
        self.add(self.t(N_("report.dragon_fight")))

    def on_dragons_reset(self, i: int, e: Event) -> None:
        self.add(self.t(N_("report.dragons_reset")))

    def on_turn_zone(self, i: int, e: Event) -> None:
        d = e.data
        cells = ", ".join(str(c) for c in as_list(d.get("cells")))
        if cells:
            self.add(
                self.t(
                    N_("report.turn_zone"),
                    dragon=self.dragon(d.get("side"), capital=True),
                    cells=cells,
                )
            )

    def on_shot(self, i: int, e: Event) -> None:
        d = e.data
        actor = (str(d.get("side")), as_int(d.get("number")))
        self.add(
            self.t(
                N_("report.shot_in") if e.ok else N_("report.shot_missed"),
                name=self.name(*actor),
                ball=self.ball(d.get("ball")),
                dragon=self.dragon(d.get("dragon")),
                p=self.chance(e),
            ),
            actor,
            action=True,
        )

    def on_race(self, i: int, e: Event) -> None:
        d = e.data
        actor = (str(d.get("side")), as_int(d.get("number")))
        self.add(
            self.t(
                N_("report.race_steal_first") if e.ok else N_("report.race_spell_first"),
                name=self.name(*actor),
                ball=self.ball(d.get("ball")),
                p=self.chance(e),
            ),
            actor,
            action=True,
        )

    def on_spit_roll(self, i: int, e: Event) -> None:
        d = e.data
        actor = (str(d.get("side")), as_int(d.get("number")))
        self.add(
            self.t(
                N_("report.spit_back") if e.ok else N_("report.spit_out"),
                name=self.name(*actor),
                dragon=self.dragon(d.get("dragon")),
                p=self.chance(e),
            ),
            actor,
        )
