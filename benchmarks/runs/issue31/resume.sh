#!/usr/bin/env bash
# Issue 31's paired strength runs, resumed where their logs stop: bots_arena_log.py skips
# the deals a log holds, and each chunk of 10 deals grows every log together, so stopping
# at any point leaves the fields paired. Run from the repository root; UPTO (default 400)
# is the number of deals to reach. The logs were written by the code of ab801e5.
set -euo pipefail
cd "$(dirname "$0")/../../.."
L=benchmarks/runs/issue31
F=expert-2026-12
I=intermediate
O=openspiel-ismcts:1000
run() { nice -n 10 .venv/bin/python benchmarks/bots_arena_log.py run --seats "$2" --deals "$3" --seed 1 --jobs 1 ${4:-} --log "$L/$1.jsonl"; }
for upto in $(seq 10 10 "${UPTO:-400}"); do
  run E "expert:reading=1,$F,$F,$F" "$upto" --decision-seeds
  run EB "$F,$F,$F,$F" "$upto" --decision-seeds
  run I "expert:reading=1,$I,$I,$I" "$upto" --decision-seeds
  run IB "$F,$I,$I,$I" "$upto" --decision-seeds
  run O "expert:reading=1,$O,$O,$O" "$upto"    # OpenSpiel draws its own: paired by deal only
  run OB "$F,$O,$O,$O" "$upto"
  echo "$(date -u +%H:%M) upto $upto load $(cut -d' ' -f1 /proc/loadavg)" >> "$L/progress.txt"
done
