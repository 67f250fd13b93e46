"""``dragonball check-orders``: read an order message offline, as the judge would.

Prints the canonical order sheet and exits 0, or prints every error (and
what would still be taken) and exits 1; a file it cannot read exits 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from bot.i18n import t
from bot.orderlang import (
    apply_result,
    format_errors,
    format_orders,
    format_sheet,
    parse_message,
)
from engine.geometry import Side
from engine.orders import OrdersError, RoundOrders
from engine.ruleset import RulesetError, load_ruleset
from engine.state import MatchState, StateError

__all__ = ["check_orders"]

_SIDES: dict[str, Side] = {"left": "left", "right": "right", "l": "left", "r": "right"}


class _Unreadable(click.ClickException):
    exit_code = 2


def _read_json(path: Path, what: str) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _Unreadable(f"cannot read the {what} file {path}: {exc}") from None
    if not isinstance(data, dict):
        raise _Unreadable(f"the {what} file {path} is not a JSON object")
    return data


def _read_message(path: str) -> str:
    raw = sys.stdin.buffer.read() if path == "-" else _read_bytes(Path(path))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1251")  # older Russian mail clients


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise _Unreadable(f"cannot read the message file {path}: {exc.strerror}") from None


def _side(team: str, state: MatchState) -> Side | None:
    key = team.strip().lower()
    if key in ("gm", "master", "судья"):
        return None
    if key in _SIDES:
        return _SIDES[key]
    for entry in state.teams:
        if entry.name.lower() == key:
            return entry.side
    names = ", ".join(t.name for t in state.teams)
    raise click.BadParameter(f"{team!r} is not left, right, gm or a team name ({names})")


@click.command("check-orders")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--state",
    "state_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The match state (JSON, as `dragonball engine` writes it).",
)
@click.option(
    "--team", required=True, help="The writer's team: left, right, its name, or gm (game master)."
)
@click.option("--lang", type=click.Choice(["ru", "en"]), default="ru", show_default=True)
@click.option(
    "--players",
    default=None,
    help="Shirt numbers the writer may order, e.g. 1,2,5 (default: the whole team).",
)
@click.option("--no-dragon", is_flag=True, help="The writer may not order the dragon.")
@click.option(
    "--on-file",
    "on_file_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Orders already stored for the round (RoundOrders JSON): checked together.",
)
@click.option("--syntax-only", is_flag=True, help="Check names but not legality in the position.")
def check_orders(
    file: str,
    state_path: Path,
    team: str,
    lang: str,
    players: str | None,
    no_dragon: bool,
    on_file_path: Path | None,
    syntax_only: bool,
) -> None:
    """Check an order message FILE (- for standard input) against a match state.

    Prints the canonical order sheet (exit 0), or every error with the line,
    a caret under the wrong part and the reason, then what would still be
    taken (exit 1).  Valid lines are stored even when other lines have
    errors; a later order for the same player and tick replaces the earlier.
    """
    try:
        state = MatchState.from_json(_read_json(state_path, "state"))
        ruleset = load_ruleset(state.ruleset)
        on_file = (
            RoundOrders.from_json(_read_json(on_file_path, "orders")) if on_file_path else None
        )
    except (StateError, RulesetError, OrdersError) as exc:
        raise _Unreadable(str(exc)) from None
    side = _side(team, state)
    controllable = None
    if players:
        try:
            controllable = frozenset(int(p) for p in players.replace(" ", "").split(",") if p)
        except ValueError:
            raise click.BadParameter(f"{players!r} is not a list of shirt numbers") from None
    result = parse_message(
        _read_message(file),
        state=state,
        ruleset=ruleset,
        side=side,
        lang=lang,
        controllable=controllable,
        dragon_allowed=not no_dragon,
        on_file=on_file,
        check_legality=not syntax_only,
    )
    sheet = apply_result(on_file or RoundOrders(), result)
    notes = "".join(f"{note}\n\n" for note in result.notes)
    if result.ok:
        text = format_sheet(sheet, state=state, ruleset=ruleset, side=side, lang=lang)
        click.echo(notes + text)
        return
    click.echo(format_errors(result.errors, lang))
    if notes:
        click.echo("\n" + notes.rstrip("\n"))
    taken = format_orders(result.orders, state=state, ruleset=ruleset, lang=lang)
    if taken:
        click.echo("\n" + t("check.taken", lang) + "\n" + taken)
    raise click.exceptions.Exit(1)
