"""Two logs of ``bots_moon.py`` compared deal by deal: the bot named first in
``--seats`` (seat 0 of the first rotation), its payoff and its moons conceded
per deal (averaged over the deal's rotations), on the deals both logs hold.

    python benchmarks/bots_moon_paired.py --log a.jsonl --against b.jsonl

Prints one JSON object: the deals compared, each log's mean payoff and
conceded share, and the mean difference (first minus second) of each with a
95% confidence interval over deals.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any


def _per_deal(path: str) -> dict[int, tuple[float, float]]:
    out: dict[int, tuple[float, float]] = {}
    for part in path.split(","):
        with open(part, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if "base" not in rec:
                    continue
                pay = conceded = 0.0
                rots = rec["rotations"]
                for rot in rots:
                    seat = rot["entries"].index(0)
                    pts = rot["points"]
                    own = pts[seat]
                    pay += (sum(pts) - own) / (len(pts) - 1) - own
                    conceded += rot["moon"] is not None and rot["moon"] != seat
                out[rec["base"]] = (pay / len(rots), conceded / len(rots))
    return out


def _mean_ci(xs: list[float]) -> dict[str, Any]:
    k = len(xs)
    m = sum(xs) / k
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (k - 1)) if k > 1 else float("nan")
    h = 1.96 * sd / math.sqrt(k)
    return {"mean": round(m, 4), "ci95": [round(m - h, 4), round(m + h, 4)]}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--log", required=True)
    p.add_argument("--against", required=True)
    args = p.parse_args()
    a = _per_deal(args.log)
    b = _per_deal(args.against)
    common = sorted(set(a) & set(b))
    out: dict[str, Any] = {"deals": len(common)}
    if len(common) > 1:
        for i, key in ((0, "payoff"), (1, "conceded_share")):
            out[key] = {
                "a": _mean_ci([a[d][i] for d in common]),
                "b": _mean_ci([b[d][i] for d in common]),
                "a_minus_b": _mean_ci([a[d][i] - b[d][i] for d in common]),
            }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
