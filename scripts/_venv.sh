# Sourced by the other scripts: make .venv with everything installed, once.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
STAMP=.venv/.damepique-installed
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[server,bot,test,dev,openspiel,postgres,redis,rl]"
    touch "$STAMP"
fi
export PATH="$ROOT/.venv/bin:$PATH"
