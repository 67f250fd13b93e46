"""The demo's output folder: what goes where, and not clobbering anything else.

Layout::

    README.txt              what the folder holds (also marks it as demo output)
    dragonball.db           the judge's SQLite database, for inspection
    transcript.txt          every message in and out, in order
    reports/round-NN.txt    the public report of each round; summary.txt
    diagrams/round-NN-tick-K.png, diagrams/round-NN.gif
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import LANGS, t
from bot.service import OutboxItem
from bot.service.kernel import textblocks

__all__ = ["DemoFolder", "FolderError"]

# The first line of the folder's README.txt (any language) marks it as demo output.
_OLD_MARKER = "Dragonball judge: demo output"


def _readme(lang: str) -> str:
    return t("demo.readme_title", lang) + "\n\n" + t("demo.readme", lang) + "\n"


# Everything the demo writes; only these are removed when a previous output is replaced.
OWN = ("README.txt", "dragonball.db", "dragonball.db-wal", "dragonball.db-shm", "transcript.txt",
       "reports", "diagrams", "replay")  # fmt: skip


class FolderError(Exception):
    """The output folder cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class DemoFolder:
    root: Path

    @property
    def database(self) -> Path:
        return self.root / "dragonball.db"

    @property
    def transcript(self) -> Path:
        return self.root / "transcript.txt"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def diagrams(self) -> Path:
        return self.root / "diagrams"

    @property
    def replay(self) -> Path:
        return self.root / "replay"

    def is_demo_output(self) -> bool:
        try:
            text = (self.root / "README.txt").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return False
        titles = [t("demo.readme_title", lang) for lang in LANGS]
        return text.startswith((_OLD_MARKER, *titles))

    def prepare(self, *, force: bool = False, lang: str = "ru") -> None:
        """Make the folder ready: create it, or empty a previous demo output (only
        the demo's own files: anything else in it is left alone).  A non-empty
        folder that is not demo output is refused unless ``force``."""
        if self.root.exists() and not self.root.is_dir():
            raise FolderError(t("demo.folder_is_file", lang, folder=self.root))
        if self.root.is_dir() and any(self.root.iterdir()):
            if not (force or self.is_demo_output()):
                raise FolderError(t("demo.folder_foreign", lang, folder=self.root))
            for name in OWN:
                path = self.root / name
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                elif path.exists() or path.is_symlink():
                    path.unlink()
        try:
            for path in (self.root, self.reports, self.diagrams):
                path.mkdir(parents=True, exist_ok=True)
            (self.root / "README.txt").write_text(_readme(lang), encoding="utf-8")
        except OSError as exc:
            error = exc.strerror or str(exc)
            raise FolderError(
                t("demo.folder_unwritable", lang, folder=self.root, error=error)
            ) from None

    def report_path(self, number: int) -> Path:
        return self.reports / f"round-{number:02d}.txt"

    def tick_path(self, number: int, tick: int) -> Path:
        return self.diagrams / f"round-{number:02d}-tick-{tick}.png"

    def gif_path(self, number: int) -> Path:
        return self.diagrams / f"round-{number:02d}.gif"

    def file_round(self, number: int, item: OutboxItem) -> list[Path]:
        """Write the public results of round ``number``: the report text, the
        PNG of each tick and the GIF (the reporter names them roundN-tickK.png
        and roundN.gif, in tick order)."""
        written = [self.report_path(number)]
        written[0].write_text(textblocks.plain(item.text).rstrip() + "\n", encoding="utf-8")
        pngs = [a for a in item.attachments if a.content_type == "image/png"]
        for tick, attachment in enumerate(pngs, start=1):
            path = self.tick_path(number, tick)
            path.write_bytes(attachment.data)
            written.append(path)
        for attachment in item.attachments:
            if attachment.content_type == "image/gif":
                path = self.gif_path(number)
                path.write_bytes(attachment.data)
                written.append(path)
        return written

    def write_summary(self, text: str) -> Path:
        path = self.reports / "summary.txt"
        path.write_text(text.rstrip() + "\n", encoding="utf-8")
        return path
