"""The multiplayer load benchmark against one, two, four... server processes
behind nginx, sharing a PostgreSQL database and a Redis broker (issue 7).

For each number of processes K in ``--processes``: a fresh database on a
throwaway PostgreSQL cluster, K ``damepique serve --broker redis://...``
processes, nginx in front of them (``deploy/nginx.conf``, round robin), then
``benchmarks/server_multiplayer.py --url <nginx>`` for each number of tables
of ``--tables``. Every table is created through nginx and its four players'
connections are spread by the round robin, so with K processes about
(K-1)/K of the connections land on a process that does not run their table
and are relayed to it over Redis: the honest worst case (no stickiness).

Reports per level: cards/s, latency p50/p95/p99 (card sent to the last of the
table's four players updated), the CPU of the server processes, of Redis and
PostgreSQL, and the machine's load. Bounded: the levels run for
``--seconds`` each; 127.0.0.1 only; everything started is stopped.

    python benchmarks/server_cluster.py --processes 1,2,4 --tables 50,100,200 --seconds 20 --client-procs 2
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server_multiplayer import cpu_seconds  # this folder is on the path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A free port below the ephemeral range: the load clients' thousands of
    connections take ephemeral ports, and one of them could take a port chosen
    there before its server binds it."""
    for _ in range(1000):
        port = random.randrange(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit("no free port between 20000 and 32000")


def wait_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port}")


def children_of(pid: int) -> list[int]:
    """Every descendant (PostgreSQL runs a process per connection)."""
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            child = int(stat.split("/")[2])
            out += [child, *children_of(child)]
    return out


