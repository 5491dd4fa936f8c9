"""Ranked games left (issue 28): repeated leaving bars quick ranked matches for a while.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ranked_leaves",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_ranked_leaves_at", "ranked_leaves", ["at"])


def downgrade() -> None:
    op.drop_index("ix_ranked_leaves_at", table_name="ranked_leaves")
    op.drop_table("ranked_leaves")
