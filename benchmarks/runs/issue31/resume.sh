#!/usr/bin/env bash
# Issue 31's paired strength runs, resumed where their logs stop: bots_arena_log.py skips
# the deals a log holds, and each chunk of 10 deals grows every log together, so stopping
# at any point leaves the fields paired. Run from anywhere; UPTO (default 400) is the
# number of deals to reach.
#
# NEW is the expert measured in seat 0 and TAG names its logs (E$TAG, I$TAG, O$TAG); the
# frozen expert's logs in the same seat (EB, IB, OB) are shared by every candidate.
# FIELDS picks the fields: E (three frozen experts), I (three intermediates), O (three
# OpenSpiel IS-MCTS(1000)). E, I and O (TAG empty, NEW expert:reading=1) were written by the
# code of ab801e5; E2 and O2 (TAG=2) by the reading of the second session (benchmarks/log.md).
#   TAG=2 NEW=expert:reading=1 FIELDS="E O" UPTO=400 benchmarks/runs/issue31/resume.sh
# PY: the Python to run (default .venv/bin/python), NICE: its niceness (default 15).
set -euo pipefail
cd "$(dirname "$0")/../../.."
L=benchmarks/runs/issue31
F=expert-2026-12
I=intermediate
O=openspiel-ismcts:1000
N=${NEW:-expert:reading=1}
T=${TAG:-}
run() { nice -n "${NICE:-15}" "${PY:-.venv/bin/python}" benchmarks/bots_arena_log.py run --seats "$2" --deals "$3" --seed 1 --jobs 1 ${4:-} --log "$L/$1.jsonl"; }
for upto in $(seq 10 10 "${UPTO:-400}"); do
  for f in ${FIELDS:-E I O}; do
    case $f in
      E) run "E$T" "$N,$F,$F,$F" "$upto" --decision-seeds; run EB "$F,$F,$F,$F" "$upto" --decision-seeds ;;
      I) run "I$T" "$N,$I,$I,$I" "$upto" --decision-seeds; run IB "$F,$I,$I,$I" "$upto" --decision-seeds ;;
      # OpenSpiel draws its own: paired by deal only.
      O) run "O$T" "$N,$O,$O,$O" "$upto"; run OB "$F,$O,$O,$O" "$upto" ;;
    esac
  done
  echo "$(date -u +%H:%M) ${TAG:+tag $TAG }${FIELDS:-E I O} upto $upto load $(cut -d' ' -f1 /proc/loadavg)" >> "$L/progress.txt"
done
