"""The name of an edition of the rules: «классические правила», "the classic rules".

A text, not a drawing: the service names editions as the reports do.
"""

from __future__ import annotations

from typing import Final

from engine.ruleset import Ruleset

from . import N_, t

__all__ = ["edition_name"]

# Editions by ruleset name; another ruleset is named by its own title.
_EDITIONS: Final[dict[str, str]] = {
    "classic": N_("ruleset.classic"),
    "variant-001": N_("ruleset.variant-001"),
}


def edition_name(ruleset: Ruleset, lang: str) -> str:
    """«классические правила», "the classic rules": what a game is played by."""
    key = _EDITIONS.get(ruleset.name)
    return t(key, lang) if key is not None else ruleset.title
