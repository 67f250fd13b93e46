"""Players by name or number: exact, inflected, prefix, then "did you mean".

Names are compared by :func:`lexicon.skeleton`, so case, е/ё, look-alike
letters and Latin transliteration do not matter ("Kuznetsov" is Кузнецов);
failing all else, a name written in the other script is compared by how it
sounds (:func:`lexicon.sound_keys`: «Браун» is Brown, "Braun" is «Браун»).
A player matches by his full roster name or its last word (the surname); an
inflected form ("у Смирнова") matches when the ending is dropped; three or
more first letters match when only one player's name starts so.  Two
players fitting is an ambiguity, never a guess: by sound, a word and its
ending-stripped forms together («Брауна»: Bruno whole, Brown without «а»).
A sound match is no reading when a name in the script written is spelt
close ("Allan" with Allen and «Ильин»): that is "did you mean" with both.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from engine.state import PlayerState

from .lexicon import norm_word, skeleton, sound_keys

__all__ = ["NameMatch", "Roster", "display_name", "find_player", "player_keys", "roster_of"]

_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_ENDINGS = ("ому", "ым", "ом", "ой", "им", "ем", "ого", "а", "у", "е", "ы")
_ENDING_KEYS = tuple(dict.fromkeys(skeleton(e) for e in _ENDINGS))


@dataclass(frozen=True, slots=True)
class NameMatch:
    player: PlayerState | None = None
    candidates: tuple[PlayerState, ...] = ()  # two or more: ambiguous
    suggestions: tuple[PlayerState, ...] = ()  # near misses
    by_sound: bool = False  # found by how a name in the other script sounds


def player_keys(player: PlayerState) -> tuple[str, ...]:
    """The skeletons a player answers to: full name and surname."""
    return _name_keys(player.name)


@lru_cache(maxsize=1024)
def _name_keys(name: str) -> tuple[str, ...]:
    words = [norm_word(w) for w in name.split()]
    if not words:
        return ()
    keys = {skeleton("".join(words)), skeleton(words[-1])}
    keys.discard("")
    return tuple(sorted(keys))


def _unique(players: Sequence[PlayerState]) -> tuple[PlayerState, ...]:
    seen: dict[tuple[str, int], PlayerState] = {}
    for p in players:
        seen.setdefault((p.side, p.number), p)
    return tuple(seen.values())


class Roster:
    """A pool of players indexed by their name keys, for repeated look-ups."""

    def __init__(self, pool: Sequence[PlayerState]) -> None:
        self.by_key: dict[str, list[PlayerState]] = {}
        for p in _unique(pool):
            for k in player_keys(p):
                self.by_key.setdefault(k, []).append(p)
        # (written in Cyrillic, sound key) -> players: a name is looked up by
        # sound only among the names of the other script («Браун» for Brown)
        self.by_sound: dict[tuple[bool, str], list[PlayerState]] = {}
        for p in _unique(pool):
            for script, k in _sound_keys(p.name):
                self.by_sound.setdefault((script, k), []).append(p)
        self._found: dict[tuple[tuple[str, ...], bool], NameMatch] = {}

    def find(self, words: Sequence[str], *, suggest: bool = True) -> NameMatch:
        """Who ``words`` (normalised) name: exact, inflected, prefix, or near
        misses (looked for only if ``suggest``: the costly part)."""
        key = (tuple(words), suggest)
        found = self._found.get(key)
        if found is None:
            if len(self._found) >= 1024:
                self._found.clear()
            found = self._found[key] = self._find(words, suggest)
        return found

    def _find(self, words: Sequence[str], suggest: bool) -> NameMatch:
        key = skeleton("".join(words))
        if not key:
            return NameMatch()
        exact = _unique(self.by_key.get(key, ()))
        if not exact:
            stems = [key[: -len(e)] for e in _ENDING_KEYS if key.endswith(e) and len(key) > len(e)]
            exact = _unique([p for stem in stems for p in self.by_key.get(stem, ())])
        if not exact and len(words) > 1:
            # "Иван Иванов" for a roster that has the surname only: the words
            # that name anyone must all name the same one player
            alone = [self.find((w,), suggest=False) for w in words]
            named = {m.player for m in alone if m.player is not None}
            if len(named) == 1 and not any(m.candidates for m in alone):
                return NameMatch(player=named.pop())
        if len(exact) == 1:
            return NameMatch(player=exact[0])
        if exact:
            return NameMatch(candidates=exact)
        if len(key) >= 3:
            prefixed = _unique(
                [p for k, ps in self.by_key.items() if k.startswith(key) for p in ps]
            )
            if len(prefixed) == 1:
                return NameMatch(player=prefixed[0])
            if prefixed:
                return NameMatch(candidates=prefixed)
        written = "".join(words)
        sounded = self._by_sound(written)
        if sounded:
            # "Allan" for Allen is a misspelling, though it sounds like «Ильин»:
            # a close name in the script written beats the other script's sound
            near = self._near(key)
            if any(_is_cyrillic(p.name) == _is_cyrillic(written) for p in near):
                return NameMatch(suggestions=_unique([*near, *sounded]) if suggest else ())
            if len(sounded) == 1:
                return NameMatch(player=sounded[0], by_sound=True)
            return NameMatch(candidates=sounded, by_sound=True)
        if not suggest:
            return NameMatch()
        return NameMatch(suggestions=self._near(key))

    def _near(self, key: str) -> tuple[PlayerState, ...]:
        """The players whose name is spelt close to ``key`` (a skeleton): "did you mean"."""
        close = difflib.get_close_matches(key, list(self.by_key), n=3, cutoff=0.7)
        return _unique([p for k in close for p in self.by_key[k]])

    def near_in_script(self, words: Sequence[str]) -> bool:
        """Whether a player's name, in the script ``words`` are written in, is
        spelt close to them: then a sound match elsewhere is no reading."""
        written = "".join(words)
        key = skeleton(written)
        return bool(key) and any(
            _is_cyrillic(p.name) == _is_cyrillic(written) for p in self._near(key)
        )

    def _by_sound(self, written: str) -> tuple[PlayerState, ...]:
        """The players whose name, in the other script, sounds like ``written``
        («Браун», «у Брауна» for Brown; "Braun" for «Браун»)."""
        cyrillic = _is_cyrillic(written)
        forms = [written]
        if cyrillic:  # «у Брауна»: the ending dropped
            forms += [written[: -len(e)] for e in _ENDINGS if written.endswith(e)]
        # every form's matches: «Брауна» is br*n* (Bruno) whole and br*n
        # (Brown) without its ending; two fitting is an ambiguity, not a pick
        found = _unique(
            [
                p
                for form in forms
                if len(form) >= 2
                for k in sound_keys(form)
                for p in self.by_sound.get((not cyrillic, k), ())
            ]
        )
        return tuple(sorted(found, key=lambda p: (p.side, p.number)))


def _is_cyrillic(text: str) -> bool:
    return bool(_CYRILLIC.search(text))


@lru_cache(maxsize=1024)
def _sound_keys(name: str) -> frozenset[tuple[bool, str]]:
    """(in Cyrillic, sound key) of a roster name: of the whole name and of its surname."""
    words = [norm_word(w) for w in name.split()]
    if not words:
        return frozenset()
    forms = {"".join(words), words[-1]}
    return frozenset((bool(_CYRILLIC.search(f)), k) for f in forms for k in sound_keys(f))


_ROSTERS: dict[tuple[tuple[str, int, str], ...], Roster] = {}


def roster_of(pool: tuple[PlayerState, ...]) -> Roster:
    """The :class:`Roster` of ``pool``, shared by every message read against
    the same names and numbers: it answers *who* is meant — take his state
    (cell, balls) from the position at hand, not from the roster."""
    key = tuple([(p.side, p.number, p.name) for p in pool])
    roster = _ROSTERS.get(key)
    if roster is None:
        if len(_ROSTERS) >= 256:
            _ROSTERS.clear()
        roster = _ROSTERS[key] = Roster(pool)
    return roster


def find_player(words: Sequence[str], pool: Sequence[PlayerState]) -> NameMatch:
    """Who ``words`` (normalised) name among ``pool`` (see :class:`Roster`),
    as ``pool`` has them now (the shared roster may hold an older position's)."""
    found = roster_of(tuple(pool)).find(words)
    now = {(p.side, p.number): p for p in pool}

    def current(players: tuple[PlayerState, ...]) -> tuple[PlayerState, ...]:
        return tuple(now.get((p.side, p.number), p) for p in players)

    player = now.get((found.player.side, found.player.number)) if found.player else None
    return replace(
        found,
        player=player or found.player,
        candidates=current(found.candidates),
        suggestions=current(found.suggestions),
    )


def _same(a: PlayerState | None, b: PlayerState) -> bool:
    return a is not None and (a.side, a.number) == (b.side, b.number)


def display_name(player: PlayerState, pool: Sequence[PlayerState]) -> str:
    """How to write a player so that he alone is meant: his name, or his number."""
    words = [norm_word(w) for w in player.name.split()]
    if words and _same(roster_of(tuple(pool)).find(words, suggest=False).player, player):
        return player.name
    return str(player.number)
