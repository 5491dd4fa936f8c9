"""Puzzle answers name their puzzle by its public id (issue 26): the shipped
puzzles' ids named the seed of the bot game each was mined from (the page
showed it, and the seed deals every hidden hand of the position); they are
now ``bots.puzzles.public_id`` of that old id, which the file keeps as
``origin``. Answers kept under an old id move to the new one, so that a
player's counts and "seen" stay theirs.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def public_id(old: str) -> str:
    """``bots.puzzles.public_id`` as it was when this was written (a migration stays what it did)."""
    return "pz-" + hashlib.sha256(old.encode()).hexdigest()[:12]


attempts = sa.table("puzzle_attempts", sa.column("id", sa.Integer), sa.column("puzzle_id", sa.String))


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(attempts.c.id, attempts.c.puzzle_id).where(attempts.c.puzzle_id.not_like("pz-%"))
    )
    for row_id, old in rows.fetchall():
        conn.execute(attempts.update().where(attempts.c.id == row_id).values(puzzle_id=public_id(old)))


def downgrade() -> None:
    """The old ids cannot be told from the new ones (a digest): they stay."""
