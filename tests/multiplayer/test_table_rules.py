"""The rules of play at a table, below the app (``tests/harness.py``): the
registry, table, runner and sessions of the server with in-memory pages, a
``ManualClock`` that the test moves, the real engine and a real store. Time
passes when the test says so: a turn timer, a grace period, a restart's
time left are checked to the tenth of a second, in milliseconds of real time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from damepique.engine import PRESETS
from damepique.server.play.summary import SECONDS
from damepique.server.play.timer import RESUME_FLOOR_S
from damepique.server.tables.registry import EXPIRY_CHECK_S
from damepique.server.tables.seats import TableSeat

from ..harness import Harness, Page, play


def is_notice(kind: str) -> Any:
    return lambda m: m["type"] == "notice" and m["kind"] == kind


def notices(page: Page, kind: str) -> list[int | None]:
    return [m["seat"] for m in page.messages if m["type"] == "notice" and m["kind"] == kind]


async def test_the_turn_timer_plays_for_the_people_who_ran_out_of_time(tmp_path: Path) -> None:
    async with Harness.open(tmp_path) as h:
        table, host, _ = await h.table(timer=30)
        guest, _ = await h.sit(table, "Bob")
        await host.send(type="start")
        state = await host.next("state", lambda m: m["timer"] is not None and m["timer"]["deadline"])
        assert state["view"]["phase"] == "pass" and state["timer"]["seats"] == [0, 1]
        assert state["timer"]["remaining"] == 30.0  # the clock stands still until the test moves it
        await h.clock.advance(29.9)
        assert notices(host, "timeout") == []  # within their time
        await h.clock.advance(0.1)
        await host.next("notice", is_notice("timeout"))
        await host.next("notice", is_notice("timeout"))
        assert sorted(notices(host, "timeout")) == [0, 1]  # a bot passed for each of them
        assert sorted(notices(guest, "timeout")) == [0, 1]  # and everybody heard of it
        played = [m for m in host.messages if m["type"] == "state" and m["view"]["phase"] == "play"]
        assert played and played[0]["view"]["passed"] and len(played[0]["view"]["hand"]) == 13
        events = [m["event"] for m in host.messages if m["type"] == "state" and m.get("event")]
        assert {0, 1} <= {e["seat"] for e in events if e["type"] == "pass"}  # theirs, by a bot
        assert all(m["timer"]["seconds"] == 30 for m in host.messages if m["type"] == "state")


async def test_after_the_grace_period_a_bot_stands_in_and_the_seat_comes_back(tmp_path: Path) -> None:
    async with Harness.open(tmp_path, grace=60.0) as h:
        table, host, _ = await h.table()
        guest, token = await h.sit(table, "Bob")
        await host.send(type="start")
        await guest.next("state")
        guest.close()  # the page went away; the seat is kept for the grace period
        await h.clock.advance(59.9)
        assert notices(host, "stand_in") == [] and not table.seats[1].away
        await h.clock.advance(0.1)
        assert (await host.next("notice", is_notice("stand_in")))["seat"] == 1
        assert table.seats[1].away and table.seats[1].kind == "human"
        await host.next("state", lambda m: m["event"] == {"type": "pass", "seat": 1, "complete": False})
        assert not table.runner.game.waiting_on() or 1 not in table.runner.game.waiting_on()  # a bot passed
        back = await h.join(table.code, token)  # the person comes back to the seat
        assert (await host.next("notice", is_notice("back")))["seat"] == 1
        assert not table.seats[1].away
        state = await back.next("state")
        assert state["seat"] == 1 and state["view"]["hand"]


async def test_a_player_who_comes_back_within_the_grace_period_keeps_the_seat(tmp_path: Path) -> None:
    async with Harness.open(tmp_path, grace=60.0) as h:
        table, host, _ = await h.table()
        guest, token = await h.sit(table, "Bob")
        await host.send(type="start")
        await guest.next("state")
        guest.close()
        await h.clock.advance(59.9)
        await h.join(table.code, token)
        await h.clock.advance(3600)
        assert notices(host, "stand_in") == [] and not table.seats[1].away


async def test_a_restarted_table_is_loaded_from_its_events_and_its_timer_keeps_the_time_left(
    tmp_path: Path,
) -> None:
    async with Harness.open(tmp_path) as h:
        table, host, host_token = await h.table(timer=30)
        guest, _ = await h.sit(table, "Bob")
        await host.send(type="start")
        before = await host.next("state", lambda m: m["timer"] is not None and m["timer"]["deadline"])
        await guest.send(type="pass", cards=(await guest.next("state"))["view"]["hand"][:3], id="p")
        await guest.next("state", lambda m: m.get("ack") == "p")
        await h.clock.advance(10)
        code = table.code
        await h.restart()  # another process on the same database: nothing of the old one in memory
        assert code not in h.tables.tables
        again = await h.join(code, host_token)
        after = await again.next("state")
        assert after["game"] == before["game"] and after["view"]["hand"] == before["view"]["hand"]
        assert after["timer"]["seats"] == [0]  # Bob's pass was stored: only the host still passes
        assert after["timer"]["remaining"] == 20.0  # 30 s from when the passing began, 10 s gone
        await h.clock.advance(19.9)
        assert notices(again, "timeout") == []
        await h.clock.advance(0.1)
        assert (await again.next("notice", is_notice("timeout")))["seat"] == 0


async def test_a_turn_that_ran_out_while_the_server_was_down_gets_a_few_seconds(tmp_path: Path) -> None:
    async with Harness.open(tmp_path) as h:
        table, host, host_token = await h.table(timer=30)
        await h.sit(table, "Bob")
        await host.send(type="start")
        await host.next("state", lambda m: m["timer"] is not None and m["timer"]["deadline"])
        code = table.code
        await h.restart()
        await h.clock.advance(3600)  # down for an hour
        again = await h.join(code, host_token)
        after = await again.next("state")
        assert after["timer"]["remaining"] == RESUME_FLOOR_S


async def first_summary(h: Harness) -> tuple[Page, Page, dict[str, Any]]:
    """Two people and two bots play deal 0 to its end; each stops at its summary."""
    table, host, _ = await h.table()
    guest, _ = await h.sit(table, "Bob")
    await host.send(type="start")
    summary = lambda m: bool(m["summary"])  # noqa: E731
    at_host, _ = await asyncio.gather(play(host, 1, summary), play(guest, 2, summary))
    return host, guest, at_host


async def test_the_summary_holds_the_next_deal_for_its_time_then_closes(tmp_path: Path) -> None:
    async with Harness.open(tmp_path) as h:
        host, _, state = await first_summary(h)
        summary = state["summary"]
        assert summary["deal"] == 0 and summary["waiting"] == [0, 1]
        assert summary["deadline"] == round((h.clock.time() + SECONDS) * 1000)
        assert state["view"]["deal"] == 1 and state["view"]["passed_seats"] == [False] * 4
        await h.clock.advance(SECONDS - 0.1)
        (table,) = h.tables.tables.values()
        runner = table.runner
        assert runner is not None and runner.summary.holding  # nobody pressed Continue: the bots wait
        await h.clock.advance(0.1)
        done = await host.next("state", lambda m: m["summary"] is None)
        assert not runner.summary.holding and done["view"]["deal"] == 1
        after = await host.next("state", lambda m: m["view"]["passed_seats"][2:] == [True, True])
        assert after["view"]["deal"] == 1  # the bots passed once it closed


async def test_a_table_and_a_solo_game_nobody_joins_expire_after_their_time(tmp_path: Path) -> None:
    """The registry's look for them (a tick of the node, every ``EXPIRY_CHECK_S``)
    is called here: no node runs below the app."""
    async with Harness.open(tmp_path, unjoined=900.0) as h:
        table, host, _ = await h.table()
        host.close()  # nobody is at the waiting table any more
        seats = [TableSeat("human", "You")] + [TableSeat("bot", f"Bot {i}", "random") for i in (1, 2, 3)]
        solo, _ = await h.tables.create_solo(PRESETS["standard"], "random", "fast", seats)  # never joined
        await h.clock.advance(900)
        await h.tables._expire()
        assert table.status == "waiting" and table.code in h.tables.tables  # not past its time yet
        assert await h.tables.store.load(solo.code) is not None
        await h.clock.advance(EXPIRY_CHECK_S)
        await h.tables._expire()
        assert table.status == "closed" and table.code not in h.tables.tables
        assert (
            await h.tables.store.load(table.code) == table.to_data()
        )  # kept, closed: its code leads nowhere
        assert await h.tables.store.load(solo.code) is None and solo.code not in h.tables.tables
        assert solo.game_id is not None and await h.tables.games.load_game(solo.game_id) is None
