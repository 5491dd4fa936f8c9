"""Sealed deals: each game's 256-bit deal secret; the 31-bit seed only for older games.

A game begun before this revision dealt from ``random.Random(f"{seed}:{n}")``,
which a player could invert from their own hand. Its stored deals stay what
they are; its later deals come from a fresh secret drawn here, so the seed
that can be recovered predicts nothing more. Such a game keeps its seed as the
mark that no commitment was announced at its start.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    # A file made by ``create_all`` (adopted by 0001) may have the column already.
    have = {c["name"] for c in sa.inspect(conn).get_columns("games")}
    with op.batch_alter_table("games") as batch:
        if "secret" not in have:
            batch.add_column(sa.Column("secret", sa.String(64)))
        batch.alter_column("seed", existing_type=sa.Integer, nullable=True)
    games = sa.table("games", sa.column("id", sa.String), sa.column("secret", sa.String))
    ids = [row.id for row in conn.execute(sa.select(games.c.id).where(games.c.secret.is_(None)))]
    for game_id in ids:
        conn.execute(
            sa.update(games).where(games.c.id == game_id).values(secret=secrets.token_bytes(32).hex())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("secret")
