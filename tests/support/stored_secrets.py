"""Where a secret is readable in the database: every column of every table."""

from __future__ import annotations

import json

from sqlalchemy import select

from storage.db import Database
from storage.models import metadata

__all__ = ["readable_in", "stored_anywhere"]


def readable_in(value: object, phrase: str) -> bool:
    """Is ``phrase`` in ``value`` as text, as UTF-8 bytes, or JSON-escaped?"""
    forms = {phrase, json.dumps(phrase)[1:-1]}
    if isinstance(value, bytes):
        return any(f.encode() in value for f in forms)
    if isinstance(value, (dict, list)):
        value = json.dumps(value, ensure_ascii=False) + json.dumps(value)
    return isinstance(value, str) and any(f in value for f in forms)


def stored_anywhere(db: Database, phrase: str) -> list[str]:
    """``table.column`` of every stored value that holds ``phrase``."""
    found = []
    with db.transaction() as s:
        for table in metadata.sorted_tables:
            for row in s.execute(select(table)).mappings():
                found += [f"{table.name}.{k}" for k, v in row.items() if readable_in(v, phrase)]
    return found
