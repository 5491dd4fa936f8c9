"""WebSockets answered on raw ASGI (``asgi``): what a handler sees is what
Starlette's ``WebSocket`` would have shown it, and every other request still
goes to FastAPI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi import WebSocket
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from damepique.server.app import create_app
from damepique.server.asgi import App, RawWebSocket


def echo_app() -> App:
    app = App()

    @app.raw_websocket("/raw")
    async def raw(ws: RawWebSocket) -> None:
        await ws.accept()
        await ws.send_text(
            json.dumps({"cookies": ws.cookies, "host": ws.host, "app": ws.scope["app"] is app})
        )
        async for frame in ws.frames():
            if frame == "close":
                await ws.close(4321, "asked to")
                with pytest.raises(WebSocketDisconnected):
                    await ws.send_text("after the close")
                return
            await ws.send_text(repr(frame))

    @app.websocket("/routed")
    async def routed(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text("routed")
        await ws.close()

    return app


def test_a_raw_websocket_sees_cookies_address_and_frames() -> None:
    client = TestClient(echo_app())
    client.cookies.set("a", "1")
    with client.websocket_connect("/raw") as ws:
        first = json.loads(ws.receive_text())
        assert first == {"cookies": {"a": "1"}, "host": "testclient", "app": True}
        ws.send_text("hi")
        assert ws.receive_text() == "'hi'"
        ws.send_bytes(b"\x01")
        assert ws.receive_text() == "b'\\x01'"
        ws.send({"type": "websocket.receive"})  # neither text nor bytes
        assert ws.receive_text() == "None"
        ws.send_text("close")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert (closed.value.code, closed.value.reason) == (4321, "asked to")


def test_other_websockets_and_root_path_go_through_fastapi_as_before() -> None:
    app = echo_app()
    with TestClient(app).websocket_connect("/routed") as ws:
        assert ws.receive_text() == "routed"
    with TestClient(app, root_path="/game").websocket_connect("/game/raw") as ws:
        assert json.loads(ws.receive_text())["app"] is True


async def test_a_send_to_a_lost_peer_is_a_disconnect_as_with_starlette() -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        if message["type"] == "websocket.send":
            raise OSError("gone")

    ws = RawWebSocket({"type": "websocket", "client": None, "headers": []}, receive, send)
    await ws.accept()
    assert ws.host is None and ws.cookies == {}
    with pytest.raises(WebSocketDisconnect) as lost:
        await ws.send_text("x")
    assert lost.value.code == 1006
    with pytest.raises(WebSocketDisconnected):
        await ws.send_text("y")


def test_the_table_websocket_is_answered_raw(tmp_path: Path) -> None:
    app: Any = create_app(f"sqlite+aiosqlite:///{tmp_path / 'raw.sqlite3'}")
    assert "/ws" in app.raw_websockets
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send({"type": "websocket.receive"})  # neither text nor bytes: refused with a reason
        answer = json.loads(ws.receive_text())
        assert answer["type"] == "error" and answer["code"] == "bad_message"
        ws.send_text(json.dumps({"type": "ping", "id": 7}))
        assert json.loads(ws.receive_text()) == {"v": 2, "type": "pong", "ref": 7}
