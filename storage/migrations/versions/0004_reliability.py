"""reliability: inbound kept whole for recovery, outbox claim owners, late orders, receipts

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbound", schema=None) as batch_op:
        batch_op.add_column(sa.Column("meta", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("game_hint", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("reply_ref", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("stored_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_inbound_status", ["status"], unique=False)
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(), nullable=True))
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("order_digests", sa.JSON(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("late_orders", sa.String(), nullable=False, server_default="refuse")
        )
    op.create_table(
        "workers",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("host", sa.String(), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("workers")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("late_orders")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("order_digests")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("claimed_by")
    with op.batch_alter_table("inbound", schema=None) as batch_op:
        batch_op.drop_index("ix_inbound_status")
        batch_op.drop_column("stored_at")
        batch_op.drop_column("reply_ref")
        batch_op.drop_column("game_hint")
        batch_op.drop_column("meta")
