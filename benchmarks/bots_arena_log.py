"""A long arena run that writes every deal as it finishes, so that a run cut
short still counts, and summarizes a log the same way as ``damepique arena``.

    python benchmarks/bots_arena_log.py run --seats expert,intermediate,intermediate,intermediate \
        --deals 2000 --seed 1 --duplicate --jobs 2 --log /tmp/expert_vs_int.jsonl
    python benchmarks/bots_arena_log.py summary --log /tmp/expert_vs_int.jsonl
    python benchmarks/bots_arena_log.py paired --log a.jsonl --against b.jsonl --seat 0

Deals already in the log are skipped on a rerun (resume). ``--first F``
starts at deal F, to split one run over several logs (and processes);
``summary --log a.jsonl,b.jsonl`` then reads them together and prints the
JSON of ``damepique arena --json`` for the deals logged so far.

``--moves`` (OpenSpiel arenas, single deals) also logs each deal's hands,
passes and plays as they were played (OpenSpiel's IS-MCTS does not replay a
deal the same way twice, so a deal cannot be traced after the fact).

``--decision-seeds`` gives each decision of a seat its own generator, seeded
by ``(seed, deal, seat, decision)``, instead of one generator per seat and
deal: the worlds a search draws for one decision no longer depend on how
many draws the earlier decisions took. Two versions of a bot that choose the
same cards in a deal then play it identically (with one generator per seat, a
search that merely raced differently draws other worlds for every later
decision, so the deal diverges by chance); paired comparisons of options
that change few choices get much tighter. The deals and bots are the same;
the bots' draws are not, so compare such a log only with another one (the
log's head records it).

``paired`` compares two logs of single deals deal by deal: for the deals in
both, the mean of seat ``--seat``'s points in each and of their difference
(first minus second) with a 95% confidence interval, and the moons each
conceded (``--metric payoff`` compares payoffs instead). With ``--duplicate``
logs ``--seat`` names the bot by its place in ``--seats``, and each deal's
value is averaged over its rotations first.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys

from damepique.bots.arena import DealOutcome, _Progress, split_seats, summarize
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
                if "moves" in rec:
                    MOVES[rec["outcomes"][0]["base"]] = rec["moves"]
    except FileNotFoundError:
        pass
    return head, groups


MOVES: dict[int, dict] = {}
"""Moves logged with ``--moves``, by deal (filled by ``_load``)."""


def _seat_values(path: str, entry: int, metric: str) -> dict[int, tuple[float, int]]:
    """Per deal: the points (or payoff) of the bot named ``entry``-th in the
    seats, averaged over the deal's rotations (``--duplicate``), and the moons
    it conceded (``path``: one log, or several comma-separated)."""
    groups = [g for part in path.split(",") for g in _load(part)[1]]
    out: dict[int, tuple[float, int]] = {}
    for g in groups:
        total = 0.0
        conceded = 0
        for o in g:
            seat = list(o.entries).index(entry)
            pts = o.points
            own = pts[seat]
            total += own if metric == "points" else (sum(pts) - own) / (len(pts) - 1) - own
            conceded += o.moon is not None and o.moon != seat
        out[g[0].base] = (total / len(g), conceded)
    return out


def paired(a_path: str, b_path: str, seat: int, metric: str) -> dict:
    a = _seat_values(a_path, seat, metric)
    b = _seat_values(b_path, seat, metric)
    common = sorted(set(a) & set(b))
    k = len(common)

    def stats(xs: list[float]) -> tuple[float, float]:
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
        return m, 1.96 * math.sqrt(var / len(xs))

    out: dict = {"deals": k, "metric": metric, "seat": seat}
    if not k:
        return out
    for name, src in (("a", a), ("b", b)):
        m, h = stats([src[d][0] for d in common])
        out[name] = {
            "log": a_path if name == "a" else b_path,
            "mean": round(m, 3),
            "ci95": [round(m - h, 3), round(m + h, 3)],
            "moons_conceded": sum(src[d][1] for d in common),
        }
    m, h = stats([a[d][0] - b[d][0] for d in common])
    out["a_minus_b"] = {"mean": round(m, 3), "ci95": [round(m - h, 3), round(m + h, 3)]}
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["run", "summary", "paired"])
    p.add_argument("--seats")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules")
    p.add_argument("--duplicate", action="store_true")
    p.add_argument("--games", action="store_true")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="first deal number (split a run over logs)")
    p.add_argument("--log", required=True, help="log file; for summary, several comma-separated")
    p.add_argument("--moves", action="store_true", help="log hands, passes and plays (OpenSpiel arenas)")
    p.add_argument("--against", help="paired: the second log")
    p.add_argument(
        "--seat",
        type=int,
        default=0,
        help="paired: the bot compared, by its place in --seats (its seat without --duplicate)",
    )
    p.add_argument("--metric", choices=["points", "payoff"], default="points")
    p.add_argument(
        "--decision-seeds",
        action="store_true",
        help="run: a generator per decision, seeded by (seed, deal, seat, decision)",
    )
    args = p.parse_args()
    if args.command == "paired":
        print(json.dumps(paired(args.log, args.against, args.seat, args.metric)))
        return 0
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
    names = split_seats(args.seats)
    rules = _rules(args.rules)
    if not head:
        head = {
            "seats": names,
            "seed": args.seed,
            "duplicate": args.duplicate,
            "games": args.games,
            "rules": rules.to_json(),
        }
        if args.decision_seeds:
            head["decision_seeds"] = True
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"head": head}) + "\n")
    if bool(head.get("decision_seeds")) != args.decision_seeds:
        raise SystemExit(
            f"{args.log} was written {'with' if head.get('decision_seeds') else 'without'} --decision-seeds"
        )
    done = {g[0].base for g in groups}
    todo = [d for d in range(args.first, args.deals) if d not in done]
    bar = _Progress(len(todo), "games" if args.games else "deals")
    # iter_outcomes numbers deals 0..N-1; skip those already logged.
    for count, (group, moves) in enumerate(_iter(names, rules, todo, args), 1):
        rec: dict = {
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
        if moves is not None:
            rec["moves"] = moves
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        bar.update(count)
    bar.close()
    return 0


def _iter(names, rules, todo, args):  # type: ignore[no-untyped-def]

    tasks = [(list(names), rules, args.seed, d, args.duplicate, args.games) for d in todo]
    run = _run_with_moves if args.moves else _run_plain
    if args.decision_seeds:
        if args.moves or args.games or any(n.startswith("openspiel-") for n in names):
            raise SystemExit(
                "--decision-seeds plays single deals of our own bots (no --moves, --games, OpenSpiel)"
            )
        run = _run_decision_seeds
    if args.moves and (args.duplicate or args.games or not any(n.startswith("openspiel-") for n in names)):
        raise SystemExit("--moves logs single OpenSpiel deals only (no --duplicate, no --games)")
    if args.jobs <= 1:
        for t in tasks:
            yield run(t)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        yield from pool.imap_unordered(run, tasks, chunksize=1)


def _run_plain(task):  # type: ignore[no-untyped-def]
    from damepique.bots import arena

    return arena._run_task(task), None


class _PerDecision:
    """A bot that gets a fresh generator for each decision (``--decision-seeds``),
    seeded by the seat's seed and the decision's number in the deal."""

    def __init__(self, bot, key: str) -> None:  # type: ignore[no-untyped-def]
        self.bot = bot
        self.key = key

    def choose_pass(self, view, rng):  # type: ignore[no-untyped-def]
        return self.bot.choose_pass(view, random.Random(f"{self.key}:pass"))

    def choose_play(self, view, rng):  # type: ignore[no-untyped-def]
        played = sum(1 for s, _ in view.plays if s == view.seat)
        return self.bot.choose_play(view, random.Random(f"{self.key}:{played}"))


def _run_decision_seeds(task):  # type: ignore[no-untyped-def]
    from damepique.bots import arena
    from damepique.engine import Deal

    names, rules, seed, base, duplicate, _games = task
    n = rules.players
    out = []
    for r in arena._rotations(n, duplicate):
        entries = tuple((s - r) % n for s in range(n))
        deal = Deal.shuffled(rules, random.Random(arena._seed(seed, base)), base)
        bots = [
            _PerDecision(arena._bot(names[e]), arena._seed(seed, base, s, "bot"))
            for s, e in enumerate(entries)
        ]
        rngs = [random.Random(0) for _ in range(n)]
        arena.play_deal(deal, bots, rngs)
        res = deal.result()
        out.append(DealOutcome(base, entries, res.points, res.moon))
    return out, None


def _run_with_moves(task):  # type: ignore[no-untyped-def]
    from damepique.bots.openspiel import play_openspiel_deal

    names, _rules, seed, base, _dup, _games = task
    log: dict = {}
    points, moon = play_openspiel_deal(names, seed, base, log)
    return [DealOutcome(base, tuple(range(len(names))), points, moon)], log


if __name__ == "__main__":
    sys.exit(main())
