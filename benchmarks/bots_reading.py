"""How well the expert's worlds predict the hidden cards, with and without
reading the others' plays (issue 31): on held-out deals of bot play, after
each trick, one seat's sampled worlds are scored against the real deal.

    nice -n 10 python benchmarks/bots_reading.py --deals 30 --seed 1 --worlds 100
    nice -n 10 python benchmarks/bots_reading.py --deals 30 --seed 1 --seats intermediate
    nice -n 10 python benchmarks/bots_reading.py --deals 30 --seed 1 --floor 0.05,0.1 --sharpness 1,2

Several values of ``--floor``, ``--sharpness`` or ``--proposals`` (comma
separated) read the same positions with every combination (a cheap tuning
on held-out deals before paired games).

For each position (the end of each trick; the observer is seat ``d % n`` of
deal ``d``), the expert's sampler (``Knowledge.of(view, soft=True)``, as the
expert samples) draws ``--worlds`` worlds uniformly (``uniform``) and as the
reading expert does (``reading``: each kept among ``inference.PROPOSALS``
draws by its weight). From the worlds, each hidden card's holder is
predicted (shares of the worlds, add-half smoothed so a wrong certainty costs
a finite loss), and scored against the truth:

- ``queen_*``: who holds the queen of spades (while it is out and not the
  observer's): log-loss in nats and accuracy of the most frequent holder;
- ``cards_*``: the same over every hidden card (each seat's remaining cards).

``truth`` would score log-loss 0 and accuracy 1. The held-out deals are drawn
from another seed string than the training deals (``bots/training.py``),
played by ``--seats`` (default: the training's bots), under ``--preset``
(default: every preset in turn, as in training). Prints one JSON object,
with the queen's log-loss by trick as well.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence

from damepique.bots.arena import play_deal
from damepique.bots.inference import FLOOR, PROPOSALS, READ_PASS, SHARPNESS, Reader, sample_read_world
from damepique.bots.knowledge import Knowledge, sample_world
from damepique.bots.reading import Model, default_model
from damepique.bots.registry import get_bot
from damepique.engine import PRESETS, Deal, cards_of, parse_card, view_of

QUEEN = parse_card("QS")


class _Score:
    def __init__(self) -> None:
        self.q_loss = 0.0
        self.q_hit = 0
        self.q_n = 0
        self.c_loss = 0.0
        self.c_hit = 0
        self.c_n = 0
        self.by_trick: dict[int, list[float]] = {}

    def add(
        self, worlds: Sequence[tuple[list[int], int]], truth: list[int], slots: list[int], trick: int
    ) -> None:
        """``truth``: per slot (seats, then the kitty) its hidden cards."""
        k = len(worlds)
        hidden = 0
        for i in slots:
            hidden |= truth[i]
        counts: dict[int, list[int]] = {c: [0] * len(truth) for c in cards_of(hidden)}
        for hands, kitty in worlds:
            where = [*hands, kitty]
            for i in slots:
                for c in cards_of(where[i] & hidden):
                    counts[c][i] += 1
        m = len(slots)
        for c, row in counts.items():
            owner = next(i for i in slots if truth[i] >> c & 1)
            p = (row[owner] + 0.5) / (k + 0.5 * m)
            loss = -math.log(p)
            best = max(slots, key=lambda i: (row[i], -i))
            self.c_loss += loss
            self.c_hit += best == owner
            self.c_n += 1
            if c == QUEEN:
                self.q_loss += loss
                self.q_hit += best == owner
                self.q_n += 1
                self.by_trick.setdefault(trick, []).append(loss)

    def report(self) -> dict[str, object]:
        return {
            "queen_logloss": round(self.q_loss / max(1, self.q_n), 4),
            "queen_accuracy": round(self.q_hit / max(1, self.q_n), 4),
            "queen_positions": self.q_n,
            "cards_logloss": round(self.c_loss / max(1, self.c_n), 4),
            "cards_accuracy": round(self.c_hit / max(1, self.c_n), 4),
            "cards_scored": self.c_n,
            "queen_logloss_by_trick": {
                t: round(sum(xs) / len(xs), 3) for t, xs in sorted(self.by_trick.items())
            },
        }


def _played(deals: int, seed: int, seats: Sequence[str], names: Sequence[str]) -> Iterator[list[Deal]]:
    """Held-out deals played by ``seats``: each deal at the end of each trick."""
    for d in range(deals):
        rules = PRESETS[names[d % len(names)]]
        n = rules.players
        deal = Deal.shuffled(rules, random.Random(f"heldout:{seed}:{d}"), d)
        snapshots: list[Deal] = []
        bots = [get_bot(seats[s % len(seats)]) for s in range(n)]
        rngs = [random.Random(f"heldout:{seed}:{d}:{s}") for s in range(n)]
        play_deal(deal, bots, rngs, on_trick=lambda dl, keep=snapshots: keep.append(dl.copy()))
        yield snapshots


def _logged(path: str, deals: int) -> Iterator[list[Deal]]:
    """The first ``deals`` OpenSpiel deals of a log written with ``--moves``
    (``bots_arena_log.py``), each at the end of each trick."""
    from damepique.bots.openspiel import logged_deals

    for deal, plays in itertools.islice(logged_deals(path), deals):
        snapshots = []
        for s, c in plays:
            deal.play(c, s)
            if not deal.trick:
                snapshots.append(deal.copy())
        yield snapshots


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--worlds", type=int, default=100)
    p.add_argument(
        "--seats", default="expert:playouts=150", help="bots, separated by ';', seat by seat in turn"
    )
    p.add_argument(
        "--moves-log",
        default="",
        help="read the deals of this log (bots_arena_log.py --moves: IS-MCTS play) instead of playing them",
    )
    p.add_argument("--preset", default="", help="one preset (default: every preset in turn)")
    p.add_argument(
        "--proposals", default=str(PROPOSALS), help="worlds drawn for each kept (reading); several: 4,8"
    )
    p.add_argument("--floor", default=str(FLOOR), help="the inference's floor; several: 0.05,0.1")
    p.add_argument(
        "--sharpness", default=str(SHARPNESS), help="the model's scores multiplied by this; several: 1,2"
    )
    p.add_argument(
        "--model", default="", help="weights to read with (default: the shipped data/reading.json)"
    )
    p.add_argument("--read-pass", type=int, default=int(READ_PASS), help="1: read the pass received as well")
    args = p.parse_args()
    seats = [s for s in args.seats.split(";") if s]
    model = default_model()
    if args.model:
        with open(args.model, encoding="utf-8") as f:
            model = Model.from_json(json.load(f))
    names = [args.preset] if args.preset else list(PRESETS)
    # Every combination of the listed settings reads the same positions; one
    # combination is reported as "reading", several by their settings.
    configs = [
        (float(f), float(h), int(k))
        for f in args.floor.split(",")
        for h in args.sharpness.split(",")
        for k in args.proposals.split(",")
    ]

    def label(cfg: tuple[float, float, int]) -> str:
        return (
            "reading"
            if len(configs) == 1
            else f"reading floor={cfg[0]} sharpness={cfg[1]} proposals={cfg[2]}"
        )

    scores = {"uniform": _Score(), **{label(cfg): _Score() for cfg in configs}}
    t0 = time.process_time()
    sample_cpu = dict.fromkeys(scores, 0.0)
    deals = (
        _logged(args.moves_log, args.deals)
        if args.moves_log
        else _played(args.deals, args.seed, seats, names)
    )
    for d, snapshots in enumerate(deals):
        n = snapshots[0].rules.players
        observer = d % n
        for snap in snapshots[:-1]:
            view = view_of(snap, observer)
            know = Knowledge.of(view, soft=True)
            slots = [s for s in range(n) if s != observer]
            if know.sizes[n]:
                slots.append(n)
            truth = [*snap.hands, snap.kitty if know.sizes[n] else 0]
            trick = snap.tricks_played
            rng = random.Random(f"worlds:{args.seed}:{d}:{trick}")
            c = time.process_time()
            uniform = [sample_world(view, know, rng) for _ in range(args.worlds)]
            sample_cpu["uniform"] += time.process_time() - c
            scores["uniform"].add(uniform, truth, slots, trick)
            for cfg in configs:
                floor, sharpness, proposals = cfg
                c = time.process_time()
                reader = Reader.of(view, model, floor, bool(args.read_pass), sharpness)
                reading = [sample_read_world(view, know, rng, reader, proposals) for _ in range(args.worlds)]
                sample_cpu[label(cfg)] += time.process_time() - c
                scores[label(cfg)].add(reading, truth, slots, trick)
        print(f"\r{d + 1}/{args.deals} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    out: dict[str, object] = {
        "deals": args.deals,
        "seed": args.seed,
        "worlds": args.worlds,
        "proposals": args.proposals,
        "floor": args.floor,
        "sharpness": args.sharpness,
        "read_pass": bool(args.read_pass),
        "model": args.model or "data/reading.json",
        "seats": seats if not args.moves_log else f"logged: {args.moves_log}",
        "presets": names if args.preset else "all",
        "truth": {"queen_logloss": 0.0, "queen_accuracy": 1.0, "cards_logloss": 0.0, "cards_accuracy": 1.0},
        "cpu_s": round(time.process_time() - t0, 1),
        "sampling_cpu_s": {k: round(v, 2) for k, v in sample_cpu.items()},
    }
    for k, s in scores.items():
        out[k] = s.report()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
