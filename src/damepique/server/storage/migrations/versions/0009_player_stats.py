"""Everyone's statistics (issue 28): who played each finished game, guests too,
and which account a browser's guest games count for.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_games",
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_index("ix_player_games_finished", "player_games", ["finished"])
    op.create_table(
        "player_links",
        sa.Column("device", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_player_links_account", "player_links", ["account"])


def downgrade() -> None:
    op.drop_index("ix_player_links_account", table_name="player_links")
    op.drop_table("player_links")
    op.drop_index("ix_player_games_finished", table_name="player_games")
    op.drop_table("player_games")
