"""Logging for the judge service: structlog on top of the standard library.

Call :func:`configure_logging` once, in the composition root (the CLI).
Every event becomes one line on standard error, either JSON or ``key=value``
(logfmt). Messages of libraries that use the standard :mod:`logging` module
(python-telegram-bot, httpx, aioimaplib, alembic, ...) go through the same
processors, so they are formatted alike and scrubbed of secrets too.

Redaction: the value of any key whose name contains ``token``, ``password``,
``secret`` or ``passphrase`` is replaced, and so is every occurrence of a
configured secret inside any value (e.g. a bot token inside an URL).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TextIO

import structlog
from pydantic import SecretStr
from structlog.typing import EventDict, Processor, WrappedLogger

__all__ = [
    "REDACTED",
    "SENSITIVE_KEY_PARTS",
    "SecretRedactor",
    "configure_logging",
    "get_logger",
]

REDACTED = "[redacted]"
SENSITIVE_KEY_PARTS = ("token", "password", "secret", "passphrase")

# Libraries that are chatty at INFO (httpx logs every Telegram request URL).
_NOISY_LOGGERS = ("httpx", "httpcore", "apscheduler", "aiosmtpd", "mail.log")


class SecretRedactor:
    """structlog processor that removes secrets from an event."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first, so a secret containing another is replaced whole.
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __call__(self, logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
        return {key: self._value(key, value) for key, value in event_dict.items()}

    @staticmethod
    def _sensitive(key: object) -> bool:
        return isinstance(key, str) and any(part in key.lower() for part in SENSITIVE_KEY_PARTS)

    def _value(self, key: object, value: Any) -> Any:
        if self._sensitive(key) and value is not None:
            return REDACTED
        return self._scrub(value)

    def _scrub(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | float):
            return value
        if isinstance(value, SecretStr):
            return REDACTED
        if isinstance(value, str):
            return self._scrub_text(value)
        if isinstance(value, Mapping):
            return {k: self._value(k, v) for k, v in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            return [self._scrub(item) for item in value]
        if self._secrets:
            text = str(value)
            cleaned = self._scrub_text(text)
            if cleaned != text:
                return cleaned
        return value

    def _scrub_text(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text


class _StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at the time of each event."""

    def emit(self, record: logging.LogRecord) -> None:
        self.setStream(sys.stderr)
        super().emit(record)


_HANDLER_MARK = "_dragonball_handler"
_FIRST_KEYS = ("timestamp", "level", "logger", "event")


def _leading_keys(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
    """Put timestamp, level, logger and event first, for people reading JSON lines."""
    ordered = {key: event_dict[key] for key in _FIRST_KEYS if key in event_dict}
    ordered.update(event_dict)
    return ordered


def configure_logging(
    level: str = "INFO",
    fmt: Literal["json", "console"] | str = "console",
    *,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
) -> None:
    """Set up structlog and the standard library's root logger.

    ``level`` is a level name (DEBUG, INFO, ...); ``fmt`` is ``"json"`` or
    ``"console"`` (one ``key=value`` line per event); ``secrets`` are clear-text
    values to be scrubbed from every event; ``stream`` defaults to standard
    error. Calling it again replaces the previous set-up.
    """
    numeric_level = logging.getLevelName(level.upper())
    if not isinstance(numeric_level, int):
        raise ValueError(f"unknown log level: {level}")
    if fmt not in ("json", "console"):
        raise ValueError(f"unknown log format: {fmt} (expected json or console)")

    renderer: Processor
    if fmt == "json":
        renderer = structlog.processors.JSONRenderer(sort_keys=False, default=str)
    else:
        renderer = structlog.processors.LogfmtRenderer(
            key_order=["timestamp", "level", "logger", "event"], drop_missing=True
        )
    timestamper = structlog.processors.TimeStamper(fmt="iso", utc=True)
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        timestamper,
    ]
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            SecretRedactor(secrets),
            _leading_keys,
            renderer,
        ],
    )

    handler: logging.Handler = (
        logging.StreamHandler(stream) if stream is not None else _StderrHandler()
    )
    handler.setFormatter(formatter)
    setattr(handler, _HANDLER_MARK, True)

    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, _HANDLER_MARK, False):
            root.removeHandler(old)
            old.close()
    root.addHandler(handler)
    root.setLevel(numeric_level)
    quiet = logging.DEBUG if numeric_level <= logging.DEBUG else logging.WARNING
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(quiet)

    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *shared,
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )


def get_logger(name: str | None = None) -> structlog.stdlib.BoundLogger:
    """A structlog logger bound to ``name`` (default: the caller's module)."""
    logger: structlog.stdlib.BoundLogger = structlog.stdlib.get_logger(name)
    return logger
