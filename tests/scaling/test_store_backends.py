"""The stores' suite on every backend: SQLite (file and memory) and a throwaway PostgreSQL.

Each test gets a database of its own: a fresh SQLite file, or a ``CREATE
DATABASE`` on the session's PostgreSQL cluster. What runs here is what the
server runs: ``Database.open`` migrates with Alembic, then the game store, the
multiplayer store and the score keeper's store are used through their own
interfaces.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sqlite3
import threading
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, update
from sqlalchemy.exc import IntegrityError

from damepique.scorer import NO_SUCH_SHEET, ScoreError, Sheet, SheetRules
from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.cluster.leases import SqlLeases
from damepique.server.errors import Refusal
from damepique.server.storage import database
from damepique.server.storage.accounts import AccountStore
from damepique.server.storage.database import Database
from damepique.server.storage.games import GameRow, GameStore
from damepique.server.storage.quick import QuickStore
from damepique.server.storage.schema import leases as leases_table
from damepique.server.storage.sheets import SheetStore
from damepique.server.storage.tables import TableStore

from ..clocks import wait
from ..multiplayer.mp_helpers import read_summary

BACKENDS = ["sqlite-file", "sqlite-memory", "postgresql"]
TABLES = {
    "games",
    "analyses",
    "leases",
    "events",
    "mp_tables",
    "mp_tokens",
    "accounts",
    "rating_history",
    "mp_results",
    "player_games",
    "player_links",
    "ranked_leaves",
    "bot_ladder",
    "mp_meta",
    "account_sessions",
    "scorer_sheets",
    "daily_days",
    "daily_entries",
    "quick_tickets",
    "puzzle_attempts",
    "tournaments",
    "challenges",
    "challenge_accounts",
}


def _on_own_loop(work: Any) -> Any:
    """Run a coroutine to the end on a loop of its own (from sync or async code alike)."""
    out: list[Any] = []

    def run() -> None:
        out.append(asyncio.run(work))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out[0]


def fresh_pg_database(server: Any) -> str:
    """A new, empty database on the throwaway cluster; its URL as people write it."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:16]}"

    async def create() -> None:
        conn = await asyncpg.connect(host="127.0.0.1", port=server.port, user="postgres", database="postgres")
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    _on_own_loop(create())
    return f"postgresql://postgres@127.0.0.1:{server.port}/{name}"


