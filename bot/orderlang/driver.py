"""A lean LALR loop over the parse table lark builds from ``grammar.lark``.

lark's own ``parse`` spends more time around its loop than in it: a lexer
thread and parser state for every call, and for a line that does not parse
an exception carrying an interactive parser.  An order message is dozens
(at worst thousands) of one-line parses, so :func:`run` drives the same
table and the same rule callbacks (our inline transformer) directly and
returns a failure as a value.  It gives exactly what ``Lark.parse`` gives —
a test compares both on the golden corpus and on random token strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from lark import Lark
from lark.parsers.lalr_analysis import Shift

__all__ = ["Failure", "run"]


class _Token(Protocol):
    @property
    def type(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Failure:
    """Where a token string stops parsing: the index of the token the parser
    cannot take (``len(tokens)``: the line ended too early) and the terminals
    it would have taken there."""

    index: int
    expected: frozenset[str]


_MAX_PLANS = 4096

# A plan: the moves for one string of token types — None (shift), a callable
# (shift through a terminal's callback), or (size, callback) (reduce).
_Plan = tuple[Any, ...]

# A row of the table: a terminal or rule name → (True, next state) for a shift,
# (False, (size, callback, rule name)) for a reduction.
_Row = dict[str, tuple[bool, Any]]


@dataclass(frozen=True)
class _Table:
    rows: dict[Any, _Row]
    expected: dict[Any, frozenset[str]]  # the terminals each state takes
    start: Any
    end: Any
    token_callbacks: dict[str, Any]
    plans: dict[tuple[str, ...], _Plan | Failure] = field(default_factory=dict)


@cache
def _table(parser: Lark) -> _Table:
    # lark's LALR frontend → LALR_Parser → _Parser: the table and the callbacks
    # of the tree builder (our transformer's methods, and lark's inlined helpers).
    inner = parser.parser.parser.parser
    table = inner.parse_table
    callbacks = inner.callbacks
    rows: dict[Any, _Row] = {}
    for state, actions in table.states.items():
        row: _Row = {}
        for name, (action, arg) in actions.items():
            if action is Shift:
                row[str(name)] = (True, arg)
            else:  # plain-str rule names: lark's are Tokens, slower as dict keys
                row[str(name)] = (False, (len(arg.expansion), callbacks[arg], str(arg.origin.name)))
        rows[state] = row
    start = parser.options.start[0]
    token_callbacks = {str(k): v for k, v in callbacks.items() if isinstance(k, str)}
    expected = {state: frozenset(k for k in row if k.isupper()) for state, row in rows.items()}
    return _Table(
        rows, expected, table.start_states[start], table.end_states[start], token_callbacks
    )


def run(parser: Lark, tokens: Sequence[_Token], kinds: tuple[str, ...] | None = None) -> Any:
    """What ``parser.parse(tokens)`` returns, or a :class:`Failure` where it raises
    (``kinds``: the tokens' types, if the caller has them already).

    The table's moves depend only on the tokens' types, so the moves for a
    string of types are kept (a plan): the next line of the same shape
    ("Name: cell height, action") only replays the reductions on its tokens.
    """
    t = _table(parser)
    if kinds is None:
        kinds = tuple([w.type for w in tokens])
    plan = t.plans.get(kinds)
    if plan is None:
        plan = _plan(t, kinds)
        if len(t.plans) >= _MAX_PLANS:
            t.plans.clear()  # a flood of odd shapes: start again rather than grow
        t.plans[kinds] = plan
    if isinstance(plan, Failure):
        return plan
    stack: list[Any] = []
    push = stack.append
    i = 0
    for move in plan:
        if move is None:  # a shift
            push(tokens[i])
            i += 1
        elif type(move) is tuple:
            size, callback = move
            if size:
                values = stack[-size:]
                del stack[-size:]
            else:
                values = []
            push(callback(values))
        else:  # a shift through a terminal's callback
            push(move(tokens[i]))
            i += 1
    return stack[-1]


def _plan(t: _Table, kinds: tuple[str, ...]) -> _Plan | Failure:
    """Drive the table over ``kinds``: the moves it makes, or where it fails."""
    rows, token_callbacks, end_state = t.rows, t.token_callbacks, t.end
    state_stack = [t.start]
    moves: list[Any] = []
    count = len(kinds)
    i = 0
    while True:
        kind = kinds[i] if i < count else "$END"
        step = rows[state_stack[-1]].get(kind)
        if step is None:
            return Failure(i, t.expected[state_stack[-1]])
        shift, arg = step
        if shift:
            state_stack.append(arg)
            moves.append(token_callbacks.get(kind))
            i += 1
            continue
        size, callback, origin = arg
        if size:
            del state_stack[-size:]
        moves.append((size, callback))
        state_stack.append(rows[state_stack[-1]][origin][1])
        if kind == "$END" and state_stack[-1] == end_state:
            return tuple(moves)
