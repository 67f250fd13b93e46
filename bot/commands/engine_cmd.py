"""``dragonball engine``: the rules engine from files, for tools and checks.

``new`` prints an opening position, ``export`` a live game's position from
the judge's database, ``round`` resolves a round (or some of
its ticks) from a state and orders file, ``check`` lists the legality
problems of an orders file.  Output is JSON with sorted keys, so the same
input gives byte-identical output.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from bot.commands.case_cmd import case_cmd
from bot.context import AppContext, pass_app
from engine.consistency import state_problems
from engine.legality import check_orders
from engine.orders import OrdersError, RoundOrders
from engine.resolve import resolve_round
from engine.ruleset import Ruleset, RulesetError, load_ruleset
from engine.setup import new_match
from engine.state import MatchState, StateError

__all__ = ["engine"]

T = TypeVar("T")


def dump(data: Any) -> str:
    """Deterministic JSON: sorted keys, Cyrillic kept as is."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1)


def _load_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise click.ClickException(f"cannot read the {what} file {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"the {what} file {path} is not valid JSON: {exc}") from None


def _ruleset(name: str) -> Ruleset:
    try:
        return load_ruleset(name)
    except RulesetError as exc:
        raise click.ClickException(str(exc)) from None


def _document(path: Path, what: str, parse: Callable[[dict[str, Any]], T]) -> T:
    """``parse`` the JSON object in ``path``; any reason it cannot be one line."""
    data = _load_json(path, what)
    if not isinstance(data, dict):
        raise click.ClickException(f"the {what} file {path} must hold a JSON object")
    try:
        return parse(data)
    except (StateError, OrdersError) as exc:
        raise click.ClickException(f"the {what} file {path}: {exc}") from None


def _position(path: Path) -> tuple[MatchState, Ruleset]:
    """The state of ``path`` and its ruleset, refused if it is not a possible position."""
    state = _document(path, "state", MatchState.from_json)
    rules = _ruleset(state.ruleset)
    problems = state_problems(state, rules)
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise click.ClickException(
            f"the state file {path} is not a possible position: {'; '.join(problems[:3])}{more}"
        )
    return state, rules


def _orders(path: Path) -> RoundOrders:
    return _document(path, "orders", RoundOrders.from_json)


_PATH = click.Path(dir_okay=False, path_type=Path)


@click.group("engine")
def engine() -> None:
    """Rules-engine tools: an opening position, resolving a round, checking
    orders, running the case book."""


engine.add_command(case_cmd)


@engine.command("export")
@click.option("--game", "game", required=True, help='The game: "DB-12" or 12.')
@click.option(
    "--round",
    "number",
    type=click.IntRange(min=1),
    help="The position before this round (default: the round now open).",
)
@pass_app
def export_cmd(app: AppContext, game: str, number: int | None) -> None:
    """Print a game's position from the judge's database as JSON, as `engine new`
    writes it: `check-orders --state FILE` then checks orders against the real
    position.  It holds everything, the hidden too: for the operator and the
    game masters, not for players."""
    from bot.service.kernel.context import parse_game_code
    from storage import repo
    from storage.db import Database, DatabaseError
    from storage.models import Round
    from storage.schema import check_schema

    game_id = parse_game_code(game)
    if game_id is None:
        raise click.BadParameter(
            f"not a game: {game!r} (expected DB-12 or 12)", param_hint="--game"
        )
    try:
        db = Database(app.database_config.database.url)
        check_schema(db)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        with db.reading() as s:
            row = repo.get_game(s, game_id)
            if row is None:
                raise click.ClickException(f"no game DB-{game_id}")
            rnd = s.get(Round, row.current_round_id) if row.current_round_id else None
            if number is not None:
                rnd = repo.resolved_round(s, game_id, number)
                if rnd is None and row.current_round_id is not None:
                    current = s.get(Round, row.current_round_id)
                    rnd = current if current is not None and current.number == number else None
            data = repo.snapshot(s, rnd.id, 0) if rnd is not None and rnd.id is not None else None
    finally:
        db.dispose()
    if data is None:
        which = f"round {number}" if number is not None else "an open round"
        raise click.ClickException(f"game DB-{game_id} has no position for {which}")
    click.echo(dump(data))


@engine.command("new")
@click.option(
    "--seed",
    help="Seed of the opening draws (any text or number; default: drawn at random and "
    "printed on standard error, so the position can be drawn again).",
)
@click.option(
    "--players-per-team",
    type=click.IntRange(1, 21),
    help="Players on each side (default: the ruleset's).",
)
@click.option("--ruleset", "ruleset_name", default="classic", show_default=True)
def new_cmd(seed: str | None, players_per_team: int | None, ruleset_name: str) -> None:
    """Print the opening position of a match as JSON."""
    rules = _ruleset(ruleset_name)
    if seed is None:
        seed = secrets.token_hex(32)
        click.echo(f"seed: {seed}", err=True)
    try:
        state, _ = new_match(rules, seed, players_per_team=players_per_team)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--players-per-team") from None
    click.echo(dump(state.to_json()))


@engine.command("round")
@click.option("--state", "state_path", type=_PATH, required=True, help="State JSON file.")
@click.option("--orders", "orders_path", type=_PATH, required=True, help="Orders JSON file.")
@click.option("--seed", required=True, help="The round's seed.")
@click.option("--ticks", type=click.IntRange(1), help="Resolve only this many ticks.")
def round_cmd(state_path: Path, orders_path: Path, seed: str, ticks: int | None) -> None:
    """Resolve a round and print {"state": …, "events": […]} as JSON.

    Orders the rules refuse are resolved as the judge would (no order, or a
    lost action); their problems are listed on standard error.
    """
    state, rules = _position(state_path)
    orders = _orders(orders_path)
    for problem in check_orders(state, orders, rules):
        click.echo(f"warning: tick {problem.tick}: {problem.message}", err=True)
    result = resolve_round(state, orders, rules, seed, ticks=ticks)
    click.echo(
        dump(
            {
                "state": result.state.to_json(),
                "events": [e.to_json() for e in result.events],
            }
        )
    )


@engine.command("check")
@click.option("--state", "state_path", type=_PATH, required=True, help="State JSON file.")
@click.option("--orders", "orders_path", type=_PATH, required=True, help="Orders JSON file.")
@click.option("--side", type=click.Choice(["left", "right"]), help="Check as this team.")
def check_cmd(state_path: Path, orders_path: Path, side: str | None) -> None:
    """List the legality problems of an orders file as JSON (exit 1 if any)."""
    state, rules = _position(state_path)
    orders = _orders(orders_path)
    problems = check_orders(state, orders, rules, side=side)  # type: ignore[arg-type]
    click.echo(
        dump(
            [
                {"code": p.code.value, "message": p.message, "tick": p.tick, "params": p.params}
                for p in problems
            ]
        )
    )
    if problems:
        raise click.exceptions.Exit(1)
