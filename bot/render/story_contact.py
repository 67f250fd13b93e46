"""Steps 3–7 of a tick told: collisions, dragons against players, falls,
catches (enchanted balls too), steals, and the end of the match."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, tn
from engine.events import Event, Kind

from .names import ball_colour, direction_name, spell_name
from .phrases import ACTIONS as _ACTIONS
from .story_base import StoryBase, other_side
from .values import as_int, as_list, as_people

__all__ = ["ContactStory"]


class ContactStory(StoryBase):
    # Step 3: collisions, dragons, falls
    def on_collision(self, i: int, e: Event) -> None:
        d = e.data
        players = as_people(d.get("players"))
        names = ", ".join(self.name(*p) for p in players)
        self.add(
            self.t("report.collision", cell=d.get("cell"), height=d.get("height"), names=names),
            *players,
        )

    def on_collision_pick(self, i: int, e: Event) -> None:
        actor = self.actor(e)
        self.add(self.t("report.collision_pick", p=self.chance(e), name=self.name(*actor)), actor)

    def on_collision_second(self, i: int, e: Event) -> None:
        actor = self.actor(e)
        collision = self._collision_before(i)
        if e.ok:
            # Classic: one was picked to fall, «the other falls too»; 001:
            # each draws for himself, so nobody has fallen «too» before him.
            key = (
                N_("report.collision_second_yes")
                if collision is None or collision[1]
                else N_("report.collision_fall")
            )
            self.add(self.t(key, name=self.name(*actor), p=self.chance(e)), actor)
            return
        # «holds on — 50%», the lost actions and the held_on itself: one sentence.
        text = self.t("report.collision_second_no", name=self.name(*actor), p=self.chance(e))
        lost = ""
        j = self.find(i + 1, lambda x: str(x.kind) == "held_on" and self._same(x, actor))
        if j is not None:
            self._used.add(j)
            lost = self._held_actions(j, actor)
            # 001: a survivor flies back to the cell he came from this tick.
            back = self.events[j].data.get("cell")
            if collision is not None and back is not None and back != collision[0]:
                lost = self.t("report.knocked_back", cell=back) + lost
        # The lost action is his own: his description goes beside it.
        self.add(text + lost + ".", actor, action=bool(lost))

    def _collision_before(self, i: int) -> tuple[Any, bool] | None:
        """The cell of the collision event ``i`` belongs to, and whether a
        draw picked who falls (classic) rather than each drawing (001)."""
        picked = False
        for j in range(i - 1, -1, -1):
            x = self.events[j]
            if x.kind is Kind.COLLISION_PICK:
                picked = True
            elif x.kind is Kind.COLLISION:
                return x.data.get("cell"), picked
        return None

    def on_held_on(self, i: int, e: Event) -> None:
        actor = self.actor(e)
        lost = self._held_actions(i, actor)
        self.add(
            self.t("report.held_on", name=self.name(*actor)) + lost + ".", actor, action=bool(lost)
        )

    def _held_actions(self, i: int, actor: tuple[str, int]) -> str:
        """«, but loses his action this tick (catch)» for the actions the
        engine says he lost by holding on; nothing if he lost none."""
        lost = []
        while True:
            j = self.find(
                i + 1,
                lambda x: (
                    str(x.kind) == "action_lost"
                    and x.data.get("reason") == "held_on"
                    and self._same(x, actor)
                ),
            )
            if j is None:
                break
            self._used.add(j)
            action = self.events[j].data.get("action")
            lost.append(self.t(_ACTIONS[str(action)]) if str(action) in _ACTIONS else str(action))
        return self.t("report.held_on_lost", actions=", ".join(lost)) if lost else ""

    @staticmethod
    def _same(e: Event, actor: tuple[str, int]) -> bool:
        return (e.data.get("side"), as_int(e.data.get("number"))) == actor

    def on_dragon_knock_roll(self, i: int, e: Event) -> None:
        part = self.where(e.data.get("part")) or e.data.get("part")
        yes, no = N_("report.knock_yes"), N_("report.knock_no")
        if e.ok:
            self._dragon_roll(e, N_("report.knock"), yes, no, part=part)
            return
        # «stays up — 50%» and his held_on with the actions it cost: one
        # sentence (the held_on line said «удержался при столкновении» again).
        actor = self.actor(e)
        lost = ""
        j = self.find(i + 1, lambda x: str(x.kind) == "held_on" and self._same(x, actor))
        if j is not None:
            self._used.add(j)
            lost = self._held_actions(j, actor)
        text = self.t(
            N_("report.knock"),
            name=self.name(*actor),
            dragon=self.dragon(e.data.get("dragon")),
            p=self.chance(e),
            outcome=self.t(no) + lost,
            part=part,
        )
        self.add(text, actor, action=bool(lost))

    def on_swallow_roll(self, i: int, e: Event) -> None:
        where = self.where(e.data.get("where")) or "—"
        yes, no = N_("report.swallow_yes"), N_("report.swallow_no")
        self._dragon_roll(e, N_("report.swallow_roll"), yes, no, where=where)

    def _dragon_roll(self, e: Event, key: str, yes: str, no: str, **values: Any) -> None:
        """A dragon's roll against a player (a knock, a swallow) and its outcome."""
        actor = self.actor(e)
        outcome = self.t(yes if e.ok else no)
        dragon = self.dragon(e.data.get("dragon"))
        text = self.t(
            key, name=self.name(*actor), dragon=dragon, p=self.chance(e), outcome=outcome, **values
        )
        self.add(text, actor)

    def on_player_swallowed(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        # «вместе с мячами (чёрный, зелёный)», as the table says «в руках: …»
        balls = [ball_colour(str(b), self.lang) for b in as_list(d.get("balls"))]
        values = dict(
            name=self.name(*actor),
            balls=", ".join(balls),
            dragon=self.dragon(d.get("dragon")),
            team=self.team(d.get("dragon")),
        )
        if balls:  # «с мячом» for one ball, «с мячами» for two
            text = tn("report.player_swallowed_balls", len(balls), self.lang, **values)
        else:
            text = self.t(N_("report.player_swallowed"), **values)
        self.add(text, actor)

    def on_fall(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        key = N_("report.fall")  # classic: the hospital wing; 001: the next round or out
        if "safety" in d:
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

    # Steps 4–6: passes caught, steals, catches
    def on_catch_roll(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        ball = d.get("ball")
        values = dict(
            name=self.name(*actor),
            ball=self.ball(ball),
            where=self.where(d.get("where")),
            second=self.t("report.second") if d.get("second") else "",
            p=self.chance(e),
            outcome=self.t("report.lucky") if e.ok else self.t("report.unlucky"),
        )
        key = N_("report.catch_try")
        if e.ok:
            contested = self.find(
                i + 1, lambda x: str(x.kind) == "catch_pick" and x.data.get("ball") == ball
            )
            catch = self.find(
                i + 1,
                lambda x: (
                    str(x.kind) == "catch"
                    and x.data.get("ball") == ball
                    and (x.data.get("side"), as_int(x.data.get("number"))) == actor
                ),
            )
            if contested is None and catch is not None:
                self._used.add(catch)
                key = N_("report.catch_done")
        self.add(self.t(key, **values).replace("  ", " "), actor, action=True)

    def on_catch_pick(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        names = ", ".join(self.name(*c) for c in as_people(d.get("candidates")))
        self.add(
            self.t("report.catch_pick", names=names, p=self.chance(e), name=self.name(*actor)),
            actor,
        )

    def on_catch(self, i: int, e: Event) -> None:
        actor = self.actor(e)
        self.add(
            self.t("report.catch", name=self.name(*actor), ball=self.ball(e.data.get("ball"))),
            actor,
            action=True,
        )

    def on_disenchant(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        self.add(
            self.t(
                "report.disenchant",
                name=self.name(*actor),
                ball=self.ball(d.get("ball")),
                counter=spell_name(self.ruleset, str(d.get("counter")), self.lang),
                spell=spell_name(self.ruleset, str(d.get("spell")), self.lang),
            ),
            actor,
            action=True,
        )

    def on_bludger(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        self.add(
            self.t(
                "report.bludger",
                Ball=self.ball(d.get("ball"), True),
                name=self.name(*actor),
                spell=spell_name(self.ruleset, str(d.get("spell")), self.lang),
            ),
            actor,
        )

    def on_pass_missed(self, i: int, e: Event) -> None:
        d = e.data
        self.add(
            self.t(
                "report.pass_missed",
                ball=self.ball(d.get("ball")),
                cell=d.get("cell"),
                height=d.get("height"),
                direction=direction_name(d.get("direction"), self.lang),
            )
        )

    def on_steal_roll(self, i: int, e: Event) -> None:
        d = e.data
        side = str(d.get("side"))
        actor = (side, as_int(d.get("number")))
        target = self.name(other_side(side), d.get("target"))
        values: dict[str, Any] = dict(
            name=self.name(*actor),
            target=target,
            where=self.where(d.get("where")),
            p=self.chance(e),
            outcome=self.t("report.lucky") if e.ok else self.t("report.unlucky"),
        )
        key = N_("report.steal_try")
        if e.ok:
            j = self.find(
                i + 1,
                lambda x: (
                    str(x.kind) == "steal"
                    and x.data.get("side") == side
                    and as_int(x.data.get("number")) == actor[1]
                ),
            )
            if j is not None:
                self._used.add(j)
                key, values["ball"] = (
                    N_("report.steal_done"),
                    self.ball(self.events[j].data.get("ball")),
                )
                if self.events[j].p is not None:
                    values["outcome"] += self.t("report.steal_pick", p=self.chance(self.events[j]))
        self.add(self.t(key, **values).replace("  ", " "), actor, action=True)

    def on_steal(self, i: int, e: Event) -> None:
        d = e.data
        side = str(d.get("side"))
        actor = (side, as_int(d.get("number")))
        pick = self.t("report.steal_pick", p=self.chance(e)) if e.p is not None else ""
        self.add(
            self.t(
                "report.steal",
                name=self.name(*actor),
                ball=self.ball(d.get("ball")),
                target=self.name(other_side(side), d.get("target")),
                pick=pick,
            ),
            actor,
            action=True,
        )

    def on_steal_pick(self, i: int, e: Event) -> None:
        """Version 3: a team-mate robbed the same holder first; the draw."""
        d = e.data
        side = str(d.get("side"))
        actor = (side, as_int(d.get("number")))
        if e.ok is None:  # which of two holders gives his ball up
            self.add(
                self.t(
                    "report.steal_contest_ball",
                    p=self.chance(e),
                    ball=self.ball(d.get("ball")),
                    rival=self.name(side, d.get("from")),
                ),
                actor,
            )
            return
        if not e.ok:
            outcome = self.t("report.steal_contest_kept")
        elif d.get("ball"):
            outcome = self.t("report.steal_contest_won", ball=self.ball(d.get("ball")))
        else:
            outcome = self.t("report.steal_contest_won_one")
        self.add(
            self.t(
                "report.steal_contest",
                name=self.name(*actor),
                target=self.name(other_side(side), d.get("target")),
                rivals=", ".join(self.name(side, n) for n in as_list(d.get("rivals"))),
                p=self.chance(e),
                outcome=outcome,
            ),
            actor,
            action=True,
        )

    def on_steal_nothing(self, i: int, e: Event) -> None:
        d = e.data
        side = str(d.get("side"))
        same = (side, d.get("target"), d.get("reason"))
        # Team-mates who went for the same opponent in vain, for the same reason:
        # one line for them all (it was one line each, often four in a row).
        found = [i]
        while (
            j := self.find(
                found[-1] + 1,
                lambda x: (
                    x.kind is Kind.STEAL_NOTHING
                    and (str(x.data.get("side")), x.data.get("target"), x.data.get("reason"))
                    == same
                ),
            )
        ) is not None:
            found.append(j)
        self._used.update(found)
        actors = [(side, as_int(self.events[j].data.get("number"))) for j in found]
        self.add(
            self.t(
                N_("report.steal_nothing") if len(actors) == 1 else N_("report.steal_nothing_many"),
                name=", ".join(self.name(*a) for a in actors),
                target=self.name(other_side(side), d.get("target")),
                reason=self.where(d.get("reason")) or "—",
            ),
            *actors,
            action=True,
        )

    def on_action_lost(self, i: int, e: Event) -> None:
        d = e.data
        actor = self.actor(e)
        if d.get("reason") in ("fell", "swallowed"):
            return  # the fall or the swallowing is already told
        code = str(d.get("action"))
        action = self.t(_ACTIONS[code]) if code in _ACTIONS else code
        self.add(
            self.t(
                "report.action_lost",
                name=self.name(*actor),
                action=action,
                reason=self.because(d.get("reason")),
            ),
            actor,
            action=True,
        )

    def on_ball_height(self, i: int, e: Event) -> None:
        self.add(
            self.t(
                "report.ball_height",
                Ball=self.ball(e.data.get("ball"), True),
                height=e.data.get("height"),
                p=self.chance(e),
            )
        )

    def on_catch_nothing(self, i: int, e: Event) -> None:
        # Most catch orders simply find no ball in reach: worth a line only
        # when the player named the ball he was after.
        d = e.data
        if not d.get("ball"):
            return
        actor = self.actor(e)
        self.add(
            self.t(
                "report.catch_nothing",
                name=self.name(*actor),
                ball=self.ball(d.get("ball")),
                reason=self.because(d.get("reason")),
            ),
            actor,
            action=True,
        )

    def on_ball_burnt(self, i: int, e: Event) -> None:
        self.add(
            self.t(
                "report.burnt", Ball=self.ball(e.data.get("ball"), True), cell=e.data.get("cell")
            )
        )

    def on_match_end(self, i: int, e: Event) -> None:
        reason = self.where(e.data.get("reason")) or str(e.data.get("reason", ""))
        self.add(self.t("report.match_end", reason=reason, score=self.score(e.data.get("score"))))
