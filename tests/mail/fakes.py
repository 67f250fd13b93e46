"""An in-memory stand-in for the game service, for unit tests of the mail adapter only.

It keeps the parts of the contract the adapter relies on: storing first with
duplicates recognised, ``meta`` verdicts (ignore, too large), refusing
unauthenticated mail, answering only to a registered address, pass phrases.
The end-to-end tests use the real ``GameService``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.kernel.api import Inbound, MemberInfo, Reply

__all__ = ["FakeMailService", "Queued"]


@dataclass(frozen=True)
class Queued:
    destination: str
    kind: str
    text: str
    subject: str | None = None
    reply_ref: str | None = None


@dataclass
class FakeMailService:
    passphrases: dict[str, str] = field(default_factory=dict)  # address -> pass phrase
    codes: set[str] = field(default_factory=set)  # unused invitation codes
    stored: dict[str, Inbound] = field(default_factory=dict)
    statuses: dict[str, str] = field(default_factory=dict)
    outbox: list[Queued] = field(default_factory=list)
    orders: dict[str, list[str]] = field(default_factory=dict)  # address -> texts on file
    alerts: list[tuple[str, int | None, dict[str, object]]] = field(default_factory=list)
    members: set[str] = field(default_factory=set)
    told: list[tuple[str, str, dict[str, object]]] = field(default_factory=list)  # to a member

    def add_member(self, address: str, passphrase: str | None = "зелёный дракон") -> None:
        self.members.add(address)
        if passphrase is not None:
            self.passphrases[address] = passphrase

    async def member_by_email(self, address: str) -> MemberInfo | None:
        if address not in self.members:
            return None
        has = address in self.passphrases
        number = sorted(self.members).index(address) + 1
        return MemberInfo(
            number, "", None, address, "ru", "email", has, ((12, "captain", "left", ()),)
        )

    async def check_passphrase(self, email: str, phrase: str) -> bool:
        return self.passphrases.get(email) == phrase

    async def alert_game_masters(
        self, key: str, game_id: int | None = None, **params: object
    ) -> tuple[int, ...]:
        self.alerts.append((key, game_id, params))
        self.outbox.append(Queued("gm@example.org", "gm_alert", key))
        return (len(self.outbox),)

    async def tell_member(
        self, member_id: int, key: str, subject_key: str, **params: object
    ) -> tuple[int, ...]:
        address = sorted(self.members)[member_id - 1]
        self.told.append((address, key, params))
        self.outbox.append(Queued(address, "notice", key, subject_key))
        return (len(self.outbox),)

    def _answer(self, msg: Inbound, status: str, text: str) -> Reply:
        self.statuses[msg.external_id] = status
        registered = msg.sender if msg.sender in self.members else None
        if status != "ignored" and registered is not None:
            subject = f"Re: {msg.subject}" if msg.subject else None
            self.outbox.append(Queued(registered, "ack", text, subject, msg.reply_ref))
        return Reply(status, text)

    async def receive(self, msg: Inbound) -> Reply:
        if msg.external_id in self.stored:
            return Reply("duplicate", "already received")
        self.stored[msg.external_id] = msg
        if msg.meta.get("ignore"):
            return self._answer(msg, "ignored", "")
        if msg.meta.get("refuse") == "too_large":
            return self._answer(msg, "refused", f"too large, limit {msg.meta['limit']}")
        words = msg.text.split()
        if words[:1] == ["/start"] and len(words) > 1 and words[1] in self.codes:
            self.codes.discard(words[1])
            self.members.add(msg.sender)
            return self._answer(msg, "ok", "welcome")
        if not msg.authenticated:
            return self._answer(msg, "refused", "unauthenticated")
        if words[:1] == ["/passphrase"]:
            phrase = msg.text.split(None, 1)[1]
            if len(phrase) < 8:
                return self._answer(msg, "rejected", "passphrase too short")
            self.passphrases[msg.sender] = phrase
            return self._answer(msg, "ok", "passphrase set")
        if not msg.text.strip():
            return self._answer(msg, "ignored", "")
        self.orders.setdefault(msg.sender, []).append(msg.text)
        return self._answer(msg, "ok", f"orders accepted: {msg.text}")
