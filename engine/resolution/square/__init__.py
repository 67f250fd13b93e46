"""The second edition's steps (seed 001, ruleset ``variant-001``).

A square field, dragons turning in four directions with the tail in place,
tail and wing strikes, the dragons' fight, the flame jet and the fire wall,
passes at one cell a tick carrying a spell, steals from the next cell and
the race of a spell and a steal, collisions that knock the survivor back,
the safety spell.  Every number and zone comes from the ruleset's tables
(``[variant]`` for what the classic tables have not); every reading of a
point the text leaves open is an *Interpretation of 001* in docs/rules.md.
The steps register themselves by name (:mod:`engine.resolution.pipeline`)
when this package is imported, and the ruleset lists them in order.  The
modules: ``base`` (look-ups), ``outcomes`` (falls, goals, swallows, catches),
``rounds`` (0, 11), ``flights`` (1, 2), ``dragon_acts`` (3, 4, 10),
``players`` (5, 8, 9), ``passes`` (6, 7).

Steps are numbered for the events' ``step`` field in the order they run:
0 start, 1 flights of players and dragons, 2 balls, 3 dragons meet players,
4 dragon actions, 5 collisions, 6 passes caught, 7 throws, 8 steals, 9 free
balls caught, 10 balls on the head, 11 end.
"""

from __future__ import annotations

from ..pipeline import register
from .dragon_acts import sq_dragon_actions, sq_dragons_meet, sq_head_balls
from .flights import sq_balls_fly, sq_dragons_move, sq_players_fly
from .passes import sq_passes_caught, sq_throws
from .players import sq_catch_free, sq_collisions, sq_steals
from .rounds import sq_end, sq_start

__all__: list[str] = []

for _name, _step in (
    ("sq_start", sq_start),
    ("sq_players_fly", sq_players_fly),
    ("sq_dragons_move", sq_dragons_move),
    ("sq_balls_fly", sq_balls_fly),
    ("sq_dragons_meet", sq_dragons_meet),
    ("sq_dragon_actions", sq_dragon_actions),
    ("sq_collisions", sq_collisions),
    ("sq_passes_caught", sq_passes_caught),
    ("sq_throws", sq_throws),
    ("sq_steals", sq_steals),
    ("sq_catch_free", sq_catch_free),
    ("sq_head_balls", sq_head_balls),
    ("sq_end", sq_end),
):
    register(_name, _step)
