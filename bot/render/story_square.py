"""The second edition's events told (seed 001, ruleset ``variant-001``):
strikes, players thrown aside, the dragons' fight, shots at the head, the
race of a spell and a steal, the green ball's sneeze.  Its falls (to the
next round or out of the game) are told with the classic ones
(:mod:`bot.render.story_contact`)."""

from __future__ import annotations

from bot.i18n import N_, tn
from engine.events import Event

from .names import direction_name
from .story_base import StoryBase
from .values import as_list

__all__ = ["SquareStory"]

# What threw a player aside (the event's ``cause``).
_THROWN_BY = {
    "tail": N_("report.thrown_by.tail"),
    "wings": N_("report.thrown_by.wings"),
    "daze": N_("report.thrown_by.daze"),
    "fight": N_("report.thrown_by.fight"),
}


class SquareStory(StoryBase):
    def on_strike(self, i: int, e: Event) -> None:
        d = e.data
        key = N_("report.strike_tail") if d.get("strike") == "tail" else N_("report.strike_wings")
        self.add(self.t(key, dragon=self.dragon(d.get("side"), capital=True)))

    def on_thrown(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        cell = d.get("cell")
        key = N_("report.thrown") if cell is not None else N_("report.thrown_dome")
        # Why: a strike and the fight have a line of their own just before,
        # the dazing zone none (it acts every tick of the round after the goal).
        cause = _THROWN_BY.get(str(d.get("cause")))
        self.add(
            self.t(
                key,
                name=self.name(*actor),
                cell=cell,
                from_cell=d.get("from_cell"),
                direction=direction_name(d.get("direction"), self.lang),
                cause=f"; {self.t(cause)}" if cause else "",
            ),
            actor,
        )

    def on_dragon_fight(self, i: int, e: Event) -> None:
        self.add(self.t(N_("report.dragon_fight")))

    def on_dragons_reset(self, i: int, e: Event) -> None:
        self.add(self.t(N_("report.dragons_reset")))

    def on_turn_zone(self, i: int, e: Event) -> None:
        d = e.data
        swept = as_list(d.get("cells"))
        if swept:
            self.add(
                tn(  # «задевая клетку 108», «задевая клетки 73, 90»
                    "report.turn_zone",
                    len(swept),
                    self.lang,
                    dragon=self.dragon(d.get("side"), capital=True),
                    cells=", ".join(str(c) for c in swept),
                )
            )

    def on_shot(self, i: int, e: Event) -> None:
        d = e.data
        yes, no = N_("report.shot_in"), N_("report.shot_missed")
        dragon = self.dragon(d.get("dragon"))
        self.roll(e, yes, no, action=True, ball=self.ball(d.get("ball")), dragon=dragon)

    def on_race(self, i: int, e: Event) -> None:
        yes, no = N_("report.race_steal_first"), N_("report.race_spell_first")
        self.roll(e, yes, no, action=True, ball=self.ball(e.data.get("ball")))

    def on_spit_roll(self, i: int, e: Event) -> None:
        yes, no = N_("report.spit_back"), N_("report.spit_out")
        self.roll(e, yes, no, dragon=self.dragon(e.data.get("dragon")))
