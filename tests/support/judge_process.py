"""``dragonball serve`` as a child process, to be killed with SIGKILL and started again.

The tests and the kill-trial script run the real judge the way an operator
does — a configuration file, ``dragonball db upgrade``, ``dragonball serve`` —
against servers on loopback (the local Bot API server in the test's own
process, Dovecot and aiosmtpd from :mod:`support.mailservers`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["JudgeProcess", "toml_config"]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_config(sections: Mapping[str, Mapping[str, Any]]) -> str:
    """A configuration file's text from ``{"section": {"key": value}}``."""
    lines: list[str] = []
    for name, keys in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{key} = {_toml_value(value)}" for key, value in keys.items()]
        lines.append("")
    return "\n".join(lines)


@dataclass
class JudgeProcess:
    """One judge: its folder, configuration and (when running) its process."""

    folder: Path
    sections: dict[str, dict[str, Any]]
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def config_path(self) -> Path:
        return self.folder / "config.toml"

    @property
    def log_path(self) -> Path:
        return self.folder / "judge.log"

    def write_config(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(toml_config(self.sections), encoding="utf-8")

    def _command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "bot.cli", "--config", str(self.config_path), *args]

    def _environ(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("DRAGONBALL_")}
        env.update(self.env)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def upgrade(self) -> None:
        self.write_config()
        subprocess.run(
            self._command("db", "upgrade"), check=True, env=self._environ(), capture_output=True
        )

    def start(self) -> None:
        assert self.process is None or self.process.poll() is not None, "already running"
        self.write_config()
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"\n===== start {self.starts} =====\n".encode())
        log.flush()
        self.process = subprocess.Popen(
            self._command("serve"), stdout=log, stderr=subprocess.STDOUT, env=self._environ()
        )
        log.close()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as a crash or an OOM kill."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> int | None:
        """SIGTERM and wait: the clean stop."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return self.process.returncode

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")
