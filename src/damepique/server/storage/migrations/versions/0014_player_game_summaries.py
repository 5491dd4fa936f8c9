"""Each player's part of a finished game, summed up when it ends (issue 28):
their statistics add these up instead of replaying every record on each visit.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("player_games")}
    if "summary" not in have:
        with op.batch_alter_table("player_games") as batch:
            batch.add_column(sa.Column("summary", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("player_games") as batch:
        batch.drop_column("summary")
