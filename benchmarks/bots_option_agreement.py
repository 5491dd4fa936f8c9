"""How often an expert option changes the expert's choice, position by position.

A cheap first look before an arena run: for every decision of seat 0 (passes,
and plays with two or more distinct candidates), the default expert chooses;
each variant then chooses from the same view with the same generator, so a
different choice comes from the option (and from the search taking another
path through the same worlds), not from other worlds. The default with
another generator is the noise floor: how often the default disagrees with
itself. It says how much an option matters in a field, not whether it helps.

Positions come from deals of the default expert in seat 0 against three
intermediates (``--field intermediate``, deals ``seed:d`` of the arena), or
from a ``--moves`` log of single OpenSpiel deals (``--field LOG.jsonl``:
the positions the expert met against IS-MCTS, replayed from the log).

    python benchmarks/bots_option_agreement.py --deals 60 --first 5000
    python benchmarks/bots_option_agreement.py --field /tmp/bench2/default_vs_ismcts_b.jsonl --deals 60
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Iterator

from damepique.bots.heuristic import IntermediateBot
from damepique.bots.montecarlo import equivalence_classes
from damepique.bots.registry import get_bot
from damepique.engine import DONE, PASS, Deal, Rules, View, view_of

VARIANTS = (
    "expert:objective=cautious",
    "expert:allies=0",
    "expert:pass_voids=0.5",
    "expert:objective=cautious,allies=0,pass_voids=0.5",
)


def intermediate_positions(deals: int, first: int, seed: int) -> Iterator[tuple[str, View]]:
    """Seat 0's decisions in deals of the default expert against three intermediates."""
    rules = Rules()
    inter = IntermediateBot()
    expert = get_bot("expert")
    for d in range(first, first + deals):
        deal = Deal.shuffled(rules, random.Random(f"{seed}:{d}"), d)
        rng = random.Random(f"{seed}:{d}:0")
        if deal.phase == PASS:
            v0 = view_of(deal, 0)
            yield f"{d}:pass", v0
            mine = expert.choose_pass(v0, rng)
            for s in range(rules.players):
                deal.pass_cards(s, mine if s == 0 else inter.choose_pass(view_of(deal, s), random.Random(s)))
        k = 0
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            if s == 0:
                yield f"{d}:{k}", view
                card = expert.choose_play(view, rng)
                k += 1
            else:
                card = inter.choose_play(view, random.Random(f"{seed}:{d}:{s}"))
            deal.play(card)


def logged_positions(path: str, deals: int) -> Iterator[tuple[str, View]]:
    """Seat 0's decisions replayed from a ``--moves`` log (OpenSpiel deals)."""
    rules = Rules()
    done = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if "moves" not in rec:
                continue
            if done >= deals:
                return
            done += 1
            mv = rec["moves"]
            base = rec["outcomes"][0]["base"]
            hands = [sum(1 << c for c in h) for h in mv["hands"]]
            # OpenSpiel draws the pass direction: find the deal number that gives it.
            for number in range(4) if mv["passes"] else (3,):
                deal = Deal(rules, list(hands), 0, number)
                out: list[tuple[str, View]] = []
                try:
                    if mv["passes"]:
                        if deal.phase != PASS:
                            continue
                        out.append((f"{base}:pass", view_of(deal, 0)))
                        for s in range(4):
                            deal.pass_cards(s, tuple(mv["passes"][s]))
                    k = 0
                    for seat, card in mv["plays"]:
                        if seat == 0:
                            out.append((f"{base}:{k}", view_of(deal, 0)))
                            k += 1
                        deal.play(card, seat)
                except Exception:
                    continue
                yield from out
                break


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--field", default="intermediate", help="intermediate, or a --moves log")
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--first", type=int, default=5000, help="first deal (intermediate field)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variants", default=";".join(VARIANTS), help="expert names, separated by ;")
    args = p.parse_args()
    variants = args.variants.split(";")
    bots = {v: get_bot(v) for v in variants}
    default = get_bot("expert")
    if args.field == "intermediate":
        positions = intermediate_positions(args.deals, args.first, args.seed)
    else:
        positions = logged_positions(args.field, args.deals)
    n: Counter[str] = Counter()
    diff: Counter[tuple[str, str]] = Counter()
    t0 = time.process_time()
    for key, view in positions:
        if view.phase == PASS:
            kind = "pass"
            ref = tuple(sorted(default.choose_pass(view, random.Random(key))))
            noise = tuple(sorted(default.choose_pass(view, random.Random("other:" + key))))
            picks = {v: tuple(sorted(bots[v].choose_pass(view, random.Random(key)))) for v in variants}
        else:
            groups = equivalence_classes(view, view.legal_mask())
            if len(groups) < 2:
                continue
            kind = "play"
            rep = {c: g[0] for g in groups for c in g}
            ref = rep[default.choose_play(view, random.Random(key))]
            noise = rep[default.choose_play(view, random.Random("other:" + key))]
            picks = {v: rep[bots[v].choose_play(view, random.Random(key))] for v in variants}
        n[kind] += 1
        diff[(kind, "expert, another generator (noise floor)")] += noise != ref
        for v in variants:
            diff[(kind, v)] += picks[v] != ref
    out: dict = {"field": args.field, "deals": args.deals, "decisions": dict(n)}
    for (kind, v), c in sorted(diff.items()):
        out[f"{kind}: {v}"] = f"{c}/{n[kind]} = {c / n[kind]:.1%}"
    out["cpu_s"] = round(time.process_time() - t0)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
