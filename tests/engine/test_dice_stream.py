"""The dice stream is SHA-256 in counter mode, four 53-bit draws a block
(engine/dice.py): recomputed here independently, so a faster implementation
can never change a recorded match."""

from __future__ import annotations

import hashlib

from engine.dice import Dice, derive_seed, seed_bytes


def reference(seed: bytes, n: int) -> list[float]:
    out: list[float] = []
    block = 0
    while len(out) < n:
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        block += 1
        for i in range(4):
            word = int.from_bytes(digest[8 * i : 8 * i + 8], "big")
            out.append((word >> 11) / 2**53)
    return out[:n]


def test_s9_dice_stream_is_sha256_counter_mode() -> None:
    for seed in ("42", 42, derive_seed("match", "round3/tick2"), b"\x00\x01"):
        dice = Dice(seed)
        assert [dice.uniform() for _ in range(11)] == reference(seed_bytes(seed), 11)
        assert dice.draws == 11


def test_s9_a_hex_seed_and_its_bytes_give_one_stream() -> None:
    hex_seed = derive_seed(7, "round1")
    a, b = Dice(hex_seed), Dice(bytes.fromhex(hex_seed))
    assert [a.uniform() for _ in range(6)] == [b.uniform() for _ in range(6)]
