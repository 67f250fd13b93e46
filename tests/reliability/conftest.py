"""Fixtures of the reliability tests: the real judge as a child process, the local
Bot API server in this process, Dovecot and a capturing SMTP server on loopback."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator

import pytest
from support.fake_telegram import FakeTelegram
from support.mailservers import CaptureSmtp, Dovecot

os.environ.setdefault("PTB_TIMEDELTA", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--kill-trials",
        type=int,
        default=3,
        help="SIGKILLs of the judge in the kill-trial test (100 for the full trial)",
    )


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    if shutil.which("dovecot") is None:
        pytest.fail("dovecot is not installed: apt-get install -y dovecot-imapd dovecot-lmtpd")
    server = Dovecot()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp_server() -> Iterator[CaptureSmtp]:
    server = CaptureSmtp()
    server.start()
    try:
        yield server
    finally:
        server.stop()
