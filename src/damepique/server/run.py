"""``damepique serve``: the app on uvicorn."""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import webbrowser

from .clock import Clock
from .collector import gc_setting, start_collector
from .settings import database_url
from .storage.database import damaged, sqlite_file

LISTEN_BACKLOG = 16_384
"""Connections waiting to be accepted, at most (uvicorn's default: 2,048)."""

MIN_OPEN_FILES = 4096
"""Under this many open files ``serve`` warns: each player's socket is one."""


def raise_open_files() -> int:
    """Raise this process's limit of open files (its soft limit) to its hard
    limit, and return it: every player's socket is a file, and a system's
    default of 1,024 would refuse connections past some 250 tables of four.
    Never lowered; where the platform has no such limit, nothing happens."""
    try:
        import resource
    except ImportError:  # not on this platform
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    open_browser: bool = False,
    broker: str | None = None,
    process_id: str | None = None,
    forwarded_allow_ips: str | None = None,
    fd: int | None = None,
) -> int:
    """Run the server until interrupted; returns the exit status.

    ``forwarded_allow_ips`` (default ``$FORWARDED_ALLOW_IPS``): the proxies
    whose ``X-Forwarded-For`` is believed, comma-separated; none by default,
    so that a client's address is always the one it connects from.

    ``fd``: a socket already listening, handed down by the process that
    started this one (``--fd``), served instead of binding ``host:port``. Its
    connections wait in the socket's queue until the server is ready, so the
    parent waits for its first answer and never polls (the test fixtures)."""
    import uvicorn

    from .app import create_app

    # A server holds many long-lived objects (tables, connections) and each card's
    # update lives until the table's next card: Python's own collector stopped the
    # loop for 0.16 to 0.7 s at thousands of tables (``collector.py`` says why and
    # what paces it instead). DAMEPIQUE_GC="g0,g1,g2": Python's own, at those thresholds.
    try:
        collection = gc_setting(os.environ.get("DAMEPIQUE_GC", ""))
    except ValueError as e:
        print(f"damepique: {e}", file=sys.stderr)
        return 2
    files = raise_open_files()
    if 0 <= files < MIN_OPEN_FILES:
        print(
            f"damepique: at most {files} open files (ulimit -n): about {files - 64} players"
            " at once; raise it (docs/deploy.md)",
            file=sys.stderr,
        )
    from .guard import Guard, guarded
    from .keepalive import ping_interval

    url = database_url(db)
    file = sqlite_file(url)
    why = damaged(file) if file is not None else None
    if why is not None:
        # Starting would fail at the first read or, worse, write into a damaged
        # file: say which file and what to do instead of a traceback.
        print(
            f"damepique: the database {file} is damaged ({why}); "
            "restore it from a backup or move it aside to start with an empty one",
            file=sys.stderr,
        )
        return 1
    app = create_app(database_url=url, broker_url=broker, process_id=process_id)
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"damepique: playing at {address}  (database: {url})", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    proxies = (
        forwarded_allow_ips if forwarded_allow_ips is not None else os.environ.get("FORWARDED_ALLOW_IPS", "")
    )
    trusted = frozenset(p.strip() for p in proxies.split(",") if p.strip())
    http, ws = guarded(Guard(trusted=trusted, clock=app.state.settings.clock))
    # No per-message deflate: it costs more CPU than it saves on messages of a few KB.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=http,
        ws=ws,
        ws_max_size=1024 * 1024,
        ws_per_message_deflate=False,
        # A reconnect storm opens thousands of connections in the same instant: past
        # the queue of the listening socket the kernel drops them, and each comes back
        # only when its SYN is sent again (1 s, then 3 s...). The kernel caps this at
        # net.core.somaxconn (4,096 on most systems).
        backlog=LISTEN_BACKLOG,
        ws_ping_interval=ping_interval(),  # spaced and skipped as ``keepalive`` says
        ws_ping_timeout=20.0,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(sorted(trusted)) or None,
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            # Real time, never the app's clock: a test server's manual clock would
            # step through every tick each time a test moves it by minutes.
            self.collector = start_collector(collection, Clock())
            await super().startup(sockets)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # On SIGTERM or SIGINT uvicorn stops taking connections, then waits
            # until every open one has finished its response, before the app's
            # own shutdown (its lifespan). An event stream lasts as long as its
            # client reads, for ever for a bot: the server never stopped (the
            # test fixtures killed it after 10 s). Told first, the app ends them.
            app.stopping.set()
            await super().shutdown(sockets)

    server = Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=None if fd is None else [socket.socket(fileno=fd)])
    return 0 if server.started else 3
