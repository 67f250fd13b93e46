"""people: a game's minimum time to a deadline, a member's own time zone, private copies for a late joiner

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("min_round_seconds", sa.Integer(), nullable=True))
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("timezone", sa.String(), nullable=True))
    with op.batch_alter_table("memberships", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("private_copies", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("memberships", schema=None) as batch_op:
        batch_op.drop_column("private_copies")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_column("timezone")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("min_round_seconds")
