"""The service's own settings, taken from the configuration (or built by tests)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from bot.config import Config

__all__ = ["ServiceSettings"]


@dataclass(frozen=True)
class ServiceSettings:
    timezone: str = "Europe/Moscow"
    deadline: str = "21:00"  # daily schedule of new games, "HH:MM[,HH:MM]"
    ruleset: str = "classic"
    lang: str = "ru"  # reports of new games; replies to people the judge does not know
    gm_telegram_ids: frozenset[int] = field(default_factory=frozenset)
    gm_emails: frozenset[str] = field(default_factory=frozenset)
    channel_chat: str | None = None  # default public channel of new games
    channel_thread: str | None = None
    reminder_before: timedelta = timedelta(hours=3)
    # A round resolved early (both teams ready, GM "resolve now") gives the next
    # one at least this long before its deadline.
    min_round_time: timedelta = timedelta(hours=1)
    invitation_ttl: timedelta = timedelta(days=14)
    # How long a due round waits for a channel that has not been read until its
    # deadline (counted from the deadline, or from the start of the process).
    deadline_grace: timedelta = timedelta(minutes=2)
    outbox_max_attempts: int = 8
    outbox_lease: timedelta = timedelta(minutes=5)
    outbox_backoff_base: float = 30.0  # seconds, doubled per attempt
    outbox_backoff_max: float = 3600.0
    # The Telegram bot's @username, learned when the bot starts (getMe): the
    # invitation answers give the t.me link with it.  None: no link in the text.
    telegram_bot: str | None = None
    # Where players read the rule book: a URL with "{lang}" for ru/en; empty:
    # /rules sends the rule book itself (and the field's picture).
    rules_url: str = ""
    # The ordering page's public address ([web] public_url; None: no page) and
    # the key that signs e-mail players' personal links to it (None: no links).
    web_url: str | None = None
    web_link_secret: bytes | None = None
    # The demo's reproducible dice: purpose ("game1/round3/attempt1") -> 64 hex
    # digits.  None (always, outside the demo): every seed is drawn at random.
    seed_source: Callable[[str], str] | None = None

    @classmethod
    def from_config(cls, config: Config) -> ServiceSettings:
        g = config.game
        chat = config.telegram.channel_chat_id
        thread = config.telegram.channel_thread_id
        return cls(
            timezone=g.timezone,
            deadline=g.default_deadline.strftime("%H:%M"),
            ruleset=g.default_ruleset,
            lang=g.report_language,
            gm_telegram_ids=frozenset(config.game_masters.telegram_ids),
            gm_emails=frozenset(config.game_masters.emails),
            channel_chat=str(chat) if chat not in (None, "") else None,
            channel_thread=str(thread) if thread is not None else None,
            reminder_before=timedelta(minutes=g.reminder_minutes),
            deadline_grace=timedelta(seconds=g.deadline_grace_seconds),
            rules_url=g.rules_url,
            web_url=config.web.public_url.rstrip("/")
            if config.web.enabled and config.web.public_url
            else None,
            web_link_secret=web_link_key(config),
        )


def web_link_key(config: Config) -> bytes | None:
    """The key of the page's personal links, from ``[web] link_secret``."""
    secret = config.web.link_secret
    if not config.web.enabled or secret is None or not secret.get_secret_value():
        return None
    return hashlib.sha256(b"dragonball-web-link\0" + secret.get_secret_value().encode()).digest()
