"""Actions of a player line: words to balls, spells and counter-spells, names to targets.

:class:`ActionReader` is the part of :class:`.resolve.Resolver` that reads a
pass, a catch or a steal; it keeps no state of its own.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from engine.geometry import Side
from engine.orders import Action, Catch, Pass, Steal
from engine.ruleset import Ruleset, SpellPair
from engine.state import MatchState, PlayerState, other_side

from .errors import ErrorKind
from .lexicon import ball_of, norm_word, skeleton
from .messages import BALL_LABELS, label, lang_of
from .names import Roster
from .nodes import CatchAct, Flight, PassAct, Receiver, Ref, StealAct
from .tokens import Word

__all__ = ["ActionReader", "Skip", "Span", "is_spell", "spell_table", "to_mate_word"]

Span = tuple[int, int]
# spell key → ("spell" or "counter", its name in the ruleset, its pair's Russian name)
SpellTable = dict[str, tuple[str, str, str]]


def _pass_word(lang: str) -> str:
    return "pass" if lang_of(lang) == 1 else "пас"  # the canonical words (printer.py)


def to_mate_word(lang: str) -> str:
    """How a pass names its receiver: «игроку», "to player" (before his name)."""
    return "to player" if lang_of(lang) == 1 else "игроку"


class Skip(Exception):
    """A line that produced an error: stop reading it."""


def _spell_key(text: str) -> str:
    return skeleton(norm_word(text).replace(" ", ""))


def spell_table(ruleset: Ruleset) -> SpellTable:
    """Every spell and counter-spell of ``ruleset``, Russian and Latin, by key."""
    return _spell_table(ruleset.spells)


def is_spell(ruleset: Ruleset, text: str) -> bool:
    """Whether ``text`` is one of ``ruleset``'s spells or counter-spells."""
    return _spell_key(text) in spell_table(ruleset)


@lru_cache(maxsize=16)
def _spell_table(spells: tuple[SpellPair, ...]) -> SpellTable:
    table: SpellTable = {}
    for pair in spells:
        for text in (pair.spell, pair.spell_ru):
            table[_spell_key(text)] = ("spell", pair.spell, pair.counter_ru)
        for text in (pair.counter, pair.counter_ru):
            table[_spell_key(text)] = ("counter", pair.counter, pair.spell_ru)
    return table


def _halves(name: str) -> tuple[str, ...]:
    """The keys of the two words of a spell's name ("gullis", "dullis")."""
    return tuple(_spell_key(part) for part in name.split("-") if len(part) >= 4)


