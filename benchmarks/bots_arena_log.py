"""A long arena run that writes every deal as it finishes, so that a run cut
short still counts, and summarizes a log the same way as ``damepique arena``.

    python benchmarks/bots_arena_log.py run --seats expert,intermediate,intermediate,intermediate \
        --deals 2000 --seed 1 --duplicate --jobs 2 --log /tmp/expert_vs_int.jsonl
    python benchmarks/bots_arena_log.py summary --log /tmp/expert_vs_int.jsonl

Deals already in the log are skipped on a rerun (resume). ``--first F``
starts at deal F, to split one run over several logs (and processes);
``summary --log a.jsonl,b.jsonl`` then reads them together and prints the
JSON of ``damepique arena --json`` for the deals logged so far.
"""

from __future__ import annotations

import argparse
import json
import sys

from damepique.bots.arena import DealOutcome, _Progress, summarize
from damepique.engine import PRESETS, Rules


def _rules(text: str | None) -> Rules:
    if not text:
        return Rules()
    if text in PRESETS:
        return PRESETS[text]
    return Rules.from_json(json.loads(text))


def _load(path: str) -> tuple[dict, list[list[DealOutcome]]]:
    head: dict = {}
    groups: list[list[DealOutcome]] = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if "head" in rec:
                    head = rec["head"]
                    continue
                groups.append(
                    [
                        DealOutcome(
                            o["base"], tuple(o["entries"]), tuple(o["points"]), o["moon"], o.get("winner")
                        )
                        for o in rec["outcomes"]
                    ]
                )
    except FileNotFoundError:
        pass
    return head, groups


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["run", "summary"])
    p.add_argument("--seats")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules")
    p.add_argument("--duplicate", action="store_true")
    p.add_argument("--games", action="store_true")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="first deal number (split a run over logs)")
    p.add_argument("--log", required=True, help="log file; for summary, several comma-separated")
    args = p.parse_args()
    if args.command == "summary":
        head, groups = {}, []
        for path in args.log.split(","):
            h, g = _load(path)
            head = head or h
            groups += g
        rows = summarize(head["seats"], sorted(groups, key=lambda g: g[0].base), head.get("games", False))
        print(json.dumps({"bots": rows, "base_deals": len(groups), "head": head}))
        return 0
    head, groups = _load(args.log)
    names = args.seats.split(",")
    rules = _rules(args.rules)
    if not head:
        head = {
            "seats": names,
            "seed": args.seed,
            "duplicate": args.duplicate,
            "games": args.games,
            "rules": rules.to_json(),
        }
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"head": head}) + "\n")
    done = {g[0].base for g in groups}
    todo = [d for d in range(args.first, args.deals) if d not in done]
    bar = _Progress(len(todo), "games" if args.games else "deals")
    # iter_outcomes numbers deals 0..N-1; skip those already logged.
    for count, group in enumerate(_iter(names, rules, todo, args), 1):
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(
                json.dumps(
                    {
                        "outcomes": [
                            {
                                "base": o.base,
                                "entries": o.entries,
                                "points": o.points,
                                "moon": o.moon,
                                "winner": o.game_winner,
                            }
                            for o in group
                        ]
                    }
                )
                + "\n"
            )
        bar.update(count)
    bar.close()
    return 0


def _iter(names, rules, todo, args):  # type: ignore[no-untyped-def]
    from damepique.bots import arena

    tasks = [(list(names), rules, args.seed, d, args.duplicate, args.games) for d in todo]
    if args.jobs <= 1:
        for t in tasks:
            yield arena._run_task(t)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        yield from pool.imap_unordered(arena._run_task, tasks, chunksize=1)


if __name__ == "__main__":
    sys.exit(main())