@contextmanager
def postgres(folder: Path) -> Iterator[tuple[str, int]]:
    """A throwaway cluster: (admin URL, postmaster pid)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("PostgreSQL server binaries (initdb) are not installed")
    bindir = str(Path(found[-1]).parent)
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    d = folder / "pg"
    d.mkdir()
    if as_pg:
        shutil.chown(d, "postgres", "postgres")
    port = free_port()
    data = str(d / "data")
    subprocess.run([*as_pg, f"{bindir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync"],
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    opts = f"-p {port} -k {d} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
    subprocess.run([*as_pg, f"{bindir}/pg_ctl", "-D", data, "-o", opts, "-w", "-l", f"{d}/log", "start"],
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    pid = int(Path(data, "postmaster.pid").read_text().split()[0])
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}", pid
    finally:
        subprocess.run([*as_pg, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       check=False, stdout=subprocess.DEVNULL)  # fmt: skip


@contextmanager
def redis(folder: Path) -> Iterator[tuple[str, int]]:
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed")
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    wait_port(port)
    try:
        yield f"redis://127.0.0.1:{port}/0", proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def create_database(admin: str, name: str) -> str:
    code = (
        "import asyncio, asyncpg\n"
        "async def main():\n"
        f"    c = await asyncpg.connect({admin!r})\n"
        f"    await c.execute('CREATE DATABASE {name}')\n"
        "    await c.close()\n"
        "asyncio.run(main())\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    return f"{admin}/{name}"


@contextmanager
def cluster(folder: Path, k: int, db: str, broker: str) -> Iterator[tuple[str, list[int]]]:
    """K server processes and nginx in front: (nginx URL, the processes' pids)."""
    env = {**os.environ, "DAMEPIQUE_SECRET": "benchmark-secret-" + "x" * 40}
    procs: list[subprocess.Popen[bytes]] = []
    ports = [free_port() for _ in range(k)]
    nginx_pid: int | None = None
    try:
        for i, port in enumerate(ports):
            log = open(folder / f"p{i + 1}.log", "ab")  # noqa: SIM115 - lives with the process
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "damepique", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--db", db, "--broker", broker, "--process-id", f"p{i + 1}"],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
            ))  # fmt: skip
        for port in ports:
            try:
                wait_port(port, 90)
            except SystemExit:
                for i in range(k):
                    print(
                        f"--- p{i + 1}.log", (folder / f"p{i + 1}.log").read_text()[-3000:], file=sys.stderr
                    )
                raise
        front = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        lines = [ln for ln in conf.splitlines() if "server 127.0.0.1:800" not in ln]
        upstream = "\n        ".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in ports)
        conf = "\n".join(lines).replace("keepalive 32;", upstream + "\n        keepalive 64;")
        conf = conf.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{front};")
        conf = conf.replace("access_log logs/access.log;", "access_log off;")
        for sub in ("logs", "tmp"):
            (folder / sub).mkdir(exist_ok=True)
        (folder / "nginx.conf").write_text(conf)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        d = str(folder)
        subprocess.run([nginx, "-p", d, "-c", d + "/nginx.conf", "-e", d + "/logs/error.log"], check=True)
        nginx_pid = int((folder / "nginx.pid").read_text())
        wait_port(front)
        yield f"http://127.0.0.1:{front}", [p.pid for p in procs]
    finally:
        if nginx_pid is not None:
            os.kill(nginx_pid, signal.SIGTERM)
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--processes", default="1,2,4", help="comma-separated numbers of server processes")
    ap.add_argument("--tables", default="50,100,200", help="comma-separated numbers of concurrent tables")
    ap.add_argument("--seconds", type=float, default=20.0, help="per level (at most 300)")
    ap.add_argument("--warm", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=0.0, help="mean seconds a person waits (0: at once)")
    ap.add_argument("--client-procs", type=int, default=2)
    ap.add_argument("--json", action="store_true", help="one JSON object per level")
    args = ap.parse_args()
    ks = [int(x) for x in args.processes.split(",")]
    if any(not 1 <= k <= 8 for k in ks):
        raise SystemExit("--processes: 1 to 8 processes")
    seconds = min(args.seconds, 300.0)
    rows = []
    with tempfile.TemporaryDirectory(prefix="damepique-cluster-bench-") as tmp:
        folder = Path(tmp)
        os.chmod(folder, 0o755)
        with postgres(folder) as (admin, pg_pid), redis(folder) as (broker, redis_pid):
            for k in ks:
                db = create_database(admin, f"bench{k}_{int(time.time())}")
                sub = folder / f"k{k}"
                sub.mkdir()
                with cluster(sub, k, db, broker) as (front, pids):
                    for n in args.tables.split(","):
                        helpers = [redis_pid, pg_pid, *children_of(pg_pid)]
                        before = {p: cpu_seconds(p) for p in helpers}
                        command = [
                            sys.executable, str(ROOT / "benchmarks" / "server_multiplayer.py"),
                            "--url", front, "--server-pid", ",".join(map(str, pids)), "--tables", n,
                            "--seconds", str(seconds), "--warm", str(args.warm), "--think", str(args.think),
                            "--client-procs", str(args.client_procs), "--json",
                        ]  # fmt: skip
                        out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
                        if out.returncode != 0:
                            print(
                                f"level failed ({k} processes, {n} tables):",
                                out.stderr[-3000:],
                                file=sys.stderr,
                            )
                            continue
                        helpers = [redis_pid, pg_pid, *children_of(pg_pid)]
                        used = sum(cpu_seconds(p) - before.get(p, 0.0) for p in helpers)
                        for line in out.stdout.splitlines():
                            if line.startswith("{"):
                                row = json.loads(line)
                                row["processes"] = k
                                row["redis_and_postgres_cores"] = round(used / seconds, 2)
                                rows.append(row)
                                print(json.dumps(row) if args.json else summary(row), flush=True)
    return 0


def summary(row: dict[str, object]) -> str:
    keys = ("processes", "tables", "think_s", "cards_per_s", "p50_ms", "p95_ms", "p99_ms", "server_cpu",
            "server_ms_per_card", "redis_and_postgres_cores", "errors", "failure", "load_after")  # fmt: skip
    return "  ".join(f"{k}={row.get(k)}" for k in keys)


if __name__ == "__main__":
    sys.exit(main())
