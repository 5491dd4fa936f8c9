"""Shared fixtures: Debian's Chromium for Playwright, and a real server process.

Browser tests (``@pytest.mark.browser``) use pytest-playwright-asyncio's
``page``/``context`` fixtures; ``base_url`` points them at a live server
started once per session on 127.0.0.1 and a free port, with its own SQLite
file. ``start_server`` is also what the restart test uses.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent

HTTP_WITHIN = 120.0
"""Seconds an HTTP request to a test's server may take: httpx's own default gives
up after 5 s, which a server process on a loaded machine (the suite beside four
busy loops) can take to answer; no test is about that. Set on httpx's default
``Timeout``, the one object its functions and clients share, so every request a
test makes without a timeout of its own waits this long: a hang, not a slow machine."""
_default_timeout = httpx._config.DEFAULT_TIMEOUT_CONFIG
_default_timeout.connect = _default_timeout.read = _default_timeout.write = _default_timeout.pool = (
    HTTP_WITHIN
)
ARTIFACTS = ROOT / "test-artifacts"

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:  # type: ignore[type-arg]
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def held_port() -> Iterator[tuple[socket.socket, int]]:
    """A listening socket on a port the system picks, and its port, held until
    the end of the block: a server restarted on it (``spawn_server(listener=)``)
    finds it free, however many other tests run beside (``free_port`` gives a
    port back before it is used, and another process may take it meanwhile)."""
    with listening(0) as sock:
        yield sock, int(sock.getsockname()[1])


def listening(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:port, to hand to a server process (``--fd``)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(256)
    return sock


def spawn_server(
    db: Path | str,
    port: int,
    log: Path | None = None,
    env: dict[str, str] | None = None,
    *extra: str,
    listener: socket.socket | None = None,
) -> subprocess.Popen[bytes]:
    """``damepique serve`` in a child process on 127.0.0.1:port (``extra``: more flags).

    The port is bound and listening here, and the socket handed to the child
    (``--fd``): a request sent before the server is ready waits in the
    socket's queue for it instead of being refused (``wait_healthy``).
    ``listener``: that socket, held by the test across a restart, so that no
    other process can take the port while no server runs."""
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - lives with the process
    with contextlib.nullcontext(listener) if listener else listening(port) as sock:
        return subprocess.Popen(
            [sys.executable, "-m", "damepique", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(db), "--fd", str(sock.fileno()), *extra],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env, pass_fds=(sock.fileno(),),
        )  # fmt: skip


START_LIMIT = 300.0
"""Seconds a server may take to start: generous (a loaded laptop took over 30), and
never what a test is about; a server that exits fails at once."""


def wait_healthy(proc: subprocess.Popen[bytes], port: int, seconds: float = START_LIMIT) -> None:
    """Until the server answers ``/healthz``: its socket was listening before it
    started (``spawn_server``), so the request waits in the queue until the
    server is ready; no polling. Fails when the server exits, or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return
        except httpx.TimeoutException:
            continue  # still starting: look whether it is alive, then wait again
        except httpx.HTTPError:
            # Refused or cut: the socket is closed, so the server is exiting.
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
    proc.kill()
    raise RuntimeError(f"server did not start in {seconds:.0f} s")


def start_server(
    db: Path,
    port: int,
    log: Path | None = None,
    env: dict[str, str] | None = None,
    listener: socket.socket | None = None,
) -> subprocess.Popen[bytes]:
    """``damepique serve`` in a child process on 127.0.0.1:port; waits until it answers."""
    proc = spawn_server(db, port, log, env, listener=listener)
    wait_healthy(proc, port)
    return proc


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def server_process() -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """A factory of real server processes (stopped at the end of the test):
    ``start(db, port)``, or ``start(db, port, listener)`` on a listening socket
    the test holds (``held_port``: a restart on the same port races nobody);
    ``clock="manual"``: the app's clock moves only when the test moves it."""
    started: list[subprocess.Popen[bytes]] = []

    def start(
        db: Path, port: int, listener: socket.socket | None = None, clock: str | None = None
    ) -> subprocess.Popen[bytes]:
        env = None if clock is None else os.environ | {"DAMEPIQUE_CLOCK": clock}
        proc = start_server(db, port, db.with_suffix(".log"), env, listener)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        stop_server(proc)


@contextlib.contextmanager
def real_server(folder: Path, clock: str | None = None) -> Iterator[str]:
    """A real server on a free port with its database and log in ``folder``;
    its address, e.g. ``http://127.0.0.1:40123``. Every client comes from
    127.0.0.1: no limit on the games one address creates (tests/server/test_creations.py
    tests it). The test hooks are on (``server/testing.py``): a browser test
    starts from the position it is about. ``clock="manual"``: the app's clock
    moves only when the test moves it (``POST /api/test/clock``)."""
    port = free_port()
    env = os.environ | {"DAMEPIQUE_CREATIONS": "0", "DAMEPIQUE_TEST_HOOKS": "1"}
    if clock is not None:
        env["DAMEPIQUE_CLOCK"] = clock
    proc = start_server(folder / "damepique.sqlite3", port, folder / "server.log", env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real server (``real_server``) for a module's tests, each making its own
    people, bots and tables; its address. A module that needs another kind of
    server defines its own ``server``."""
    with real_server(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])) as url:
        yield url


PASSWORD = "correct horse battery"


def person(base: str, nickname: str) -> httpx.Client:
    """A person who signs up at ``base`` (the session cookie is kept by the client)."""
    client = httpx.Client(base_url=base, timeout=30)  # a hang, not a speed (a cluster is slower)
    r = client.post("/api/accounts", json={"nickname": nickname, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def bot_token(owner: httpx.Client, nickname: str) -> str:
    """The token of a new bot account of ``owner``'s, named ``nickname``."""
    r = owner.post("/api/bots", json={"nickname": nickname})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["nickname"] == nickname and made["token"].startswith("dpb_")
    return str(made["token"])


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a real server, e.g. ``http://127.0.0.1:40123``; set
    DAMEPIQUE_TEST_URL to test against a server you started yourself (with
    DAMEPIQUE_TEST_HOOKS=1 and DAMEPIQUE_CREATIONS=0)."""
    if os.environ.get("DAMEPIQUE_TEST_URL"):
        yield os.environ["DAMEPIQUE_TEST_URL"]
        return
    with real_server(tmp_path_factory.mktemp("server")) as url:
        yield url


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
