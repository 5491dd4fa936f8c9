"""Bot accounts: programs play with an account of their own (issue 18).

An account is a person's (``kind`` ``person``, every account here so far) or
a bot's: a program that authenticates with a token, made by a person (its
``owner``). Only the token's SHA-256 is kept (``token``), unique.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("accounts")}
    with op.batch_alter_table("accounts") as batch:
        if "kind" not in have:
            batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="person"))
        if "owner" not in have:
            batch.add_column(sa.Column("owner", sa.String(32)))
        if "token" not in have:
            batch.add_column(sa.Column("token", sa.String(64)))
    op.create_index("ix_accounts_owner", "accounts", ["owner"])
    op.create_index("ix_accounts_token", "accounts", ["token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_token", table_name="accounts")
    op.drop_index("ix_accounts_owner", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("token")
        batch.drop_column("owner")
        batch.drop_column("kind")
