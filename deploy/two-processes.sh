#!/usr/bin/env bash
# Two `damepique serve` processes on 127.0.0.1 behind nginx (deploy/nginx.conf),
# sharing tables through a Redis server (started here unless DAMEPIQUE_BROKER
# is set), all in a temporary directory, for trying the set-up locally.
# Ctrl-C stops it all.
#
#   deploy/two-processes.sh                 # one shared SQLite file in the temp dir
#   deploy/two-processes.sh --postgres      # a throwaway PostgreSQL cluster (needs initdb)
#   DAMEPIQUE_DB=postgresql://u@host/db deploy/two-processes.sh
#   deploy/two-processes.sh --check         # start, show the round robin, stop
#
# Ports: PORT (nginx, 8080), PORT1 and PORT2 (the processes, 8001 and 8002),
# REDIS_PORT (6390).
# PYTHON: the interpreter with damepique installed (default: .venv/bin/python
# of this checkout if there is one, else python3). See docs/deploy.md.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
PORT="${PORT:-8080}"
PORT1="${PORT1:-8001}"
PORT2="${PORT2:-8002}"
REDIS_PORT="${REDIS_PORT:-6390}"
if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x "$root/.venv/bin/python" ]]; then PYTHON="$root/.venv/bin/python"; else PYTHON=python3; fi
fi
postgres=0
check=0
for arg in "$@"; do
    case "$arg" in
        --postgres) postgres=1 ;;
        --check) check=1 ;;
        *) echo "unknown argument: $arg" >&2; exit 2 ;;
    esac
done

dir="$(mktemp -d -t damepique-two.XXXXXX)"
mkdir -p "$dir/logs" "$dir/tmp"
pids=()
pgdata=""
pgbin=""
as_pg=()
redis=0

cleanup() {
    set +e
    [[ -f "$dir/nginx.pid" ]] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
    if [[ -n "$pgdata" ]]; then "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdata" -m fast stop >/dev/null; fi
    if [[ $redis == 1 ]]; then redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1; fi
    echo "stopped; logs were in $dir (removed)"
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ $postgres == 1 ]]; then
    pgbin="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)")"
    [[ -x "$pgbin/initdb" ]] || { echo "no PostgreSQL server binaries (initdb) found" >&2; exit 1; }
    if [[ $(id -u) == 0 ]]; then as_pg=(runuser -u postgres --); chown postgres "$dir"; fi
    pgdata="$dir/pg"
    pgport="${PGPORT:-55433}"
    "${as_pg[@]}" "$pgbin/initdb" -D "$pgdata" -U postgres --auth=trust --no-sync >/dev/null
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdata" -l "$dir/pg.log" -w \
        -o "-p $pgport -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
    export DAMEPIQUE_DB="postgresql://postgres@127.0.0.1:$pgport/postgres"
fi
export DAMEPIQUE_DB="${DAMEPIQUE_DB:-$dir/damepique.sqlite3}"

if [[ -z "${DAMEPIQUE_BROKER:-}" ]]; then
    command -v redis-server >/dev/null || { echo "no redis-server: install it or set DAMEPIQUE_BROKER" >&2; exit 1; }
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --dir "$dir" \
        --save "" --appendonly no --logfile "$dir/logs/redis.log" >/dev/null
    redis=1
    export DAMEPIQUE_BROKER="redis://127.0.0.1:$REDIS_PORT/0"
fi

# Both processes must sign sessions alike (accounts): one secret for all.
export DAMEPIQUE_SECRET="${DAMEPIQUE_SECRET:-$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(48))')}"
export DAMEPIQUE_SECURE_COOKIES="${DAMEPIQUE_SECURE_COOKIES:-0}"

n=0
for port in "$PORT1" "$PORT2"; do
    n=$((n + 1))
    # nginx runs on this machine: its X-Forwarded-For is believed, nobody else's.
    DAMEPIQUE_PROCESS_ID="p$n" "$PYTHON" -m damepique serve --host 127.0.0.1 --port "$port" \
        --forwarded-allow-ips 127.0.0.1 >"$dir/logs/process$n.log" 2>&1 &
    pids+=("$!")
    echo "process p$n: pid $!, port $port"
done

sed -e "s/127.0.0.1:8001/127.0.0.1:$PORT1/; s/127.0.0.1:8002/127.0.0.1:$PORT2/" \
    -e "s/listen 127.0.0.1:8080/listen 127.0.0.1:$PORT/" "$here/nginx.conf" >"$dir/nginx.conf"

for port in "$PORT1" "$PORT2"; do
    for _ in $(seq 120); do
        if "$PYTHON" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" 2>/dev/null; then
            break
        fi
        sleep 0.25
    done
done
nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log"

echo "damepique: two processes (:$PORT1, :$PORT2) behind nginx at http://127.0.0.1:$PORT/"
echo "database: $DAMEPIQUE_DB"
echo "broker: $DAMEPIQUE_BROKER"
echo "logs: $dir/logs"

if [[ $check == 1 ]]; then
    "$PYTHON" - "$PORT" "$PORT1" "$PORT2" <<'PY'
import asyncio, json, sys, urllib.request
import websockets

base = f"127.0.0.1:{sys.argv[1]}"
for _ in range(4):
    r = urllib.request.urlopen(f"http://{base}/healthz", timeout=5)
    print("answered by", r.headers.get("X-Upstream"), r.read().decode())
req = urllib.request.Request(f"http://{base}/api/games", data=b'{"preset": "short"}',
                             headers={"Content-Type": "application/json"})
game = json.load(urllib.request.urlopen(req, timeout=10))

async def join() -> None:
    async with websockets.connect(f"ws://{base}/ws") as ws:
        await ws.send(json.dumps({"type": "join", "token": game["token"]}))
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        print("WebSocket through nginx:", msg["type"], "for seat", msg.get("seat"), "of game", game["game"])

asyncio.run(join())

# A multiplayer table made at one process is found, and played, through the other.
port1, port2 = sys.argv[2], sys.argv[3]
req = urllib.request.Request(f"http://127.0.0.1:{port1}/api/tables", data=b'{"preset": "standard"}',
                             headers={"Content-Type": "application/json"})
table = json.load(urllib.request.urlopen(req, timeout=10))
info = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port2}/api/tables/{table['code']}", timeout=10))
print("table", table["code"], "made at :" + port1, "seen at :" + port2, "with", info["seats"][0]["name"])
PY
    exit 0
fi
echo "Ctrl-C to stop."
wait "${pids[@]}"
