"""What renewing a process's leases costs each second, by how many it holds.

With a broker every process renews all its leases each second (``Node.renew``:
one ``UPDATE ... RETURNING`` for every lease it holds, ``SqlLeases.renew_all``;
on PostgreSQL from a thread of its own, on SQLite on the loop under the write
lock, in the urgent turn). This times that statement, and the write lock held
meanwhile, for N leases of one process in a fresh database: the wall time of
one renewal (median and slowest of ``--rounds``) and the rows it writes.

    python benchmarks/leases_renewal.py --leases 100,1000,5000
    python benchmarks/leases_renewal.py --leases 5000 --db postgresql://postgres@127.0.0.1:5432/bench

Bounded (at most 20,000 leases, 200 rounds); a SQLite file in a temporary
folder unless ``--db`` names a database (its ``leases`` rows of this run's
process are deleted at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from damepique.server.cluster.leases import SqlLeases
from damepique.server.storage.database import Database


async def measure(url: str, n: int, rounds: int) -> dict[str, float]:
    db = Database(url)
    await db.open()
    leases = SqlLeases(db, f"bench-{os.getpid()}-{n}")
    try:
        for k in range(n):
            await leases.acquire(f"T{k:06d}")
        times = []
        for _ in range(rounds):
            t = time.perf_counter()
            held = await leases.renew_all()
            times.append(time.perf_counter() - t)
        assert len(held) == n
        return {
            "leases": n,
            "median_ms": round(statistics.median(times) * 1000, 2),
            "max_ms": round(max(times) * 1000, 2),
            "us_per_lease": round(statistics.median(times) / n * 1e6, 2),
        }
    finally:
        await leases.release_all()
        await db.close()


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--leases", default="100,1000,5000", help="comma-separated numbers of leases held")
    p.add_argument("--rounds", type=int, default=30, help="renewals timed at each number (at most 200)")
    p.add_argument("--db", help="a database URL (default: a SQLite file in a temporary folder)")
    args = p.parse_args()
    rounds = min(max(args.rounds, 1), 200)
    print(f"# load average {os.getloadavg()[0]:.2f}", flush=True)
    for n in [min(max(int(x), 1), 20_000) for x in args.leases.split(",") if x.strip()]:
        with tempfile.TemporaryDirectory() as folder:
            url = args.db or f"sqlite:///{Path(folder) / 'leases.sqlite3'}"
            print(asyncio.run(measure(url, n, rounds)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
