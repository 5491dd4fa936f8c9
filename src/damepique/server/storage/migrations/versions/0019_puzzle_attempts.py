"""Puzzle answers kept by player (issue 26): a guest's rating and history move to the account.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("puzzle_id", sa.String(64), nullable=False),
        sa.Column("theme", sa.String(16), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("puzzle_rating", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("before", sa.Text, nullable=False),
        sa.Column("after", sa.Text, nullable=False),
    )
    op.create_index("ix_puzzle_attempts_player", "puzzle_attempts", ["player"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_player", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
