"""Private tables cannot be found by guessing codes: each client address may name
only a few codes that lead to no table, over HTTP and the table socket together,
whatever the connection; then every lookup of a code is refused for a while,
known codes too (the answer must not tell which codes exist)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app
from damepique.server.asgi import Connection
from damepique.server.clock import ManualClock
from damepique.server.http import address_key
from damepique.server.settings import Settings
from damepique.server.tables.limits import UnknownCodes

from .mp_helpers import create_table, hello, recv, recv_type

LIMIT = 3
WINDOW = 60.0
"""Three unknown codes at once, then one every 20 s."""
UNKNOWN = ["ABCDEFGH", "ABCDEFGJ", "ABCDEFGK", "ABCDEFGM", "ABCDEFGN"]


def from_address(app: Any) -> Any:
    """The app, with the client address taken from an ``x-test-address`` header
    (what uvicorn's proxy headers would have decided)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 5000)}
        await app(scope, receive, send)

    return wrapped


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    settings = Settings(clock=clock, unknown_codes=LIMIT, unknown_codes_window=WINDOW)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'guess.sqlite3'}", settings=settings)
    with TestClient(from_address(app), client=("203.0.113.9", 5000)) as c:
        yield c


def advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    """Move the app's clock (in the app's event loop, where its timers are)."""
    assert client.portal is not None
    client.portal.call(clock.advance, seconds)


def ws_connect(client: TestClient, address: str | None = None) -> Any:
    headers = {"x-test-address": address} if address else {}
    return client.websocket_connect("/ws", headers=headers)


def use_up(client: TestClient) -> None:
    for code in UNKNOWN[:LIMIT]:
        r = client.get(f"/api/tables/{code}")
        assert r.status_code == 404 and r.json()["code"] == "no_table"


def refusal(ws: Any) -> dict[str, Any]:
    """The answer to the last message, which must be an error (not a table: a test
    that fails must not wait for an error that never comes)."""
    msg = recv(ws)
    assert msg["type"] == "error", msg
    return msg


def assert_refused(r: Any, retry_after: int = 20) -> None:
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["code"] == body["error"] == "too_many_codes"
    assert "too many" in body["reason"]
    assert r.headers["Retry-After"] == str(retry_after)


def test_http_lookups_over_the_limit_get_429_with_a_reason_and_retry_after(client: TestClient) -> None:
    use_up(client)
    assert_refused(client.get(f"/api/tables/{UNKNOWN[LIMIT]}"))
    assert_refused(client.post(f"/api/tables/{UNKNOWN[LIMIT]}/seats", json={"name": "Eve"}))
    assert_refused(client.get("/api/tables/not-a-code"))


def test_a_known_code_is_refused_too_once_over_the_limit(client: TestClient) -> None:
    t = create_table(client, preset="short")
    assert client.get(f"/api/tables/{t['code']}").status_code == 200
    use_up(client)
    assert_refused(client.get(f"/api/tables/{t['code']}"))
    assert_refused(client.post(f"/api/tables/{t['code']}/seats", json={"name": "Eve"}))
    with ws_connect(client) as ws:
        ws.send_text(json.dumps({"type": "hello", "table": t["code"], "id": 1}))
        err = refusal(ws)
        assert err["code"] == "too_many_codes" and err["ref"] == 1 and "20 s" in err["reason"]
    # The seat was not taken meanwhile.
    assert sum(s["kind"] == "human" for s in t_info(client, t["code"], "198.51.100.7")["seats"]) == 1


