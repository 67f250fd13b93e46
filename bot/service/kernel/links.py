"""A player's personal link to the ordering page: ``member.game.expires.signature``
(HMAC-SHA256 under the judge's own web secret), expiring at the round's deadline.

The service signs it (its round-open mails carry it); the web server checks it
(:func:`bot.web.auth.check_link`).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime

__all__ = ["link_mac", "sign_link"]


def link_mac(secret: bytes, body: str) -> str:
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()[:32]


def sign_link(secret: bytes, member_id: int, game_id: int, expires: datetime) -> str:
    body = f"{member_id}.{game_id}.{int(expires.timestamp())}"
    return f"{body}.{link_mac(secret, body)}"
