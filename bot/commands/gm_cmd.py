"""``dragonball gm``: the operator's set-up of game masters.

``gm passphrase ADDRESS`` gives a configured game master's e-mail address
(``game_masters.emails``) the pass phrase his mail must carry (``пароль: …``
on a line of its own): mail from an address alone proves nothing, and
without a phrase the judge cannot tell him from someone forging his From:.
"""

from __future__ import annotations

import click

from bot.context import AppContext, pass_app

__all__ = ["gm"]


@click.group("gm")
def gm() -> None:
    """Set up the game masters named in the configuration."""


@gm.command("passphrase")
@click.argument("address")
@click.option(
    "--phrase",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help="The pass phrase (asked for, unseen, when not given).",
)
@pass_app
def passphrase(app: AppContext, address: str, phrase: str) -> None:
    """Set the pass phrase of a game master's ADDRESS (one of game_masters.emails)."""
    from datetime import UTC, datetime

    from bot.service.handlers.members import MIN_PASSPHRASE, hash_passphrase
    from storage import repo
    from storage.db import Database, DatabaseError
    from storage.models import Member
    from storage.schema import check_schema

    config = app.database_config
    address = address.strip().lower()
    if address not in {a.strip().lower() for a in config.game_masters.emails}:
        raise click.ClickException(
            f"{address} is not in game_masters.emails: add it there first "
            "(other people join a game with an invitation, /invite)"
        )
    if len(phrase.strip()) < MIN_PASSPHRASE:
        raise click.ClickException(f"a pass phrase has {MIN_PASSPHRASE} characters at the least")
    try:
        db = Database(config.database.url)
        check_schema(db)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        with db.transaction() as s:
            member = repo.member_by_email(s, address) or Member(
                email=address,
                notify="email",
                lang=config.game.report_language,
                created_at=datetime.now(UTC),
            )
            member.passphrase_hash = hash_passphrase(phrase.strip())
            s.add(member)
    finally:
        db.dispose()
    click.echo(
        f"pass phrase set for {address}: his mail to the judge carries a line "
        "«пароль: …» (or “passphrase: …”) with it"
    )
