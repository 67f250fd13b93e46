"""The demo's channel: "delivers" outbox items by writing them down.

The demo has no Telegram token and no mail server, so both channels of the
outbox worker are a :class:`TranscriptChannel`: every item it is handed is
appended to ``transcript.txt`` (time, channel, destination, kind, text,
attachment names), and the results meant for the public channel are kept
for the runner, which files their text and pictures by round.  What the
captains send is written down too (:meth:`TranscriptChannel.incoming`), so
the transcript reads as the conversation it was.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot.service import DeliveryResult, Inbound, OutboxItem, textblocks

__all__ = ["TranscriptChannel"]

_RULE = "─" * 72


class TranscriptChannel:
    """A :class:`~bot.service.Channel` that appends what it delivers to a file.

    ``public`` is the public channel's destination: its ``results`` items are
    collected in :attr:`public_results` (oldest first) for the runner to take.
    """

    name = "transcript"

    def __init__(self, path: Path, *, public: str, now: Callable[[], datetime]) -> None:
        self.path = path
        self.public = public
        self._now = now
        self.public_results: list[OutboxItem] = []
        self.delivered: dict[str, int] = {}  # kind -> how many

    def note(self, head: str, text: str, tail: str = "") -> None:
        """Append one entry: the (fast clock's) time, ``head``, the text, ``tail``."""
        when = self._now().strftime("%Y-%m-%d %H:%M UTC")
        block = [_RULE, f"{when} · {head}", text.rstrip()]
        if tail:
            block.append(tail)
        with self.path.open("a", encoding="utf-8") as f:
            f.write("\n".join(block) + "\n\n")

    def incoming(self, msg: Inbound) -> None:
        """Record a message handed to the judge (a captain's orders, a /start)."""
        where = f"{msg.channel} {msg.sender}" + (f" (chat {msg.chat})" if msg.chat else "")
        self.note(f"{where} → judge · #{msg.external_id}", msg.text)

    async def deliver(self, item: OutboxItem) -> DeliveryResult:
        files = ", ".join(f"{a.filename} ({len(a.data) // 1024} KB)" for a in item.attachments)
        subject = f"[{item.subject}] " if item.subject and item.channel == "email" else ""
        self.note(
            f"judge → {item.channel} {item.destination} · {item.kind} · outbox #{item.id}",
            subject + textblocks.plain(item.text),
            f"attachments: {files}" if files else "",
        )
        self.delivered[item.kind] = self.delivered.get(item.kind, 0) + 1
        if item.kind == "results" and item.destination == self.public:
            self.public_results.append(item)
        return DeliveryResult(ok=True)
