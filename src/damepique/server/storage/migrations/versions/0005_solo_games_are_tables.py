"""Solo games are tables: every game is played at a table, a solo one private and of one person.

Each solo game still in progress gets a table of kind ``solo`` (a fresh code,
status ``playing``, its seats and options), and its seat token moves to the
tables' tokens, so the page that holds it resumes the game after the
upgrade. Finished solo games need no table (the history reads the games).
The solo games' own token table goes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
import secrets
import time

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # tables/codes.py's, as it was at this revision


def upgrade() -> None:
    conn = op.get_bind()
    have = {c["name"] for c in sa.inspect(conn).get_columns("mp_tables")}
    if "kind" not in have:
        with op.batch_alter_table("mp_tables") as batch:
            batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="table"))
    if "seat_tokens" not in sa.inspect(conn).get_table_names():
        return
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("owner", sa.String),
        sa.column("rules", sa.Text),
        sa.column("seats", sa.Text),
        sa.column("options", sa.Text),
        sa.column("created", sa.Float),
        sa.column("finished", sa.Float),
    )
    old_tokens = sa.table("seat_tokens", sa.column("token"), sa.column("game_id"), sa.column("seat"))
    tables = sa.table(
        "mp_tables",
        sa.column("code"),
        sa.column("kind"),
        sa.column("status"),
        sa.column("public"),
        sa.column("created"),
        sa.column("updated"),
        sa.column("data"),
    )
    tokens = sa.table("mp_tokens", sa.column("token"), sa.column("code"), sa.column("seat"))
    taken = {r.code for r in conn.execute(sa.select(tables.c.code))}
    rows = conn.execute(
        sa.select(games, old_tokens.c.token, old_tokens.c.seat)
        .join(old_tokens, old_tokens.c.game_id == games.c.id)
        .where(games.c.finished.is_(None))
    ).all()
    now = time.time()
    for row in rows:
        options = json.loads(row.options)
        if options.get("kind", "solo") != "solo":
            continue
        code = _new_code(taken)
        rules = json.loads(row.rules)
        seats = []
        for i, s in enumerate(json.loads(row.seats)):
            seats.append(
                {
                    "kind": s["kind"],
                    "name": s["name"],
                    "level": s.get("level"),
                    "account": None,
                    "nickname": None,
                    "player": row.owner if i == row.seat else None,
                    "left": False,
                    "away": False,
                }
            )
        data = {
            "code": code,
            "kind": "solo",
            "options": {
                "rules": rules,
                "timer": 0,
                "fill": True,
                "level": options.get("level", "intermediate"),
                "public": False,
                "ranked": False,
                "spectators": False,
                "speed": options.get("speed", "normal"),
            },
            "seats": seats,
            "host": None,
            "status": "playing",
            "game": row.id,
            "games": [row.id],
            "created": row.created,
        }
        conn.execute(
            sa.insert(tables).values(
                code=code,
                kind="solo",
                status="playing",
                public=False,
                created=row.created,
                updated=now,
                data=json.dumps(data),
            )
        )
        conn.execute(sa.insert(tokens).values(token=row.token, code=code, seat=row.seat))
    op.drop_table("seat_tokens")


def _new_code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(_ALPHABET) for _ in range(8))
        if code not in taken:
            taken.add(code)
            return code


def downgrade() -> None:
    op.create_table(
        "seat_tokens",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    with op.batch_alter_table("mp_tables") as batch:
        batch.drop_column("kind")
