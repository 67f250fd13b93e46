"""Receipts a player can check: a short digest of his team's order sheet.

Every acknowledgement of orders ends with the digest of the team's whole
sheet on file for the round at that moment (:func:`receipt`); the results
publish, per team, the digest of the orders the round was played with
(stored with the round), and ``/verify N`` recomputes them from the stored
orders.  A player whose last receipt equals his team's published digest
knows the judge played exactly what it acknowledged; a game master's change
of the orders afterwards shows as a different digest.

The digest is SHA-256 over the canonical JSON of the team's orders in the
engine's form (every list sorted, so the order of filing does not matter),
its first 12 hex digits shown in groups of four.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.geometry import SIDES
from engine.orders import RoundOrders

from ..kernel.i18n import t
from .fairness import canonical_json

__all__ = ["receipt", "sheet_digest", "short", "team_digests"]

_LISTS = ("players", "dragons", "substitutions", "penalties", "warnings")


def _team_document(orders: dict[str, Any], side: str) -> dict[str, list[Any]]:
    normalised = RoundOrders.from_json(orders).to_json()
    return {
        key: sorted(
            (item for item in normalised.get(key, []) if item.get("side") == side),
            key=canonical_json,
        )
        for key in _LISTS
    }


def sheet_digest(orders: dict[str, Any], side: str) -> str:
    """The full digest (64 hex digits) of ``side``'s part of an orders document."""
    return hashlib.sha256(canonical_json(_team_document(orders, side))).hexdigest()


def short(digest: str) -> str:
    """What a person reads and compares: ``3f2a-91c0-77de``."""
    head = digest[:12]
    return "-".join(head[i : i + 4] for i in range(0, 12, 4))


def team_digests(orders: dict[str, Any]) -> dict[str, str]:
    """Both teams' short digests of an orders document (a round's ``orders``)."""
    return {side: short(sheet_digest(orders, side)) for side in SIDES}


def receipt(orders: dict[str, Any], side: str, team: str, round_number: int, lang: str) -> str:
    """The receipt line of an acknowledgement: the digest of ``team``'s whole sheet
    on file for the round (``orders``: that sheet, as an orders document), and
    what it covers.  Called with the sheet as it stands after the message."""
    count = sum(len(v) for v in _team_document(orders, side).values())
    return t(
        "receipt", lang, digest=short(sheet_digest(orders, side)), team=team,
        round=round_number, count=count,
    )  # fmt: skip
