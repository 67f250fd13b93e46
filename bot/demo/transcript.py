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

from bot.i18n import N_, t
from bot.service import DeliveryResult, Inbound, OutboxItem, PartLog
from bot.service.kernel import textblocks

__all__ = ["TranscriptChannel"]

_RULE = "─" * 72
# What an outbox item is (OutboxItem.kind), in words; another kind is shown as it is.
_KINDS = {
    "ack": N_("demo.kind.ack"),
    "round_open": N_("demo.kind.round_open"),
    "reminder": N_("demo.kind.reminder"),
    "results": N_("demo.kind.results"),
    "match_end": N_("demo.kind.match_end"),
    "announce": N_("demo.kind.announce"),
    "notice": N_("demo.kind.notice"),
    "gm_alert": N_("demo.kind.gm_alert"),
}
_CHANNELS = {"telegram": N_("demo.channel.telegram"), "email": N_("demo.channel.email")}


class TranscriptChannel:
    """A :class:`~bot.service.Channel` that appends what it delivers to a file.

    ``public`` is the public channel's destination: its ``results`` items are
    collected in :attr:`public_results` (oldest first) for the runner to take.
    """

    name = "transcript"

    def __init__(
        self, path: Path, *, public: str, now: Callable[[], datetime], lang: str = "ru"
    ) -> None:
        self.path = path
        self.lang = lang
        self.public = public
        self._now = now
        self.public_results: list[OutboxItem] = []
        self.delivered: dict[str, int] = {}  # kind -> how many
        # Delivered items wait here and are written in the order the judge queued
        # them: the worker sends to several chats side by side, and which of two
        # finishes first must not change the transcript from run to run.
        self._held: list[tuple[int, str]] = []

    def _channel(self, name: str) -> str:
        return t(_CHANNELS[name], self.lang) if name in _CHANNELS else name

    def note(self, head: str, text: str, tail: str = "") -> None:
        """Append one entry: the (fast clock's) time, ``head``, the text, ``tail``."""
        self.flush()
        self._write(self._entry(head, text, tail))

    def flush(self) -> None:
        """Write the delivered items held so far, in the judge's order."""
        held, self._held = sorted(self._held), []
        if held:
            self._write("".join(entry for _, entry in held))

    def _entry(self, head: str, text: str, tail: str) -> str:
        when = self._now().strftime("%Y-%m-%d %H:%M UTC")
        block = [_RULE, f"{when} · {head}", text.rstrip()]
        if tail:
            block.append(tail)
        return "\n".join(block) + "\n\n"

    def _write(self, entries: str) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(entries)

    def incoming(self, msg: Inbound) -> None:
        """Record a message handed to the judge (a captain's orders, a /start)."""
        self.note(self.head_in(msg.channel, msg.sender, msg.external_id, msg.chat), msg.text)

    def head_in(self, channel: str, sender: str, number: str, chat: str | None = None) -> str:
        """«Telegram 1001 (чат 1001) → судье · №1001:3»: who wrote to the judge."""
        key = N_("demo.head_in_chat") if chat else N_("demo.head_in")
        name = self._channel(channel)
        return t(key, self.lang, channel=name, sender=sender, chat=chat, id=number)

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        files = ", ".join(
            t("demo.file", self.lang, name=a.filename, kb=len(a.data) // 1024)
            for a in item.attachments
        )
        subject = f"[{item.subject}] " if item.subject and item.channel == "email" else ""
        kind = t(_KINDS[item.kind], self.lang) if item.kind in _KINDS else item.kind
        head = t(
            "demo.head_out",
            self.lang,
            channel=self._channel(item.channel),
            destination=item.destination,
            kind=kind,
            id=item.id,
        )
        tail = t("demo.attachments", self.lang, files=files) if files else ""
        self._held.append((item.id, self._entry(head, subject + textblocks.plain(item.text), tail)))
        self.delivered[item.kind] = self.delivered.get(item.kind, 0) + 1
        if item.kind == "results" and item.destination == self.public:
            self.public_results.append(item)
        return DeliveryResult(ok=True)
