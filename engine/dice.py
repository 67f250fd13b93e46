"""Seeded dice: one deterministic stream of draws per round.

Draws come from SHA-256 in counter mode over the seed, so a round replays to
the same result on any Python version or machine (``random.Random`` makes no
such promise).  The engine records every draw it makes in an event, with the
probability it tested and the roll.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Final, TypeVar

T = TypeVar("T")

_SCALE: Final = 1.0 / (1 << 53)
_WORDS: Final = struct.Struct(">4Q")


def seed_bytes(seed: str | int | bytes) -> bytes:
    """The canonical bytes of a seed: hex strings and integers are accepted."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, int):
        return str(seed).encode("ascii")
    text = seed.strip().lower()
    if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
        return bytes.fromhex(text)
    return text.encode("utf-8")


def derive_seed(seed: str | int | bytes, label: str) -> str:
    """A child seed (hex) for a labelled sub-stream, e.g. one round of a match."""
    return hashlib.sha256(seed_bytes(seed) + b"/" + label.encode("utf-8")).hexdigest()


def commitment(seed: str | int | bytes) -> str:
    """The SHA-256 published before a round so the seed cannot be changed later."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


class Dice:
    """A stream of uniform draws in [0, 1) derived from a seed.

    The object owns a counter, so it is the one mutable thing the engine
    touches; a resolver makes its own from the round's seed.
    """

    __slots__ = ("_buffer", "_block", "_seed", "draws")

    def __init__(self, seed: str | int | bytes) -> None:
        self._seed = seed_bytes(seed)
        self._block = 0
        self._buffer: list[int] = []
        self.draws = 0

    def _refill(self) -> None:
        digest = hashlib.sha256(self._seed + self._block.to_bytes(8, "big")).digest()
        self._block += 1
        # Four 53-bit draws per digest, taken from 64-bit words (popped from
        # the end, so the first word is drawn first).
        self._buffer = [word >> 11 for word in reversed(_WORDS.unpack(digest))]

    def uniform(self) -> float:
        """The next draw, uniform in [0, 1), exact to 53 bits."""
        if not self._buffer:
            self._refill()
        self.draws += 1
        return self._buffer.pop() * _SCALE

    def chance(self, p: float) -> tuple[float, bool]:
        """Draw once and test it against ``p``: (roll, roll < p).

        A certain (p >= 1) or impossible (p <= 0) outcome still draws, so the
        stream does not shift when a ruleset changes a probability to 0 or 1.
        """
        roll = self.uniform()
        return roll, roll < p

    def index(self, n: int) -> tuple[float, int]:
        """Draw a fair index in range(n): (roll, index)."""
        if n <= 0:
            raise ValueError("index() needs at least one choice")
        roll = self.uniform()
        return roll, min(int(roll * n), n - 1)

    def pick(self, items: list[T] | tuple[T, ...]) -> tuple[float, T]:
        roll, i = self.index(len(items))
        return roll, items[i]
