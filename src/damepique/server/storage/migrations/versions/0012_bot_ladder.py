"""The bots' ladder (issue 29): ratings from ranked games of bots only.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_ladder",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_ladder")
