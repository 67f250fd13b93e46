"""Order-language speed: messages per second for a typical team message.

A typical message is 3 ticks and 8 order lines (headers and a comment
besides), read against a mid-match position with the engine's legality
check, as the service does.  Also timed: the same without legality, the
floor — lark's bare parse of the same lines with the same grammar (issue 20:
the full check within 3× of it) — and a message at the 20 KB size limit
(198 order lines, the rest comments).  Run: ``python benchmarks/parse_bench.py``
(one core; the target is 2,000 messages/s).  The last line is for scripts.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from importlib import resources

from lark import Lark, Token

from bot.orderlang import MAX_MESSAGE_BYTES, parse_message
from bot.orderlang.syntax import _read, _TokenLexer, split_lines
from bot.orderlang.tokens import tokenize
from engine import BallState, MatchState, PlayerRef, Ruleset, Side, load_ruleset, new_match

TYPICAL = """Раунд 2
Такт 1
Иванов: 89 в2, пас красный -> 91 в2 гуллис-дуллис // финт и пас
Петров: 91 в2, ловить цап-царапс
Смирнов: 108 в1, отнять Соколова
Дракон: вперёд, вверх
Такт 2
Иванов: 90 в2
Петров: 107 в2 -- к центру
Такт 3
Иванов: 91 в3, ловить
Дракон (все такты): стоять
"""


@cache
def bench_state() -> tuple[MatchState, Ruleset]:
    """The mid-match position the benchmarks read messages against."""
    ruleset = load_ruleset()
    s, _ = new_match(ruleset, "bench", reserves_per_team=2)
    s = replace(s, round=2)
    placed: tuple[tuple[Side, int, int, int, str | None], ...] = (
        ("left", 1, 88, 2, "red"),
        ("left", 2, 90, 2, None),
        ("left", 4, 107, 1, None),
        ("right", 1, 108, 1, "green"),
    )
    for side, number, cell, height, ball in placed:
        p = s.player(side, number)
        s = s.with_player(replace(p, cell=cell, height=height, balls=(ball,) if ball else ()))
        if ball:
            s = s.with_ball(BallState(ball, "held", cell, height, holder=PlayerRef(side, number)))
    return s, ruleset


def bare_lark(text: str) -> Callable[[], object]:
    """The floor: lark's own LALR parse (tree building, no transformer) of the
    message's order lines with the same grammar.  The grammar declares its
    terminals (our lexer classifies words through the vocabulary), so lark
    gets each line as the tokens our lexer makes, prepared beforehand."""
    grammar = resources.files("bot.orderlang").joinpath("grammar.lark").read_text("utf-8")
    lark = Lark(grammar, parser="lalr", lexer=_TokenLexer)
    lines = []
    for raw in split_lines(text):
        order_part = raw.split("//")[0].split(" -- ")[0]
        tokens = [Token(w.type, w.value, start_pos=w.start) for w in tokenize(order_part)]
        if tokens:
            lines.append(tokens)
    for tokens in lines:
        lark.parse(tokens)  # type: ignore[arg-type]  # every line of the message parses

    def run() -> None:
        for tokens in lines:
            lark.parse(tokens)  # type: ignore[arg-type]

    return run


def rates(cases: dict[str, Callable[[], object]], seconds: float) -> dict[str, tuple[float, float]]:
    """Calls per second of this process's CPU time and the best single call
    in ms, for each case.  The cases take turns, five slices each, and the
    median slice counts: the machine is shared, so a slow spell hits every
    case alike and the ratios between them hold."""
    slices: dict[str, list[float]] = {name: [] for name in cases}
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(5):
        for name, fn in cases.items():
            n, start = 0, time.process_time()
            while (now := time.process_time()) - start < seconds / 5:
                t = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - t)
                n += 1
            slices[name].append(n / (now - start))
    return {name: (statistics.median(slices[name]), best[name] * 1000) for name in cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    state, ruleset = bench_state()
    check = parse_message(TYPICAL, state=state, ruleset=ruleset, side="left")
    assert check.ok, check.errors
    assert len(check.orders.players) == 6 and len(check.orders.dragons) == 3

    # 18 copies of the typical sheet (198 order lines: the limit is 200), then
    # comments up to the 20 KB size limit
    big_lines = ["Раунд 2"] + TYPICAL.splitlines()[1:] * 18
    filler = "-- " + "комментарий " * 6
    while len("\n".join([*big_lines, filler]).encode()) <= MAX_MESSAGE_BYTES:
        big_lines.append(filler)
    big = "\n".join(big_lines)
    size = len(big.encode())
    assert parse_message(big, state=state, ruleset=ruleset, side="left").ok

    def fresh(text: str, legality: bool = True) -> Callable[[], object]:
        """A reading of ``text`` as if the judge had not seen its lines before:
        the line cache is emptied first (the word caches stay warm, as the
        names and keywords of real traffic keep them)."""

        def read() -> object:
            _read.cache_clear()
            return parse_message(
                text, state=state, ruleset=ruleset, side="left", check_legality=legality
            )

        return read

    cases = {
        "typical": fresh(TYPICAL),
        "names": fresh(TYPICAL, legality=False),
        "seen": lambda: parse_message(TYPICAL, state=state, ruleset=ruleset, side="left"),
        "bare": bare_lark(TYPICAL),
        "big": fresh(big),
    }
    got = rates(cases, args.seconds)
    labels = {
        "typical": "typical message, with legality",
        "names": "typical message, names only",
        "seen": "typical message, lines seen before",
        "bare": "typical message, bare lark parse (floor)",
        "big": f"{size / 1024:.1f} KB message, with legality",
    }
    for name, label in labels.items():
        rate, best = got[name]
        print(f"{label:42s} {rate:8.0f} messages per CPU second   best call {best:7.3f} ms")
    ratio = got["bare"][0] / got["typical"][0]
    ratio_best = got["typical"][1] / got["bare"][1]
    print(f"full check / bare lark parse: {ratio:.2f}x (best calls: {ratio_best:.2f}x)")
    print(
        f"typical_per_s={got['typical'][0]:.0f} names_only_per_s={got['names'][0]:.0f} "
        f"bare_lark_per_s={got['bare'][0]:.0f} ratio={ratio:.2f} ratio_best={ratio_best:.2f} "
        f"big_kb={size / 1024:.1f} big_ms={1000 / got['big'][0]:.1f} target_per_s=2000 target_ratio=3"
    )


if __name__ == "__main__":
    main()
