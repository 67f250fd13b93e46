"""Typed configuration of the judge service.

The configuration is read from a TOML file (see ``config.example.toml``) and
may be overridden by environment variables with the prefix ``DRAGONBALL_``
and ``__`` between a section and its key, e.g. ``DRAGONBALL_TELEGRAM__TOKEN``
or ``DRAGONBALL_DATABASE__URL``. Environment variables win over the file; the
file wins over the embedded defaults.

Every problem is reported as a :class:`ConfigError` whose message is a single
line naming the key and the problem; secrets are held as ``SecretStr`` so
they never show up in ``repr`` or logs.
"""

from __future__ import annotations

import re
import tomllib
from contextvars import ContextVar
from datetime import time
from pathlib import Path
from typing import Any, Literal, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

__all__ = [
    "DEFAULT_CONFIG_PATH",
    "ENV_PREFIX",
    "Config",
    "ConfigError",
    "DatabaseConfig",
    "GameConfig",
    "GameMastersConfig",
    "ImapConfig",
    "LoggingConfig",
    "MailConfig",
    "SmtpConfig",
    "TelegramConfig",
    "WebConfig",
    "load_config",
]

DEFAULT_CONFIG_PATH = Path("config.toml")
ENV_PREFIX = "DRAGONBALL_"

Security = Literal["tls", "starttls", "none"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

_DEPENDENT = "dependent_key"  # error type of the "x is required when y" checks

# False while loading for a command that only uses the database (db upgrade,
# verify): the channels' secrets are not asked for (load_config(channels=False)).
_channels_checked: ContextVar[bool] = ContextVar("dragonball_channels_checked", default=True)


class ConfigError(Exception):
    """A configuration problem; ``str(err)`` is one line fit for the user."""


def _require(key: str, problem: str) -> NoReturn:
    """Report a cross-field problem against ``key`` of the model being validated."""
    raise PydanticCustomError(_DEPENDENT, "{problem}", {"key": key, "problem": problem})


def _blank(value: str | SecretStr | None) -> bool:
    """True for a missing or empty (whitespace-only) value."""
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    return value is None or not value.strip()


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)

    @model_validator(mode="before")
    @classmethod
    def _empty_is_none(cls, data: Any) -> Any:
        """An empty string for an optional key (default None) means "not set"."""
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        return {
            key: None if value == "" and key in fields and fields[key].default is None else value
            for key, value in data.items()
        }


class DatabaseConfig(_Section):
    url: str = Field(
        default="sqlite:///dragonball.db",
        min_length=1,
        description="SQLAlchemy URL: sqlite:///path.db or postgresql+psycopg://user@host/db",
    )
    leader_interval_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="PostgreSQL, several processes: how often a process tries to take a "
        "role (the Telegram poll, a mailbox, the reminders) and its leader checks its "
        "connection; a dead leader's role is taken over about this long after it died",
    )


