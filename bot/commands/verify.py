"""``dragonball verify``: rerun resolved rounds from the stored dice seeds."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import click

from bot.context import AppContext, pass_app

if TYPE_CHECKING:
    from bot.service.rounds.fairness import Verification

__all__ = ["verify"]


def _line(v: Verification) -> str:
    def mark(ok: bool) -> str:
        return "ok" if ok else "WRONG"

    return (
        f"round {v.round_number}{_attempt(v)}: {'OK' if v.ok else 'MISMATCH'} "
        f"(commitment {mark(v.commitment_ok)}, "
        f"result {mark(v.result_ok)}, positions {mark(v.state_ok)}, "
        f"rules {v.ruleset}{'' if v.ruleset_ok else ', its data changed since'})\n"
        f"  seed {v.seed}\n  commitment {v.commitment}\n"
        f"  digest {v.digest} (recomputed {v.recomputed_digest})"
    )


def _attempt(v: Verification) -> str:
    if v.attempt == 1 and not v.rolled_back:
        return ""
    return f" attempt {v.attempt}" + (" (rolled back)" if v.rolled_back else "")


@click.command("verify")
@click.option("--game", "game", required=True, help='The game: "DB-12" or 12.')
@click.option(
    "--round",
    "number",
    type=click.IntRange(min=1),
    help="One round (default: every resolved round).",
)
@pass_app
def verify(app: AppContext, game: str, number: int | None) -> None:
    """Check that resolved rounds match their published dice commitment and result.

    Each round is rerun from the stored position before it, the stored orders
    and the revealed seed; the seed must hash to the commitment published when
    the round opened, and the rerun must give the published result digest.
    Exit status 0 when everything matches, 1 otherwise.
    """
    # Imported here: the service pulls in the engine and rendering, which the
    # other commands do not need.
    from bot.service import GameService, RenderReporter, ServiceSettings
    from bot.service.kernel.context import ServiceError, parse_game_code
    from storage.db import Database, DatabaseError, sqlite_file
    from storage.schema import check_schema, current_revision

    game_id = parse_game_code(game)
    if game_id is None:
        raise click.BadParameter(
            f"not a game: {game!r} (expected DB-12 or 12)", param_hint="--game"
        )
    url = app.database_config.database.url
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        # Opening it would create an empty database: verify only reads.
        raise click.ClickException(
            f"no database at {path}: this is not a judge's database "
            "(database.url in the configuration, or run where it lives)"
        )
    try:
        db = Database(url)
        if current_revision(db) is None:
            db.dispose()
            raise click.ClickException(f"{path or 'the database'} is not a judge's database")
        check_schema(db)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    service = GameService(db, ServiceSettings(), reporter=RenderReporter(pictures=False))

    async def check() -> list[Verification]:
        # Every attempt played, those a game master rolled back too.
        played = await service.played_rounds(game_id)
        chosen = [(n, a) for n, a in played if number is None or n == number]
        return [await service.verify(game_id, n, a) for n, a in chosen]

    try:
        results = asyncio.run(check())
    except ServiceError:
        raise click.ClickException(f"game DB-{game_id} has no resolved round {number}") from None
    finally:
        db.dispose()
    if not results and number is not None:
        raise click.ClickException(f"game DB-{game_id} has no resolved round {number}")
    if not results:
        raise click.ClickException(f"game DB-{game_id} has no resolved round yet")
    for v in results:
        click.echo(_line(v))
    if not all(v.ok for v in results):
        raise click.exceptions.Exit(1)
