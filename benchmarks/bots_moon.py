"""Moons in an arena: how often each bot attempts, makes and concedes one,
its payoff, and its points in the deals without a moon.

    python benchmarks/bots_moon.py run --seats expert,shooter,shooter,shooter \
        --deals 200 --seed 1 --duplicate --log /tmp/bench/expert_vs_shooter.jsonl
    python benchmarks/bots_moon.py summary --log /tmp/bench/expert_vs_shooter.jsonl

The deals, seats, rotations and generators are those of ``damepique arena``
(deal ``d`` shuffled from ``(seed, d)``, the bot in seat ``s`` seeded by
``(seed, d, s)``), so the payoff is the arena's. Each deal is written to the
log as it finishes (a run cut short still counts; a rerun resumes).

An *attempt* is a deal in which a search bot (expert or shooter) chose at
least one card in its moon mode (``ExpertBot.last_mode == "shoot"``): it
played that card for a moon run. ``made`` counts moons it shot, ``conceded``
moons another seat shot. The payoff's interval is over deals, each deal's
payoff averaged over its rotations (as the arena's).

``--opponents-log`` is not needed: a log holds every seat, so one run
reports the field's bots too.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Any

from damepique.bots.arena import _Progress, _seed, play_deal, split_seats
from damepique.bots.registry import get_bot
from damepique.engine import PRESETS, Deal, Rules


class _Watch:
    """A bot that remembers whether it played a card in moon mode."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.attempted = False

    def choose_pass(self, view, rng):  # type: ignore[no-untyped-def]
        return self.bot.choose_pass(view, rng)

    def choose_play(self, view, rng):  # type: ignore[no-untyped-def]
        card = self.bot.choose_play(view, rng)
        if getattr(self.bot, "last_mode", "normal") == "shoot":
            self.attempted = True
        return card


def _rules(text: str | None) -> Rules:
    if not text:
        return Rules()
    if text in PRESETS:
        return PRESETS[text]
    return Rules.from_json(json.loads(text))


_BOTS: dict[str, Any] = {}


def _task(task: tuple[list[str], dict[str, Any], int, int, bool]) -> dict[str, Any]:
    names, rules_json, seed, base, duplicate = task
    rules = Rules.from_json(rules_json)
    n = rules.players
    out = []
    for r in range(n if duplicate else 1):
        entries = [(s - r) % n for s in range(n)]
        bots = []
        for e in entries:
            if names[e] not in _BOTS:
                _BOTS[names[e]] = get_bot(names[e])
            bots.append(_Watch(_BOTS[names[e]]))
        deal = Deal.shuffled(rules, random.Random(_seed(seed, base)), base)
        rngs = [random.Random(_seed(seed, base, s, "bot")) for s in range(n)]
        play_deal(deal, bots, rngs)
        res = deal.result()
        out.append(
            {
                "entries": entries,
                "points": list(res.points),
                "moon": res.moon,
                "attempted": [b.attempted for b in bots],
            }
        )
    return {"base": base, "rotations": out}


def _load(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    head: dict[str, Any] = {}
    recs: list[dict[str, Any]] = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if "head" in rec:
                    head = rec["head"]
                else:
                    recs.append(rec)
    except FileNotFoundError:
        pass
    return head, recs


def summarize(names: list[str], recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    order: list[str] = []
    for name in names:
        if name not in order:
            order.append(name)
    rows = []
    for name in order:
        seat_deals = attempts = made = conceded = made_in_attempt = 0
        pay_total = 0.0
        clean_points = 0.0
        clean_count = 0
        per_base: list[float] = []
        for rec in recs:
            base_pay = 0.0
            k = 0
            for rot in rec["rotations"]:
                pts = rot["points"]
                n = len(pts)
                for seat, e in enumerate(rot["entries"]):
                    if names[e] != name:
                        continue
                    own = pts[seat]
                    pay = (sum(pts) - own) / (n - 1) - own
                    seat_deals += 1
                    pay_total += pay
                    base_pay += pay
                    k += 1
                    attempts += rot["attempted"][seat]
                    if rot["moon"] is None:
                        clean_points += own
                        clean_count += 1
                    elif rot["moon"] == seat:
                        made += 1
                        made_in_attempt += rot["attempted"][seat]
                    else:
                        conceded += 1
            if k:
                per_base.append(base_pay / k)
        m = len(per_base)
        payoff = pay_total / seat_deals if seat_deals else 0.0
        if m > 1:
            mean = sum(per_base) / m
            sd = math.sqrt(sum((x - mean) ** 2 for x in per_base) / (m - 1))
            half = 1.96 * sd / math.sqrt(m)
        else:
            half = float("nan")
        rows.append(
            {
                "name": name,
                "deals": m,
                "seat_deals": seat_deals,
                "payoff": round(payoff, 3),
                "payoff_ci95": [round(payoff - half, 3), round(payoff + half, 3)],
                "attempted_share": round(attempts / seat_deals, 4) if seat_deals else 0.0,
                "made_share": round(made / seat_deals, 4) if seat_deals else 0.0,
                "made_per_attempt": round(made_in_attempt / attempts, 3) if attempts else None,
                "conceded_share": round(conceded / seat_deals, 4) if seat_deals else 0.0,
                "attempts": attempts,
                "moons_made": made,
                "moons_conceded": conceded,
                "points_without_moon": round(clean_points / clean_count, 3) if clean_count else None,
            }
        )
    return rows


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["run", "summary"])
    p.add_argument("--seats")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules")
    p.add_argument("--duplicate", action="store_true")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--log", required=True, help="log file; for summary, several comma-separated")
    args = p.parse_args()
    if args.command == "summary":
        head: dict[str, Any] = {}
        recs: list[dict[str, Any]] = []
        for path in args.log.split(","):
            h, r = _load(path)
            head = head or h
            recs += r
        rows = summarize(head["seats"], recs)
        print(json.dumps({"bots": rows, "head": head}))
        return 0
    names = split_seats(args.seats)
    rules = _rules(args.rules)
    head, recs = _load(args.log)
    if not head:
        head = {"seats": names, "seed": args.seed, "duplicate": args.duplicate, "rules": rules.to_json()}
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"head": head}) + "\n")
    elif head["seats"] != names or head["seed"] != args.seed or head["duplicate"] != args.duplicate:
        raise SystemExit(f"{args.log} holds another run: {head}")
    done = {r["base"] for r in recs}
    todo = [d for d in range(args.first, args.deals) if d not in done]
    tasks = [(names, rules.to_json(), args.seed, d, args.duplicate) for d in todo]
    bar = _Progress(len(tasks), "deals")
    if args.jobs <= 1:
        results: Any = map(_task, tasks)
    else:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(args.jobs)
        results = pool.imap_unordered(_task, tasks, chunksize=1)
    for i, rec in enumerate(results, 1):
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        bar.update(i)
    bar.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
