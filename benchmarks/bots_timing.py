"""Decision time per level, on one core: p50 / p95 / max over every decision
of one seat (passes included) in deals against three intermediates; and the
CPU time of ``advise`` (all legal cards, or the best passes) and of ``hint``
(the best card alone) at every decision of that seat.

    python benchmarks/bots_timing.py --deals 40 --seed 1
    python benchmarks/bots_timing.py --deals 40 --seed 1 --levels expert --preset five_players

Forced plays (a single legal card) are counted in "all" and left out of
"choices". ``cpu_*`` is the process's CPU time per decision (all decisions):
what one core spends, even when other work shares the machine; ``p*_ms``
is wall time.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from damepique.bots.advice import advise, hint
from damepique.bots.registry import get_bot
from damepique.engine import DONE, PASS, PRESETS, Deal, view_of


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    if not xs:
        return 0.0
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000.0


def measure(level: str, deals: int, seed: int, preset: str, with_advice: bool) -> dict:
    rules = PRESETS[preset]
    bot = get_bot(level)
    other = get_bot("intermediate")
    n = rules.players
    all_t: list[float] = []
    choice_t: list[float] = []
    advice_t: list[float] = []
    hint_t: list[float] = []
    cpu_t: list[float] = []
    for d in range(deals):
        deal = Deal.shuffled(rules, random.Random(f"{seed}:{d}"), d)
        rngs = [random.Random(f"{seed}:{d}:{s}") for s in range(n)]
        if deal.phase == PASS:
            for s in range(n):
                view = view_of(deal, s)
                t = time.perf_counter()
                c0 = time.process_time()
                cards = (bot if s == 0 else other).choose_pass(view, rngs[s])
                if s == 0:
                    dt = time.perf_counter() - t
                    cpu_t.append(time.process_time() - c0)
                    all_t.append(dt)
                    choice_t.append(dt)
                    if with_advice:
                        c0 = time.process_time()
                        advise(view)
                        advice_t.append(time.process_time() - c0)
                        c0 = time.process_time()
                        hint(view)
                        hint_t.append(time.process_time() - c0)
                deal.pass_cards(s, cards)
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            t = time.perf_counter()
            c0 = time.process_time()
            card = (bot if s == 0 else other).choose_play(view, rngs[s])
            dt = time.perf_counter() - t
            if s == 0:
                cpu_t.append(time.process_time() - c0)
                all_t.append(dt)
                legal = view.legal_mask()
                if legal & (legal - 1):
                    choice_t.append(dt)
                if with_advice:
                    c0 = time.process_time()
                    advise(view)
                    advice_t.append(time.process_time() - c0)
                    c0 = time.process_time()
                    hint(view)
                    hint_t.append(time.process_time() - c0)
            deal.play(card, s)
    out = {
        "level": level,
        "preset": preset,
        "decisions": len(all_t),
        "p50_ms": round(_pct(all_t, 0.5), 2),
        "p95_ms": round(_pct(all_t, 0.95), 2),
        "max_ms": round(max(all_t) * 1000, 1),
        "choices_p50_ms": round(_pct(choice_t, 0.5), 2),
        "choices_p95_ms": round(_pct(choice_t, 0.95), 2),
        "cpu_p50_ms": round(_pct(cpu_t, 0.5), 2),
        "cpu_p95_ms": round(_pct(cpu_t, 0.95), 2),
    }
    if with_advice:
        out["advice_cpu_p50_ms"] = round(_pct(advice_t, 0.5), 1)
        out["advice_cpu_p95_ms"] = round(_pct(advice_t, 0.95), 1)
        out["advice_cpu_max_ms"] = round(max(advice_t) * 1000, 1)
        out["hint_cpu_p50_ms"] = round(_pct(hint_t, 0.5), 1)
        out["hint_cpu_p95_ms"] = round(_pct(hint_t, 0.95), 1)
        out["hint_cpu_max_ms"] = round(max(hint_t) * 1000, 1)
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--levels", default="random,beginner,intermediate,expert")
    p.add_argument("--preset", default="standard")
    p.add_argument("--advice", action="store_true", help="also time advise() and hint() at every decision")
    args = p.parse_args()
    for level in args.levels.split(","):
        print(json.dumps(measure(level, args.deals, args.seed, args.preset, args.advice)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
