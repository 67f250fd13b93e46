"""``dragonball verify``: rerun resolved rounds from the stored dice seeds."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import click

from bot.context import AppContext, pass_app

if TYPE_CHECKING:
    from bot.service.fairness import Verification

__all__ = ["verify"]


def _line(v: Verification) -> str:
    def mark(ok: bool) -> str:
        return "ok" if ok else "WRONG"

    return (
        f"round {v.round_number}: {'OK' if v.ok else 'MISMATCH'} (commitment {mark(v.commitment_ok)}, "
        f"result {mark(v.result_ok)}, positions {mark(v.state_ok)}, "
        f"rules {v.ruleset}{'' if v.ruleset_ok else ', its data changed since'})\n"
        f"  seed {v.seed}\n  commitment {v.commitment}\n"
        f"  digest {v.digest} (recomputed {v.recomputed_digest})"
    )


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
    from bot.service.context import ServiceError, parse_game_code
    from storage.db import Database, DatabaseError
    from storage.schema import check_schema

    game_id = parse_game_code(game)
    if game_id is None:
        raise click.BadParameter(
            f"not a game: {game!r} (expected DB-12 or 12)", param_hint="--game"
        )
    try:
        db = Database(app.config.database.url)
        check_schema(db)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    service = GameService(db, ServiceSettings(), reporter=RenderReporter(pictures=False))

    async def check() -> list[Verification]:
        numbers = [number] if number is not None else await service.resolved_rounds(game_id)
        return [await service.verify(game_id, n) for n in numbers]

    try:
        results = asyncio.run(check())
    except ServiceError:
        raise click.ClickException(f"game DB-{game_id} has no resolved round {number}") from None
    finally:
        db.dispose()
    if not results:
        raise click.ClickException(f"game DB-{game_id} has no resolved round yet")
    for v in results:
        click.echo(_line(v))
    if not all(v.ok for v in results):
        raise click.exceptions.Exit(1)
