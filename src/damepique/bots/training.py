"""Training the model of play (``bots/reading.py``) on deals of bot play.

Deals are dealt and played by the named bots, deterministically from a seed
(deal ``d`` under the preset ``presets[d % len(presets)]``, seat ``s`` by
``seats[s % len(seats)]``), every decision recorded from the deciding seat's
view; then each softmax (the card played, each card passed in turn) is fitted
by plain stochastic gradient descent on the log-loss, with a little L2, in
an order drawn from the same seed. Standard library only. The shipped
weights (``data/reading.json``) are rebuilt by::

    nice -n 10 python -m damepique.bots.training --deals 250 --seed 1 \\
        --seats expert:playouts=150 --out src/damepique/data/reading.json

>>> data = generate(1, 3, seats=("intermediate",), presets=("standard",))
>>> len(data.plays) > 20 and len(data.passes) == 12
True
>>> model, report = fit(data, epochs=2, seed=3)
>>> report["play"]["loss"] < report["play"]["uniform_loss"]
True
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from damepique.engine import PASS, PRESETS, Deal, View, cards_of, view_of

from .arena import play_deal
from .base import Bot
from .reading import PASS_FEATURES, PLAY_FEATURES, Model, pass_features, play_features, position_of
from .registry import get_bot

Example = tuple[list[list[tuple[int, float]]], int]
"""One softmax decision: each candidate's features, and the index chosen."""


@dataclass
class Data:
    plays: list[Example] = field(default_factory=list)
    passes: list[Example] = field(default_factory=list)


class _Recorder:
    """A bot that plays as ``bot`` and writes each of its choices to ``data``."""

    def __init__(self, bot: Bot, data: Data) -> None:
        self.bot = bot
        self.data = data
        self.name = bot.name

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        cards = tuple(self.bot.choose_pass(view, rng))
        rules = view.rules
        rem = view.hand
        for c in sorted(cards):
            cands = cards_of(rem)
            self.data.passes.append(([pass_features(rules, x) for x in cands], cands.index(c)))
            rem &= ~(1 << c)
        return cards

    def choose_play(self, view: View, rng: random.Random) -> int:
        card = self.bot.choose_play(view, rng)
        _record_play(self.data, view, card)
        return card


def _record_play(data: Data, view: View, card: int) -> None:
    """The choice of ``card`` from ``view`` (none when it was the only legal card)."""
    legal = view.legal_mask()
    if legal & (legal - 1):
        at = position_of(view)
        cands = cards_of(legal)
        data.plays.append(([play_features(view.rules, at, x) for x in cands], cands.index(card)))


def generate(
    deals: int, seed: int, seats: Sequence[str] = ("expert:playouts=150",), presets: Sequence[str] = ()
) -> Data:
    """Decisions of ``deals`` deals of bot play (see the module docstring);
    ``presets`` defaults to every preset of the engine."""
    names = tuple(presets) or tuple(PRESETS)
    data = Data()
    for d in range(deals):
        rules = PRESETS[names[d % len(names)]]
        n = rules.players
        deal = Deal.shuffled(rules, random.Random(f"reading:{seed}:{d}"), d)
        bots = [_Recorder(get_bot(seats[s % len(seats)]), data) for s in range(n)]
        rngs = [random.Random(f"reading:{seed}:{d}:{s}") for s in range(n)]
        play_deal(deal, bots, rngs)
        assert deal.phase != PASS
    return data


def from_logs(paths: Sequence[str], data: Data | None = None) -> Data:
    """The card decisions of OpenSpiel deals logged with their moves
    (``benchmarks/bots_arena_log.py run --moves``: a head with the run's
    seed, then a line per deal with its ``moves``), every seat's, added to
    ``data``. Their passes are not learned: IS-MCTS seats pass by our
    intermediate rule (``bots/openspiel.py``)."""
    from .openspiel import logged_deals

    data = data if data is not None else Data()
    for path in paths:
        for deal, plays in logged_deals(path):
            for s, c in plays:
                _record_play(data, view_of(deal, s), c)
                deal.play(c, s)
    return data


def _loss(w: list[float], data: list[Example]) -> float:
    total = 0.0
    for cands, chosen in data:
        scores = [sum(w[i] * v for i, v in f) for f in cands]
        top = max(scores)
        z = sum(math.exp(s - top) for s in scores)
        total += math.log(z) + top - scores[chosen]
    return total / max(1, len(data))


def _uniform_loss(data: list[Example]) -> float:
    return sum(math.log(len(c)) for c, _ in data) / max(1, len(data))


def _sgd(
    data: list[Example], size: int, epochs: int, rng: random.Random, rate: float, l2: float
) -> list[float]:
    w = [0.0] * size
    order = list(range(len(data)))
    for epoch in range(epochs):
        rng.shuffle(order)
        lr = rate / (1.0 + epoch)
        for k in order:
            cands, chosen = data[k]
            scores = [sum(w[i] * v for i, v in f) for f in cands]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            z = sum(exps)
            grad = [0.0] * size
            for j, f in enumerate(cands):
                p = exps[j] / z - (1.0 if j == chosen else 0.0)
                if p:
                    for i, v in f:
                        grad[i] += p * v
            for i in range(size):
                w[i] -= lr * (grad[i] + l2 * w[i])
    return w


def fit(
    data: Data, epochs: int = 8, seed: int = 1, rate: float = 0.2, l2: float = 1e-4
) -> tuple[Model, dict[str, Any]]:
    """The fitted model and its training log-loss per decision (nats) beside
    a uniform player's."""
    rng = random.Random(f"fit:{seed}")
    wp = _sgd(data.plays, len(PLAY_FEATURES), epochs, rng, rate, l2)
    wq = _sgd(data.passes, len(PASS_FEATURES), epochs, rng, rate, l2)
    report = {
        "play": {
            "decisions": len(data.plays),
            "loss": round(_loss(wp, data.plays), 4),
            "uniform_loss": round(_uniform_loss(data.plays), 4),
        },
        "pass": {
            "decisions": len(data.passes),
            "loss": round(_loss(wq, data.passes), 4),
            "uniform_loss": round(_uniform_loss(data.passes), 4),
        },
    }
    return Model(tuple(wp), tuple(wq)), report


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m damepique.bots.training", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--deals", type=int, default=250)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--seats", default="expert:playouts=150", help="bots, separated by ';', seat by seat in turn"
    )
    p.add_argument("--presets", default="", help="presets, comma-separated (default: every preset)")
    p.add_argument(
        "--logs",
        default="",
        help="OpenSpiel deals logged with --moves (bots_arena_log.py), comma-separated: their plays too",
    )
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--out", required=True, help="where to write the weights (JSON)")
    args = p.parse_args(argv)
    seats = tuple(s for s in args.seats.split(";") if s)
    presets = tuple(s for s in args.presets.split(",") if s)
    logs = tuple(s for s in args.logs.split(",") if s)
    data = from_logs(logs, generate(args.deals, args.seed, seats, presets))
    model, report = fit(data, args.epochs, args.seed)
    out = model.to_json()
    out["trained"] = {
        "deals": args.deals,
        "seed": args.seed,
        "seats": list(seats),
        "presets": list(presets) or "all",
        **({"logs": [os.path.basename(p) for p in logs]} if logs else {}),
        "epochs": args.epochs,
        **report,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
