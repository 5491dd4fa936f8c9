"""Account sessions live on the server: signing out ends the session for every
copy of its cookie, other sessions of the account go on, a cookie from before
session ids is refused, sessions survive a restart, and old ones are refused
and cleared away."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeTimedSerializer

from damepique.server.accounts.accounts import COOKIE, SESSION_AGE
from damepique.server.app import create_app

from .mp_helpers import hello, next_error, recv_type

PASSWORD = "correct horse"


def make_app(path: Path) -> Any:
    app = create_app(f"sqlite+aiosqlite:///{path}")
    app.state.settings.chat_interval = 0.0
    return app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sessions.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as c:
        yield c


def register(client: TestClient, nickname: str) -> str:
    r = client.post("/api/accounts", json={"nickname": nickname, "password": PASSWORD})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return str(r.cookies[COOKIE])


def login(client: TestClient, nickname: str) -> str:
    r = client.post("/api/login", json={"nickname": nickname, "password": PASSWORD})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return str(r.cookies[COOKIE])


def logout(client: TestClient, cookie: str) -> None:
    r = client.post("/api/logout", cookies={COOKIE: cookie})
    client.cookies.clear()
    assert r.status_code == 200
    assert COOKIE in r.headers["set-cookie"] and "max-age=0" in r.headers["set-cookie"].lower()


def me(client: TestClient, cookie: str) -> str | None:
    nickname = client.get("/api/me", cookies={COOKIE: cookie}).json()["nickname"]
    client.cookies.clear()
    return None if nickname is None else str(nickname)


def ranked_table(client: TestClient, host_cookie: str) -> dict[str, Any]:
    r = client.post(
        "/api/tables",
        json={"preset": "short", "ranked": True, "speed": "fast", "level": "beginner", "fill": False},
        cookies={COOKIE: host_cookie},
    )
    client.cookies.clear()
    assert r.status_code == 201, r.text
    return dict(r.json())


def seat_over_http(client: TestClient, code: str, cookie: str) -> Any:
    r = client.post(f"/api/tables/{code}/seats", json={"name": "x"}, cookies={COOKIE: cookie})
    client.cookies.clear()
    return r


def sits_over_socket(client: TestClient, code: str, cookie: str) -> dict[str, Any]:
    """What a ``/ws`` connection with this cookie gets when it sits at a ranked table:
    the ``seated`` message, or the error."""
    with client.websocket_connect("/ws", headers={"cookie": f"{COOKIE}={cookie}"}) as ws:
        hello(ws, code)
        ws.send_text(json.dumps({"type": "sit", "name": "ignored"}))
        while True:
            msg = json.loads(ws.receive_text())
            if msg["type"] in ("seated", "error"):
                return dict(msg)


def secret_of(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT value FROM mp_meta WHERE name = 'secret'").fetchone()[0])


def session_rows(db: Path) -> list[tuple[str, str, float]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT sid, key, created FROM account_sessions ORDER BY created"))


def test_a_copy_of_the_cookie_signs_nobody_in_after_signing_out(client: TestClient) -> None:
    host = register(client, "Host")
    lea = register(client, "Lea")
    copy = str(lea)  # the same cookie on another device, or stolen
    assert me(client, copy) == "Lea"
    t = ranked_table(client, host)

    logout(client, lea)

    assert me(client, copy) is None
    # A ranked table (which needs an account) refuses the seat, over HTTP and over the socket.
    r = seat_over_http(client, t["code"], copy)
    assert r.status_code == 401 and r.json()["code"] == "account_needed"
    assert creating_a_ranked_table_is_refused(client, copy)
    refused = sits_over_socket(client, t["code"], copy)
    assert refused["type"] == "error" and refused["code"] == "account_needed"
    # Signing in again is a new session, which works.
    again = login(client, "Lea")
    assert me(client, again) == "Lea"
    assert sits_over_socket(client, t["code"], again)["type"] == "seated"
    assert me(client, copy) is None


def creating_a_ranked_table_is_refused(client: TestClient, cookie: str) -> bool:
    r = client.post("/api/tables", json={"preset": "short", "ranked": True}, cookies={COOKIE: cookie})
    client.cookies.clear()
    return r.status_code == 401 and r.json()["code"] == "account_needed"


def test_signing_out_on_one_device_leaves_the_other_signed_in(client: TestClient, db: Path) -> None:
    host = register(client, "Host")
    phone = register(client, "Lea")
    laptop = login(client, "Lea")
    assert phone != laptop
    assert me(client, phone) == me(client, laptop) == "Lea"
    assert len(session_rows(db)) == 3

    logout(client, phone)

    assert me(client, phone) is None
    assert me(client, laptop) == "Lea"
    assert len(session_rows(db)) == 2
    t = ranked_table(client, host)
    r = seat_over_http(client, t["code"], laptop)
    assert r.status_code == 201, r.text
    # Signing out twice, or with no cookie or a forged one, changes nothing else.
    logout(client, phone)
    logout(client, laptop + "x")
    r = client.post("/api/logout")
    assert r.status_code == 200
    assert me(client, laptop) == "Lea" and me(client, host) == "Host"


def test_a_cookie_from_before_server_sessions_is_refused(client: TestClient, db: Path) -> None:
    host = register(client, "Host")
    lea = register(client, "Lea")
    serializer = URLSafeTimedSerializer(secret_of(db), salt="damepique-session")
    # The same secret and salt sign today's cookies: only the missing session id differs.
    assert serializer.loads(lea, max_age=SESSION_AGE)["k"] == "lea"
    old = serializer.dumps({"k": "lea"})
    made_up = serializer.dumps({"k": "lea", "s": "no such session"})
    someone_elses = serializer.dumps({"k": "host", "s": serializer.loads(lea)["s"]})
    for cookie in (old, made_up, someone_elses):
        assert me(client, cookie) is None
        assert creating_a_ranked_table_is_refused(client, cookie)
    t = ranked_table(client, host)
    refused = sits_over_socket(client, t["code"], old)
    assert refused["type"] == "error" and refused["code"] == "account_needed"
    # Signing out with another account's session id ends nothing.
    logout(client, someone_elses)
    assert me(client, lea) == "Lea"


def test_a_session_outlives_a_restart(db: Path) -> None:
    with TestClient(make_app(db)) as client:
        lea = register(client, "Lea")
        kept = login(client, "Lea")
        logout(client, lea)
    with TestClient(make_app(db)) as client:
        assert me(client, kept) == "Lea"
        assert me(client, lea) is None
        r = client.post("/api/tables", json={"preset": "short", "ranked": True}, cookies={COOKIE: kept})
        client.cookies.clear()
        assert r.status_code == 201, r.text


def test_a_session_older_than_thirty_days_is_refused_and_cleared_later(client: TestClient, db: Path) -> None:
    lea = register(client, "Lea")
    tom = register(client, "Tom")
    assert me(client, lea) == "Lea"
    # Lea's row says 31 days old (her cookie's own stamp is fresh, so the row decides).
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE account_sessions SET created = ? WHERE key = 'lea'", (time.time() - SESSION_AGE - 86400,)
        )
    assert me(client, lea) is None
    assert me(client, tom) == "Tom"
    assert {key for _, key, _ in session_rows(db)} == {"lea", "tom"}
    # The next session made clears the stale row away.
    login(client, "Tom")
    assert sorted(key for _, key, _ in session_rows(db)) == ["tom", "tom"]


def test_a_socket_signed_in_is_seated_under_its_account(client: TestClient) -> None:
    """The control for the refusals above: the same socket path with a live session sits as the account."""
    host = register(client, "Host")
    lea = register(client, "Lea")
    t = ranked_table(client, host)
    with client.websocket_connect("/ws", headers={"cookie": f"{COOKIE}={lea}"}) as ws:
        hello(ws, t["code"])
        ws.send_text(json.dumps({"type": "sit", "name": "ignored"}))
        seated = recv_type(ws, "seated")
        table = recv_type(ws, "table")["table"]
        assert table["seats"][seated["seat"]]["name"] == "Lea"
    with client.websocket_connect("/ws") as anon:
        hello(anon, t["code"])
        anon.send_text(json.dumps({"type": "sit", "name": "Anon"}))
        assert next_error(anon)["code"] == "account_needed"
