"""The daily deal: one sealed game a day, the same for everyone (issue 27).

``daily_days``: each UTC day's deal secret, its experts' level and its par;
``daily_entries``: each player's one try of a day and its result.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_days",
        sa.Column("date", sa.String(10), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("par", sa.Text),
    )
    op.create_table(
        "daily_entries",
        sa.Column("date", sa.String(10), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("account", sa.String(32)),
        sa.Column("nickname", sa.String(32)),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("points", sa.Text),
        sa.Column("total", sa.Integer),
    )
    op.create_index("ix_daily_entries_account", "daily_entries", ["account"])


def downgrade() -> None:
    op.drop_index("ix_daily_entries_account", table_name="daily_entries")
    op.drop_table("daily_entries")
    op.drop_table("daily_days")
