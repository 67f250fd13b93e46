"""The Dragonball rules engine: a pure functional core.

State + orders + a seed in, new state + events out.  No clock, file, socket
or global random here; only the standard library is imported (a test
enforces it).
"""

from .dice import Dice, commitment, derive_seed
from .events import Event, Kind
from .geometry import Direction, Side
from .orders import (
    Catch,
    DragonOrder,
    Pass,
    Penalty,
    PlayerOrder,
    RoundOrders,
    Steal,
    Substitution,
)
from .ruleset import Ruleset, RulesetError, load_ruleset, load_ruleset_file
from .setup import new_match
from .state import (
    BallState,
    DragonState,
    MatchState,
    PlayerRef,
    PlayerState,
    StateError,
    TeamState,
)

__all__ = [
    "BallState",
    "Catch",
    "Dice",
    "Direction",
    "DragonOrder",
    "DragonState",
    "Event",
    "Kind",
    "MatchState",
    "Pass",
    "Penalty",
    "PlayerOrder",
    "PlayerRef",
    "PlayerState",
    "RoundOrders",
    "Ruleset",
    "RulesetError",
    "Side",
    "StateError",
    "Steal",
    "Substitution",
    "TeamState",
    "commitment",
    "derive_seed",
    "load_ruleset",
    "load_ruleset_file",
    "new_match",
]
