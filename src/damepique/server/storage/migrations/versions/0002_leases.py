"""Leases: which server process runs each multiplayer table, and which processes are alive.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_leases_expires", "leases", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_leases_expires", table_name="leases")
    op.drop_table("leases")
