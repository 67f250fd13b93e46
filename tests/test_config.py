"""Configuration: TOML file, environment overrides, one-line errors, secrets."""

from __future__ import annotations

import io
import json
import logging
from datetime import time
from pathlib import Path

import pytest
import structlog

from bot.config import Config, ConfigError, load_config
from bot.logging import REDACTED, configure_logging

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config.example.toml"
TOKEN = "123456789:AAH-very-secret-token-value"

pytestmark = pytest.mark.usefixtures("empty_cwd")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def config_error(path: Path | None) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_example_config_loads() -> None:
    config = load_config(EXAMPLE)
    assert config.database.url == "sqlite:///dragonball.db"
    assert config.game.timezone == "Europe/Moscow"
    assert config.game.default_deadline == time(21, 0)
    assert config.game.default_ruleset == "classic"
    assert config.game.report_language == "ru"
    assert config.telegram.enabled is False
    assert config.telegram.token is None  # "" means not set
    assert config.imap.port == 993
    assert config.smtp.port == 587
    assert config.logging.format == "console"


def test_example_documents_every_key() -> None:
    """Every key of the model appears in config.example.toml, with a comment above it."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for section, model in Config.model_fields.items():
        assert f"[{section}]" in text, section
        assert model.annotation is not None
        for key in model.annotation.model_fields:
            assert f"\n{key} = " in text or f"\n# {key} = " in text, f"{section}.{key}"


def test_defaults_without_file() -> None:
    config = load_config(None)  # empty_cwd: no ./config.toml here
    assert config == Config()
    assert config.game.tzinfo.key == "Europe/Moscow"


def test_the_page_takes_launch_data_for_an_hour_and_reads_within_seconds() -> None:
    """Telegram's launch data is a credential for an hour unless configured
    (docs/security.md); a request is read within ten seconds."""
    web = Config().web
    assert web.init_data_max_age == 3600 and web.read_timeout == 10
    example = load_config(EXAMPLE).web
    assert example.init_data_max_age == 3600 and example.read_timeout == 10


def test_config_toml_in_current_folder_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, '[game]\ndefault_deadline = "18:30"\n')
    assert load_config(None).game.default_deadline == time(18, 30)


def test_env_overrides_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, '[telegram]\nenabled = true\ntoken = "from-file"\n')
    monkeypatch.setenv("DRAGONBALL_TELEGRAM__TOKEN", TOKEN)
    config = load_config(path)
    assert config.telegram.token is not None
    assert config.telegram.token.get_secret_value() == TOKEN


def test_env_overrides_nested_values_and_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(
        "DRAGONBALL_DATABASE__URL", "postgresql+psycopg://judge@localhost/dragonball"
    )
    monkeypatch.setenv("DRAGONBALL_GAME_MASTERS__TELEGRAM_IDS", "[111, 222]")
    monkeypatch.setenv("dragonball_logging__level", "debug")
    config = load_config(None)
    assert config.database.url.startswith("postgresql+psycopg://")
    assert config.game_masters.telegram_ids == [111, 222]
    assert config.logging.level == "DEBUG"


def test_env_value_that_cannot_be_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONBALL_GAME_MASTERS__TELEGRAM_IDS", "111,222")
    message = config_error(None)
    assert message.startswith("config error: game_masters: ")


def test_missing_token_when_enabled(tmp_path: Path) -> None:
    message = config_error(write(tmp_path, "[telegram]\nenabled = true\n"))
    assert message == ("config error: telegram.token: field required when telegram.enabled is true")


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        (
            '[game]\ntimezone = "Mars/Olympus"\n',
            'config error: game.timezone: unknown time zone "Mars/Olympus"',
        ),
        ('[game]\ndefault_deadline = "25:00"\n', "config error: game.default_deadline: "),
        ('[game]\nreport_language = "de"\n', "config error: game.report_language: "),
        ('[telegram]\nmode = "push"\n', "config error: telegram.mode: "),
        ("[telegram]\nwebhook_port = 70000\n", "config error: telegram.webhook_port: "),
        ('[imap]\nsecurity = "ssl"\n', "config error: imap.security: "),
        ('[logging]\nformat = "xml"\n', "config error: logging.format: "),
        ("[mail]\nmax_message_bytes = 0\n", "config error: mail.max_message_bytes: "),
        ('[game_masters]\nemails = ["nobody"]\n', "config error: game_masters.emails: "),
        ("[telegram]\ntokne = 'x'\n", "config error: telegram.tokne: unknown key"),
        ("[databse]\nurl = 'x'\n", "config error: databse: unknown key"),
        (
            '[telegram]\nenabled = true\ntoken = "t"\nmode = "webhook"\n',
            "config error: telegram.webhook_url: field required when telegram.mode is",
        ),
        (
            "[imap]\nenabled = true\n",
            "config error: imap.host: field required when imap.enabled is true",
        ),
        ("[smtp]\nenabled = true\nhost = 'h'\n", "config error: smtp.from_address: field required"),
    ],
)
def test_bad_value_names_the_key(tmp_path: Path, toml: str, expected: str) -> None:
    assert config_error(write(tmp_path, toml)).startswith(expected)


def test_bad_value_from_environment_names_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONBALL_TELEGRAM__WEBHOOK_PORT", "many")
    assert config_error(None).startswith("config error: telegram.webhook_port: ")


def test_missing_file() -> None:
    assert config_error(Path("missing.toml")) == "config file not found: missing.toml"


def test_invalid_toml(tmp_path: Path) -> None:
    message = config_error(write(tmp_path, "[game\n"))
    assert message.startswith("config file ") and "invalid TOML" in message and "line 1" in message


def test_ports_follow_security(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, '[imap]\nsecurity = "starttls"\n[smtp]\nsecurity = "tls"\n')
    )
    assert (config.imap.port, config.smtp.port) == (143, 465)
    config = load_config(write(tmp_path, '[imap]\nport = 10143\nsecurity = "none"\n'))
    assert config.imap.port == 10143


def test_deadline_accepts_toml_time(tmp_path: Path) -> None:
    assert load_config(
        write(tmp_path, "[game]\ndefault_deadline = 20:15:00\n")
    ).game.default_deadline == time(20, 15)


def full_secret_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Config:
    path = write(
        tmp_path,
        """
