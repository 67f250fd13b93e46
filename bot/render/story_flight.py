"""Steps 0–2 of a tick told: the start of the round and tick, flights of
players, dragons and balls, fire, passes, swallowed balls and goals."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, tn
from engine.events import Event, Kind
from engine.geometry import SIDES

from .names import (
    ball_colour,
    direction_name,
    effect_short,
    effect_text,
    fire_name,
    spell_name,
)
from .phrases import MOVES as _MOVES
from .phrases import points
from .story_base import Actor, StoryBase
from .values import as_int, as_list, as_people, is_cell

__all__ = ["FlightStory"]


class FlightStory(StoryBase):
    # Start of round and tick
    def on_substitution(self, i: int, e: Event) -> None:
        d = e.data
        self.add(
            self.t(
                N_("report.substitution")
                if str(e.kind) == "substitution"
                else N_("report.substitution_refused"),
                team=self.team(d.get("side")),
                incoming=self.name(d.get("side"), d.get("in")),
                outgoing=self.name(d.get("side"), d.get("out")),
                reason=self.because(d.get("reason")),
            )
        )

    on_substitution_refused = on_substitution

    def on_penalty_throw_in(self, i: int, e: Event) -> None:
        d = e.data
        self.add(
            self.t(
                "report.penalty",
                name=self.name(d.get("side"), d.get("number")),
                team=self.team(d.get("side")),
                ball=self.ball(d.get("ball")),
                cell=d.get("cell"),
                height=d.get("height"),
                direction=direction_name(d.get("direction"), self.lang),
            )
        )

    def on_penalty_nothing(self, i: int, e: Event) -> None:
        self.add(self.t("report.penalty_nothing", team=self.team(e.data.get("side"))))

    def on_penalty_refused(self, i: int, e: Event) -> None:
        self.add(self.t("report.penalty_refused", team=self.team(e.data.get("side"))))

    def on_warning(self, i: int, e: Event) -> None:
        team = self.team(e.data.get("side"))
        self.add(self.t("report.warning", team=team, count=e.data.get("count")))

    def on_effect_start(self, i: int, e: Event) -> None:
        d = e.data
        if d.get("effect") == "pepper":  # its spitting was told when it was swallowed
            previous = self.lasting.get(str(d.get("dragon")))
            if previous is not None:
                effect = effect_short(previous, self.lang)
                self.add(
                    self.t(
                        "report.pepper_ended",
                        Dragon=self.dragon(d.get("dragon"), True),
                        effect=effect,
                    )
                )
            return
        self.add(
            self.t(
                "report.effect_start",
                Dragon=self.dragon(d.get("dragon"), True),
                effect=effect_text(str(d.get("effect")), self.lang),
            )
        )

    # Step 1: flights
    def on_player_move(self, i: int, e: Event) -> None:
        self._players_fly()

    on_player_launch = on_player_move
    on_no_order = on_player_move

    def on_ball_dropped(self, i: int, e: Event) -> None:
        self._used.add(i)
        self._dropped(i, e)

    def _players_fly(self) -> None:
        """The players' part of step 1, team by team: the flights in one line,
        then who came back from the hospital wing, then who had no order to
        fly and what he dropped (each said once, in that order)."""
        for side in SIDES:
            self._flights_of(side)
            for j, x in enumerate(self.events):
                if j in self._used or x.step != 1 or x.data.get("side") != side:
                    continue
                if x.kind is Kind.PLAYER_LAUNCH:
                    self._used.add(j)
                    self._launch(x)
            for j, x in enumerate(self.events):
                if j in self._used or x.step != 1 or x.data.get("side") != side:
                    continue
                if x.kind is Kind.NO_ORDER:
                    self._used.add(j)
                    self._no_order(x)
                elif x.kind is Kind.BALL_DROPPED:
                    self._used.add(j)
                    self._dropped(j, x)

    def _flights_of(self, side: str) -> None:
        items = []
        team: list[Actor] = []
        for j, x in enumerate(self.events):
            if x.kind is not Kind.PLAYER_MOVE or x.data.get("side") != side:
                continue
            d = x.data
            self._used.add(j)
            team.append((side, as_int(d.get("number"))))
            name = self.name(side, d.get("number"))
            moved = (d.get("from_cell"), d.get("from_height")) != (d.get("cell"), d.get("height"))
            if moved and d.get("from_cell") is not None:
                items.append(
                    self.t(
                        "report.moves",
                        name=name,
                        from_cell=d.get("from_cell"),
                        from_height=d.get("from_height"),
                        cell=d.get("cell"),
                        height=d.get("height"),
                    )
                )
            else:
                items.append(
                    self.t("report.stays", name=name, cell=d.get("cell"), height=d.get("height"))
                )
        if items:
            self.add(
                self.t("report.flights", team=self.team(side), items=", ".join(items)),
                *team,
                flights=True,
            )

    def _launch(self, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        text = self.t(
            "report.launch", name=self.name(*actor), cell=d.get("cell"), height=d.get("height")
        )
        if d.get("ordered") is False:
            text += self.t("report.launch_auto")
        self.add(text, actor, action=True)

    def _no_order(self, e: Event) -> None:
        actor = self.actor(e)
        reason = self.where(e.data.get("reason"))
        if reason:  # an order that could not be flown, not a missing one
            self.add(self.t("report.bad_order", name=self.name(*actor), reason=reason), actor)
        else:
            self.add(self.t("report.no_order", name=self.name(*actor)), actor)

    def _dropped(self, i: int, e: Event) -> None:
        """A dropped ball, with the course it was given (one sentence)."""
        d = e.data
        actor = self.actor(e)
        text = self.t(
            "report.dropped",
            name=self.name(*actor),
            ball=self.ball(d.get("ball")),
            cell=d.get("cell"),
            height=d.get("height"),
        )
        ball, step = d.get("ball"), e.step
        j = self.find(
            i + 1,
            lambda x: (
                x.kind is Kind.BALL_DIRECTION and x.step == step and x.data.get("ball") == ball
            ),
        )
        if j is not None:
            self._used.add(j)
            course = self.events[j]
            if not self._hidden_ball(course):
                text += self.t(
                    "report.dropped_course",
                    direction=direction_name(course.data.get("direction"), self.lang),
                    p=self.chance(course),
                )
        self.add(text + ".", actor)

    def on_dragon_move(self, i: int, e: Event) -> None:
        d = e.data
        side = d.get("side")
        if d.get("refused"):
            text = self.t(
                "report.dragon_refused",
                Dragon=self.dragon(side, True),
                head=d.get("head"),
                height=d.get("height"),
            )
        else:
            move = str(d.get("move", "stay"))
            words = self.t(_MOVES[move]) if move in _MOVES else move
            step = as_int(d.get("height_step"))
            words += self.t("report.up") if step > 0 else self.t("report.down") if step < 0 else ""
            text = self.t(
                "report.dragon_move",
                Dragon=self.dragon(side, True),
                move=words,
                head=d.get("head"),
                facing=direction_name(d.get("facing"), self.lang),
                height=d.get("height"),
            )
        j = self.find(i + 1, lambda x: str(x.kind) == "dragon_mouth" and x.data.get("side") == side)
        if j is not None:
            self._used.add(j)
            text += "; " + self._mouth(self.events[j])
        self.add(text + ".")

    def on_dragon_mouth(self, i: int, e: Event) -> None:
        self.add(f"{self.dragon(e.data.get('side'), True)}: {self._mouth(e)}.")

    def _mouth(self, e: Event) -> str:
        text = self.t("report.mouth_open") if e.data.get("open") else self.t("report.mouth_closed")
        reason = self.where(e.data.get("reason"))
        return f"{text} ({reason})" if reason and e.data.get("open") else text

    def on_fire(self, i: int, e: Event) -> None:
        d = e.data
        burnt = sorted(c for c in as_list(d.get("cells")) if is_cell(c))
        cells = ", ".join(str(c) for c in burnt)
        if str(d.get("fire")) in ("jet", "wall"):
            # 001 counts no flames: no «Осталось: коротких …» (its fields hold 0).
            self.add(
                tn(
                    "report.fire_paced",
                    len(burnt),
                    self.lang,
                    Dragon=self.dragon(d.get("side"), True),
                    fire=fire_name(str(d.get("fire")), self.lang),
                    cells=cells,
                )
            )
            return
        key = N_("report.fire_random") if d.get("random") else N_("report.fire")
        self.add(
            self.t(
                key,
                Dragon=self.dragon(d.get("side"), True),
                fire=fire_name(str(d.get("fire")), self.lang),
                cells=cells,
                short=d.get("short_left"),
                volleys=d.get("volleys_left"),
            )
        )

    def on_fire_refused(self, i: int, e: Event) -> None:
        self.add(
            self.t(
                "report.fire_refused",
                Dragon=self.dragon(e.data.get("side"), True),
                reason=self.because(e.data.get("reason")),
            )
        )

    def on_random_fire_roll(self, i: int, e: Event) -> None:
        outcome = self.t("report.random_fire_yes") if e.ok else self.t("report.random_fire_no")
        self.add(
            self.t(
                "report.random_fire_roll",
                Dragon=self.dragon(e.data.get("side"), True),
                p=self.chance(e),
                outcome=outcome,
            )
        )

    def on_yellow_vanish(self, i: int, e: Event) -> None:
        if e.ok:
            self.secrets.yellow_visible = False
        key = N_("report.vanish_yes") if e.ok else N_("report.vanish_no")
        self.add(self.t(key, cell=e.data.get("cell"), p=self.chance(e)))

    def on_yellow_appear(self, i: int, e: Event) -> None:
        if e.ok:
            self.secrets.yellow_visible = True
        key = N_("report.appear_yes") if e.ok else N_("report.appear_no")
        self.add(self.t(key, cell=e.data.get("cell"), p=self.chance(e)))

    def _hidden_ball(self, e: Event) -> bool:
        """A course or flight of the vanished yellow ball: nobody may read it."""
        if e.data.get("ball") != "yellow":
            return False
        if str(e.kind) == "ball_move":
            return not e.data.get("visible", self.secrets.yellow_visible)
        return not self.secrets.yellow_visible

    def on_ball_move(self, i: int, e: Event) -> None:
        if e.step == 1:
            self._flights(i)
        elif not self._hidden_ball(e):
            d = e.data
            self.add(
                self.t(
                    "report.ball_move_line",
                    Ball=self.ball(d.get("ball"), True),
                    from_cell=d.get("from_cell"),
                    cell=d.get("cell"),
                    height=d.get("height"),
                )
            )

    def on_ball_direction(self, i: int, e: Event) -> None:
        if e.step == 1:
            self._flights(i)
        elif not self._hidden_ball(e):
            self.add(
                self.t(
                    "report.ball_course_line",
                    Ball=self.ball(e.data.get("ball"), True),
                    direction=direction_name(e.data.get("direction"), self.lang),
                    p=self.chance(e),
                )
            )

    def on_ball_bounce(self, i: int, e: Event) -> None:
        if e.step == 1:
            self._flights(i)
        elif not self._hidden_ball(e):
            self.add(
                self.t(
                    "report.ball_bounce_line",
                    Ball=self.ball(e.data.get("ball"), True),
                    cell=e.data.get("cell"),
                    direction=direction_name(e.data.get("direction"), self.lang),
                    p=self.chance(e),
                )
            )

    def _flights(self, first: int) -> None:
        """All free balls' step-1 flights of the tick in one line."""
        paths: dict[str, list[Any]] = {}
        notes: dict[str, list[str]] = {}
        heights: dict[str, Any] = {}
        for j in range(first, len(self.events)):
            e = self.events[j]
            kind = str(e.kind)
            if e.step != 1 or kind not in (
                "ball_move",
                "ball_direction",
                "ball_bounce",
                "yellow_vanish",
                "yellow_appear",
            ):
                continue
            if kind.startswith("yellow_"):
                # Visibility changes mid-list: tell them now so the secret is tracked.
                self._used.add(j)
                getattr(self, f"on_{kind}")(j, e)
                continue
            self._used.add(j)
            if self._hidden_ball(e):
                continue
            d = e.data
            ball = str(d.get("ball"))
            path = paths.setdefault(ball, [])
            if kind == "ball_move":
                if not path:
                    path.append(d.get("from_cell"))
                path.append(d.get("cell"))
                heights[ball] = d.get("height")
                continue
            if not path:
                path.append(d.get("cell"))
            direction = direction_name(d.get("direction"), self.lang)
            if kind == "ball_direction":
                notes.setdefault(ball, []).append(
                    self.t("report.ball_course", direction=direction, p=self.chance(e))
                )
            else:
                key = _BOUNCE.get(str(d.get("reason")), N_("report.ball_bounce"))
                notes.setdefault(ball, []).append(
                    self.t(key, cell=d.get("cell"), direction=direction, p=self.chance(e))
                )
        items = []
        for ball, path in paths.items():
            short = ball_colour(ball, self.lang)
            route = "→".join(str(c) for c in _squeeze(path))
            text = self.t("report.ball_path", ball=short, path=route, height=heights.get(ball, "?"))
            if notes.get(ball):
                text += " (" + "; ".join(notes[ball]) + ")"
            items.append(text)
        if items:
            self.add(self.t("report.balls", items=", ".join(items)), flights=True)

    def on_pass(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        text = self.t(
            "report.pass",
            name=self.name(*actor),
            ball=self.ball(d.get("ball")),
            from_cell=d.get("from_cell"),
            cell=d.get("cell"),
            height=d.get("height"),
        )
        spell = d.get("spell")
        # §5: only the passing team learns here that the pass was enchanted.
        if spell and self.secrets.audience is not None and self.secrets.audience == d.get("side"):
            text += self.t(
                "report.pass_spell", spell=spell_name(self.ruleset, str(spell), self.lang)
            )
        self.add(text, actor, action=True)

    def on_pass_lands(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        text = self.t(
            "report.pass_lands",
            name=self.name(*actor),
            ball=self.ball(d.get("ball")),
            cell=d.get("cell"),
            height=d.get("height"),
        )
        self.add(text, actor)

    # Steps 2 and 7: swallowed balls and goals
    def on_ball_swallow_roll(self, i: int, e: Event) -> None:
        d = e.data
        outcome = self.t("report.swallowed_yes") if e.ok else self.t("report.swallowed_no")
        where = self.where(d.get("where")) or str(d.get("cell"))
        self.add(
            self.t(
                "report.ball_swallow",
                Dragon=self.dragon(d.get("dragon"), True),
                ball=self.ball(d.get("ball")),
                where=where,
                p=self.chance(e),
                outcome=outcome,
            )
        )

    def on_goal(self, i: int, e: Event) -> None:
        d = e.data
        ball = str(d.get("ball"))
        self.add(
            self.t(
                "report.goal",
                Dragon=self.dragon(d.get("dragon"), True),
                ball=self.ball(ball),
                points=points(as_int(d.get("points")), self.lang),
                team=self.team(d.get("scorer_side")),
                score=self.score(d.get("score")),
            )
        )

    def on_effect_pending(self, i: int, e: Event) -> None:
        effect = str(e.data.get("effect"))
        if effect != "pepper":
            self.add(self.t("report.effect_pending", effect=effect_text(effect, self.lang)))
            return
        # Pepper acts at once (§1, §9.3б): the spitting is told here, with the
        # players it concerns; what waits for the next tick is only the end of
        # the previous lasting magic.
        side = e.data.get("dragon")
        dragon = self.dragon(side)
        j = self.find(i + 1, lambda x: x.kind is Kind.PLAYERS_SPAT and x.data.get("dragon") == side)
        if j is None:
            self.add(self.t("report.pepper_now_none", dragon=dragon))
        else:
            self._used.add(j)
            spat = self.events[j].data
            people = as_people(spat.get("players"))
            names = ", ".join(self.name(*p) for p in people)
            self.add(
                tn(  # «Он вернётся» for one player, «Они вернутся» for more
                    "report.pepper_now",
                    len(people),
                    self.lang,
                    dragon=dragon,
                    names=names,
                    round=spat.get("return_round"),
                ),
                *((str(s), as_int(n)) for s, n in people),
            )
        previous = self.lasting.get(str(side))
        if previous is not None:
            self.add(
                self.t(
                    "report.pepper_ends_next",
                    Dragon=self.dragon(side, True),
                    effect=effect_short(previous, self.lang),
                )
            )

    def on_players_spat(self, i: int, e: Event) -> None:
        d = e.data
        names = ", ".join(self.name(*p) for p in as_people(d.get("players")))
        self.add(
            self.t(
                "report.spat",
                Dragon=self.dragon(d.get("dragon"), True),
                names=names,
                round=d.get("return_round"),
            )
        )


# Why a ball changed course: the dome, a dragon's open mouth it steers clear
# of (§5), or a closed head it hit (§7).
_BOUNCE = {
    "dome": N_("report.ball_bounce"),
    "dragon": N_("report.ball_avoids"),
    "closed_mouth": N_("report.ball_bounce_head"),
}


def _squeeze(path: list[Any]) -> list[Any]:
    """The path without repeats (a ball that stayed put is one cell)."""
    out: list[Any] = []
    for cell in path:
        if not out or out[-1] != cell:
            out.append(cell)
    return out
