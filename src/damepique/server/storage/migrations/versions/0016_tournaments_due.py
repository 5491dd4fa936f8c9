"""Tournaments in a cluster (issue 27): when each one needs its driver.

``due`` is the time from which a tournament must be driven by some process
(its start time while open, 0 while it is played, null once over or while
it waits for its director alone): every process asks for those nobody
drives (``cluster.leases``), so a tournament whose driving process died is
taken over.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tournaments")}
    if "due" not in have:
        with op.batch_alter_table("tournaments") as batch:
            batch.add_column(sa.Column("due", sa.Float, nullable=True))
        op.create_index("ix_tournaments_due", "tournaments", ["due"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_due", table_name="tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("due")
