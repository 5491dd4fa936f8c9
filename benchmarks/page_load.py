"""How soon a phone on a slow network can press "Play now", and how many bytes it took.

A cold visit (no cache) of the app's home page in Chromium at 390x844, under
Chrome DevTools' "Fast 3G" network conditions (562.5 ms latency, 180 KiB/s
down, 84 KiB/s up), until the "Play now" button is drawn and enabled; the
figure is the page's own ``performance.now()`` at that moment (time from the
navigation's start). Also the bytes transferred until then (the resource
timings' ``transferSize``, headers included), the number of requests, and the
critical chain: each request's start and end, to see what the page waited for.

With ``--play``, the visit goes on: ``--think`` seconds after "Play now" is
usable (a person reading the page), it is pressed, and the figure is the time
from the press until the table has drawn the hand (the modules of the table,
a game created, its first state), and the bytes of the whole visit.

By default it starts ``damepique serve`` from this tree (SQLite in a
temporary folder, a free port on 127.0.0.1) and stops it. ``--before DIR``
also starts one from another checkout's ``src`` (a git worktree of an older
commit) and alternates visits between the two in one run, so that both see
the same machine load: the side-by-side figures and their ratio. ``--url``
targets a server already running on this machine instead. Bounded: ``--runs``
visits of each (at most 20), each given at most 60 s.

    python benchmarks/page_load.py --runs 5
    git worktree add --detach /tmp/before 7dc57f1
    python benchmarks/page_load.py --before /tmp/before --runs 7 --play --chain
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
from typing import Any

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


def start_server(folder: Path, src: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``damepique serve`` on a free port with its database in ``folder``; from
    ``src`` (another checkout's ``src`` on ``PYTHONPATH``) where given."""
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - the server's, closed with it
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    proc = subprocess.Popen(
        [sys.executable, "-m", "damepique", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(folder / "db.sqlite3")],
        stdout=log, stderr=subprocess.STDOUT, env=env,
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


HAND = """() => document.querySelector('#hand [data-card]') ? performance.now() : null"""
SIZES = """() => performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
  .map(e => ({name: e.name.replace(/^https?:\\/\\/[^/]+/, '')
                .replace(/\\/static\\/v\\/[0-9a-f]+\\//, '/static/'),
              start: Math.round(e.startTime), end: Math.round(e.responseEnd), bytes: e.transferSize}))"""


def visit(browser: object, url: str, play: bool = False, think: float = 2.0) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
        page.goto(url + "/", wait_until="commit", timeout=60_000)
        ready = page.wait_for_function(READY, timeout=60_000, polling="raf").json_value()
        chain = page.evaluate(SIZES)
        out: dict[str, Any] = {
            "ready_ms": float(ready),
            "bytes": float(sum(e["bytes"] for e in chain)),
            "requests": float(len(chain)),
            "chain": chain,
        }
        if play:
            time.sleep(think)  # a person reading the page before pressing (a benchmark, not a test)
            pressed = page.evaluate(
                "() => { document.querySelector('button.play-now').click(); return performance.now(); }"
            )
            drawn = page.wait_for_function(HAND, timeout=60_000, polling="raf").json_value()
            out["table_ms"] = float(drawn) - float(pressed)
            out["visit_bytes"] = float(sum(e["bytes"] for e in page.evaluate(SIZES)))
        return out
    finally:
        context.close()


def summary(results: list[dict[str, Any]], url: str) -> dict[str, Any]:
    ready = sorted(r["ready_ms"] for r in results)
    out: dict[str, Any] = {
        "url": url,
        "runs": len(results),
        "ready_ms_median": statistics.median(ready),
        "ready_ms_min": ready[0],
        "ready_ms_max": ready[-1],
        "kb_transferred": statistics.median(r["bytes"] for r in results) / 1024,
        "requests": results[0]["requests"],
    }
    if "table_ms" in results[0]:
        table = sorted(r["table_ms"] for r in results)
        out["table_ms_median"] = statistics.median(table)
        out["table_ms_max"] = table[-1]
        out["kb_visit"] = statistics.median(r["visit_bytes"] for r in results) / 1024
    return out


def line(name: str, s: dict[str, Any]) -> str:
    text = (
        f"{name}: 'Play now' usable after {s['ready_ms_median'] / 1000:.2f} s (median of {s['runs']}; "
        f"{s['ready_ms_min'] / 1000:.2f} to {s['ready_ms_max'] / 1000:.2f} s), {s['kb_transferred']:.1f} KB "
        f"in {s['requests']:.0f} requests"
    )
    if "table_ms_median" in s:
        text += (
            f"; pressed, the hand drawn after {s['table_ms_median'] / 1000:.2f} s "
            f"(slowest {s['table_ms_max'] / 1000:.2f} s), {s['kb_visit']:.1f} KB for the whole visit"
        )
    return text


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a server already running on 127.0.0.1")
    parser.add_argument(
        "--before", type=Path, help="another checkout (its src/) to compare with, alternating"
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--play", action="store_true", help="press 'Play now' and time the table")
    parser.add_argument("--think", type=float, default=2.0, help="seconds between 'usable' and the press")
    parser.add_argument("--chain", action="store_true", help="print each request of the last visit")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = max(1, min(args.runs, 20))
    if args.url and not args.url.startswith(("http://127.0.0.1", "http://localhost")):
        raise SystemExit("this benchmark only targets a server on this machine")
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as folder:
        try:
            servers: dict[str, str] = {}
            if args.url:
                servers["given"] = args.url.rstrip("/")
            else:
                proc, servers["after"] = start_server(Path(folder) / "after")
                procs.append(proc)
            if args.before:
                proc, servers["before"] = start_server(Path(folder) / "before", args.before.resolve() / "src")
                procs.append(proc)
            results: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for url in servers.values():
                    visit(browser, url)  # a first visit warms the server, not the browser (cache off)
                for _ in range(runs):
                    # Alternating, so that both servers see the same load.
                    for name, url in sorted(servers.items(), reverse=True):
                        results[name].append(visit(browser, url, args.play, args.think))
                browser.close()
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait(timeout=20)
    out = {name: summary(rs, servers[name]) for name, rs in results.items()}
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({**out, "load": load}))
        return
    for name, s in out.items():
        print(line(name, s))
    if "before" in out and "after" in out:
        ratio = out["after"]["ready_ms_median"] / out["before"]["ready_ms_median"]
        print(f"'Play now' after/before: {ratio:.2f}", end="")
        if args.play:
            table = out["after"]["table_ms_median"] / out["before"]["table_ms_median"]
            print(f"; the table after/before: {table:.2f}", end="")
        print()
    print(f"Fast 3G at 390x844; load {load:.1f}")
    if args.chain:
        for name, rs in results.items():
            print(f"\n{name}, the last visit's requests until 'Play now' was usable (start, end ms; bytes):")
            for e in sorted(rs[-1]["chain"], key=lambda e: e["start"]):
                print(f"  {e['start']:5d} {e['end']:5d} {e['bytes']:6d}  {e['name']}")


if __name__ == "__main__":
    main()
