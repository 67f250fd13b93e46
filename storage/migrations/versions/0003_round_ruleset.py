"""round_ruleset: each resolved round records the ruleset it was played under

Rounds resolved before this revision were all played under version 1 of
their game's ruleset (their digest is unknown and left empty).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ruleset", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("ruleset_version", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("ruleset_digest", sa.String(), nullable=True))
    op.execute(
        "UPDATE rounds SET ruleset_version = 1, ruleset = "
        "(SELECT games.ruleset FROM games WHERE games.id = rounds.game_id) "
        "WHERE result_digest IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        for name in ("ruleset_digest", "ruleset_version", "ruleset"):
            batch_op.drop_column(name)
