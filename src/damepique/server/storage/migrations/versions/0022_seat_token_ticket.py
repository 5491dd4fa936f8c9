"""A seat token names the quick-match wait that took its seat, once (issue 28):
no owner of the queue seats one wait twice, even one that died before keeping
where it seated it.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mp_tokens") as batch:
        batch.add_column(sa.Column("ticket", sa.String(64)))
    op.create_index("ix_mp_tokens_ticket", "mp_tokens", ["ticket"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_mp_tokens_ticket", table_name="mp_tokens")
    with op.batch_alter_table("mp_tokens") as batch:
        batch.drop_column("ticket")
