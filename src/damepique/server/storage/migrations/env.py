"""Alembic's environment: runs the revisions on the app's async engine.

``damepique.server.storage.database.migrate`` hands over an open connection (in
``config.attributes["connection"]``); run on its own (``revision``, ``check``
from the command line) it makes an async engine from ``sqlalchemy.url``.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from damepique.server.storage.database import create_engine, schema


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=schema(),
        compare_type=True,
        # SQLite changes a table by copying it; Alembic's batch mode does that.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _on_own_engine(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_configure)
    finally:
        await engine.dispose()


def _run() -> None:
    config = context.config
    if context.is_offline_mode():
        context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=schema())
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
    else:
        asyncio.run(_on_own_engine(str(config.get_main_option("sqlalchemy.url"))))


try:
    context.config  # noqa: B018 - there only while Alembic runs this file
except (AttributeError, NameError):  # imported by something else (pytest collecting doctests)
    pass
else:
    _run()
