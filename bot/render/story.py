"""One tick's events told as sentences, in the order of §9.

:class:`TickStory` turns the events of one tick into :class:`Line` s.  It
folds what reads better together (all flights of a team in one line; a
successful catch roll and the catch; a dragon's move and its mouth) and it
keeps the secrets: a pass's spell is told only to the passing team, and the
vanished yellow ball's whereabouts to nobody.
"""

from __future__ import annotations

from .story_base import Line, Secrets, score_text
from .story_contact import ContactStory
from .story_flight import FlightStory
from .story_square import SquareStory

__all__ = ["Line", "Secrets", "TickStory", "score_text"]


class TickStory(SquareStory, FlightStory, ContactStory):
    """Every ``on_<kind>`` handler of both halves of a tick."""
