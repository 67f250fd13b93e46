"""``dragonball demo``: a whole match through the real judge, written to a folder.

:func:`run_demo` plays it (:mod:`bot.demo.runner`); :class:`TranscriptChannel`
stands in for Telegram and e-mail; :class:`DemoFolder` is the output folder;
with :class:`MailOptions` a local SMTP inbox takes a person's mail
(:mod:`bot.demo.mailbox`).
"""

from .folder import DemoFolder, FolderError
from .mailbox import MailOptions, MailReceived
from .runner import (
    DEFAULT_SEED,
    DemoError,
    DemoOptions,
    DemoResult,
    MailInvite,
    RoundProgress,
    run_demo,
)
from .transcript import TranscriptChannel

__all__ = [
    "DEFAULT_SEED",
    "DemoError",
    "DemoFolder",
    "DemoOptions",
    "DemoResult",
    "FolderError",
    "MailInvite",
    "MailOptions",
    "MailReceived",
    "RoundProgress",
    "TranscriptChannel",
    "run_demo",
]
