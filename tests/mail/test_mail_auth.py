"""Authentication-Results, DKIM trust, failure counting, the [mail] settings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import ConfigError, MailConfig, load_config
from bot.mail.auth import FailureLimiter, dkim_verified, parse_authentication_results

OURS = "mx.example.org"


def test_parse_authentication_results_with_comments_and_versions() -> None:
    value = (
        "mx.example.org 1; dkim=pass (2048-bit key; unprotected) header.d=example.ru "
        'header.i=@example.ru header.s="sel"; spf=fail smtp.mailfrom=x@y.z; dmarc=none'
    )
    results = parse_authentication_results(value)
    assert [(r.authserv_id, r.method, r.result) for r in results] == [
        (OURS, "dkim", "pass"),
        (OURS, "spf", "fail"),
        (OURS, "dmarc", "none"),
    ]
    assert results[0].get("header.d") == "example.ru"
    assert results[0].get("header.s") == "sel"
    assert results[0].get("nothing") is None


def test_parse_authentication_results_garbage() -> None:
    assert parse_authentication_results("") == []
    assert parse_authentication_results("mx.example.org; none") == []
    assert parse_authentication_results(";;;") == []


def test_dkim_pass_of_our_server_for_the_from_domain() -> None:
    headers = [f"{OURS}; dkim=pass header.d=example.ru"]
    assert dkim_verified(headers, "vasya@example.ru", OURS)
    assert dkim_verified(headers, "vasya@mail.example.ru", OURS)  # relaxed alignment


@pytest.mark.parametrize(
    ("headers", "sender", "authserv_id"),
    [
        ([f"{OURS}; dkim=pass header.d=example.ru"], "vasya@example.ru", None),
        (["evil.example.com; dkim=pass header.d=example.ru"], "vasya@example.ru", OURS),
        ([f"{OURS}; dkim=fail header.d=example.ru"], "vasya@example.ru", OURS),
        ([f"{OURS}; dkim=pass header.d=other.ru"], "vasya@example.ru", OURS),
        ([f"{OURS}; dkim=pass header.d=ru"], "vasya@example.com", OURS),
        ([f"{OURS}; dkim=pass header.d=xample.ru"], "vasya@example.ru", OURS),
        ([f"{OURS}; spf=pass smtp.mailfrom=example.ru"], "vasya@example.ru", OURS),
        ([], "vasya@example.ru", OURS),
    ],
)
def test_dkim_not_trusted(headers: list[str], sender: str, authserv_id: str | None) -> None:
    assert not dkim_verified(headers, sender, authserv_id)


def test_dkim_identity_instead_of_domain() -> None:
    assert dkim_verified([f"{OURS}; dkim=pass header.i=@example.ru"], "a@example.ru", OURS)


def test_failure_limiter_counts_in_a_sliding_window() -> None:
    limiter = FailureLimiter(max_failures=3, window=timedelta(hours=1))
    start = datetime(2025, 3, 1, tzinfo=UTC)
    assert [limiter.record("A@x.ru", start + timedelta(minutes=m)) for m in (0, 10, 20)] == [
        1,
        2,
        3,
    ]
    assert limiter.exceeded("a@x.ru", start + timedelta(minutes=30))
    assert not limiter.exceeded("b@x.ru", start)
    # The first failure leaves the window after an hour.
    assert not limiter.exceeded("a@x.ru", start + timedelta(minutes=61))
    limiter.record("a@x.ru", start + timedelta(minutes=62))
    limiter.clear("a@x.ru")
    assert not limiter.exceeded("a@x.ru", start + timedelta(minutes=62))
    with pytest.raises(ValueError, match="at least 1"):
        FailureLimiter(max_failures=0)


def test_accept_dkim_with_the_authserv_id() -> None:
    assert MailConfig(accept_dkim=True, dkim_authserv_id=OURS).dkim_authserv_id == OURS
    assert MailConfig().dkim_authserv_id is None


def test_accept_dkim_without_authserv_id_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[mail]\naccept_dkim = true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"mail\.dkim_authserv_id: field required"):
        load_config(path)
