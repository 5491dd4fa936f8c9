"""A database that stops taking writes (issue 20): its file deleted under a
running server, or damaged before it starts. A move that could not be saved is
refused, and counts for nothing; ``/healthz`` says the server is unhealthy; a
server does not start on a damaged file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
from websockets.sync.client import connect

from ..conftest import ROOT, free_port


def test_a_deleted_database_file_refuses_moves_and_fails_the_health_check(  # type: ignore[no-untyped-def]
    tmp_path: Path, server_process
) -> None:
    db = tmp_path / "gone.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server_process(db, port)
    assert httpx.get(f"{base}/healthz").json()["ok"] is True
    game = httpx.post(f"{base}/api/games", json={"preset": "short", "level": "beginner"}).json()
    with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": game["token"]}))
        state = json.loads(ws.recv(timeout=60))
        while state["type"] != "state":
            state = json.loads(ws.recv(timeout=60))
        view = state["view"]
        assert view["phase"] == "pass"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        ws.send(json.dumps({"type": "pass", "cards": view["hand"][:3], "id": 1}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":
                break
            # Nothing may say the pass counted.
            assert msg["type"] != "state" or msg["view"]["phase"] == "pass", msg
        assert msg["code"] == "storage_failed" and "did not count" in msg["reason"]
    health = httpx.get(f"{base}/healthz")
    assert health.status_code == 503
    assert health.json()["ok"] is False and "deleted or replaced" in health.json()["database"]


def test_the_server_does_not_start_on_a_damaged_file(tmp_path: Path) -> None:
    db = tmp_path / "damaged.sqlite3"
    db.write_bytes(b"this is not a database, it was overwritten by mistake " * 200)
    proc = subprocess.run(
        [sys.executable, "-m", "damepique", "serve", "--port", str(free_port()), "--db", str(db)],
        capture_output=True, text=True, timeout=60, cwd=ROOT, env=os.environ,
    )  # fmt: skip
    assert proc.returncode == 1
    assert str(db) in proc.stderr and "damaged" in proc.stderr and "Traceback" not in proc.stderr
    assert db.read_bytes().startswith(b"this is not")  # left as it was, for whoever restores it


def test_with_the_database_deleted_a_new_game_is_refused_503_and_no_path_is_shown(tmp_path: Path) -> None:
    """A new game cannot be saved: 503 ``storage_failed`` (not 500), and neither
    that answer nor the public ``/healthz`` names where the database lives."""
    from fastapi.testclient import TestClient

    from damepique.server.app import create_app

    db = tmp_path / "private-folder" / "gone.sqlite3"
    db.parent.mkdir()
    with TestClient(create_app(str(db)), raise_server_exceptions=False) as client:
        assert client.post("/api/games", json={"preset": "short"}).status_code == 200
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        health = client.get("/healthz")  # before any write noticed it
        assert health.status_code == 503 and health.json()["ok"] is False
        assert health.json()["code"] == "storage_failed"
        assert "private-folder" not in health.text and str(tmp_path) not in health.text, health.text
        for path, body in (("/api/games", {"preset": "short"}), ("/api/tables", {"preset": "short"})):
            r = client.post(path, json=body)
            assert r.status_code == 503, (path, r.status_code, r.text)
            assert r.json()["code"] == "storage_failed" and r.json()["reason"]
            assert "private-folder" not in r.text
        health = client.get("/healthz")  # after a write failed
        assert health.status_code == 503 and health.json()["code"] == "storage_failed"
        assert "deleted or replaced" in health.json()["database"]
        assert "private-folder" not in health.text and str(tmp_path) not in health.text, health.text
