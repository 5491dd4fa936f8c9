"""The look for solo tables nobody joined (every 30 seconds) reads an index (issue 25).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_mp_tables_unjoined", "mp_tables", ["kind", "joined", "created"])


def downgrade() -> None:
    op.drop_index("ix_mp_tables_unjoined", table_name="mp_tables")
