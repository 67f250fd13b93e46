"""audience: a team group's language; invitations bound to whom they were made for

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chat_lang", sa.String(), nullable=True))
    with op.batch_alter_table("invitations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("telegram_username", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("used_from", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("confirm_hash", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("confirm_for", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("confirm_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column("confirm_tries", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("invitations", schema=None) as batch_op:
        for name in (
            "confirm_tries", "confirm_until", "confirm_for", "confirm_hash", "used_from",
            "revoked_at", "telegram_username",
        ):  # fmt: skip
            batch_op.drop_column(name)
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.drop_column("chat_lang")
