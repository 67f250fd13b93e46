"""Fixtures of the Telegram tests: the local Bot API server and a PTB Bot on it."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from support.fake_telegram import FakeTelegram
from telegram import Bot

# Opt in to PTB's timedelta time periods, as bot.telegram does: without it PTB 22
# warns (an error under pytest) whenever it builds a RetryAfter from a 429.
os.environ.setdefault("PTB_TIMEDELTA", "1")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as client:
        yield client
