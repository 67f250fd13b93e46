"""Player lines: who, on which ticks, where he flies, and what he does.

:class:`PlayerReader` is the part of :class:`.resolve.Resolver` that turns a
player line into orders, one per tick.  A pass to a team-mate ("пас красный
игроку 2") is completed once the whole message is read (:meth:`finish`): the
ball flies to where the team-mate's order for that tick takes him, whether
that order comes later in the message or is on file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.geometry import Side
from engine.orders import Pass, PlayerOrder, RoundOrders, Substitution
from engine.state import MatchState, PlayerState

from .actions import ActionReader, Skip, Span
from .messages import label, lang_of
from .nodes import Flight, Line, PassAct, PlayerLine, Receiver, Ref, Ticks
from .result import Clear, Order

__all__ = ["PlayerReader"]

Key = tuple[Side, int, int]


class PlayerReader(ActionReader):
    """Reads player lines; the resolver provides the context and the sheet."""

    state: MatchState
    on_file: RoundOrders
    players: dict[Key, PlayerOrder]
    substs: dict[tuple[Side, int], Substitution]
    line_of: dict[Order, int]
    spans: dict[Order, dict[str, Span]]
    _line: Line | None
    _last: list[Key]
    _pending: dict[Key, tuple[Receiver, Line]]

    def _player(self, ref: Ref) -> PlayerState:
        raise NotImplementedError

    def _ticks(
        self, specs: tuple[Ticks, ...], span: Span, *, default_all: bool = False
    ) -> tuple[int, ...] | None:
        raise NotImplementedError

    def _clear(self, clear: Clear) -> None:
        raise NotImplementedError

    def _player_line(self, node: PlayerLine, description: str) -> None:
        player = self._player(node.subject)
        span = (node.subject.start, node.end)
        if node.clear:
            ticks = self._ticks(node.ticks, span, default_all=True)
            for tick in ticks or (None,):
                self._clear(Clear(player.side, "player", player.number, tick))
            return
        ticks = self._ticks(node.ticks, span)
        assert ticks is not None
        if node.flight is None:
            raise self.error("syntax", "no_flight", span)
        where = node.flight
        if isinstance(where, Flight) and where.origin is not None:
            self._moved_from(where, player, ticks)
        keys = []
        for tick in ticks:
            if isinstance(where, Flight):
                cell, height = self._flight(where, player, tick)
            else:
                cell, height = self._stay(player, tick, (where.start, where.end))
            action = self._action(player, node.action, height)
            order = PlayerOrder(
                player.side, player.number, tick, cell, height, action, description, node.safety
            )
            key = (player.side, player.number, tick)
            self._replace_player(key, order)
            parts = {"all": span, "flight": (where.start, where.end)}
            if node.action is not None:
                parts["action"] = (node.action.start, node.action.end)
            self.spans[order] = parts
            if isinstance(node.action, PassAct) and isinstance(node.action.target, Receiver):
                assert self._line is not None
                self._pending[key] = (node.action.target, self._line)
            keys.append(key)
        self._last = keys

    def _replace_player(self, key: Key, order: PlayerOrder, line: int | None = None) -> None:
        """Put ``order`` on the message's sheet, replacing the one for the same
        key (``line``: the same order's line, when only its description grows)."""
        old = self.players.get(key)
        spans: dict[str, Span] = {}
        if old is not None:
            self.line_of.pop(old, None)
            spans = self.spans.pop(old, {})
        if line is None:
            self._pending.pop(key, None)
        assert self._line is not None
        self.players[key] = order
        self.line_of[order] = self._line.number if line is None else line
        self.spans[order] = spans

    def _continue_description(self, text: str) -> None:
        if not text:
            return
        for key in self._last:
            order = self.players.get(key)
            if order is None:
                continue
            joined = f"{order.description} {text}" if order.description else text
            self._replace_player(key, replace(order, description=joined), self.line_of[order])

    def _before(self, player: PlayerState, tick: int) -> tuple[int, int] | None:
        """Where the player is when ``tick`` starts: after his previous tick's
        order (this message's, else the one on file), or where he is now."""
        key = (player.side, player.number, tick - 1)
        before = self.players.get(key) or self.on_file.player_order(*key)
        if before is not None:
            return before.cell, before.height
        if tick != self.state.tick + 1:
            return None
        if player.status == "reserve":  # coming on: where the player he replaces stands
            subs = (*self.substs.values(), *self.on_file.substitutions)
            out = next(
                (
                    s.out_number
                    for s in subs
                    if s.side == player.side and s.in_number == player.number
                ),
                None,
            )
            if out is not None and (gone := self.state.find_player(player.side, out)) is not None:
                player = gone
        if player.cell is not None and player.height is not None:
            return player.cell, player.height
        return None

    def _stay(self, player: PlayerState, tick: int, span: Span) -> tuple[int, int]:
        where = self._before(player, tick)
        if where is None:
            raise self.error("syntax", "stay_unknown", span, name=player.name, tick=tick)
        return where

    def _moved_from(self, f: Flight, player: PlayerState, ticks: tuple[int, ...]) -> None:
        """A move copied from a round report ("Иванов 88/2→89/2") is a flight
        to its end, if it starts where the player stands when each of its
        ticks begins (as far as the sheet knows); else an error with the
        line to write, the move's end alone ("Иванов: 89 в2")."""
        assert f.origin is not None and self._line is not None
        for tick in ticks:
            before = (f.cell, f.height) if tick - 1 in ticks else self._before(player, tick)
            if before == f.origin:
                continue
            text = self._line.text
            h = "h" if lang_of(self.lang) == 1 else "в"
            head = text[: f.start].rstrip()
            # "Иванов 88/2→89/2" → «Иванов: 89 в2»; after an action
            # ("Иванов: ловить, 88/2→89/2") the line keeps its own marks
            head = head if ":" in head or head.endswith(",") else f"{head}:"
            example = f"{head} {f.cell} {h}{f.height}{text[f.end :]}".strip()
            params: dict[str, Any] = {
                "got": text[f.start : f.end],
                "name": player.name or player.number,
                "tick": tick,
                "from_cell": f.origin[0],
                "from_height": f.origin[1],
                "to_cell": f.cell,
                "to_height": f.height,
                "example": example,
            }
            if before is None:
                raise self.error("syntax", "moved_from_unknown", (f.start, f.end), **params)
            cell, height = before
            raise self.error(
                "syntax", "moved_from", (f.start, f.end), cell=cell, height=height, **params
            )

    def _flight(self, f: Flight, player: PlayerState, tick: int) -> tuple[int, int]:
        if f.height is None:
            before = self._before(player, tick)
            height = before[1] if before is not None else 2
            raise self.error("syntax", "no_height", (f.start, f.end), cell=f.cell, height=height)
        return f.cell, f.height

    # -- passes to a team-mate -----------------------------------------------------------
    def finish(self) -> None:
        """Complete the passes to team-mates, now that every line is read."""
        for key, (receiver, line) in list(self._pending.items()):
            order = self.players.get(key)
            if order is None or not isinstance(order.action, Pass):
                continue  # cleared or replaced since
            self._line = line
            try:
                self._aim(key, order, order.action, receiver)
            except Skip:
                del self.players[key]
                self.line_of.pop(order, None)
        self._pending.clear()

    def _aim(self, key: Key, order: PlayerOrder, action: Pass, receiver: Receiver) -> None:
        side, _, tick = key
        ref = receiver.who
        span = (receiver.start, receiver.end)
        if ref.number is not None:
            mate = self.state.find_player(side, ref.number)
            if mate is None:
                raise self.error(
                    "unknown_name", "unknown_number", span,
                    number=ref.number, team=self.state.team(side).name,
                )  # fmt: skip
        else:
            mate = self._by_name(ref, (side,), pass_to=True)
        # The ball lands where it is aimed on the tick it lands (the next one,
        # when passes fly a tick), after the players' flights of that tick.
        lands = tick + 1 if self.ruleset.passes_next_tick else tick
        theirs = self.players.get((side, mate.number, lands)) or self.on_file.player_order(
            side, mate.number, lands
        )
        if theirs is None:
            now = self._before(mate, lands)
            if now is None and mate.cell is not None and mate.height is not None:
                now = mate.cell, mate.height  # where he is now, as a likely cell
            cell, height = now if now is not None else (order.cell, order.height)
            word, to, h = ("pass", "to", "h") if lang_of(self.lang) == 1 else ("пас", "->", "в")
            example = f"{word} {label(action.ball, self.lang)} {to} {cell} {h}{height}"
            code = (
                "receiver_unknown"
                if lands <= self.ruleset.ticks_per_round
                else "receiver_next_round"
            )
            raise self.error(
                "syntax", code, span, name=mate.name or mate.number, tick=lands, example=example
            )
        aimed = replace(order, action=replace(action, cell=theirs.cell, height=theirs.height))
        spans = self.spans.get(order, {})
        self._replace_player(key, aimed, self.line_of[order])
        self.spans[aimed] = spans
