"""A shared win (``tie: "share"``, issue 17): every seat tied for the lowest
total when the game ends has won, in the state, the history and the players'
statistics."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from damepique.engine import Rules
from damepique.server.accounts.results import record_result
from damepique.server.solo.routes import winners_of
from damepique.server.storage.accounts import AccountStore
from damepique.server.storage.database import Database
from damepique.server.storage.games import GameRow


def row(totals: list[int], tie: str) -> GameRow:
    rules = Rules(tie=tie).to_json()
    return GameRow(id="g", owner=None, rules=rules, seats=[], secret="00" * 32, options={}, totals=totals)


def test_the_history_names_everybody_who_shares_the_win() -> None:
    assert winners_of(row([40, 40, 60, 100], "share")) == [0, 1]
    assert winners_of(row([30, 40, 60, 100], "share")) == [0]
    assert winners_of(row([30, 40, 60, 100], "play_on")) == [0]
    assert winners_of(GameRow(id="g", owner=None, rules={}, seats=[], secret="00" * 32, options={})) == []


async def test_a_shared_win_counts_as_a_win_for_each_who_shares_it(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'w.sqlite3'}")
    await db.open()
    store = AccountStore(db)
    for key in ("lea", "tom", "zoe"):
        assert await store.create_account(key, key.title(), "x", 1500.0)
    # What record_result reads of a match that ended 40, 40, 60, 100 with the win shared.
    match = SimpleNamespace(winners=(0, 1), winner=None, totals=[40, 40, 60, 100], deals=[])
    players = {0: ("lea", False), 1: ("tom", False), 2: ("zoe", False)}
    await record_result(store, "g1", "ABCD", True, players, match)  # type: ignore[arg-type]
    wins = {k: (await store.get_account(k))["stats"]["wins"] for k in ("lea", "tom", "zoe")}  # type: ignore[index]
    assert wins == {"lea": 1, "tom": 1, "zoe": 0}
    ratings = {k: (await store.get_account(k))["rating"] for k in ("lea", "tom", "zoe")}  # type: ignore[index]
    assert ratings["lea"] == ratings["tom"] > 1500 > ratings["zoe"]
    await db.close()
