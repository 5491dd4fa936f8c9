"""The shield in front of the routes (``server/shield.py``): bodies read within
a limit before any route, no action from another site's page, JSON bodies
said to be JSON, security headers on every answer, and odd input answered
with a clear 4xx, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app

JSON = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'shield.sqlite3'}")) as c:
        yield c


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/api/options"), client.get("/scorer/"), client.get("/nope")):
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-eval" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_the_page_has_no_inline_script(client: TestClient) -> None:
    """The policy allows scripts from this site's files only: the pages must have no inline script."""
    for path in ("/", "/scorer/"):
        html = client.get(path).text
        for chunk in html.split("<script")[1:]:
            assert "src=" in chunk.split(">")[0], (path, chunk[:80])
        assert " onclick=" not in html and " onload=" not in html


def test_bodies_over_their_limit_are_refused_before_any_route(client: TestClient) -> None:
    big = b'{"players": ["a", "b", "c"], "pad": "' + b"x" * 70_000 + b'"}'
    for path in ("/api/sheets", "/api/games", "/api/tables", "/api/login", "/api/accounts"):
        r = client.post(path, content=big, headers=JSON)
        assert r.status_code == 413 and r.json()["code"] == "too_large", path
    # Told nothing of its length (chunked), it is counted as it comes.
    chunks = (b"x" * 10_000 for _ in range(10))
    r = client.post("/api/sheets", content=chunks, headers=JSON)
    assert r.status_code == 413
    # An uploaded record may be larger: up to 2 MB.
    r = client.post(
        "/api/replay", content=b'{"format": "damepique-game/1", "deals": []}' + b" " * 500_000, headers=JSON
    )
    assert r.status_code == 200
    r = client.post("/api/replay", content=b"[" + b" " * 2_200_000 + b"]", headers=JSON)
    assert r.status_code == 413


def test_no_action_from_another_sites_page(client: TestClient) -> None:
    evil = {"origin": "https://evil.example", **JSON}
    body = json.dumps({"nickname": "Lea", "password": "correct horse"})
    r = client.post("/api/accounts", content=body, headers=evil)
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    r = client.post("/api/login", content=body, headers={"origin": "null", **JSON})
    assert r.status_code == 403
    # A form posted from elsewhere without an Origin still cannot say it is JSON.
    r = client.post("/api/login", content="nickname=Lea&password=x", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    # This site's own page is welcome.
    own = {"origin": "http://testserver", **JSON}
    assert client.post("/api/accounts", content=body, headers=own).status_code == 201
    assert client.get("/api/options", headers={"origin": "https://evil.example"}).status_code == 200


def test_a_socket_from_another_sites_page_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    for path in ("/ws", "/ws/lobby"):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(path, headers={"origin": "https://evil.example"}) as ws,
        ):
            ws.receive_text()
        assert refused.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(ws.receive_text())["type"] == "pong"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", "[" * 5000 + "]" * 5000),
        ("/api/tables", "[" * 5000 + "]" * 5000),
        ("/api/sheets", "[" * 5000 + "]" * 5000),
        ("/api/login", "[" * 5000 + "]" * 5000),
        ("/api/replay", "[" * 5000 + "]" * 5000),
        ("/api/games", '{"preset": {"a": 1}}'),
        ("/api/games", '{"preset": ["short"]}'),
        ("/api/tables", '{"preset": {"a": 1}}'),
        ("/api/sheets", '{"players": ["a", "b", "c"], "rules": {"target": NaN}}'),
        ("/api/sheets", '{"players": ["a", "b", "c"], "rules": {"target": Infinity}}'),
        ("/api/sheets", '{"players": ["a", "b", "c"], "rules": {"queen_points": 1e400}}'),
    ],
)
def test_odd_input_gets_a_clear_4xx(client: TestClient, path: str, body: str) -> None:
    r = client.post(path, content=body, headers=JSON)
    assert 400 <= r.status_code < 500, (path, body[:40], r.status_code, r.text[:200])
