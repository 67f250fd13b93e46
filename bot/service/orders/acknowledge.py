"""The answer to an order message: the whole sheet, and plainly what happened.

docs/telegram.md and docs/orders.md promise that every answer to an order
message shows the team's whole sheet on file for the round — not only this
message's lines — with what this message changed marked, who still lacks an
order for which tick, and a first line that says plainly whether everything
was taken, some lines were refused, or nothing was.  An edit that takes
orders back, and a clear, say what they took off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.orderlang import ParseResult, format_errors, format_orders, format_sheet
from bot.orderlang.result import Order
from engine.geometry import Side
from engine.orders import RoundOrders
from engine.ruleset import Ruleset
from engine.state import MatchState

from ..kernel import textblocks
from ..kernel.i18n import N_, t
from .filing import bundle

__all__ = ["DETAILED_ERRORS", "Acknowledgement"]

DETAILED_ERRORS = 20  # errors shown with their line and caret; the rest by line number


@dataclass(frozen=True)
class Acknowledgement:
    """What one order message did, to be told to its writer."""

    round: int
    deadline: str  # as the reader reads times
    side: Side | None  # the team whose sheet is shown (None: a game master's, both)
    result: ParseResult
    accepted: Sequence[Order]  # filed by this message
    refused: Sequence[Order]  # read, but not the writer's to give
    refusals: Sequence[str]  # why, one sentence each
    cleared: Sequence[Order]  # taken off the sheet by its clears
    withdrawn: Sequence[Order]  # taken off because the message was edited
    sheet: RoundOrders  # the sheet on file now
    # The sheet's receipt (bot.service.rounds.receipts.receipt): shown under the sheet.
    receipt: str = ""

    def text(self, state: MatchState, ruleset: Ruleset, lang: str) -> str:
        parts = [self._header(lang)]
        errors = format_errors(
            self.result.errors, lang, block=textblocks.pre, detailed=DETAILED_ERRORS
        )
        if errors or self.refusals:
            parts.append("\n".join(x for x in (errors, *self.refusals) if x))
        if self.result.notes:  # which round orders of a pasted older answer went to
            parts.append("\n".join(self.result.notes))
        for key, orders in (
            (N_("ack_withdrawn"), self.withdrawn),
            (N_("ack_cleared"), self.cleared),
        ):
            if orders:
                lines = format_orders(bundle(orders), state=state, ruleset=ruleset, lang=lang)
                parts.append(t(key, lang) + "\n" + textblocks.pre(_without_round(lines)))
        parts.append(self._sheet(state, ruleset, lang))
        return "\n\n".join(p for p in parts if p)

    # -- the first line --------------------------------------------------------------
    def _lines(self) -> tuple[list[int], list[int]]:
        """The message's lines that were taken, and those refused (all or in part)."""
        r = self.result
        bad = {e.line for e in r.errors if e.line} | {
            r.line_of[o] for o in self.refused if o in r.line_of
        }
        taken = {r.line_of[o] for o in self.accepted if o in r.line_of} | set(r.clear_lines)
        return sorted(taken - bad), sorted(bad)

    def _header(self, lang: str) -> str:
        whole = next((e for e in self.result.errors if e.line == 0), None)
        if whole is not None:  # too long, the wrong round: nothing of it was read
            return t("ack_refused", lang, round=self.round)
        taken, bad = self._lines()
        numbers = ", ".join(str(n) for n in bad)
        if bad and (taken or self.accepted or self.cleared):
            return t(
                "ack_partly", lang, round=self.round, bad=numbers, taken=len(taken),
                deadline=self.deadline,
            )  # fmt: skip
        if bad:
            key = N_("ack_edit_errors") if self.withdrawn else N_("ack_nothing")
            return t(key, lang, round=self.round, bad=numbers)
        if not (self.accepted or self.cleared):
            return t("ack_edit_only", lang, round=self.round)
        return t("ack_all", lang, round=self.round, taken=len(taken), deadline=self.deadline)

    # -- the sheet -------------------------------------------------------------------
    def _sheet(self, state: MatchState, ruleset: Ruleset, lang: str) -> str:
        sheet = format_sheet(
            self.sheet, state=state, ruleset=ruleset, side=self.side, lang=lang,
            changed=self.accepted,
        )  # fmt: skip
        orders, _, missing = sheet.partition("\n\n")
        head = (
            t("ack_sheet", lang, team=state.team(self.side).name, round=self.round)
            if self.side is not None
            else t("ack_sheets", lang, round=self.round)
        )
        out = [head, textblocks.pre(orders)]
        if self.accepted and any(o in self.accepted for o in _every(self.sheet)):
            out.append(t("ack_marked", lang))
        if self.receipt:
            out.append(self.receipt)
        text = "\n".join(out)
        return f"{text}\n\n{missing}" if missing else text


def _every(orders: RoundOrders) -> list[Order]:
    return [*orders.players, *orders.dragons, *orders.substitutions, *orders.penalties]


def _without_round(text: str) -> str:
    """Canonical lines without the leading "Раунд N" (the answer names the round)."""
    first, _, rest = text.partition("\n")
    return rest if first.split()[:1] in (["Раунд"], ["Round"]) else text
