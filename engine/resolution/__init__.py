"""Internals of the resolver (:mod:`engine.resolve`): one tick in the order of §9.

``geo`` holds precomputed look-ups, ``work`` the mutable working copy of a
state, ``context`` the per-tick dice and event log, and the step modules
(``start``, ``flight``, ``dragons``, ``contact``, ``finish``) the rules.
Nothing here is public API; import from :mod:`engine.resolve`.
"""

__all__: list[str] = []
