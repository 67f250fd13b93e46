"""channel marks: the deadline watermark shared by several judge processes

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "channel_marks",
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("read_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("channel"),
    )


def downgrade() -> None:
    op.drop_table("channel_marks")
