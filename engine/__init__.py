"""The Dragonball rules engine: a pure functional core.

State + orders + a seed in, new state + events out.  No clock, file, socket
or global random here; only the standard library is imported (a test
enforces it).
"""

from .consistency import state_problems
from .dice import Dice, commitment, derive_seed
from .events import Event, Kind
from .geometry import Direction, Side
from .legality import check_orders, player_path
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
from .policies import greedy_policy, random_policy
from .problems import Code, Problem
from .resolve import RoundResult, resolve_round, resolve_tick
from .ruleset import Ruleset, RulesetError, load_ruleset, load_ruleset_file
from .setup import new_match
from .simulate import MatchResult, simulate_match
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
    "Code",
    "Dice",
    "Direction",
    "DragonOrder",
    "DragonState",
    "Event",
    "Kind",
    "MatchResult",
    "MatchState",
    "Pass",
    "Penalty",
    "PlayerOrder",
    "PlayerRef",
    "PlayerState",
    "Problem",
    "RoundOrders",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "Side",
    "StateError",
    "Steal",
    "Substitution",
    "TeamState",
    "check_orders",
    "commitment",
    "derive_seed",
    "greedy_policy",
    "load_ruleset",
    "load_ruleset_file",
    "new_match",
    "player_path",
    "random_policy",
    "resolve_round",
    "resolve_tick",
    "simulate_match",
    "state_problems",
]
