"""A diagnostic for the next model of play (issue 31): would features of the
seat's own hand read the cards better than the public ones alone?

    nice -n 10 python benchmarks/bots_reading_hand.py fit --out /tmp/hand.json
    L=benchmarks/runs/issue31
    nice -n 10 python benchmarks/bots_reading_hand.py fit --moves-log $L/ismcts_train.jsonl \
        --held-out $L/ismcts_heldout.jsonl
    nice -n 10 python benchmarks/bots_reading_hand.py worlds --weights /tmp/hand.json --deals 50

``fit`` learns the shipped model's features (``bots/reading.py``) and the
same plus ``HAND_FEATURES`` (whether the card is the lowest or highest of
its suit or of the legal cards, the highest duck, the length of its suit,
leading from the shortest suit, a spade under a heavy spade held, emptying a
suit) on decisions of ``expert:playouts=150`` (standard rules, ``--deals``
deals to train on and half as many held out) or of a ``--moves`` log, and
prints each one's log-loss per decision on the held-out decisions beside a
uniform player's; ``--out`` writes the hand-aware weights.

``worlds`` scores, as ``bots_reading.py`` does, the worlds weighed by those
weights (every legal card scored again in every world, from the hand the
world gives the seat then) against uniform worlds, the public part of the
same fit and the shipped model, on held-out deals of expert play. The
reading of the expert stays ``bots/inference.py``'s: this is not used in
play (its worlds cost about four times as much to draw and weigh).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from damepique.bots import training
from damepique.bots.arena import play_deal
from damepique.bots.inference import PROPOSALS, Reader, sample_read_world
from damepique.bots.knowledge import Knowledge, sample_world
from damepique.bots.openspiel import logged_deals
from damepique.bots.reading import (
    PLAY_FEATURES,
    Model,
    Position,
    default_model,
    legal_in,
    play_features,
    position_of,
)
from damepique.bots.registry import get_bot
from damepique.bots.tactics import big_cards
from damepique.engine import PRESETS, SUIT_MASKS, Deal, Rules, View, cards_of, view_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bots_reading

HAND_FEATURES = (
    "high_in_suit",
    "low_in_suit",
    "high_duck",
    "suit_length",
    "short_lead",
    "spade_under_heavy_held",
    "lead_spade_heavy_held",
    "empties_suit",
    "lowest_legal",
    "highest_legal",
)
NP = len(PLAY_FEATURES)


def hand_features(rules: Rules, at: Position, hand: int, legal: int, c: int) -> list[tuple[int, float]]:
    """The non-zero hand features of playing ``c`` from ``hand`` (indices after the public ones)."""
    bit = 1 << c
    suit = SUIT_MASKS[c // 13]
    mine = hand & suit
    in_suit = legal & suit
    heavy_spade = hand & big_cards(rules) & SUIT_MASKS[3] and c // 13 == 3 and not big_cards(rules) & bit
    out: list[tuple[int, float]] = []
    if c == in_suit.bit_length() - 1:
        out.append((NP + 0, 1.0))
    if bit == in_suit & -in_suit:
        out.append((NP + 1, 1.0))
    if c == legal.bit_length() - 1:
        out.append((NP + 9, 1.0))
    if bit == legal & -legal:
        out.append((NP + 8, 1.0))
    following = bool(at.trick) and bool(at.led & bit)
    if following and c < at.winning:
        below = legal & ((1 << at.winning) - 1)
        if c == below.bit_length() - 1:
            out.append((NP + 2, 1.0))
    if not following:
        out.append((NP + 3, mine.bit_count() / 13.0))
        if mine == bit:
            out.append((NP + 7, 1.0))
    if not at.trick:
        lengths = [(hand & SUIT_MASKS[k]).bit_count() for k in range(4) if legal & SUIT_MASKS[k]]
        if mine.bit_count() == min(lengths):
            out.append((NP + 4, 1.0))
        if heavy_spade:
            out.append((NP + 6, 1.0))
    elif heavy_spade:
        out.append((NP + 5, 1.0))
    return out


class _Decisions:
    def __init__(self) -> None:
        self.public: list[training.Example] = []
        self.full: list[training.Example] = []

    def add(self, view: View, card: int) -> None:
        legal = view.legal_mask()
        if not legal & (legal - 1):
            return
        at = position_of(view)
        cands = cards_of(legal)
        public = [play_features(view.rules, at, x) for x in cands]
        full = [
            p + hand_features(view.rules, at, view.hand, legal, x) for p, x in zip(public, cands, strict=True)
        ]
        self.public.append((public, cands.index(card)))
        self.full.append((full, cands.index(card)))


class _Recorder:
    def __init__(self, name: str, out: _Decisions) -> None:
        self.bot = get_bot(name)
        self.name = self.bot.name
        self.out = out

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        return tuple(self.bot.choose_pass(view, rng))

    def choose_play(self, view: View, rng: random.Random) -> int:
        card = self.bot.choose_play(view, rng)
        self.out.add(view, card)
        return card


def _from_play(first: int, deals: int, seed: int) -> _Decisions:
    out = _Decisions()
    for d in range(first, first + deals):
        deal = Deal.shuffled(PRESETS["standard"], random.Random(f"hand:{seed}:{d}"), d)
        bots = [_Recorder("expert:playouts=150", out) for _ in range(4)]
        play_deal(deal, bots, [random.Random(f"hand:{seed}:{d}:{s}") for s in range(4)])
    return out


def _from_log(path: str) -> _Decisions:
    out = _Decisions()
    for deal, plays in logged_deals(path):
        for s, c in plays:
            out.add(view_of(deal, s), c)
            deal.play(c, s)
    return out


def fit(args: argparse.Namespace) -> dict[str, object]:
    if args.moves_log:
        train, held = _from_log(args.moves_log), _from_log(args.held_out)
    else:
        train, held = (
            _from_play(0, args.deals, args.seed),
            _from_play(1000, max(1, args.deals // 2), args.seed),
        )
    rate, l2 = 0.2, 1e-4
    public = training._sgd(train.public, NP, 10, random.Random("fit:1"), rate, l2)
    full = training._sgd(train.full, NP + len(HAND_FEATURES), 10, random.Random("fit:1"), rate, l2)
    weights = dict(zip((*PLAY_FEATURES, *HAND_FEATURES), full, strict=True))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(weights, f, indent=1)
    return {
        "decisions": {"train": len(train.public), "held_out": len(held.public)},
        "held_out_logloss": {
            "uniform": round(training._uniform_loss(held.public), 4),
            "public": round(training._loss(public, held.public), 4),
            "public+hand": round(training._loss(full, held.full), 4),
        },
        "weights": {k: round(v, 2) for k, v in weights.items()},
    }


class HandReader(Reader):
    """``Reader`` whose scores add the hand features of the hand each world
    gives the seat then (so every legal card is scored again in every world)."""

    def __init__(self, view: View, model: Model, hand_weights: Sequence[float]) -> None:
        super().__init__(view, model, sharpness=1.0)
        self.hand_weights = hand_weights

    def _seat_factor(self, s: int, hidden: int) -> float:
        rules = self.rules
        w = self.hand_weights
        f = 1.0
        for c, strength, later, at in self.plays[s]:
            hand = hidden | later
            legal = legal_in(rules, at, hand)
            if not legal & (legal - 1):
                continue
            z = 0.0
            chosen = 0.0
            for x in cards_of(legal):
                v = strength[x] * math.exp(
                    sum(w[i - NP] * val for i, val in hand_features(rules, at, hand, legal, x))
                )
                z += v
                if x == c:
                    chosen = v
            f *= self.keep * legal.bit_count() * chosen / z + self.floor
        return f


def worlds(args: argparse.Namespace) -> dict[str, object]:
    with open(args.weights, encoding="utf-8") as f:
        weights = json.load(f)
    public = Model(tuple(weights[n] for n in PLAY_FEATURES), default_model().passing)
    hand_weights = [weights[n] for n in HAND_FEATURES]
    names = ("uniform", "public", "public+hand", "shipped")
    scores = {k: bots_reading._Score() for k in names}
    cpu = dict.fromkeys(names, 0.0)
    for d, snapshots in enumerate(
        bots_reading._played(args.deals, args.seed, ["expert:playouts=150"], ["standard"])
    ):
        observer = d % 4
        for snap in snapshots[:-1]:
            view = view_of(snap, observer)
            know = Knowledge.of(view, soft=True)
            slots = [s for s in range(4) if s != observer]
            truth = [*snap.hands, 0]
            trick = snap.tricks_played
            rng = random.Random(f"worlds:{args.seed}:{d}:{trick}")
            t = time.process_time()
            drawn = [sample_world(view, know, rng) for _ in range(args.worlds)]
            cpu["uniform"] += time.process_time() - t
            scores["uniform"].add(drawn, truth, slots, trick)
            readers = {
                "public": Reader(view, public, sharpness=1.0),
                "public+hand": HandReader(view, public, hand_weights),
                "shipped": Reader.of(view),
            }
            for name, reader in readers.items():
                rng = random.Random(f"read:{args.seed}:{d}:{trick}")
                t = time.process_time()
                drawn = [
                    sample_read_world(view, know, rng, reader, args.proposals) for _ in range(args.worlds)
                ]
                cpu[name] += time.process_time() - t
                scores[name].add(drawn, truth, slots, trick)
        print(f"\r{d + 1}/{args.deals} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "deals": args.deals,
        "seed": args.seed,
        "worlds": args.worlds,
        "proposals": args.proposals,
        **{k: {**s.report(), "sampling_cpu_s": round(cpu[k], 1)} for k, s in scores.items()},
    }


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--deals", type=int, default=60)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--moves-log", default="", help="learn from this --moves log instead of expert play")
    f.add_argument("--held-out", default="", help="with --moves-log: the log of the held-out deals")
    f.add_argument("--out", default="", help="write the hand-aware weights here (JSON)")
    w = sub.add_parser("worlds")
    w.add_argument("--weights", required=True, help="the weights fit --out wrote")
    w.add_argument("--deals", type=int, default=50)
    w.add_argument("--seed", type=int, default=4)
    w.add_argument("--worlds", type=int, default=100)
    w.add_argument("--proposals", type=int, default=PROPOSALS, help="worlds drawn for each kept")
    args = p.parse_args()
    out = fit(args) if args.cmd == "fit" else worlds(args)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