def url_for(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite-file":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    if backend == "sqlite-memory":
        return "sqlite+aiosqlite:///:memory:"
    return fresh_pg_database(request.getfixturevalue("postgres_server"))


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return url_for(request.param, tmp_path, request)


@pytest.fixture(params=["sqlite-file", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database that a second engine (the score keeper's) sees too: no memory SQLite."""
    return url_for(request.param, tmp_path, request)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    d = Database(db_url, ManualClock())
    await d.open()
    try:
        yield d
    finally:
        await d.close()


@pytest.fixture
def store(db: Database) -> GameStore:
    return GameStore(db)


def game(game_id: str, owner: str | None = "player-0001", created: float | None = None) -> GameRow:
    return GameRow(
        id=game_id,
        owner=owner,
        rules={"players": 4, "target": 100},
        seats=[{"name": "You", "kind": "human"}] + [{"name": f"Bot {i}", "kind": "bot"} for i in (1, 2, 3)],
        secret=secrets.token_hex(32),
        options={"level": "beginner", "speed": "fast"},
        created=created if created is not None else 1_700_000_000.0,
    )


# -- the schema ---------------------------------------------------------------------------------


async def test_migrated_schema_matches_the_code(db_url: str) -> None:
    """``alembic check`` in a test: after ``upgrade head`` autogenerate finds nothing to change."""
    engine = database.create_engine(db_url)
    try:
        await database.migrate(engine)
        assert await database.current_revision(engine) == database.head_revision()
        assert await database.differences(engine) == []
        async with engine.connect() as conn:
            names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        assert names == TABLES | {"alembic_version"}
        await database.migrate(engine)  # a second start finds nothing to do
        assert await database.current_revision(engine) == database.head_revision()
    finally:
        await engine.dispose()


def test_every_table_of_the_app_is_in_the_schema() -> None:
    assert set(database.schema().tables) == TABLES


async def test_processes_starting_together_migrate_once(shared_url: str) -> None:
    engines = [database.create_engine(shared_url) for _ in range(3)]
    try:
        await asyncio.gather(*(database.migrate(e) for e in engines))
        assert await database.differences(engines[0]) == []
        assert await database.current_revision(engines[0]) == database.head_revision()
    finally:
        for e in engines:
            await e.dispose()


async def test_whole_apps_starting_together_on_a_new_database(shared_url: str) -> None:
    """Every part's tables come from the migrations, so three apps (the game
    store, multiplayer, the score keeper) starting at once on an empty database
    all start (a score keeper's own create_all used to race the others)."""

    async def start(app: Any) -> None:
        async with app.router.lifespan_context(app):
            pass

    await asyncio.gather(*(start(create_app(shared_url)) for _ in range(3)))


async def test_a_sqlite_file_made_by_create_all_is_adopted(tmp_path: Path) -> None:
    """Files made earlier by ``metadata.create_all`` (before migrations: the game
    store's own tables only) keep their data, and their solo game in progress
    gets a table of its own, its seat token with it."""
    from sqlalchemy import Column, Float, Integer, MetaData, String, Text
    from sqlalchemy import Table as SqlTable

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"
    old = MetaData()
    games = SqlTable(
        "games", old, Column("id", String(32), primary_key=True), Column("owner", String(64), index=True),
        Column("rules", Text, nullable=False), Column("seats", Text, nullable=False),
        Column("seed", Integer, nullable=False), Column("options", Text, nullable=False),
        Column("created", Float, nullable=False), Column("finished", Float), Column("totals", Text),
        Column("winner", Integer), Column("record", Text),
    )  # fmt: skip
    tokens = SqlTable(
        "seat_tokens", old, Column("token", String(64), primary_key=True),
        Column("game_id", String(32), nullable=False, index=True), Column("seat", Integer, nullable=False),
    )  # fmt: skip
    events = SqlTable(
        "events", old, Column("game_id", String(32), primary_key=True),
        Column("seq", Integer, primary_key=True), Column("body", Text, nullable=False),
    )  # fmt: skip
    seats = [{"name": "You", "kind": "human"}] + [
        {"name": n, "kind": "bot", "level": "random"} for n in "WNE"
    ]
    engine = database.create_engine(url)
    async with engine.begin() as conn:  # what the old store's init did, and a game begun
        await conn.run_sync(old.create_all)
        await conn.execute(games.insert().values(
            id="old-game", owner="player-0001", rules='{"players": 4}', seats=json.dumps(seats), seed=7,
            options='{"level": "random", "speed": "fast"}', created=time.time(),
        ))  # fmt: skip
        await conn.execute(tokens.insert().values(token="tok-old-0000", game_id="old-game", seat=0))
        await conn.execute(events.insert().values(game_id="old-game", seq=0, body='{"kind": "deal"}'))
    await engine.dispose()
    d = Database(url)
    await d.open()
    try:
        assert await database.current_revision(d.engine) == database.head_revision()
        assert await database.differences(d.engine) == []
        loaded = await GameStore(d).load_game("old-game")
        assert loaded is not None and loaded[1] == [{"kind": "deal"}] and loaded[0].seed == 7
        found = await TableStore(d).find_token("tok-old-0000")
        assert found is not None and found[1] == 0
        table = await TableStore(d).load(found[0])
        assert table is not None and table["kind"] == "solo" and table["game"] == "old-game"
        assert table["seats"][0]["player"] == "player-0001"
        assert await AccountStore(d).secret()  # the new tables are there and usable
    finally:
        await d.close()


# -- the game store -------------------------------------------------------------------------------


async def test_games_and_their_events(store: GameStore) -> None:
    await store.create_game(game("g1"))
    await store.append_many("g1", 0, [{"kind": "deal", "hands": ["2C"]}])
    await store.append_many("g1", 1, [{"kind": "play", "card": f"{r}C"} for r in "3456789"])
    await store.append_many("g1", 8, [])
    # Events that arrive together are committed together and come back in order.
    await asyncio.gather(*(store.append_many("g1", 8 + i, [{"kind": "play", "n": i}]) for i in range(20)))
    loaded = await store.load_game("g1")
    assert loaded is not None
    row, events = loaded
    assert row.id == "g1" and row.owner == "player-0001" and row.finished is None
    assert row.rules == {"players": 4, "target": 100} and row.seats[0]["name"] == "You"
    assert len(events) == 28
    assert events[0]["kind"] == "deal" and events[1]["card"] == "3C"
    assert [e["n"] for e in events[8:]] == list(range(20))
    assert await store.load_game("missing") is None


async def test_an_event_is_never_written_twice(store: GameStore) -> None:
    await store.create_game(game("g2"))
    await store.append_many("g2", 0, [{"kind": "deal"}])
    # SQLAlchemy's IntegrityError, or sqlite3's on the SQLite file's fast path.
    with pytest.raises((IntegrityError, sqlite3.IntegrityError)) as caught:
        await store.append_many("g2", 0, [{"kind": "deal again"}])
    assert "unique" in str(caught.value).lower() or "duplicate" in str(caught.value).lower()
    loaded = await store.load_game("g2")
    assert loaded is not None and loaded[1] == [{"kind": "deal"}]
    await store.append_many("g2", 1, [{"kind": "next"}])  # the store still writes after a refusal
    loaded = await store.load_game("g2")
    assert loaded is not None and len(loaded[1]) == 2


async def test_finish_and_history(store: GameStore) -> None:
    clock = store.db.clock
    assert isinstance(clock, ManualClock)
    now = clock.time()
    for i in range(4):
        await store.create_game(game(f"h{i}", created=now + i))
    await store.create_game(game("someone-else", owner="player-0002"))
    assert await store.games_of("player-0001") == []  # unfinished games are not history
    record = {"format": "damepique-game/1", "deals": [{"plays": ["2C", "3C"]}]}
    for i in (2, 0, 3):
        await store.finish(f"h{i}", [26, 0, 13, 52 + i], i % 4, record | {"n": i})
        await clock.advance(1)  # distinct finish times: history is newest first
    await store.finish("someone-else", [0, 0, 0, 0], None, record)

    history = await store.games_of("player-0001")
    assert [g.id for g in history] == ["h3", "h0", "h2"]
    assert history[0].totals == [26, 0, 13, 55] and history[0].winner == 3
    assert history[0].record == record | {"n": 3}
    assert [g.id for g in await store.games_of("player-0001", limit=2)] == ["h3", "h0"]
    g = await store.get_game("h1")
    assert g is not None and g.finished is None and g.record is None
    g = await store.get_game("someone-else")
    assert g is not None and g.winner is None and g.totals == [0, 0, 0, 0]
    assert await store.get_game("missing") is None


# -- the multiplayer store --------------------------------------------------------------------------


async def test_tables_and_their_seat_tokens(db: Database) -> None:
    mp = TableStore(db)
    data = {"code": "ABCD-EFGH", "seats": [None] * 4, "host": 0}
    await mp.save("ABCD-EFGH", "table", "waiting", True, data)
    await mp.save("ABCD-EFGH", "table", "playing", True, data | {"game": "g9"})
    await mp.save("KLMN-PQRS", "table", "closed", False, {"code": "KLMN-PQRS"})
    await mp.save("SOLO-SOLO", "solo", "playing", False, {"code": "SOLO-SOLO"})
    assert await mp.load("ABCD-EFGH") == data | {"game": "g9"}
    assert await mp.load("ZZZZ-ZZZZ") is None
    assert await mp.exists("SOLO-SOLO") and not await mp.exists("ZZZZ-ZZZZ")
    async with (
        db.read() as conn
    ):  # the tables to run somewhere: never a solo one (run when its player is back)
        assert [r.name for r in await conn.execute(mp.running())] == ["ABCD-EFGH"]

    await mp.add_token("tok-1", "ABCD-EFGH", 1)
    await mp.add_token("tok-3", "ABCD-EFGH", 3)
    assert await mp.find_token("tok-1") == ("ABCD-EFGH", 1)
    await mp.drop_token("ABCD-EFGH", 1)
    assert await mp.find_token("tok-1") is None
    assert await mp.find_token("tok-3") == ("ABCD-EFGH", 3)

    # Solo tables nobody joined are found (by age) and go with their tokens.
    await mp.save("LONE-LONE", "solo", "playing", False, {"code": "LONE-LONE", "game": "g1"}, joined=False)
    await mp.add_token("tok-lone", "LONE-LONE", 0)
    assert await mp.unjoined_solo(db.clock.time() + 1) == [("LONE-LONE", "g1")]
    assert await mp.unjoined_solo(db.clock.time() - 60) == []
    await mp.delete("LONE-LONE")
    assert await mp.load("LONE-LONE") is None and await mp.find_token("tok-lone") is None


async def test_a_quick_match_wait_takes_one_seat_whichever_process_seats_it(shared_url: str) -> None:
    """Two processes (a database each, one file or one server) seat the same
    wait at once, and again: one seat token names it; the others are refused
    (``already_seated``), nothing written, and the database still takes writes."""
    dbs = [Database(shared_url, ManualClock()) for _ in range(2)]
    for d in dbs:
        await d.open()
    try:
        stores = [TableStore(d) for d in dbs]
        tries = [
            stores[i % 2].add_token(f"tok-{i}", f"TBL{i}-TBLE", i, "ticket-of-ana-1234") for i in range(4)
        ]
        done = await asyncio.gather(*tries, return_exceptions=True)
        refused = [r for r in done if isinstance(r, Refusal)]
        assert len(refused) == 3 and {r.code for r in refused} == {"already_seated"}, done
        won = next(i for i, r in enumerate(done) if r is None)
        where = await QuickStore(dbs[1]).seat_taken("ticket-of-ana-1234")
        assert where == {"code": f"TBL{won}-TBLE", "token": f"tok-{won}", "seat": won}
        # Tokens without a wait are many, as before.
        await stores[0].add_token("tok-a", "TBLA-TBLE", 0)
        await stores[1].add_token("tok-b", "TBLA-TBLE", 1)
        assert await stores[0].find_token("tok-b") == ("TBLA-TBLE", 1)
        assert await QuickStore(dbs[0]).seat_taken("ticket-of-nobody-12") is None
        assert dbs[0].health() is None
    finally:
        for d in dbs:
            await d.close()


async def test_table_leases_one_holder_then_orphans_are_found(db: Database) -> None:
    """The leases the server uses (rows of its database): one holder at a time,
    renewed together, and a table whose lease ran out is an orphan to take over."""
    # A minute's leases: a loaded machine's pauses never run one out by themselves;
    # the test runs them out by moving their time past (below).
    p1 = SqlLeases(db, "p1", ttl_ms=60_000)
    p2 = SqlLeases(db, "p2", ttl_ms=60_000)
    mp = TableStore(db)
    for code, status in (("AAAA-AAAA", "playing"), ("BBBB-BBBB", "waiting"), ("CCCC-CCCC", "over")):
        await mp.save(code, "table", status, False, {"code": code})
    assert sorted(await p1.unheld(mp.running())) == ["AAAA-AAAA", "BBBB-BBBB"]  # a finished table waits
    assert await p1.acquire("AAAA-AAAA") and await p1.acquire("proc:p1")
    assert not await p2.acquire("AAAA-AAAA")
    assert await p2.acquire("BBBB-BBBB")
    assert await p1.unheld(mp.running()) == []
    assert await p1.renew_all() == {"AAAA-AAAA", "proc:p1"}
    assert await p2.holders(["AAAA-AAAA", "BBBB-BBBB", "ZZZZ-ZZZZ"]) == {"AAAA-AAAA": "p1", "BBBB-BBBB": "p2"}
    await p2.release("AAAA-AAAA")  # not the holder: nothing happens
    assert await p2.holder("AAAA-AAAA") == "p1"
    # p1 dies: its leases run out (their time on the database's own clock is moved
    # past, rather than waited for), its table is an orphan, p2 takes it.
    async with db.write() as conn:
        await conn.execute(
            update(leases_table)
            .where(leases_table.c.holder == "p1")
            .values(expires=leases_table.c.expires - 61)
        )
    assert await p2.renew_all() == {"BBBB-BBBB"}
    assert await p2.unheld(mp.running()) == ["AAAA-AAAA"]
    assert await p1.holder("proc:p1") is None
    assert await p2.acquire("AAAA-AAAA")
    assert await p1.renew_all() == {"proc:p1"}  # p1 comes back: the table is no longer its own
    await p2.release_all()
    assert await p1.holders(["AAAA-AAAA", "BBBB-BBBB"]) == {}


async def test_accounts_ratings_and_results(db: Database) -> None:
    mp = AccountStore(db)
    assert await mp.create_account("lea", "Léa", "hash-1", 1500.0)
    assert not await mp.create_account("lea", "LEA", "hash-2", 1500.0)  # nickname taken
    assert await mp.create_account("bob", "Bob", "hash-b", 1500.0)
    assert await mp.create_account("idle", "Idle", "hash-i", 1500.0)
    acc = await mp.get_account("lea")
    assert acc is not None and acc["nickname"] == "Léa" and acc["stats"]["games"] == 0
    await mp.set_password("lea", "hash-3")
    acc = await mp.get_account("lea")
    assert acc is not None and acc["password"] == "hash-3"
    assert await mp.get_account("nobody") is None

    stats = {"games": 1, "ranked": 1, "deals": 5, "points": 40, "moons": 1, "queens": 2}
    assert await mp.record_result(
        "game-1",
        {"placing": ["lea", "bob"]},
        {"lea": 1516.0, "bob": 1484.0},
        {"lea": stats | {"wins": 1}, "bob": stats},
    )
    assert not await mp.record_result("game-1", {}, {"lea": 2000.0}, {"lea": stats})  # once only
    assert await mp.record_result("game-2", {"placing": ["bob"]}, {"bob": 1490.5}, {"bob": stats})
    assert await mp.result_of("game-1") == {"placing": ["lea", "bob"]}
    assert await mp.result_of("game-3") is None

    lea = await mp.get_account("lea")
    assert lea is not None and lea["rating"] == 1516.0
    assert lea["stats"] == {
        "games": 1,
        "ranked": 1,
        "wins": 1,
        "deals": 5,
        "points": 40,
        "moons": 1,
        "queens": 2,
    }
    board = await mp.leaderboard()
    assert [(p["nickname"], p["rating"]) for p in board] == [("Léa", 1516), ("Bob", 1490)]  # no "Idle"
    assert [h["rating"] for h in await mp.history("bob")] == [1484.0, 1490.5]
    assert [h["game"] for h in await mp.history("bob")] == ["game-1", "game-2"]

    secret = await mp.secret()
    assert secret == await mp.secret() == await AccountStore(db).secret()


# -- the score keeper's store -------------------------------------------------------------------------


async def test_score_sheets(shared_url: str) -> None:
    d = Database(shared_url)
    await d.open()
    sheets = SheetStore(d)
    try:
        sheet = Sheet(["Ana", "Ben", "Cy", "Di"], SheetRules())
        stored = await sheets.create(sheet)
        again = await sheets.get(stored.id)
        shared = await sheets.get(stored.read_id, shared=True)
        assert again.version == shared.version == 1
        assert again.sheet.to_json() == shared.sheet.to_json() == sheet.to_json()

        changed = await asyncio.gather(*(sheets.change(stored.id, lambda s: None) for _ in range(5)))
        assert sorted(c.version for c in changed) == [2, 3, 4, 5, 6]
        assert (await sheets.get(stored.id)).version == 6
        with pytest.raises(ScoreError) as caught:
            await sheets.get("no-such-sheet")
        assert caught.value.kind == NO_SUCH_SHEET
    finally:
        await d.close()


# -- the whole app on each backend ---------------------------------------------------------------------


def _recv_state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.receive_text())
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            return msg


def _play_some(ws: Any, state: dict[str, Any], rng: random.Random, actions: int) -> dict[str, Any]:
    """Random legal passes and plays for the human seat (bots answer at fast speed)."""
    n = 0
    while not state["over"] and n < actions:
        view = state["view"]
        if view["to_act"] != state["seat"]:
            state = _recv_state(ws)
            continue
        n += 1
        if view["phase"] == "pass":
            cards = rng.sample(view["hand"], state["rules"].get("pass_count", 3))
            ws.send_text(json.dumps({"type": "pass", "cards": cards, "id": n}))
        else:
            ws.send_text(json.dumps({"type": "play", "card": rng.choice(view["legal"]), "id": n}))
        state = _recv_state(ws)
        while state.get("ack") != n:
            state = _recv_state(ws)
    return state


async def _finished(games: GameStore, game_id: str) -> bool:
    row = await games.get_game(game_id)
    return row is not None and row.finished is not None


async def _rated(accounts: AccountStore, n: int) -> bool:
    return len(await accounts.leaderboard()) >= n


def test_a_solo_game_survives_a_restart_on_each_backend(shared_url: str) -> None:
    rng = random.Random(7)
    with TestClient(create_app(shared_url)) as c:
        r = c.post(
            "/api/games",
            json={"preset": "short", "speed": "fast", "level": "beginner", "player": "player-0001"},
        )
        assert r.status_code == 200, r.text
        g = r.json()
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            before = _play_some(ws, _recv_state(ws), rng, 8)
    # A new app on the same database: the game is rebuilt from its stored events.
    with TestClient(create_app(shared_url)) as c, c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        after = _recv_state(ws)
        assert after["view"]["hand"] == before["view"]["hand"]
        end = _play_some(ws, after, rng, 10_000)
        assert end["over"]
        games = c.app.state.tables.games  # type: ignore[attr-defined]
        wait(c, lambda: _finished(games, g["game"]))  # results are stored just after the last card
        history = c.get("/api/history", headers={"x-player": "player-0001"}).json()["games"]
        assert [h["game"] for h in history] == [g["game"]]
        record = c.get(f"/api/games/{g['game']}/record")
        assert record.status_code == 200 and record.json()["deals"]
        sheet = c.post("/api/sheets", json={"players": ["Ana", "Ben", "Cy", "Di"]})
        assert sheet.status_code in (200, 201), sheet.text


# -- a ranked multiplayer game on each backend ------------------------------------------------------------


class _Seat(threading.Thread):
    """Plays one seat of a table with random legal cards until the game is over."""

    def __init__(self, ws: Any, seed: int) -> None:
        super().__init__(daemon=True)
        self.ws, self.rng = ws, random.Random(seed)
        self.final: dict[str, Any] | None = None
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            done: Any = None
            read: set[int] = set()
            while True:  # whoever started it joins it with a time limit
                msg = json.loads(self.ws.receive_text())
                assert msg["type"] != "error", msg
                if msg["type"] != "state":
                    continue
                if msg["over"]:
                    self.final = msg
                    return
                read_summary(self.ws, msg, read)
                view = msg.get("view")
                if not view or msg.get("seat") is None or view["to_act"] != msg["seat"]:
                    continue
                key = (view["deal"], view["phase"], len(view.get("tricks", [])), len(view.get("trick", [])))
                if key == done:
                    continue
                done = key
                if view["phase"] == "pass":
                    cards = self.rng.sample(view["hand"], msg["rules"].get("pass_count", 3))
                    self.ws.send_text(json.dumps({"type": "pass", "cards": cards}))
                elif view["phase"] == "play":
                    self.ws.send_text(json.dumps({"type": "play", "card": self.rng.choice(view["legal"])}))
        except BaseException as e:
            self.failure = e


def _hello(ws: Any, code: str, token: str | None = None) -> None:
    ws.send_text(json.dumps({"type": "hello", "table": code} | ({"token": token} if token else {})))
    while json.loads(ws.receive_text())["type"] != "table":
        pass


def test_a_ranked_table_accounts_and_ratings_on_each_backend(shared_url: str) -> None:
    app = create_app(shared_url)
    with TestClient(app) as c:
        cookies = {}
        for nick in ("Lea", "Tom"):
            r = c.post("/api/accounts", json={"nickname": nick, "password": "correct horse"})
            assert r.status_code == 201, r.text
            cookies[nick] = r.cookies["damepique_session"]
            c.cookies.clear()
        r = c.post(
            "/api/tables",
            json={"preset": "short", "ranked": True, "speed": "fast", "level": "beginner", "fill": True},
            cookies={"damepique_session": cookies["Lea"]},
        )
        assert r.status_code == 201, r.text
        c.cookies.clear()
        t = r.json()

        def connect(nick: str) -> Any:
            return c.websocket_connect("/ws", headers={"cookie": f"damepique_session={cookies[nick]}"})

        with connect("Lea") as a, connect("Tom") as b:
            _hello(a, t["code"], t["token"])
            _hello(b, t["code"])
            b.send_text(json.dumps({"type": "sit", "name": "Tom"}))
            while json.loads(b.receive_text())["type"] != "seated":
                pass
            a.send_text(json.dumps({"type": "start"}))
            seats = [_Seat(a, 1), _Seat(b, 2)]
            for s in seats:
                s.start()
            for s in seats:
                s.join(60)
                assert not s.is_alive() and s.failure is None, s.failure
        assert seats[0].final is not None
        accounts = c.app.state.accounts.store  # type: ignore[attr-defined]
        wait(c, lambda: _rated(accounts, 2))  # results follow the last card
        board = c.get("/api/leaderboard").json()["players"]
        assert {p["nickname"] for p in board} == {"Lea", "Tom"}
        assert sum(p["rating"] for p in board) == 3000  # Elo moves points from one to the other
        assert len(c.get("/api/players/tom").json()["history"]) == 1
    # Another process (here: a new app) on the same database logs the same people in.
    with TestClient(create_app(shared_url)) as c:
        r = c.post("/api/login", json={"nickname": "lea", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["nickname"] == "Lea"
        assert c.get("/api/me", cookies={"damepique_session": cookies["Tom"]}).json()["nickname"] == "Tom"


def test_database_url_from_a_path_a_url_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from damepique.server.settings import database_url

    assert database_url(str(tmp_path / "a.sqlite3")) == f"sqlite+aiosqlite:///{tmp_path / 'a.sqlite3'}"
    assert database_url("postgresql://u:p@h:5432/db") == "postgresql+asyncpg://u:p@h:5432/db"
    assert database_url("sqlite:////srv/x.sqlite3") == "sqlite+aiosqlite:////srv/x.sqlite3"
    monkeypatch.setenv("DAMEPIQUE_DB", "postgres://u@h/db")
    assert database_url(None) == "postgresql+asyncpg://u@h/db"
    assert database_url(str(tmp_path / "b.sqlite3")).endswith("b.sqlite3")  # the flag wins
