"""What a larger search budget would buy the expert, judged by its own model.

For positions of deals played by four intermediates (every play decision of
one seat with two or more distinct candidates), the expert at a given budget
chooses a card; a reference search (no racing, a much larger budget, other
worlds) then scores every candidate. The *regret* of a choice is its
reference utility minus the best candidate's: what sampling noise costs at
that budget, in the expert's utility (the payoff, or points with
``--objective points``), under the expert's own play-out model. It says
nothing about the model's own errors; it bounds what faster play-outs (more
worlds in the same time) could buy.

    python benchmarks/bots_budget_regret.py --deals 20 --budgets 750,1500,3000 --reference 12000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from damepique.bots.heuristic import IntermediateBot
from damepique.bots.montecarlo import SOFT_INFERENCE, ExpertBot, equivalence_classes, evaluate_play
from damepique.engine import DONE, PASS, Deal, Rules, view_of


def positions(deals: int, seed: int, seat: int) -> list:
    rules = Rules()
    inter = IntermediateBot()
    out = []
    for d in range(deals):
        deal = Deal.shuffled(rules, random.Random(f"{seed}:{d}"), d)
        if deal.phase == PASS:
            for s in range(rules.players):
                deal.pass_cards(s, inter.choose_pass(view_of(deal, s), random.Random(s)))
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            if s == seat and len(equivalence_classes(view, view.legal_mask())) >= 2:
                out.append(view)
            deal.play(inter.choose_play(view, random.Random(s)))
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budgets", default="750,1500,3000")
    p.add_argument("--reference", type=int, default=12000)
    p.add_argument("--objective", default="payoff")
    args = p.parse_args()
    views = positions(args.deals, args.seed, 0)
    budgets = [int(b) for b in args.budgets.split(",")]
    regrets: dict[int, list[float]] = {b: [] for b in budgets}
    t0 = time.process_time()
    for i, view in enumerate(views):
        stats, groups, _mode = evaluate_play(
            view,
            random.Random(10_000 + i),
            args.reference,
            max_worlds=10**6,
            objective=args.objective,
            infer=SOFT_INFERENCE,  # the bot's own model: same sampling, no racing, more worlds
        )
        rep_of = {c: g[0] for g in groups for c in g}
        best = min(st.mean for st in stats.values())
        for b in budgets:
            bot = ExpertBot(playouts=b, objective=args.objective)
            card = bot.choose_play(view, random.Random(i))
            regrets[b].append(stats[rep_of[card]].mean - best)
    out = {"positions": len(views), "reference_playouts": args.reference, "objective": args.objective}
    for b in budgets:
        xs = regrets[b]
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1))
        out[str(b)] = {
            "mean_regret": round(m, 4),
            "ci95": [
                round(m - 1.96 * sd / math.sqrt(len(xs)), 4),
                round(m + 1.96 * sd / math.sqrt(len(xs)), 4),
            ],
            "share_not_best": round(sum(1 for x in xs if x > 1e-9) / len(xs), 3),
        }
    out["cpu_s"] = round(time.process_time() - t0, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
