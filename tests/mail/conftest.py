"""Fixtures of the e-mail tests: a real Dovecot and a capturing SMTP server on loopback."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from support.mailservers import CaptureSmtp, CuttingProxy, Dovecot, MailUser

from storage.db import Database
from storage.testing import temporary_database


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """One Dovecot for the session (a reload with new users is unreliable)."""
    if shutil.which("dovecot") is None:
        pytest.fail(
            "dovecot is not installed: apt-get install -y dovecot-imapd dovecot-lmtpd "
            "(.ci/run does it)"
        )
    server = Dovecot()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """An empty SQLite database of the judge's own."""
    with temporary_database("sqlite", tmp_path) as database:
        yield database


@pytest.fixture
def mailbox(dovecot: Dovecot) -> MailUser:
    """A fresh, empty mailbox of its own for this test."""
    return dovecot.new_user()


@pytest.fixture
def smtp_server() -> Iterator[CaptureSmtp]:
    server = CaptureSmtp()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def cutting_proxy(dovecot: Dovecot) -> AsyncIterator[CuttingProxy]:
    proxy = CuttingProxy(dovecot.imap_port)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.stop()
