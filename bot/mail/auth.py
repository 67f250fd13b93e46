"""Who is writing: DKIM results of the receiving server, and failure rate limits.

The ``From`` header of a mail proves nothing. A message is accepted when it
carries the member's pass phrase, or, when the game master allows it, when
the receiving mail server reports a DKIM pass for the sender's domain in its
``Authentication-Results`` header (RFC 8601). Only results stamped with the
configured ``authserv-id`` of our own receiving server count: anyone can put
an ``Authentication-Results`` header into a message, and RFC 8601 section 5
makes the receiving server delete forged ones carrying its own id.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = [
    "AuthResult",
    "FailureLimiter",
    "dkim_verified",
    "parse_authentication_results",
]

_COMMENT = re.compile(r"\([^()]*\)")
_PROPERTY = re.compile(r"([A-Za-z0-9_.-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)")


@dataclass(frozen=True)
class AuthResult:
    """One ``method=result`` entry of an ``Authentication-Results`` header."""

    authserv_id: str
    method: str
    result: str
    properties: tuple[tuple[str, str], ...] = ()

    def get(self, name: str) -> str | None:
        for key, value in self.properties:
            if key == name:
                return value
        return None


def _without_comments(value: str) -> str:
    previous = None
    while previous != value:  # nested comments: remove from the inside out
        previous, value = value, _COMMENT.sub(" ", value)
    return value


def parse_authentication_results(value: str) -> list[AuthResult]:
    """The method results of one header value; malformed parts are skipped."""
    parts = [part.strip() for part in _without_comments(value).split(";")]
    if not parts or not parts[0]:
        return []
    authserv_id = parts[0].split()[0].lower()
    results = []
    for part in parts[1:]:
        pairs = [(key.lower(), val.strip('"')) for key, val in _PROPERTY.findall(part)]
        if not pairs:
            continue
        (method, result), properties = pairs[0], tuple(pairs[1:])
        results.append(AuthResult(authserv_id, method.split("/")[0], result.lower(), properties))
    return results


def _aligned(signing_domain: str, from_domain: str) -> bool:
    """Relaxed alignment (as DMARC): the From domain is the signing domain or below it."""
    signing, sender = signing_domain.lower().rstrip("."), from_domain.lower().rstrip(".")
    return sender == signing or sender.endswith("." + signing)


def dkim_verified(headers: list[str], from_address: str, authserv_id: str | None) -> bool:
    """True when our receiving server reports a DKIM pass for the From domain.

    ``headers`` are the message's ``Authentication-Results`` values; results of
    any other server than ``authserv_id`` are ignored, and with no configured
    ``authserv_id`` nothing is trusted.
    """
    if not authserv_id or "@" not in from_address:
        return False
    from_domain = from_address.rsplit("@", 1)[1]
    for value in headers:
        for result in parse_authentication_results(value):
            if result.authserv_id != authserv_id.lower() or result.method != "dkim":
                continue
            if result.result != "pass":
                continue
            domain = result.get("header.d")
            if domain is None:
                identity = result.get("header.i") or ""
                domain = identity.rsplit("@", 1)[1] if "@" in identity else None
            if domain and _aligned(domain, from_domain):
                return True
    return False


class FailureLimiter:
    """Counts authentication failures per address in a sliding window, and locks
    an address that reached the limit (:meth:`lock`) until a moment or until the
    unlock code it was given comes back (:meth:`unlock`).

    Kept in memory: a restart forgets the counts and the locks, which only
    delays the next lock (the judge's own mail reader is one process).
    """

    def __init__(
        self,
        max_failures: int = 3,
        window: timedelta = timedelta(hours=1),
        lock_for: timedelta = timedelta(hours=1),
    ) -> None:
        if max_failures < 1:
            raise ValueError("max_failures must be at least 1")
        self.max_failures = max_failures
        self.window = window
        self.lock_for = lock_for
        self._failures: dict[str, deque[datetime]] = {}
        self._locks: dict[str, tuple[datetime, bytes]] = {}  # until, digest of the code

    def _recent(self, address: str, now: datetime) -> deque[datetime]:
        times = self._failures.setdefault(address.lower(), deque())
        while times and now - times[0] > self.window:
            times.popleft()
        return times

    def record(self, address: str, now: datetime) -> int:
        """Note one failure; returns the failures of ``address`` in the window."""
        times = self._recent(address, now)
        times.append(now)
        return len(times)

    def exceeded(self, address: str, now: datetime) -> bool:
        """True when ``address`` already had ``max_failures`` failures in the window."""
        return len(self._recent(address, now)) >= self.max_failures

    def clear(self, address: str) -> None:
        """Forget the failures and the lock of ``address`` (after a successful login)."""
        self._failures.pop(address.lower(), None)
        self._locks.pop(address.lower(), None)

    def lock(self, address: str, now: datetime) -> tuple[str, datetime]:
        """Lock ``address`` for ``lock_for``; returns the unlock code and the end."""
        code = "-".join("".join(secrets.choice(_CODE_ALPHABET) for _ in range(4)) for _ in range(2))
        until = now + self.lock_for
        self._locks[address.lower()] = (until, _digest(code))
        return code, until

    def locked_until(self, address: str, now: datetime) -> datetime | None:
        """The end of ``address``'s lock, or None when it is not locked (any more)."""
        lock = self._locks.get(address.lower())
        if lock is None:
            return None
        if now >= lock[0]:  # over: a fresh start, with no failures counted
            self.clear(address)
            return None
        return lock[0]

    def unlock(self, address: str, words: Iterable[str], now: datetime) -> bool:
        """Unlock ``address`` when one of ``words`` is its unlock code."""
        lock = self._locks.get(address.lower())
        if lock is None or now >= lock[0]:
            return False
        for word in words:
            candidate = word.strip().upper()
            if len(candidate) == 9 and hmac.compare_digest(_digest(candidate), lock[1]):
                self.clear(address)
                return True
        return False


_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # 31 signs, none read as another: ~40 bits


def _digest(code: str) -> bytes:
    return hashlib.sha256(code.encode()).digest()
