"""What an operation answers: an :class:`Outcome`, data for the reply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .audience import Shown, View

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """A structured answer: an i18n text key with its parameters, plus data."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    status: str = "ok"
    game_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    # What the answer carries besides its text: a reference to pictures drawn
    # when it is delivered (see bot.service.outbox.delivery), inline (label, url) buttons.
    pictures: str | None = None
    buttons: tuple[tuple[str, str], ...] = ()
    # Whose secret the answer is (None: the asker's whole view, unless its key is
    # one of audience.PUBLIC_KEYS) and how it reads for fewer (see bot.service.kernel.audience).
    secrecy: View | None = None
    shown: Shown | None = None
    # For a command that changed a game: who was told of it (a line of the
    # reader's language added to the answer, see :func:`told_line`).
    told: Callable[[str], str] | None = None
