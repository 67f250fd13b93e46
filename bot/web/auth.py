"""Who is calling the web page's API: Telegram's signed ``initData``, or a
personal link for a player who plays by e-mail.

Telegram signs the Mini App's launch data with the bot token (its
documentation, «Validating data received via the Mini App»): the secret key
is HMAC-SHA256 of the token keyed with the string ``WebAppData``, and the
``hash`` field is HMAC-SHA256 of the other fields, sorted by name and joined
``key=value`` with line feeds, under that key.  ``auth_date`` says when it
was signed; older than the configured age, it is refused like a forged one.

A personal link carries ``member.game.expires.signature`` (HMAC-SHA256 under
the judge's own web secret), expiring at the round's deadline.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl

from bot.service.kernel.links import link_mac as _link_mac
from bot.service.kernel.links import sign_link

__all__ = ["Caller", "Unauthorized", "check_init_data", "check_link", "sign_init_data", "sign_link"]


class Unauthorized(Exception):
    """Not signed, signed wrongly, or too old: the API answers 401."""


@dataclass(frozen=True)
class Caller:
    """A checked caller: a Telegram user, or a member by a personal link."""

    telegram_user_id: int | None = None
    member_id: int | None = None
    game_id: int | None = None  # a link is for one game
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
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        raise Unauthorized("malformed") from None
    got = fields.get("hash", "")
    want = hmac.new(
        _init_data_key(token), _data_check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    if not got or not hmac.compare_digest(got, want):
        raise Unauthorized("bad signature")
    try:
        signed = datetime.fromtimestamp(int(fields["auth_date"]), UTC)
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise Unauthorized("incomplete") from None
    if not timedelta(0) - timedelta(minutes=5) <= now - signed <= max_age:
        raise Unauthorized("stale")
    lang = user.get("language_code")
    return Caller(telegram_user_id=user_id, lang=lang if isinstance(lang, str) else None)


def check_link(secret: bytes, token: str, *, now: datetime) -> Caller:
    try:
        member, game, expires, mac = token.split(".")
        body = f"{int(member)}.{int(game)}.{int(expires)}"
    except ValueError:
        raise Unauthorized("malformed") from None
    if not hmac.compare_digest(mac, _link_mac(secret, body)):
        raise Unauthorized("bad signature")
    if now.timestamp() > int(expires):
        raise Unauthorized("expired")
    return Caller(member_id=int(member), game_id=int(game))
