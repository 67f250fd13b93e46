"""What the ``dragonball`` command group hands to its sub-commands.

The configuration is loaded lazily: a sub-command that needs it asks for
``app.config``; one that does not (``engine``, ``check-orders``, ...) never
touches it, so it works without a config file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import click

from bot.config import Config, load_config
from bot.logging import configure_logging

__all__ = ["AppContext", "pass_app"]


@dataclass
class AppContext:
    """Options of the top-level group plus the lazily loaded configuration."""

    config_path: Path | None = None
    log_level: str | None = None
    _config: Config | None = field(default=None, init=False, repr=False)

    @property
    def config(self) -> Config:
        """The configuration; raises ``ConfigError`` on the first access if it is bad."""
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config

    @property
    def database_config(self) -> Config:
        """The configuration for a command that only uses the database: the
        channels' secrets are not required (``db upgrade`` runs before them)."""
        if self._config is not None:
            return self._config
        return load_config(self.config_path, channels=False)

    def setup_logging(self, *, use_config: bool = True) -> None:
        """Configure logging from the config (if ``use_config``) and ``--log-level``."""
        if use_config:
            cfg = self.config
            level = self.log_level or cfg.logging.level
            configure_logging(level, cfg.logging.format, secrets=cfg.secret_values())
        else:
            configure_logging(self.log_level or "WARNING", "console")


pass_app = click.make_pass_decorator(AppContext, ensure=True)
