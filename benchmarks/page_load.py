"""How soon a phone on a slow network can press "Play now", and how many bytes it took.

A cold visit (no cache) of the app's home page in Chromium at 390x844, under
Chrome DevTools' "Fast 3G" network conditions (562.5 ms latency, 180 KiB/s
down, 84 KiB/s up), until the "Play now" button is drawn and enabled; the
figure is the page's own ``performance.now()`` at that moment (time from the
navigation's start). Also the bytes transferred (the resource timings'
``transferSize``, headers included) and the number of requests.

By default it starts ``damepique serve`` from this tree (SQLite in a
temporary folder, a free port on 127.0.0.1) and stops it; ``--url`` targets a
server already running on this machine instead (for example an older commit's,
to compare side by side). Bounded: ``--runs`` visits (at most 20), each given
at most 60 s.

    python benchmarks/page_load.py --runs 5
    python benchmarks/page_load.py --url http://127.0.0.1:8001 --runs 5 --json
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
# Chrome DevTools' "Fast 3G" preset (its throughputs are in bytes per second).
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 180 * 1024,
    "uploadThroughput": 84 * 1024,
}
READY = """() => { const b = document.querySelector('button.play-now');
  return b && !b.disabled && b.offsetParent !== null ? performance.now() : null; }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - the server's, closed with it
    proc = subprocess.Popen(
        [sys.executable, "-m", "damepique", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(folder / "db.sqlite3")],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    err = (folder / "server.log").read_text(errors="replace")[-2000:]
    raise SystemExit(f"the server at {url} did not answer /healthz: {err}")


def visit(browser: object, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
        page.goto(url + "/", wait_until="commit", timeout=60_000)
        ready = page.wait_for_function(READY, timeout=60_000, polling="raf").json_value()
        sizes = page.evaluate(
            """() => performance.getEntriesByType('navigation')
                 .concat(performance.getEntriesByType('resource')).map(e => e.transferSize)"""
        )
        return {"ready_ms": float(ready), "bytes": float(sum(sizes)), "requests": float(len(sizes))}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a server already running on 127.0.0.1")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = max(1, min(args.runs, 20))
    if args.url and not args.url.startswith(("http://127.0.0.1", "http://localhost")):
        raise SystemExit("this benchmark only targets a server on this machine")
    with tempfile.TemporaryDirectory() as folder:
        proc, url = (None, args.url.rstrip("/")) if args.url else start_server(Path(folder))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                visit(browser, url)  # a first visit warms the server, not the browser (cache off)
                results = [visit(browser, url) for _ in range(runs)]
                browser.close()
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=20)
    ready = sorted(r["ready_ms"] for r in results)
    summary = {
        "url": url,
        "runs": runs,
        "ready_ms_median": statistics.median(ready),
        "ready_ms_max": ready[-1],
        "kb_transferred": results[0]["bytes"] / 1024,
        "requests": results[0]["requests"],
        "load": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"'Play now' usable after {summary['ready_ms_median'] / 1000:.2f} s (median of {runs}; "
            f"slowest {summary['ready_ms_max'] / 1000:.2f} s), {summary['kb_transferred']:.1f} KB "
            f"in {summary['requests']:.0f} requests, Fast 3G at 390x844; load {summary['load']:.1f}"
        )


if __name__ == "__main__":
    main()
