"""Tables remember whether a person ever joined them: those nobody joined expire.

A table (or solo game) made and never joined was kept for ever, in memory
and in the lobby (issue 20). Tables already here count as joined: nothing of
them goes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("mp_tables")}
    if "joined" not in have:
        with op.batch_alter_table("mp_tables") as batch:
            batch.add_column(sa.Column("joined", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("mp_tables") as batch:
        batch.drop_column("joined")
