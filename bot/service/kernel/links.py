"""A player's personal link to the ordering page: ``member.game.round.signature``
(HMAC-SHA256 under the judge's own web secret), good for that round only.

The service signs it (its round-open mails carry it); the web server checks it
(:func:`bot.web.auth.check_link`).
"""

from __future__ import annotations

import hashlib
import hmac
import re

__all__ = ["LINK_PATTERN", "link_mac", "sign_link"]

# What a link's signature covers starts with its kind, so no other signed
# string of the judge (nor the links of before, which named an expiry) can
# pass for one.
_LINK_KIND = "dragonball-round-link"
LINK_PATTERN = re.compile(r"([0-9]{1,12})\.([0-9]{1,12})\.([0-9]{1,6})\.([0-9a-f]{32})")


def link_mac(secret: bytes, body: str) -> str:
    return hmac.new(secret, f"{_LINK_KIND}:{body}".encode(), hashlib.sha256).hexdigest()[:32]


def sign_link(secret: bytes, member_id: int, game_id: int, round_number: int) -> str:
    """The personal link of a member for one round of one game."""
    body = f"{member_id}.{game_id}.{round_number}"
    return f"{body}.{link_mac(secret, body)}"
