"""Fixtures of the browser tests: the local Bot API server, and Debian's
Chromium driven by Playwright (never a browser of Playwright's own)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright
from support.fake_telegram import FakeTelegram

os.environ.setdefault("PTB_TIMEDELTA", "1")

CHROMIUM = "/usr/bin/chromium"
# Read on import: tests/conftest.py takes every DRAGONBALL_* variable out of
# each test's environment (before this module's fixtures run).
SCREENSHOTS = os.environ.get("DRAGONBALL_SCREENSHOTS")


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the browser tests save their screenshots: a scratch folder, or the
    README's docs/images when DRAGONBALL_SCREENSHOTS=docs/images asks for them
    (a test run leaves the checkout as it was)."""
    wanted = SCREENSHOTS
    if not wanted:
        return tmp_path
    folder = Path(wanted)
    if not folder.is_absolute():
        folder = Path(__file__).resolve().parents[2] / folder
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield chromium
        finally:
            await chromium.close()