class ActionReader:
    """Reads actions; the resolver provides the state, errors and names."""

    state: MatchState
    ruleset: Ruleset
    lang: str
    _spells: SpellTable

    def error(
        self,
        kind: ErrorKind,
        code: str,
        span: Span,
        suggestions: Iterable[str] = (),
        **params: Any,
    ) -> Skip:
        raise NotImplementedError

    def _got(self, span: Span) -> str:
        raise NotImplementedError

    @property
    def suggest(self) -> bool:
        raise NotImplementedError

    def _roster(self, sides: tuple[Side, ...]) -> Roster:
        raise NotImplementedError

    def _by_name(
        self,
        ref: Ref,
        sides: tuple[Side, ...],
        *,
        steal_from: Side | None = None,
        pass_to: bool = False,
    ) -> PlayerState:
        raise NotImplementedError

    def _action(
        self,
        player: PlayerState,
        act: PassAct | CatchAct | StealAct | None,
        height: int | None = None,
    ) -> Action | None:
        """The action of a line; ``height`` is the player's after his flight
        (a pass that names no height flies at it, if the ruleset says so)."""
        match act:
            case None:
                return None
            case PassAct():
                return self._pass(player, act, height)
            case CatchAct():
                return self._catch(act)
            case StealAct():
                target = act.target
                theirs = other_side(player.side)
                if target.number is not None:
                    if self.state.find_player(theirs, target.number) is None:
                        raise self.error(
                            "unknown_name",
                            "unknown_number",
                            (target.start, target.end),
                            number=target.number,
                            team=self.state.team(theirs).name,
                        )
                    return Steal(target.number)
                victim = self._by_name(target, (theirs,), steal_from=theirs)
                return Steal(victim.number)

    def _words(self, words: Sequence[Word]) -> Iterator[tuple[str, str, str, Span]]:
        """(kind, value, pair, span) for each ball or spell among ``words``, in
        turn (a reader stops at the first wrong one: the rest are not looked up)."""
        plain = [w for w in words if w.kind == "WORD"]
        i = 0
        while i < len(plain):
            w = plain[i]
            ball = ball_of(w.value)
            if ball is not None:
                yield ("ball", ball, "", (w.start, w.end))
                i += 1
                continue
            spell = self._spells.get(_spell_key(w.value))
            if spell is None and i + 1 < len(plain):
                nxt = plain[i + 1]
                spell = self._spells.get(_spell_key(w.value + nxt.value))
                if spell is not None:
                    yield (spell[0], spell[1], spell[2], (w.start, nxt.end))
                    i += 2
                    continue
            if spell is not None:
                yield (spell[0], spell[1], spell[2], (w.start, w.end))
            else:
                yield ("unknown", w.value, "", (w.start, w.end))
            i += 1

    def _unknown(self, kind: str, value: str, span: Span, *, after_ball: bool = False) -> Skip:
        """An unknown word of a pass (``kind`` "spell") or a catch ("counter").
        Once the ball is named (or past the target) it can only be a spell."""
        got = self._got(span)
        spells = [k for k, v in self._spells.items() if v[0] == kind]
        close = (
            difflib.get_close_matches(_spell_key(value), spells, n=2, cutoff=0.7)
            if self.suggest
            else []
        )
        if not close and self.suggest:  # half a name ("щупс" for «щупс-курощупс»)
            close = [k for k in spells if _spell_key(value) in _halves(self._spells[k][1])]
        code = "unknown_spell" if kind == "spell" else "unknown_counter"
        if close:
            names = [self._spell_name(self._spells[c][1]) for c in close]
            return self.error("unknown_name", code, span, names, got=got)
        if after_ball:
            every = sorted({self._spell_name(self._spells[k][1]) for k in spells})
            return self.error(
                "unknown_name", code + "_list", span, got=got, spells=", ".join(every)
            )
        labels = {label: ball for ball, pair in BALL_LABELS.items() for label in pair}
        near = (
            difflib.get_close_matches(norm_word(value), list(labels), n=2, cutoff=0.6)
            if self.suggest
            else []
        )
        code = "unknown_ball" if kind == "spell" else "unknown_catch_word"
        return self.error("unknown_name", code, span, near, got=got)

    def _spell_name(self, name: str) -> str:
        """A spell or counter as the reader's language writes it."""
        for pair in self.ruleset.spells:
            if name == pair.spell:
                return pair.spell_ru if lang_of(self.lang) == 0 else pair.spell
            if name == pair.counter:
                return pair.counter_ru if lang_of(self.lang) == 0 else pair.counter
        return name

    def _pass(self, player: PlayerState, act: PassAct, height: int | None) -> Pass:
        ball: str | None = None
        spell: str | None = None
        target = act.target
        for kind, value, pair, span in self._words(act.words):
            if kind == "ball" and ball in (None, value):
                ball = value
            elif kind == "spell" and spell in (None, value):
                spell = value
            elif kind == "counter":
                raise self.error("syntax", "counter_in_pass", span, got=self._got(span), spell=pair)
            elif kind == "unknown":
                if isinstance(target, Flight):
                    self._mate_and_cell(player, act, value, span)
                late = ball is not None or span[0] > target.start
                raise self._unknown("spell", value, span, after_ball=late)
            else:
                raise self.error("syntax", "extra_word", span, got=self._got(span))
        if ball is None:
            ball = self._only_ball(player, act)
        if isinstance(target, Receiver):
            return Pass(ball, 0, 0, spell)  # the team-mate's cell: known once the message is read
        if target.height is None:
            if height is None or self.ruleset.pass_default_height != "thrower":
                raise self.error(
                    "syntax", "no_height", (target.start, target.end), cell=target.cell, height=2
                )
            return Pass(ball, target.cell, height, spell)
        return Pass(ball, target.cell, target.height, spell)

    def _mate_and_cell(self, player: PlayerState, act: PassAct, word: str, span: Span) -> None:
        """An error if ``word`` of a pass at a cell names a team-mate ("пас
        красный Петрову -> 91 в2"): the pass goes to one or the other."""
        mate = self._roster((player.side,)).find((word,), suggest=False).player
        if mate is None:
            return
        balls = [b for w in act.words if w.kind == "WORD" and (b := ball_of(w.value))]
        head = _pass_word(self.lang) + (f" {label(balls[0], self.lang)}" if balls else "")
        to_mate = to_mate_word(self.lang)
        target = self._got((act.target.start, act.target.end))
        raise self.error(
            "syntax",
            "pass_mate_and_cell",
            span,
            got=self._got(span),
            to_cell=f"{head} {target}",
            to_mate=f"{head} {to_mate} {self._got(span)}",
        )

    def _only_ball(self, player: PlayerState, act: PassAct) -> str:
        """The ball of a pass that names none: the one he holds, or an error
        that shows how to write it (with his own target, so it is in range)."""
        if len(player.balls) == 1:
            return player.balls[0]
        target = act.target
        where = self._got((target.start, target.end))
        name = player.name or str(player.number)
        if player.balls:
            held = [label(b, self.lang) for b in player.balls]
            examples = [f"{_pass_word(self.lang)} {b} {where}" for b in held]
            raise self.error(
                "syntax", "pass_ball_which", (act.start, act.end), examples,
                name=name, balls=", ".join(held),
            )  # fmt: skip
        longest = self.ruleset.pass_max_distance  # a free ball any pass in range can carry
        free = [
            b.name
            for b in self.state.balls
            if b.status == "free" and self.ruleset.pass_range(b.name) >= longest
        ]
        ball = label(free[0] if free else self.ruleset.ball_order[0], self.lang)
        raise self.error(
            "syntax", "pass_ball_none", (act.start, act.end),
            name=name, example=f"{_pass_word(self.lang)} {ball} {where}",
        )  # fmt: skip

    def _catch(self, act: CatchAct) -> Catch:
        ball: str | None = None
        counter: str | None = None
        for kind, value, pair, span in self._words(act.words):
            if kind == "ball" and ball in (None, value):
                ball = value
            elif kind == "counter" and counter in (None, value):
                counter = value
            elif kind == "spell":
                raise self.error(
                    "syntax", "spell_in_catch", span, got=self._got(span), counter=pair
                )
            elif kind == "unknown":
                raise self._unknown("counter", value, span, after_ball=ball is not None)
            else:
                raise self.error("syntax", "extra_word", span, got=self._got(span))
        return Catch(ball, counter)
