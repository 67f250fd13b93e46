"""The referee's case book: rule-book sentences as small runnable cases.

A case (a TOML document, see :mod:`engine.cases.case`) names a position —
only the pieces it is about —, the orders, the draws it forces by name, the
sentence of the rule book it proves, and the result it expects: exact, a
probability over seeds, or "refused when saved".  Everything here is pure:
the caller reads the files (``dragonball engine case FILE|DIR…``).

    from engine.cases import parse_case, run_case
    case = load_case(text, name="s4-held-on")   # or parse_case(tomllib.loads(text))
    result = run_case(case)
    print(result.line())
"""

from .case import Case, RuleRef, parse_case, ruleset_of
from .expect import Expect
from .forcing import ALIASES, NamedDice, Selector, parse_selector
from .lines import error_line, load_case
from .position import build_position
from .run import CaseResult, Outcome, play, run_case
from .text import CaseError

__all__ = [
    "ALIASES",
    "Case",
    "CaseError",
    "CaseResult",
    "Expect",
    "NamedDice",
    "Outcome",
    "RuleRef",
    "Selector",
    "build_position",
    "error_line",
    "load_case",
    "parse_case",
    "parse_selector",
    "play",
    "ruleset_of",
    "run_case",
]
