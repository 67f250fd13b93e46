"""A resolver process that stops between the engine run and the commit.

Run as ``python resolver_child.py URL SCHEMA NOW MARKER``: it resolves what is
due at NOW and, once the engine has run, writes MARKER and sleeps, so the test
can kill it right there (SCHEMA "-" for none).
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import datetime
from pathlib import Path

from bot.service import GameService, RenderReporter, ServiceSettings
from storage.db import Database


def main() -> None:
    url, schema, now, marker = sys.argv[1:5]

    def stop_here(game_id: int, number: int) -> None:
        tmp = Path(marker + ".tmp")
        tmp.write_text(f"{game_id} {number}")
        tmp.replace(marker)  # appears whole: the test reads it as soon as it exists
        time.sleep(120)

    db = Database(url, schema=None if schema == "-" else schema)
    service = GameService(
        db, ServiceSettings(), reporter=RenderReporter(pictures=False), after_engine=stop_here
    )
    asyncio.run(service.resolve_due(datetime.fromisoformat(now)))


if __name__ == "__main__":
    main()
