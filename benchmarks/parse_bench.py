"""Order-language speed: messages per second for a typical team message.

A typical message is 3 ticks and 8 order lines (headers and a comment
besides), read against a mid-match position with the engine's legality
check, as the service does.  Also timed: the same without legality, and a
message at the 20 KB size limit.  Run: ``python benchmarks/parse_bench.py``
(one core; the target is 2,000 messages/s).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from bot.orderlang import MAX_MESSAGE_BYTES, parse_message
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


def _state() -> tuple[MatchState, Ruleset]:
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


def _rate(fn: Callable[[], object], seconds: float) -> tuple[float, float]:
    """Calls per second of this process's CPU time (median of 5 runs: the
    machine is shared, so wall time would count other people's work) and the
    best single call in ms of wall time."""
    rates, best = [], float("inf")
    for _ in range(5):
        n, start = 0, time.process_time()
        while (now := time.process_time()) - start < seconds / 5:
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
            n += 1
        rates.append(n / (now - start))
    return statistics.median(rates), best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    state, ruleset = _state()
    check = parse_message(TYPICAL, state=state, ruleset=ruleset, side="left")
    assert check.ok, check.errors
    assert len(check.orders.players) == 6 and len(check.orders.dragons) == 3

    big_lines = TYPICAL.splitlines()
    while len("\n".join(big_lines).encode()) < MAX_MESSAGE_BYTES - 100:
        big_lines += TYPICAL.splitlines()[1:]
    big = "\n".join(big_lines)[: MAX_MESSAGE_BYTES // 2]  # Cyrillic: 2 bytes a character
    big = big[: big.rfind("\n")]
    size = len(big.encode())

    cases = {
        "typical message, with legality": lambda: parse_message(
            TYPICAL, state=state, ruleset=ruleset, side="left"
        ),
        "typical message, names only": lambda: parse_message(
            TYPICAL, state=state, ruleset=ruleset, side="left", check_legality=False
        ),
        f"{size / 1024:.1f} KB message, with legality": lambda: parse_message(
            big, state=state, ruleset=ruleset, side="left"
        ),
    }
    for name, fn in cases.items():
        rate, best = _rate(fn, args.seconds)
        print(f"{name:40s} {rate:8.0f} messages per CPU second   best call {best:7.3f} ms")


if __name__ == "__main__":
    main()