class GameConfig(_Section):
    timezone: str = "Europe/Moscow"
    default_deadline: time = time(21, 0)
    default_ruleset: str = Field(default="classic", min_length=1)
    report_language: Literal["ru", "en"] = "ru"
    reminder_minutes: int = Field(default=180, ge=0, le=10_080)
    deadline_grace_seconds: int = Field(default=120, ge=0, le=86_400)
    # The players' rule book as the deployment publishes it (docs/rules-ru.md,
    # docs/rules-001-en.md …), "{book}" standing for the edition's book (rules,
    # rules-001) and "{lang}" for ru or en; empty: /rules sends it.
    rules_url: str = ""

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise PydanticCustomError(
                "timezone", 'unknown time zone "{zone}"', {"zone": value}
            ) from None
        return value

    @field_validator("default_deadline", mode="before")
    @classmethod
    def _hh_mm(cls, value: object) -> object:
        if isinstance(value, time):
            return value.replace(second=0, microsecond=0)
        if isinstance(value, str):
            match = re.fullmatch(r"([01]\d|2[0-3]):([0-5]\d)", value.strip())
            if match:
                return time(int(match[1]), int(match[2]))
        raise PydanticCustomError("deadline", 'expected a time "HH:MM" (00:00 to 23:59)')

    @property
    def tzinfo(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


class GameMastersConfig(_Section):
    telegram_ids: list[int] = Field(default_factory=list)
    emails: list[str] = Field(default_factory=list)

    @field_validator("emails")
    @classmethod
    def _addresses(cls, values: list[str]) -> list[str]:
        cleaned = []
        for value in values:
            address = value.strip().lower()
            if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", address):
                raise PydanticCustomError(
                    "email", 'not an e-mail address: "{value}"', {"value": value}
                )
            cleaned.append(address)
        return cleaned


class TelegramConfig(_Section):
    enabled: bool = False
    token: SecretStr | None = None
    mode: Literal["polling", "webhook"] = "polling"
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    base_url: str | None = None
    channel_chat_id: int | str | None = None
    channel_thread_id: int | None = None

    @model_validator(mode="after")
    def _complete(self) -> TelegramConfig:
        if self.enabled and _channels_checked.get():
            if _blank(self.token):
                _require("token", "field required when telegram.enabled is true")
            if self.mode == "webhook" and _blank(self.webhook_url):
                _require("webhook_url", 'field required when telegram.mode is "webhook"')
        return self


class WebConfig(_Section):
    """The ordering page and replays, served by the judge itself (docs/web.md)."""

    enabled: bool = False
    listen: str = "127.0.0.1"
    port: int = Field(default=8080, ge=1, le=65535)
    # Where players reach it (behind a reverse proxy with TLS): the buttons point here.
    public_url: str | None = None
    # Signs the personal links of e-mail players; long and random.
    link_secret: SecretStr | None = None
    # Telegram's signed launch data older than this is refused (seconds).
    init_data_max_age: int = Field(default=3600, ge=60)
    # A request not read whole within this many seconds is dropped (a half-sent
    # head or body holds no connection longer).
    read_timeout: float = Field(default=10.0, gt=0, le=300)

    @model_validator(mode="after")
    def _complete(self) -> WebConfig:
        if self.enabled and _blank(self.public_url):
            _require("public_url", "field required when web.enabled is true")
        if self.public_url is not None and not self.public_url.startswith(("https://", "http://")):
            _require("public_url", "must start with https:// (or http:// for a local test)")
        return self


def _default_port(data: Any, default_security: str, ports: dict[str, int]) -> Any:
    """Fill in the usual port for the chosen security when none is given."""
    if isinstance(data, dict) and data.get("port") is None:
        security = data.get("security", default_security)
        if security in ports:
            data = {**data, "port": ports[security]}
    return data


class ImapConfig(_Section):
    enabled: bool = False
    host: str | None = None
    port: int = Field(default=993, ge=1, le=65535)
    security: Security = "tls"
    username: str | None = None
    password: SecretStr | None = None
    mailbox: str = "INBOX"
    processed_folder: str = "Processed"
    # The mailbox's copy of a read mail that held a pass phrase: "masked" (the
    # form stored in the database, in place of the original) or "deleted".
    passphrase_mail: Literal["masked", "deleted"] = "masked"
    poll_interval_seconds: float = Field(default=60.0, gt=0)
    idle_renew_seconds: float = Field(default=1740.0, gt=0)

    @model_validator(mode="before")
    @classmethod
    def _port(cls, data: Any) -> Any:
        return _default_port(data, "tls", {"tls": 993, "starttls": 143, "none": 143})

    @model_validator(mode="after")
    def _complete(self) -> ImapConfig:
        if self.enabled and _channels_checked.get():
            for key in ("host", "username", "password"):
                if _blank(getattr(self, key)):
                    _require(key, "field required when imap.enabled is true")
        return self


class SmtpConfig(_Section):
    enabled: bool = False
    host: str | None = None
    port: int = Field(default=587, ge=1, le=65535)
    security: Security = "starttls"
    username: str | None = None
    password: SecretStr | None = None
    from_address: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _port(cls, data: Any) -> Any:
        return _default_port(data, "starttls", {"tls": 465, "starttls": 587, "none": 25})

    @model_validator(mode="after")
    def _complete(self) -> SmtpConfig:
        if self.enabled and _channels_checked.get():
            for key in ("host", "from_address"):
                if _blank(getattr(self, key)):
                    _require(key, "field required when smtp.enabled is true")
        if not _blank(self.username) and _blank(self.password):
            _require("password", "field required when smtp.username is set")
        return self


class MailConfig(_Section):
    max_message_bytes: int = Field(default=1_000_000, gt=0)
    require_passphrase: bool = True
    accept_dkim: bool = False
    # Only DKIM results stamped with our own receiving server's id can be trusted.
    dkim_authserv_id: str | None = None
    # Wrong pass phrases from one member's address within the window that lock
    # it for lock_minutes (the player may unlock it with a code sent to him).
    max_failures: int = Field(default=3, ge=1, le=1000)
    failure_window_minutes: float = Field(default=60, gt=0)
    lock_minutes: float = Field(default=60, gt=0)
    # A mail that reached the mailbox longer ago than this when the judge reads it
    # (a mailbox's old mail on the first start) is stored and not answered; 0: none.
    old_mail_days: float = Field(default=30, ge=0)

    @model_validator(mode="after")
    def _complete(self) -> MailConfig:
        if self.accept_dkim and _blank(self.dkim_authserv_id):
            _require("dkim_authserv_id", "field required when mail.accept_dkim is true")
        return self


class LoggingConfig(_Section):
    level: LogLevel = "INFO"
    format: Literal["json", "console"] = "console"

    @field_validator("level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


# The TOML data of the file being loaded; see Config.settings_customise_sources.
_file_data: ContextVar[dict[str, Any]] = ContextVar("dragonball_config_file_data")


class _TomlDataSource(PydanticBaseSettingsSource):
    """Settings source that hands over the already parsed TOML file."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return _file_data.get({}).get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(_file_data.get({}))


class Config(BaseSettings):
    """The whole configuration; build it with :func:`load_config`."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        case_sensitive=False,
        extra="forbid",
        validate_default=True,
    )

    database: DatabaseConfig = Field(default_factory=DatabaseConfig)
    game: GameConfig = Field(default_factory=GameConfig)
    game_masters: GameMastersConfig = Field(default_factory=GameMastersConfig)
    telegram: TelegramConfig = Field(default_factory=TelegramConfig)
    imap: ImapConfig = Field(default_factory=ImapConfig)
    smtp: SmtpConfig = Field(default_factory=SmtpConfig)
    mail: MailConfig = Field(default_factory=MailConfig)
    logging: LoggingConfig = Field(default_factory=LoggingConfig)
    web: WebConfig = Field(default_factory=WebConfig)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Highest priority first: explicit arguments, environment, the TOML file.
        return init_settings, env_settings, _TomlDataSource(settings_cls)

    def secret_values(self) -> list[str]:
        """The configured secrets in clear text, for the log redactor."""
        secrets = [
            self.telegram.token,
            self.imap.password,
            self.smtp.password,
            self.web.link_secret,
        ]
        return [s.get_secret_value() for s in secrets if s is not None and s.get_secret_value()]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _describe(error: Any) -> str:
    """One validation error as ``key.path: problem``."""
    loc = [str(part) for part in error.get("loc", ())]
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == _DEPENDENT:
        loc.append(str(ctx["key"]))
        problem = str(ctx["problem"])
    elif kind == "missing":
        problem = "field required"
    elif kind == "extra_forbidden":
        problem = "unknown key"
    else:
        problem = str(error.get("msg", "invalid value"))
        problem = problem.removeprefix("Value error, ")
    key = ".".join(loc) if loc else "(top level)"
    return _one_line(f"{key}: {problem}")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except IsADirectoryError:
        raise ConfigError(f"config file is a directory: {path}") from None
    except PermissionError:
        raise ConfigError(f"config file not readable: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_one_line(f"config file {path}: invalid TOML: {exc}")) from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {path}: not UTF-8 text") from None


def load_config(path: Path | None = None, *, channels: bool = True) -> Config:
    """Load the configuration.

    ``path`` is the TOML file given by ``--config``; when it is ``None``,
    ``config.toml`` in the current folder is used if it exists, else the
    embedded defaults. Environment variables ``DRAGONBALL_SECTION__KEY``
    override both. Raises :class:`ConfigError` with a one-line message.
    ``channels=False``: for a command that uses only the database; the keys a
    channel needs (``telegram.token``, ``imap.password``, …) are not required.
    """
    if path is None:
        data = _read_toml(DEFAULT_CONFIG_PATH) if DEFAULT_CONFIG_PATH.is_file() else {}
    else:
        data = _read_toml(path)
    token = _file_data.set(data)
    checked = _channels_checked.set(channels)
    try:
        return Config()
    except ValidationError as exc:
        problems = "; ".join(_describe(error) for error in exc.errors())
        raise ConfigError(f"config error: {problems}") from None
    except SettingsError as exc:
        # pydantic-settings names the field but not the problem; add a hint.
        match = re.search(r'field "([^"]+)"', str(exc))
        key = match[1] if match else "(environment)"
        raise ConfigError(
            f"config error: {key}: cannot parse the value of a {ENV_PREFIX}{key.upper()}__* "
            "environment variable (write lists as JSON, e.g. [1, 2])"
        ) from None
    finally:
        _channels_checked.reset(checked)
        _file_data.reset(token)
