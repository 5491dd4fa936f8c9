"""Account sessions on the server: signing out ends a session everywhere its cookie went.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_sessions",
        sa.Column("sid", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_account_sessions_created", "account_sessions", ["created"])


def downgrade() -> None:
    op.drop_index("ix_account_sessions_created", table_name="account_sessions")
    op.drop_table("account_sessions")
