"""Quick match's grouping, the work the queue's owner does each second
(``server/quick/queue.py``): ``Queue.groups`` against the plain rule it
implements (each anchor, oldest first, sorting everyone else by distance:
quadratic), side by side on the same queues, in one run.

Two queues: *everyone compatible* (ratings around 1500, one group forms around
each anchor and leaves) and *nobody compatible* (one choice, ratings 1,000
points apart: nobody sits and everyone is looked at again each second, the
worst case for the owner's event loop).

    python benchmarks/quick_queue.py --people 200,1000,3000
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from damepique.server.quick.queue import Choice, Entry, Queue, _close_enough


def plain(q: Queue, now: float) -> list[list[Entry]]:
    """The rule as first written (and as the tests' reference): quadratic."""
    out = []
    for anchor in sorted(q.entries.values(), key=lambda e: e.since):
        if anchor.ticket not in q.entries:
            continue
        others = [e for e in q.entries.values() if e.choice == anchor.choice and e is not anchor]
        if anchor.choice.ranked:
            others.sort(key=lambda e: (abs((e.rating or 0) - (anchor.rating or 0)), e.since))
        else:
            others.sort(key=lambda e: e.since)
        group, most = [anchor], anchor.choice.seats[1]
        for e in others:
            if len(group) >= most:
                break
            if not anchor.choice.ranked or all(_close_enough(e, g, now) for g in group):
                group.append(e)
        if len(group) >= most or now >= anchor.due:
            for e in group:
                del q.entries[e.ticket]
            out.append(group)
    return out


def make(n: int, spread: bool, seed: int) -> Queue:
    rng = random.Random(seed)
    q = Queue()
    for i in range(n):
        rating = 1500.0 + i * 1000 if spread else rng.gauss(1500, 150)
        q.add(Entry(f"t{i}", f"p{i}", Choice(ranked=True), i / n, 300, rating))
    return q


def timed(fn: Callable[[Queue, float], object], n: int, spread: bool, rounds: int) -> float:
    best = float("inf")
    for r in range(rounds):
        q = make(n, spread, r)
        t = time.perf_counter()
        fn(q, 2.0)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", default="200,1000,3000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--plain-up-to", type=int, default=1000, help="the quadratic rule past this takes minutes"
    )
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}; best of {args.rounds}; ms per second of the owner")
    print(f"{'people':>7} {'queue':>22} {'groups()':>10} {'plain':>10} {'ratio':>7}")
    for n in (int(x) for x in args.people.split(",")):
        for spread, name in ((False, "everyone compatible"), (True, "nobody compatible")):
            fast = timed(lambda q, now: q.groups(now), n, spread, args.rounds)
            slow = timed(plain, n, spread, args.rounds) if n <= args.plain_up_to else None
            ratio = f"{slow / fast:6.0f}x" if slow else "      -"
            print(f"{n:>7} {name:>22} {fast:>10.1f} {slow if slow else float('nan'):>10.1f} {ratio}")


if __name__ == "__main__":
    main()