[telegram]
enabled = true
[imap]
enabled = true
host = "imap.example.org"
username = "judge"
password = "imap-pass-5150"
[smtp]
enabled = true
host = "smtp.example.org"
from_address = "judge@example.org"
username = "judge"
password = "smtp-pass-8086"
""",
    )
    monkeypatch.setenv("DRAGONBALL_TELEGRAM__TOKEN", TOKEN)
    return load_config(path)


def test_secrets_never_in_repr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = full_secret_config(tmp_path, monkeypatch)
    for text in (repr(config), str(config), config.model_dump_json(), repr(config.telegram)):
        for secret in (TOKEN, "imap-pass-5150", "smtp-pass-8086"):
            assert secret not in text
    assert sorted(config.secret_values()) == sorted([TOKEN, "imap-pass-5150", "smtp-pass-8086"])


@pytest.mark.parametrize("fmt", ["json", "console"])
def test_secrets_never_in_log_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    config = full_secret_config(tmp_path, monkeypatch)
    out = io.StringIO()
    configure_logging("DEBUG", fmt, secrets=config.secret_values(), stream=out)
    try:
        log = structlog.get_logger("test")
        log.info("config loaded", config=config, telegram=config.telegram.model_dump())
        log.info("sending", url=f"https://api.telegram.org/bot{TOKEN}/getUpdates")
        log.info(
            "login", password="imap-pass-5150", api_token="anything", passphrase="open-sesame-42"
        )
        log.warning(f"failed with {TOKEN} in the message")
        logging.getLogger("httpx").debug(
            "HTTP Request: POST https://api.telegram.org/bot%s/x", TOKEN
        )
        try:
            raise RuntimeError(f"bad token {TOKEN}")
        except RuntimeError:
            log.exception("boom")
    finally:
        configure_logging("WARNING", "console")
    text = out.getvalue()
    for secret in (TOKEN, "imap-pass-5150", "smtp-pass-8086", "open-sesame-42"):
        assert secret not in text
    assert REDACTED in text
    lines = text.splitlines()
    assert len(lines) == 6  # one line per event, the traceback included
    if fmt == "json":
        events = [json.loads(line) for line in lines]
        assert events[2]["passphrase"] == REDACTED
        assert events[1]["url"] == f"https://api.telegram.org/bot{REDACTED}/getUpdates"
    else:
        assert lines[0].split()[1] == "level=info"
