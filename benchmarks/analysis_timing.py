"""Game analysis time (``damepique analyze``, issue 26): whole games to 100
points, the expert in seat 0 against three intermediates, then every decision
of seat 0 rated at the default strength (``ANALYSIS_PLAYOUTS``) in one
process. Reports, per game, the deals, the decisions (forced cards among
them), and the CPU time of the analysis (what one core spends, whatever
else shares the machine) and its wall time.

    python benchmarks/analysis_timing.py --games 3 --seed 1

Target: a 100-point game, about 7 deals and 90 decisions of one seat, in at
most 30 s of one core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from damepique.bots.analysis import ANALYSIS_PLAYOUTS, analyze, play_game
from damepique.bots.registry import get_bot
from damepique.engine import Rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--playouts", type=int, default=ANALYSIS_PLAYOUTS)
    ap.add_argument("--player", default="expert", help="the bot in seat 0 (default expert)")
    args = ap.parse_args()
    rules = Rules()
    seats = [get_bot(args.player), *(get_bot("intermediate") for _ in range(3))]
    rows = []
    for g in range(args.games):
        match = play_game(rules, seats, random.Random(args.seed + g))
        cpu, wall = time.process_time(), time.perf_counter()
        result = analyze(match, 0, args.playouts, seed=g).to_json()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        n = len(result["decisions"])
        rows.append(
            {
                "game": g,
                "deals": len(match.deals),
                "decisions": n,
                "only": result["counts"]["only"],
                "cpu_s": round(cpu, 2),
                "wall_s": round(wall, 2),
                "cpu_ms_per_decision": round(1000 * cpu / max(1, n), 1),
                "accuracy": result["accuracy"],
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    load = os.getloadavg()[0]
    worst = max(r["cpu_s"] for r in rows)
    print(
        json.dumps(
            {"playouts": args.playouts, "games": len(rows), "worst_cpu_s": worst, "load": round(load, 1)}
        )
    )


if __name__ == "__main__":
    main()
