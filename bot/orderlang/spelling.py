"""Near misses of a vocabulary, found without comparing against every word.

``difflib.get_close_matches`` compares a word with each word of the
vocabulary; for "did you mean" on every word of every failing line of a
20 KB message that is seconds.  :class:`NearMisses` indexes each vocabulary
word under itself and every string one letter shorter, so a word one edit
away (a letter dropped, added or changed, two letters swapped) shares a key
with it: a lookup costs one dictionary probe per letter of the word.  The
few candidates are then ranked by difflib's ratio with the usual cutoff, so
the answers are what ``get_close_matches`` gives among them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["NearMisses"]


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


class NearMisses:
    """The words of a fixed vocabulary within one edit of a given word."""

    def __init__(self, vocabulary: Iterable[str]) -> None:
        self._index: dict[str, set[str]] = {}
        self._longest = 0
        for word in set(vocabulary):
            self._longest = max(self._longest, len(word))
            for key in _deletes(word) | {word}:
                self._index.setdefault(key, set()).add(word)
        self.close = lru_cache(maxsize=4096)(self._close)

    def _close(self, word: str, n: int = 1, cutoff: float = 0.8) -> tuple[str, ...]:
        """Up to ``n`` vocabulary words near ``word``, best first (ties: as difflib)."""
        if not word or len(word) > self._longest + 1:
            return ()
        found: set[str] = set()
        for key in _deletes(word) | {word}:
            found |= self._index.get(key, set())
        scored = []
        for candidate in found:
            m = difflib.SequenceMatcher(None, candidate, word)
            ratio = m.ratio()
            if ratio >= cutoff:
                scored.append((ratio, candidate))
        scored.sort(reverse=True)
        return tuple(c for _, c in scored[:n])
