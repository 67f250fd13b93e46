"""The order language: what players write, read into engine orders and back.

``parse_message`` reads a message (Russian or English, forgiving about case,
ё, look-alike letters, punctuation, emoji and line ends) into the engine's
:class:`~engine.orders.RoundOrders`, with every error of every line;
``format_orders`` prints orders back in the canonical form that
``parse_message`` reads to the same orders; ``format_sheet`` is the
acknowledgement a team gets.  See docs/orders.md.
"""

from .errors import ErrorKind, OrderError, OrderLanguageError
from .help import help_text
from .parse import MAX_MESSAGE_BYTES, MAX_ORDER_LINES, parse_message
from .printer import format_errors, format_orders, format_sheet
from .result import Clear, ParseResult, apply_clears, apply_result

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_ORDER_LINES",
    "Clear",
    "ErrorKind",
    "OrderError",
    "OrderLanguageError",
    "ParseResult",
    "apply_clears",
    "apply_result",
    "format_errors",
    "format_orders",
    "format_sheet",
    "help_text",
    "parse_message",
]
