"""The first schema: every table the app had when migrations began.

Revision ID: 0001
Revises:
Create Date: 2026-11-30

The tables are written out here as they were (a revision must not change when
the code's tables change later), and created with ``checkfirst``: a SQLite file
made before migrations existed, by ``create_all`` of these same definitions,
gets only its missing tables, then the revision is stamped.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

schema = sa.MetaData()

# The game store (store.py): solo and multiplayer games, their event logs, seat tokens.
sa.Table(
    "games",
    schema,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(64), index=True),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("seed", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float),
    sa.Column("totals", sa.Text),
    sa.Column("winner", sa.Integer),
    sa.Column("record", sa.Text),
)
sa.Table(
    "seat_tokens",
    schema,
    sa.Column("token", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
)
sa.Table(
    "events",
    schema,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("body", sa.Text, nullable=False),
)

# The multiplayer store (mpstore.py): tables with a code, their seat tokens, accounts, ratings.
sa.Table(
    "mp_tables",
    schema,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
sa.Table(
    "mp_tokens",
    schema,
    sa.Column("token", sa.String(64), primary_key=True),
    sa.Column("code", sa.String(16), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
)
sa.Table(
    "accounts",
    schema,
    sa.Column("key", sa.String(32), primary_key=True),
    sa.Column("nickname", sa.String(32), nullable=False),
    sa.Column("password", sa.Text, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("stats", sa.Text, nullable=False),
)
sa.Table(
    "rating_history",
    schema,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(32), nullable=False, index=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
)
sa.Table(
    "mp_results",
    schema,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
sa.Table(
    "mp_meta",
    schema,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

# The score keeper (scorer_api.py): score sheets entered by hand.
sa.Table(
    "scorer_sheets",
    schema,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("read_id", sa.String(40), nullable=False, unique=True, index=True),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)


def upgrade() -> None:
    schema.create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    schema.drop_all(op.get_bind(), checkfirst=True)
