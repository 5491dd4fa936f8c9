"""How long after a deal ends its training review reaches the page (issue 25:
"the final deal's review took 16.6 s").

A client speaks to ``damepique serve`` as the solo page does in the training
mode: a new game (``fast`` bots at ``--level``), the expert's advice asked at
each of its decisions and awaited, ``--think`` seconds (a person reading it),
then a random legal card (or pass); the moment the state that ends the first
deal arrives it asks for that deal's review, as the page does. The figure is
the time from that state's arrival to the review's (the page draws it a few
milliseconds later), and the review's items.

By default it starts a server from this tree (SQLite in a temporary folder, a
free port) and stops it. ``--before DIR`` also starts one from another
checkout's ``src`` (a git worktree of an older commit) and alternates games
between the two in one run, so both see the same machine load: the figures
side by side and their ratio. Bounded: ``--rounds`` games on each (at most
10), each given at most ``--limit`` seconds.

    git worktree add --detach /tmp/before 4cfa89f
    python benchmarks/review_latency.py --before /tmp/before --rounds 3 --think 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from page_load import start_server
from websockets.sync.client import connect


def new_game(url: str, level: str) -> dict[str, Any]:
    body = json.dumps({"level": level, "speed": "fast"}).encode()
    request = urllib.request.Request(
        url + "/api/games", data=body, headers={"Content-Type": "application/json", "Origin": url}
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return dict(json.loads(r.read()))


def one_deal(url: str, seed: int, think: float, level: str, limit: float) -> dict[str, Any]:
    """A game's first deal played as a training player does; its review timed."""
    game = new_game(url, level)
    rng = random.Random(seed)
    ws_url = url.replace("http://", "ws://") + "/ws"
    deadline = time.monotonic() + limit
    with connect(ws_url, origin=url, open_timeout=30, max_size=None) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "hello", "token": game["token"]}))

        def receive(kind: str, ref: Any = None) -> dict[str, Any]:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {kind} within {limit} s")
                msg = json.loads(ws.recv(timeout=left))
                if msg["type"] == "error":
                    raise RuntimeError(f"refused: {msg}")
                if msg["type"] == kind and (ref is None or msg.get("ack") == ref or msg.get("ref") == ref):
                    return dict(msg)

        state = receive("state")
        n = decisions = 0
        advice_s = 0.0
        while not state["results"]:
            view = state["view"]
            if view is None or state["over"] or view.get("to_act") != state["seat"]:
                state = receive("state")
                continue
            n += 1
            start = time.monotonic()
            ws.send(json.dumps({"type": "advice", "id": f"a{n}"}))
            receive("advice", f"a{n}")
            advice_s += time.monotonic() - start
            time.sleep(think)  # a person reading the advice
            if view["phase"] == "pass":
                cards = rng.sample(view["hand"], state["rules"].get("pass_count", 3))
                ws.send(json.dumps({"type": "pass", "cards": cards, "id": n}))
            else:
                ws.send(json.dumps({"type": "play", "card": rng.choice(view["legal"]), "id": n}))
            decisions += 1
            state = receive("state", n)
        ended = time.monotonic()  # the state that ends the deal has arrived: the page asks now
        ws.send(json.dumps({"type": "review", "deal": 0, "id": "r"}))
        review = receive("review", "r")
        came = time.monotonic()
    return {
        "review_s": round(came - ended, 3),
        "items": len(review["items"]),
        "decisions": decisions,
        "advice_s": round(advice_s / max(1, decisions), 3),
    }


def load() -> float:
    return os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="another checkout (its src is started too, alternating)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", type=float, default=2.0, help="seconds a person reads each advice")
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=600.0, help="seconds one game may take at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rounds = max(1, min(10, args.rounds))
    trees: dict[str, Path | None] = {"after": None}
    if args.before is not None:
        trees = {"before": args.before / "src", "after": None}
    servers = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for name, src in trees.items():
                servers[name] = start_server(Path(tmp) / name, src)
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            for r in range(rounds):
                for name in trees:
                    before_load = load()
                    got = one_deal(servers[name][1], args.seed + r, args.think, args.level, args.limit)
                    got["load"] = round((before_load + load()) / 2, 1)
                    runs[name].append(got)
                    if not args.json:
                        print(f"round {r + 1} {name}: {got}", flush=True)
        finally:
            for proc, _url in servers.values():
                proc.terminate()
                proc.wait(timeout=30)
    summary = {name: statistics.median(x["review_s"] for x in got) for name, got in runs.items()}
    out: dict[str, Any] = {"runs": runs, "median_review_s": summary, "think": args.think, "level": args.level}
    if "before" in summary and summary["before"] > 0:
        out["after_over_before"] = round(summary["after"] / summary["before"], 3)
    print(
        json.dumps(out, indent=1) if args.json else json.dumps({k: v for k, v in out.items() if k != "runs"})
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
