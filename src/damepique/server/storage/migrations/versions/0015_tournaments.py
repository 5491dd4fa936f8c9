"""Duplicate tournaments for clubs (issue 27): one JSON document a tournament.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
