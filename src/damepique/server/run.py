"""``damepique serve``: the app on uvicorn."""

from __future__ import annotations

import gc
import threading
import webbrowser

from .settings import database_url


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    open_browser: bool = False,
    broker: str | None = None,
    process_id: str | None = None,
) -> int:
    """Run the server until interrupted; returns the exit status."""
    import uvicorn

    from .app import create_app

    url = database_url(db)
    app = create_app(database_url=url, broker_url=broker, process_id=process_id)
    # A server holds many long-lived objects (tables, connections): full collections
    # of that heap stopped the loop for 0.2 to 0.7 s under load (benchmarks/README.md,
    # Multiplayer). Objects made at start-up are never collected, and collections
    # of the young generation come ten times less often.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"damepique: playing at {address}  (database: {url})", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    # No per-message deflate: it costs more CPU than it saves on messages of a few KB.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=16 * 1024 * 1024,
        ws_per_message_deflate=False,
    )
    return 0
