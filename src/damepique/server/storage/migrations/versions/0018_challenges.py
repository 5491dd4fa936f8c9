"""Challenges in the database (issue 29): a challenge made at one process is
answered at another (``docs/bot-api.md``).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_index("ix_challenges_status", "challenges", ["status"])
    op.create_index("ix_challenges_created", "challenges", ["created"])
    op.create_table(
        "challenge_accounts",
        sa.Column("challenge", sa.String(16), primary_key=True),
        sa.Column("account", sa.String(64), primary_key=True),
    )
    op.create_index("ix_challenge_accounts_account", "challenge_accounts", ["account"])


def downgrade() -> None:
    op.drop_index("ix_challenge_accounts_account", table_name="challenge_accounts")
    op.drop_table("challenge_accounts")
    op.drop_index("ix_challenges_created", table_name="challenges")
    op.drop_index("ix_challenges_status", table_name="challenges")
    op.drop_table("challenges")
