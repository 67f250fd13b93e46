"""Who is calling the web page's API: Telegram's signed ``initData``, or a
personal link for a player who plays by e-mail.

Telegram signs the Mini App's launch data with the bot token (its
documentation, «Validating data received via the Mini App»): the secret key
is HMAC-SHA256 of the token keyed with the string ``WebAppData``, and the
``hash`` field is HMAC-SHA256 of the other fields, sorted by name and joined
``key=value`` with line feeds, under that key.  ``auth_date`` says when it
was signed; older than the configured age, it is refused like a forged one.

A personal link carries ``member.game.round.signature`` (HMAC-SHA256 under
the judge's own web secret): it names one round of one game and is good
while that round is the game's open one (``bot.web.views.seat`` checks it),
for that member's orders of that round only (``bot.web.server`` refuses any
command).  It travels in the page address's fragment (``#link=``), which no
server or proxy sees or logs.

Every malformed credential — a non-ASCII byte, a field that is no number, a
number out of range — is Unauthorized, never an error of the server.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl

from bot.service.kernel.links import LINK_PATTERN, link_mac, sign_link

__all__ = ["Caller", "Unauthorized", "check_init_data", "check_link", "sign_init_data", "sign_link"]


class Unauthorized(Exception):
    """Not signed, signed wrongly, or too old: the API answers 401."""


@dataclass(frozen=True)
class Caller:
    """A checked caller: a Telegram user, or a member by a personal link."""

    telegram_user_id: int | None = None
    member_id: int | None = None
    game_id: int | None = None  # a link is for one game
    round: int | None = None  # … and one round of it
    lang: str | None = None  # Telegram's language_code


def _data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def _init_data_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def sign_init_data(fields: dict[str, str], token: str) -> str:
    """``fields`` signed as Telegram signs them (the tests' Telegram does this)."""
    from urllib.parse import urlencode

    digest = hmac.new(
        _init_data_key(token), _data_check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    return urlencode({**fields, "hash": digest})


def check_init_data(init_data: str, token: str, *, max_age: timedelta, now: datetime) -> Caller:
    """The Telegram user whose launch data ``init_data`` is, or Unauthorized."""
    # Telegram's launch data is URL-encoded ASCII; anything else is not its.
    if not init_data.isascii():
        raise Unauthorized("malformed")
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
        check = _data_check_string(fields).encode()
    except ValueError:  # UnicodeEncodeError too (a lone surrogate escaped as %ED%A0%80)
        raise Unauthorized("malformed") from None
    got = fields.get("hash", "")
    want = hmac.new(_init_data_key(token), check, hashlib.sha256).hexdigest()
    # Bytes: compare_digest refuses a str with a non-ASCII character (a TypeError).
    if not got or not hmac.compare_digest(got.encode(), want.encode()):
        raise Unauthorized("bad signature")
    try:
        signed = datetime.fromtimestamp(int(fields["auth_date"]), UTC)
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError, OverflowError, OSError, RecursionError):
        raise Unauthorized("incomplete") from None
    if not timedelta(0) - timedelta(minutes=5) <= now - signed <= max_age:
        raise Unauthorized("stale")
    lang = user.get("language_code")
    return Caller(telegram_user_id=user_id, lang=lang if isinstance(lang, str) else None)


def check_link(secret: bytes, token: str) -> Caller:
    """The member, game and round a link names, or Unauthorized.  Whether that
    round is still the open one is the caller's to check (it needs the game)."""
    match = LINK_PATTERN.fullmatch(token) if token.isascii() else None
    if match is None:
        raise Unauthorized("malformed")
    member, game, rnd, mac = match.groups()
    if not hmac.compare_digest(mac.encode(), link_mac(secret, f"{member}.{game}.{rnd}").encode()):
        raise Unauthorized("bad signature")
    return Caller(member_id=int(member), game_id=int(game), round=int(rnd))