def t_info(client: TestClient, code: str, address: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{code}", headers={"x-test-address": address})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_known_codes_under_the_limit_do_not_count(client: TestClient) -> None:
    t = create_table(client, preset="short", fill=False)
    for _ in range(3 * LIMIT):
        assert client.get(f"/api/tables/{t['code']}").status_code == 200
    assert client.post(f"/api/tables/{t['code']}/seats", json={"name": "Bob"}).status_code == 201
    with ws_connect(client) as ws:
        for _ in range(3 * LIMIT):
            hello(ws, t["code"])
    use_up(client)  # the whole allowance is still there
    assert_refused(client.get(f"/api/tables/{UNKNOWN[LIMIT]}"))


def test_a_new_connection_from_the_same_address_does_not_start_the_count_again(
    client: TestClient,
) -> None:
    t = create_table(client, preset="short")
    with ws_connect(client) as ws:
        ws.send_text(json.dumps({"type": "hello", "table": UNKNOWN[0]}))
        assert refusal(ws)["code"] == "no_table"
        ws.send_text(json.dumps({"type": "hello", "table": "0O1I0O1I"}))
        assert refusal(ws)["code"] == "bad_code"
    with ws_connect(client) as ws:
        ws.send_text(json.dumps({"type": "hello", "table": UNKNOWN[1]}))
        assert refusal(ws)["code"] == "no_table"
    # HTTP and the socket share the count.
    assert_refused(client.get(f"/api/tables/{t['code']}"))
    with ws_connect(client) as ws:
        ws.send_text(json.dumps({"type": "hello", "table": UNKNOWN[2]}))
        assert refusal(ws)["code"] == "too_many_codes"


def test_the_socket_stays_open_after_the_refusal_and_a_seat_token_still_works(client: TestClient) -> None:
    t = create_table(client, preset="short")
    use_up(client)
    with ws_connect(client) as ws:
        for code in (t["code"], UNKNOWN[LIMIT], "0O1I0O1I"):
            ws.send_text(json.dumps({"type": "hello", "table": code}))
            assert refusal(ws)["code"] == "too_many_codes"
        ws.send_text(json.dumps({"type": "ping", "id": 7}))
        assert recv_type(ws, "pong")["ref"] == 7
        # A seat token is a secret of its own (256 bits): the host comes back to the table.
        state = hello(ws, t["code"], t["token"])
        assert state["you"] == 0


def test_another_address_is_unaffected(client: TestClient) -> None:
    t = create_table(client, preset="short")
    use_up(client)
    assert_refused(client.get(f"/api/tables/{t['code']}"))
    other = {"x-test-address": "198.51.100.7"}
    assert client.get(f"/api/tables/{t['code']}", headers=other).status_code == 200
    assert client.get(f"/api/tables/{UNKNOWN[0]}", headers=other).status_code == 404
    r = client.post(f"/api/tables/{t['code']}/seats", json={"name": "Bob"}, headers=other)
    assert r.status_code == 201
    with ws_connect(client, "198.51.100.7") as ws:
        hello(ws, t["code"])


def test_the_allowance_comes_back_with_time(client: TestClient, clock: ManualClock) -> None:
    t = create_table(client, preset="short")
    use_up(client)
    assert_refused(client.get(f"/api/tables/{t['code']}"))
    advance(client, clock, 5)
    assert_refused(client.get(f"/api/tables/{t['code']}"), retry_after=15)
    advance(client, clock, 15)  # one code every WINDOW / LIMIT seconds
    assert client.get(f"/api/tables/{UNKNOWN[LIMIT]}").status_code == 404
    assert_refused(client.get(f"/api/tables/{t['code']}"))
    advance(client, clock, WINDOW)  # the whole window: the whole allowance
    assert client.get(f"/api/tables/{t['code']}").status_code == 200
    use_up(client)
    assert_refused(client.get(f"/api/tables/{UNKNOWN[LIMIT]}"))


async def test_the_defaults_and_the_memory_stay_bounded() -> None:
    defaults = Settings()
    assert (defaults.unknown_codes, defaults.unknown_codes_window) == (30, 600.0)
    clock = ManualClock()
    settings = SimpleNamespace(unknown_codes=2, unknown_codes_window=60.0, clock=clock)
    codes = UnknownCodes(settings, max_addresses=100)
    for i in range(1000):
        codes.miss(f"10.0.{i // 256}.{i % 256}")
        codes.miss(f"10.0.{i // 256}.{i % 256}")
    assert len(codes) == 100
    assert codes.wait("10.0.3.231") > 0  # the most recent are kept
    assert codes.wait("10.0.0.1") == 0  # the oldest made room
    await clock.advance(60)  # a whole window later every bucket is full again: none is kept
    codes.miss("10.1.0.1")
    assert len(codes) == 1
    # An IPv6 address counts by its /64; IPv4 mapped into IPv6 as IPv4.
    codes.miss("2001:db8::1")
    codes.miss("2001:db8::ffff:2")
    assert codes.wait("2001:db8::3") > 0 and codes.wait("2001:db8:0:1::1") == 0
    assert address_key("::ffff:10.1.0.1") == "10.1.0.1"
    # 0 turns the limit off.
    settings.unknown_codes = 0
    codes.miss("2001:db8::1")
    assert codes.wait("2001:db8::1") == 0


async def test_with_several_processes_the_front_refuses_before_relaying(tmp_path: Path) -> None:
    """A connection's address is known where its socket is: over the limit, a hello by
    code is not routed to the process that runs the table (the session where the socket
    is refuses it), whichever process that is."""
    settings = Settings(clock=ManualClock(), unknown_codes=1)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'front.sqlite3'}", settings=settings)
    tables = app.state.tables
    conn = Connection(None, host="203.0.113.9")
    hello = {"type": "hello", "table": "K7QM4XPA", "id": "h"}
    assert await tables._route(hello, conn) == "K7QM4XPA"  # under the limit: routed by its code
    tables.unknown_codes.miss("203.0.113.9")
    assert await tables._route(hello, conn) is None  # over it: answered here, never relayed
