"""The privacy sweep's count, kept across its tests and printed in the terminal
summary (tests/service/conftest.py), so that every run says how much it checked."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

__all__ = ["SWEEP_COUNT", "SweepCount"]


@dataclass
class SweepCount:
    combinations: int = 0  # command × chat × role × moment, each sent once
    texts: int = 0  # outbound texts searched (answers, posts, subjects, HTML, buttons)
    moments: int = 0


SWEEP_COUNT = pytest.StashKey[SweepCount]()
