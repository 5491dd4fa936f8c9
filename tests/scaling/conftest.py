"""Throwaway Redis and PostgreSQL servers on loopback, started by the tests.

Where the binaries are missing the tests are skipped with a clear message,
so pytest stays usable on a laptop; under CI (``CI`` set) they fail instead,
since CI must install and run them.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..conftest import free_port
from .cluster_helpers import Cluster, _missing, make_cluster

WITHIN = 120.0
"""Seconds a service may take to start or stop: generous (a busy machine), never what
a test is about; only a service that never says it is ready fails on it."""


@dataclass
class RedisServer:
    port: int
    dir: str
    proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it in the foreground and wait for its own word that it is ready
        (its log line), read off its output on a thread: no polling."""
        self.proc = proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--daemonize", "no",
             "--dir", self.dir, "--save", "", "--appendonly", "no", "--logfile", ""],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        ready = threading.Event()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                if "Ready to accept connections" in line:
                    ready.set()
            ready.set()  # it ended

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(WITHIN) or proc.poll() is not None:
            proc.kill()
            raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
        )  # fmt: skip
        if self.proc is not None:
            try:
                self.proc.wait(WITHIN)  # gone: its port is free
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def running_redis() -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        _missing("redis-server")
    with tempfile.TemporaryDirectory() as d:
        server = RedisServer(free_port(), d)
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A Redis of the test's own (a test may stop and start it)."""
    with running_redis() as server:
        yield server


@dataclass
class PostgresServer:
    port: int
    dir: str

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"


def _pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return str(Path(found[-1]).parent) if found else None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _pg_bin()
    if bindir is None:
        _missing("PostgreSQL server binaries")
        return
    root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if root else []
    d = tempfile.mkdtemp(prefix="damepique-pg-")
    if root:
        shutil.chown(d, "postgres", "postgres")
    data = os.path.join(d, "data")
    port = free_port()
    subprocess.run(
        [*prefix, f"{bindir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    opts = f"-p {port} -k {d} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        [*prefix, f"{bindir}/pg_ctl", "-D", data, "-o", opts, "-w", "-t", "300", "-l", f"{d}/log", "start"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield PostgresServer(port, d)
    finally:
        subprocess.run(
            [*prefix, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
            check=False, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def cluster(tmp_path: Path, postgres_server: PostgresServer, redis_server: RedisServer) -> Iterator[Cluster]:
    """Processes ``a`` and ``b`` on one fresh database and one Redis, behind nginx."""
    running = make_cluster(tmp_path, postgres_server.url, redis_server.url, ["a", "b"])
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def calm_cluster(
    tmp_path_factory: pytest.TempPathFactory, postgres_server: PostgresServer
) -> Iterator[Cluster]:
    """Processes ``a`` and ``b`` as ``cluster`` has them, started once for the
    module's tests that kill, stop and restart nothing (each makes its own
    tables and sheets): one start of the processes instead of one a test."""
    with running_redis() as redis:
        running = make_cluster(tmp_path_factory.mktemp("calm"), postgres_server.url, redis.url, ["a", "b"])
        try:
            yield running
        finally:
            running.stop()
