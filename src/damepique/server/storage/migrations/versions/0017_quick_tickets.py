"""Quick-match waits kept in the database (issue 28): a wait survives its queue's owner.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quick_tickets",
        sa.Column("ticket", sa.String(64), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("seated", sa.Text),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_quick_tickets_at", "quick_tickets", ["at"])


def downgrade() -> None:
    op.drop_index("ix_quick_tickets_at", table_name="quick_tickets")
    op.drop_table("quick_tickets")
