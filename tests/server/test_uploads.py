"""Uploaded records are replayed off the event loop, within a time limit
(issue 20): a legal record of a megabyte took a second of the loop and froze
every game; now the server answers everybody while it is checked, and a record
that takes too long is refused without harm to the next one."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ..conftest import ROOT, free_port, start_server, stop_server


def record(target: int, seed: int = 3) -> bytes:
    rules = json.dumps({"target": target})
    command = [sys.executable, "-m", "damepique", "random-game", "--seed", str(seed), "--rules", rules]
    out = subprocess.run(command, capture_output=True, check=True, cwd=ROOT)
    return out.stdout


@pytest.fixture(scope="module")
def big() -> bytes:
    data = record(9000)  # some 1 MB, 1,300 deals: about a second to replay
    assert 800_000 < len(data) < 2_000_000
    return data


def serve(tmp_path: Path, **env: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = start_server(tmp_path / "uploads.sqlite3", port, tmp_path / "uploads.log", {**os.environ, **env})
    return proc, f"http://127.0.0.1:{port}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    proc, base = serve(tmp_path)
    yield base
    stop_server(proc)


def test_the_server_answers_while_a_large_record_is_replayed(server: str, big: bytes) -> None:
    headers = {"Content-Type": "application/json"}
    httpx.post(f"{server}/api/replay", content=record(100), headers=headers, timeout=30)  # the worker is up
    answer: list[httpx.Response] = []
    upload = threading.Thread(
        target=lambda: answer.append(
            httpx.post(f"{server}/api/replay", content=big, headers=headers, timeout=30)
        )
    )
    started = time.monotonic()
    upload.start()
    waits: list[float] = []
    with httpx.Client(timeout=30) as client:
        while upload.is_alive():
            t = time.monotonic()
            assert client.get(f"{server}/healthz").status_code == 200
            waits.append(time.monotonic() - t)
    took = time.monotonic() - started
    upload.join()
    assert answer[0].status_code == 200, answer[0].text
    assert len(answer[0].json()["deals"]) == len(json.loads(big)["deals"])
    # Checked off the loop: everybody else was answered all along. On the loop
    # the record holds up one request for nearly all the time it takes (seen:
    # 0.87 s of 0.90 s); off it, the typical request is quick, and the slowest
    # still well short of the whole (a loaded machine was seen to stall one for
    # 1.29 s of 2.45 s by itself).
    median, slowest = statistics.median(waits), max(waits)
    assert took > 0.3 and len(waits) >= 10, (took, len(waits))
    assert median < took / 10 and slowest < 0.75 * took, (took, len(waits), median, slowest)


def test_a_record_over_the_time_limit_is_refused_and_the_next_is_checked(tmp_path: Path, big: bytes) -> None:
    proc, base = serve(tmp_path, DAMEPIQUE_REPLAY_SECONDS="0.2")
    try:
        headers = {"Content-Type": "application/json"}
        slow = httpx.post(f"{base}/api/replay", content=big, headers=headers, timeout=30)
        assert slow.status_code == 422
        assert slow.json()["code"] == "too_slow" and "0.2 s" in slow.json()["reason"]
        small = httpx.post(f"{base}/api/replay", content=record(100, seed=5), headers=headers, timeout=30)
        assert small.status_code == 200 and small.json()["deals"]
        bad = httpx.post(f"{base}/api/replay", content=b'{"format": "nope"}', headers=headers, timeout=30)
        assert bad.status_code == 400 and bad.json()["code"] == "bad_json"
    finally:
        stop_server(proc)
