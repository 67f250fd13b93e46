"""Syntax nodes → engine orders: names to players, words to balls and spells.

:class:`Resolver` walks the lines of a message in order, keeping the context
(the round and tick headers, the team header of a game master), and collects
orders, clears and errors.  A later line for the same player (or dragon) and
tick replaces an earlier one; a clear forgets what came before it.  Legality
against the position is not checked here (see :mod:`.parse`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from engine.geometry import Direction, Side
from engine.orders import (
    DragonMove,
    DragonOrder,
    FireKind,
    Penalty,
    PlayerOrder,
    RoundOrders,
    StrikeKind,
    Substitution,
)
from engine.ruleset import Ruleset
from engine.state import MatchState, PlayerState, other_side

from .actions import Skip, Span, spell_table
from .errors import ErrorKind, OrderError
from .lexicon import KEYWORDS, norm_word, skeleton
from .messages import message, quote
from .names import NameMatch, Roster, display_name, roster_of
from .nodes import (
    ClearLine,
    DragonLine,
    Line,
    PenaltyLine,
    PlayerLine,
    Receiver,
    Ref,
    RoundHeader,
    SubstLine,
    TeamHeader,
    TickHeader,
    Ticks,
)
from .players import PlayerReader
from .result import Clear, Order
from .spelling import NearMisses
from .tokens import Word

__all__ = ["SUGGESTED_ERRORS", "Resolver", "Span", "team_of"]

SUGGESTED_ERRORS: Final = 20

_FIRES: dict[str, FireKind] = {"SHORT": "short", "VOLLEY": "volley", "JET": "jet", "WALL": "wall"}
# The jet's direction on the square field (the second edition).
_COMPASS: dict[str, Direction] = {
    **{d.name.lower(): d for d in Direction},
    "север": Direction.N,
    "северо-восток": Direction.NE,
    "восток": Direction.E,
    "юго-восток": Direction.SE,
    "юг": Direction.S,
    "юго-запад": Direction.SW,
    "запад": Direction.W,
    "северо-запад": Direction.NW,
    "св": Direction.NE,
    "юв": Direction.SE,
    "юз": Direction.SW,
    "сз": Direction.NW,
}

# The words of a dragon's order, for "did you mean" ("вперд").
_DRAGON_WORDS: Final = NearMisses(
    w
    for kind in ("FORWARD", "LEFT", "RIGHT", "STAY", "UP", "DOWN", "FIRE", "SHORT", "VOLLEY")
    for w in KEYWORDS[kind][0] + KEYWORDS[kind][1]
    if len(w) >= 3
)
_WRITTEN: Final = {"вперед": "вперёд", "подъем": "подъём", "огнем": "огнём"}  # with their ё

_MOVES: dict[str, DragonMove] = {
    "FORWARD": "forward",
    "LEFT": "left",
    "RIGHT": "right",
    "STAY": "stay",
}
_SIDE_WORDS: dict[str, Side] = {
    **dict.fromkeys(("left", "l", "левые", "левая", "левых", "лев"), "left"),
    **dict.fromkeys(("right", "r", "правые", "правая", "правых", "прав"), "right"),
}


def team_of(words: Sequence[str], state: MatchState) -> Side | None:
    """The team normalised ``words`` name: its name (or a unique 3+ letter
    start of it), else a side word ("левые", "right")."""
    key = skeleton("".join(words))
    names = {t.side: skeleton(norm_word(t.name).replace(" ", "")) for t in state.teams}
    found = {side for side, name in names.items() if name == key}
    if not found and len(key) >= 3:
        found = {side for side, name in names.items() if name.startswith(key)}
    if len(found) == 1:
        return found.pop()
    if not found and len(words) == 1:
        return _SIDE_WORDS.get(words[0])
    return None


class Resolver(PlayerReader):
    """Reads the lines of one message against ``state``; see :mod:`.parse`."""

    def __init__(
        self,
        state: MatchState,
        ruleset: Ruleset,
        side: Side | None,
        lang: str,
        controllable: frozenset[int] | None,
        dragon_allowed: bool,
        on_file: RoundOrders | None = None,
    ) -> None:
        self.state = state
        self.on_file = on_file or RoundOrders()
        self.ruleset = ruleset
        self.side = side
        self.lang = lang
        self.controllable = controllable
        self.dragon_allowed = dragon_allowed
        self.team: Side | None = side
        self.team_bad = False
        self.header: tuple[int, ...] | None = None
        # line number -> the tick header in force when it was read
        self.header_at: dict[int, tuple[int, ...]] = {}
        self.header_bad = 0  # line number of a bad tick header in force
        self.round: int | None = None
        self.players: dict[tuple[Side, int, int], PlayerOrder] = {}
        self.dragons: dict[tuple[Side, int], DragonOrder] = {}
        self.substs: dict[tuple[Side, int], Substitution] = {}
        self.penalties: dict[tuple[Side, int], Penalty] = {}
        self.clears: list[Clear] = []
        self.errors: list[OrderError] = []
        self.line_of: dict[Order, int] = {}
        self.spans: dict[Order, dict[str, Span]] = {}
        self._last: list[tuple[Side, int, int]] = []
        self._pending: dict[tuple[Side, int, int], tuple[Receiver, Line]] = {}
        self._line: Line | None = None
        self._texts: dict[int, str] = {}
        self._rosters: dict[tuple[Side, ...], Roster] = {}
        self._spells = spell_table(ruleset)
        self.other_errors = 0  # the message's errors found elsewhere (syntax)
        self._clear_set: set[Clear] = set()
        self.clear_lines: set[int] = set()

    @property
    def suggest(self) -> bool:
        """Whether an error may still look for "did you mean": only the first
        few errors of a message do (a flood of bad lines stays cheap, and
        nobody reads the twenty-first suggestion)."""
        return len(self.errors) + self.other_errors < SUGGESTED_ERRORS

    # -- errors --------------------------------------------------------------------------
    def error(
        self,
        kind: ErrorKind,
        code: str,
        span: Span,
        suggestions: Iterable[str] = (),
        **params: Any,
    ) -> Skip:
        """Record an error of the current line; the caller raises what it returns."""
        line = self._line
        assert line is not None
        text = message(code, self.lang, **params)
        sugg = tuple(dict.fromkeys(suggestions))
        if sugg:
            quoted = quote(sugg, self.lang)
            text += " " + message("suggest", self.lang, suggestions=quoted)
        self.errors.append(
            OrderError(kind, line.number, line.text, span[0], span[1], text, code, sugg)
        )
        return Skip()

    def _got(self, span: Span) -> str:
        assert self._line is not None
        return self._line.text[span[0] : span[1]].strip()

    # -- lines ---------------------------------------------------------------------------
    def line_text(self, number: int) -> str:
        """The text of a line already fed ("" for 0 or an unknown number)."""
        return self._texts.get(number, "")

    def feed(self, line: Line) -> None:
        self._line = line
        self._texts[line.number] = line.text
        if self.header is not None:
            self.header_at[line.number] = self.header
        node = line.node
        if line.desc_only:
            self._continue_description(line.description)
            return
        if node is not None or line.issue is not None:
            self._last = []
        try:
            match node:
                case RoundHeader():
                    self._round(node)
                case TickHeader():
                    self._tick_header(node.ticks)
                case TeamHeader():
                    self._team_header(node)
                case PlayerLine():
                    self._player_line(node, line.description)
                case DragonLine():
                    self._dragon_line(node)
                case SubstLine():
                    self._subst_line(node)
                case ClearLine():
                    self._clear_line(node)
                case PenaltyLine():
                    self._penalty_line(node)
                case None:
                    pass
        except Skip:
            pass

    def _round(self, node: RoundHeader) -> None:
        self.round = node.number
        if node.ticks:
            self._tick_header(node.ticks)
        if node.number != self.state.round:
            raise self.error(
                "wrong_round",
                "wrong_round",
                (node.start, node.end),
                got=node.number,
                current=self.state.round,
            )

    def _tick_header(self, specs: tuple[Ticks, ...]) -> None:
        self.header_bad = 0
        self.header = None
        try:
            self.header = self._expand(specs)
        except Skip:
            assert self._line is not None
            self.header_bad = self._line.number
            raise

    def _team_header(self, node: TeamHeader) -> None:
        # A master's lines below a bad team line have no team; a team's stay its own.
        self.team_bad = self.side is None
        side = team_of([w.value for w in node.words], self.state)
        if side is None:
            raise self.error(
                "unknown_name",
                "unknown_team",
                (node.start, node.end),
                (t.name for t in self.state.teams),
                got=self._got((node.start, node.end)),
            )
        if self.side is not None and side != self.side:
            raise self.error(
                "forbidden",
                "forbidden_team",
                (node.start, node.end),
                team=self.state.team(side).name,
            )
        self.team = side
        self.team_bad = False

    # -- ticks ---------------------------------------------------------------------------
    def _expand(self, specs: tuple[Ticks, ...]) -> tuple[int, ...]:
        last_tick = self.ruleset.ticks_per_round
        out: list[int] = []
        for s in specs:
            if s.first is None or s.last is None:
                out.extend(range(self.state.tick + 1, last_tick + 1))
                continue
            if s.first > s.last:
                raise self.error(
                    "syntax",
                    "syntax_ticks",
                    (s.start, s.end),
                    got=self._got((s.start, s.end)),
                    ticks=last_tick,
                )
            bad = next((t for t in (s.first, s.last) if not 1 <= t <= last_tick), None)
            if bad is not None:
                raise self.error(
                    "illegal", "tick_range", (s.start, s.end), tick=bad, ticks=last_tick
                )
            out.extend(range(s.first, s.last + 1))
        if not out:  # "все такты" when every tick of the round is played
            s = specs[0]
            raise self.error("illegal", "tick_past", (s.start, s.end), tick=last_tick)
        return tuple(dict.fromkeys(out))

    def _ticks(
        self, specs: tuple[Ticks, ...], span: Span, *, default_all: bool = False
    ) -> tuple[int, ...] | None:
        """The ticks a line is for; None: every tick (only where ``default_all``)."""
        if specs:
            return self._expand(specs)
        if self.header_bad:
            raise self.error("syntax", "under_bad_header", span, header=self.header_bad)
        if self.header is not None:
            return self.header
        if default_all:
            return None
        return (min(self.state.tick + 1, self.ruleset.ticks_per_round),)

    # -- teams and players ---------------------------------------------------------------
    def _need_team(self, span: Span) -> None:
        if self.team_bad:
            raise self.error("syntax", "no_team", span, example=self.state.teams[0].name)

    def _player(self, ref: Ref) -> PlayerState:
        """The player ``ref`` names among the current team (or both, for a master)."""
        span = (ref.start, ref.end)
        self._need_team(span)
        sides: tuple[Side, ...] = (self.team,) if self.team else ("left", "right")
        if ref.number is not None:
            found = [p for s in sides if (p := self.state.find_player(s, ref.number)) is not None]
            if not found:
                team = self.state.team(self.team).name if self.team else "?"
                raise self.error(
                    "unknown_name", "unknown_number", span, number=ref.number, team=team
                )
            if len(found) > 1:
                raise self.error(
                    "ambiguous_name", "no_team", span, example=self.state.teams[0].name
                )
            player = found[0]
            if ref.words:
                self._same_player(ref, player)
        else:
            player = self._by_name(ref, sides)
        if (
            self.side is not None
            and self.controllable is not None
            and player.number not in self.controllable
        ):
            raise self.error(
                "forbidden", "forbidden_player", span, name=player.name or player.number
            )
        return player

    def _same_player(self, ref: Ref, player: PlayerState) -> None:
        """An error unless the name of ``ref`` fits the player its number
        names (or names several players, him among them)."""
        m = self._roster((player.side,)).find(ref.words, suggest=False)
        fits = (m.player,) if m.player is not None else m.candidates
        if not any((p.side, p.number) == (player.side, player.number) for p in fits):
            raise self.error(
                "unknown_name",
                "name_number",
                (ref.start, ref.end),
                got=self._got((ref.start, ref.end)),
                number=player.number,
                name=player.name or player.number,
            )

    def _roster(self, sides: tuple[Side, ...]) -> Roster:
        roster = self._rosters.get(sides)
        if roster is None:
            pool = tuple(p for p in self.state.players if p.side in sides)
            roster = self._rosters[sides] = roster_of(pool)
        return roster

    def _by_name(
        self,
        ref: Ref,
        sides: tuple[Side, ...],
        *,
        steal_from: Side | None = None,
        pass_to: bool = False,
    ) -> PlayerState:
        """The player ``ref``'s words name among the teams ``sides``, or an error."""
        suggest = self.suggest
        m = self._roster(sides).find(ref.words, suggest=suggest)
        if m.player is not None:
            # the roster is shared by positions with the same names: this one's player
            found = self.state.find_player(m.player.side, m.player.number)
            assert found is not None
            return found
        span = (ref.start, ref.end)
        got = self._got(span)
        pool = [p for p in self.state.players if p.side in sides]
        if m.candidates:
            names = ", ".join(f"{p.name} ({p.number})" for p in m.candidates)
            raise self.error(
                "ambiguous_name",
                "ambiguous_player",
                span,
                (display_name(p, pool) for p in m.candidates) if suggest else (),
                got=got,
                candidates=names,
            )
        if len(ref.words) > 1 and steal_from is None and not pass_to:
            self._two_players(ref, sides, pool)
        if self.side is not None and steal_from is None:
            theirs = self._other_team(ref, sides, other_side(self.side))
            if theirs.player is not None and pass_to:
                opponents = self.state.team(theirs.player.side).name
                raise self.error(
                    "illegal", "receiver_opponent", span, name=theirs.player.name, team=opponents
                )
            if theirs.player is not None:
                raise self.error("forbidden", "forbidden_player", span, name=theirs.player.name)
        if steal_from is not None:
            ours = self._other_team(ref, sides, other_side(steal_from))
            if ours.player is not None:
                raise self.error("illegal", "steal_teammate", span, target=ours.player.name)
        raise self.error(
            "unknown_name",
            "unknown_player",
            span,
            (display_name(p, pool) for p in m.suggestions),
            got=got,
            team=self.state.team(sides[0]).name if len(sides) == 1 else "?",
        )

    def _other_team(self, ref: Ref, sides: tuple[Side, ...], other: Side) -> NameMatch:
        """Whom ``ref`` names in team ``other`` (not looked in), for a better
        refusal; by sound only if no name of ``sides`` is spelt close: «Мосан»
        is «Мосин» misspelt, not the opponents' Mason."""
        m = self._roster((other,)).find(ref.words, suggest=False)
        if m.by_sound and self._roster(sides).near_in_script(ref.words):
            return NameMatch()
        return m

    def _two_players(self, ref: Ref, sides: tuple[Side, ...], pool: Sequence[PlayerState]) -> None:
        """An error if the words of ``ref`` name two players or more, each
        alone ("Иванов, Петров: 89 в2"): one line is one player's order."""
        roster = self._roster(sides)
        # a word names a player by his whole name (in any case form), not by
        # its start: «Иван Петров» is a first name and a surname, not Иванов too
        named = [
            p
            for w in ref.words
            if (p := roster.find((w,), suggest=False).player) is not None
            and len(norm_word(w)) >= len(norm_word(p.name or "")) - 1
        ]
        players = list(dict.fromkeys((p.side, p.number) for p in named))
        if len(players) > 1:
            found = [p for p in pool if (p.side, p.number) in players]
            names = [display_name(p, pool) for p in found]
            raise self.error(
                "syntax",
                "two_players",
                (ref.start, ref.end),
                got=self._got((ref.start, ref.end)),
                names=", ".join(names),
                first=names[0],
            )

    # -- dragon, substitutions, clears, penalties ----------------------------------------
    def _dragon_side(self, span: Span) -> Side:
        self._need_team(span)
        if self.team is None:
            raise self.error("syntax", "no_team", span, example=self.state.teams[0].name)
        if not self.dragon_allowed:
            raise self.error("forbidden", "forbidden_dragon", span)
        return self.team

    def _dragon_line(self, node: DragonLine) -> None:
        span = (node.start, node.end)
        side = self._dragon_side(span)
        if node.clear:
            for tick in self._ticks(node.ticks, span, default_all=True) or (None,):
                self._clear(Clear(side, "dragon", None, tick))
            return
        ticks = self._ticks(node.ticks, span)
        assert ticks is not None
        move = self._one(node.items, {"FORWARD", "LEFT", "RIGHT", "STAY"})
        vertical = self._one(node.items, {"UP", "DOWN"})
        kinds = {"SHORT", "VOLLEY", "JET", "WALL"}
        fires = [w for w in node.items if w.kind in kinds]
        fire_word = self._one(fires, kinds)
        if fire_word is None and any(w.kind == "FIRE" for w in node.items):
            fire_word = next(w for w in node.items if w.kind == "FIRE")
        fire: FireKind | None = None
        if fire_word is not None:
            fire = _FIRES.get(fire_word.kind, "short")
        strike_word = self._one(node.items, {"TAIL", "WINGS"})
        strike: StrikeKind | None = None
        if strike_word is not None:
            strike = "tail" if strike_word.kind == "TAIL" else "wings"
        direction: Direction | None = None
        for w in node.items:
            if w.kind == "WORD":
                direction = _COMPASS.get(w.value.lower().replace("ё", "е"))
                jets = self.ruleset.field_shape == "square"  # the edition with a flame jet
                if direction is not None and fire != "jet" and jets:
                    raise self.error("syntax", "dragon_direction", (w.start, w.end), got=w.value)
                if direction is None or fire != "jet":
                    close = [
                        _WRITTEN.get(c, c)
                        for c in (_DRAGON_WORDS.close(w.value) if self.suggest else ())
                    ]
                    raise self.error(
                        "syntax",
                        "dragon_word",
                        (w.start, w.end),
                        close,
                        got=self._got((w.start, w.end)),
                    )
        step = 0 if vertical is None else (1 if vertical.kind == "UP" else -1)
        dmove: DragonMove = "stay" if move is None else _MOVES[move.kind]
        items_span = (node.items[0].start, node.items[-1].end)
        for tick in ticks:
            order = DragonOrder(side, tick, dmove, step, fire, direction, strike)
            old = self.dragons.get((side, tick))
            if old is not None:
                self.line_of.pop(old, None)
            self.dragons[(side, tick)] = order
            assert self._line is not None
            self.line_of[order] = self._line.number
            self.spans[order] = {"all": span, "action": items_span}

    def _one(self, items: Sequence[Word], kinds: set[str]) -> Word | None:
        found = [w for w in items if w.kind in kinds]
        for w in found[1:]:
            if w.kind != found[0].kind:
                raise self.error(
                    "syntax",
                    "dragon_conflict",
                    (found[0].start, w.end),
                    a=self._got((found[0].start, found[0].end)),
                    b=self._got((w.start, w.end)),
                )
        return found[0] if found else None

    def _subst_line(self, node: SubstLine) -> None:
        out = self._player(node.out)
        named = (
            self.state.find_player(out.side, node.into.number)
            if node.into.number is not None
            else self._roster((out.side,)).find(node.into.words, suggest=False).player
        )
        reserves = any(p.side == out.side and p.status == "reserve" for p in self.state.players)
        if named is None and not reserves:
            # Nobody to bring on: say so, rather than only that the name is unknown.
            raise self.error(
                "illegal",
                "subst_no_reserves",
                (node.into.start, node.into.end),
                team=self.state.team(out.side).name,
            )
        into = (
            self.state.find_player(out.side, node.into.number)
            if node.into.number is not None
            else self._by_name(node.into, (out.side,))
        )
        if into is None:
            raise self.error(
                "unknown_name",
                "unknown_number",
                (node.into.start, node.into.end),
                number=node.into.number,
                team=self.state.team(out.side).name,
            )
        sub = Substitution(out.side, out.number, into.number)
        old = self.substs.get((out.side, out.number))
        if old is not None:
            self.line_of.pop(old, None)
        self.substs[(out.side, out.number)] = sub
        assert self._line is not None
        self.line_of[sub] = self._line.number
        refs = (node.out, node.into)  # "замена X вместо Y" names them the other way round
        self.spans[sub] = {
            "all": (min(r.start for r in refs), max(r.end for r in refs)),
            "out": (node.out.start, node.out.end),
            "in": (node.into.start, node.into.end),
        }

    def _clear_line(self, node: ClearLine) -> None:
        span = (node.start, node.end)
        what = node.what
        if isinstance(what, Ref):
            player = self._player(what)
            for tick in self._ticks(node.ticks, span, default_all=True) or (None,):
                self._clear(Clear(player.side, "player", player.number, tick))
            return
        if what == "dragon":
            side = self._dragon_side(span)
            for tick in self._ticks(node.ticks, span, default_all=True) or (None,):
                self._clear(Clear(side, "dragon", None, tick))
            return
        if not node.ticks and self.header is None:
            raise self.error("syntax", "clear_what", span)
        self._need_team(span)
        if self.team is None:  # a master clears one team at a time
            raise self.error("syntax", "no_team", span, example=self.state.teams[0].name)
        explicit_all = any(t.first is None for t in node.ticks)
        ticks = None if explicit_all else self._ticks(node.ticks, span, default_all=True)
        sides: tuple[Side, ...] = (self.team,) if self.team else ("left", "right")
        for side in sides:
            for tick in ticks or (None,):
                if self.controllable is None or self.side is None:
                    self._clear(Clear(side, "all", None, tick))
                    continue
                for number in sorted(self.controllable):
                    self._clear(Clear(side, "player", number, tick))
                if self.dragon_allowed:
                    self._clear(Clear(side, "dragon", None, tick))

    def _clear(self, clear: Clear) -> None:
        """Forget what this message ordered so far that ``clear`` covers, and keep it."""
        for key, order in list(self.players.items()):
            if clear.covers_player(order):
                del self.players[key]
                self.line_of.pop(order, None)
        for dkey, dorder in list(self.dragons.items()):
            if clear.covers_dragon(dorder):
                del self.dragons[dkey]
                self.line_of.pop(dorder, None)
        if clear.what == "all" and clear.tick is None:
            for skey, sub in list(self.substs.items()):
                if sub.side == clear.side:
                    del self.substs[skey]
                    self.line_of.pop(sub, None)
        assert self._line is not None
        self.clear_lines.add(self._line.number)
        if clear not in self._clear_set:  # kept once: the service applies each to the sheet
            self._clear_set.add(clear)
            self.clears.append(clear)

    def _penalty_line(self, node: PenaltyLine) -> None:
        span = (node.start, node.end)
        if self.side is not None:
            raise self.error("forbidden", "forbidden_penalty", span)
        self._need_team(span)
        if self.team is None:
            raise self.error("syntax", "no_team", span, example=self.state.teams[0].name)
        ticks = self._ticks(node.ticks, span)
        assert ticks is not None
        for tick in ticks:
            p = Penalty(self.team, tick)
            self.penalties[(self.team, tick)] = p
            assert self._line is not None
            self.line_of[p] = self._line.number
            self.spans[p] = {"all": span}
