"""The look for solo tables nobody joined runs every 30 seconds on every
server (``Tables._expire``): its query reads an index, not every table ever
stored (issue 25). SQLite's EXPLAIN QUERY PLAN says which, for the very
statement the store runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from damepique.server.clock import ManualClock
from damepique.server.storage.database import Database
from damepique.server.storage.tables import TableStore


async def test_the_look_for_unjoined_solo_tables_reads_its_index(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'app.db'}", ManualClock())
    await db.open()
    try:
        store = TableStore(db)
        for i in range(20):
            code = f"T{i:03d}-AAAA"
            kind = "solo" if i % 2 else "table"
            await store.save(code, kind, "playing", False, {"code": code, "game": f"g{i}"}, joined=i % 4 == 1)
        seen: list[tuple[str, Any]] = []

        def remember(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
            seen.append((statement, parameters))

        event.listen(db.engine.sync_engine, "before_cursor_execute", remember)
        try:
            found = await store.unjoined_solo(db.clock.time() + 1)
        finally:
            event.remove(db.engine.sync_engine, "before_cursor_execute", remember)
        assert sorted(found) == [(f"T{i:03d}-AAAA", f"g{i}") for i in range(20) if i % 4 == 3]
        [(statement, parameters)] = seen
        async with db.read() as conn:
            raw = await conn.get_raw_connection()
            cursor = await raw.driver_connection.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
            plan = [row[-1] for row in await cursor.fetchall()]
        assert plan == [
            "SEARCH mp_tables USING INDEX ix_mp_tables_unjoined (kind=? AND joined=? AND created<?)"
        ], plan
    finally:
        await db.close()
