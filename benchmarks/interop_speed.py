"""Speed of the interop layers, side by side in one process.

1. **Environment steps per second**: one agent (a uniformly random legal
   card, seeded) in seat 0 against three ``intermediate`` opponents, single
   deals, standard rules. One step is one action of the agent (a card given in
   the pass, or played); the opponents' turns happen inside it. Compared:

   - ``damepique.pettingzoo.env()`` (wrapped as PettingZoo's classic games)
     and ``raw_env()``, the agent reading ``last()`` (observation and action
     mask) before each step;
   - the previous hand-written environment (``bots/aec.HeartsEnv``, read from
     git at ``--previous``, loaded beside today's engine and bots), the agent
     reading ``last()``;
   - OpenSpiel's own C++ Hearts stepped from Python through ``pyspiel``, the
     opponents our intermediate deciding from the view of a ``Deal`` that
     mirrors the state (as ``bots/openspiel.py`` does in the arena), the agent
     reading its ``information_state_tensor`` (the only tensor OpenSpiel's
     Hearts has) and ``legal_actions``; and the same without the tensor.

2. **Random simulation**: complete deals of random chance outcomes and random
   legal actions through ``pyspiel``, our registered ``python_damepique_hearts``
   (four players; and three, which OpenSpiel's Hearts does not have) beside
   OpenSpiel's C++ ``hearts``, both driven by the same Python loop.

Rounds alternate between the contenders so that a busy machine slows them
alike; each figure is the median over rounds, each ratio the median of the
per-round ratios.

    python benchmarks/interop_speed.py --rounds 7 --deals 40 --sim-deals 200
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = "2906386"
"""The last commit with the hand-written environment (``bots/aec.py``)."""

OPPONENTS = {1: "intermediate", 2: "intermediate", 3: "intermediate"}


def load_previous_env(rev: str) -> Any:
    """``bots/aec.py`` as it was at ``rev``, imported as a module of today's
    ``damepique.bots`` (so it runs on today's engine and bots)."""
    text = subprocess.run(
        ["git", "show", f"{rev}:src/damepique/bots/aec.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "previous_aec.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("damepique.bots.previous_aec", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# -- 1. environment steps -------------------------------------------------------------------


def steps_pettingzoo(wrapped: bool) -> Callable[[int, int], tuple[int, float]]:
    import numpy as np

    from damepique.pettingzoo import env, raw_env

    e = env(opponents=OPPONENTS) if wrapped else raw_env(opponents=OPPONENTS)

    def run(deals: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        for d in range(deals):
            e.reset(seed=seed * 100_003 + d)
            while e.agents:
                obs, _reward, term, trunc, _info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[int(rng.random() * len(legal))]))
                steps += 1
        return steps, time.perf_counter() - start

    return run


def steps_previous(module: Any) -> Callable[[int, int], tuple[int, float]]:
    e = module.HeartsEnv(opponents=OPPONENTS)

    def run(deals: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        for d in range(deals):
            e.reset(seed=seed * 100_003 + d)
            while e.agents:
                _obs, _reward, term, _trunc, info = e.last()
                if term:
                    e.step(None)
                    continue
                legal = info["legal"]
                e.step(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps, time.perf_counter() - start

    return run


def steps_openspiel(tensor: bool) -> Callable[[int, int], tuple[int, float]]:
    import pyspiel

    from damepique.bots import get_bot
    from damepique.bots.openspiel import _DIRECTION_TO_NUMBER, from_spiel, to_spiel
    from damepique.engine import DONE, PASS, Deal, Rules, view_of

    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    bots = {s: get_bot(name) for s, name in OPPONENTS.items()}
    rules = Rules()

    def run(deals: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        rnd = rng.random
        steps = 0
        start = time.perf_counter()
        for _ in range(deals):
            bot_rngs = {s: random.Random(rng.getrandbits(64)) for s in bots}
            state = game.new_initial_state()
            direction = int(rnd() * 4)
            state.apply_action(direction)
            hands = [0, 0, 0, 0]
            for i in range(52):
                outcomes = state.legal_actions()
                a = outcomes[int(rnd() * len(outcomes))]
                state.apply_action(a)
                hands[i % 4] |= 1 << from_spiel(a)
            deal = Deal(rules, hands, 0, _DIRECTION_TO_NUMBER[direction])
            pending: list[int] = []
            while not state.is_terminal():
                seat = state.current_player()
                if seat == 0:
                    if tensor:
                        state.information_state_tensor(0)
                    legal = state.legal_actions()
                    a = legal[int(rnd() * len(legal))]
                    state.apply_action(a)
                    steps += 1
                    card = from_spiel(a)
                    if deal.phase == PASS:
                        pending.append(card)
                        if len(pending) == 3:
                            deal.pass_cards(0, pending)
                            pending = []
                    else:
                        deal.play(card, 0)
                    continue
                view = view_of(deal, seat)
                if deal.phase == PASS:
                    cards = bots[seat].choose_pass(view, bot_rngs[seat])
                    deal.pass_cards(seat, cards)
                    for c in sorted(cards):
                        state.apply_action(to_spiel(c))
                else:
                    card = bots[seat].choose_play(view, bot_rngs[seat])
                    deal.play(card, seat)
                    state.apply_action(to_spiel(card))
            assert deal.phase == DONE
        return steps, time.perf_counter() - start

    return run


# -- 2. random simulation -------------------------------------------------------------------


def random_sims(game: Any) -> Callable[[int, int], tuple[int, float]]:
    def run(deals: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        rnd = rng.random
        start = time.perf_counter()
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rnd() * len(legal))])
            state.returns()
        return deals, time.perf_counter() - start

    return run


def alternate(
    runners: dict[str, Callable[[int, int], tuple[int, float]]], rounds: int, deals: int, base: str
) -> dict[str, dict[str, float]]:
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for r in range(rounds):
        for name, run in runners.items():
            count, seconds = run(deals, r + 1)
            rates[name].append(count / seconds)
    out = {}
    for name, values in rates.items():
        ratios = [v / b for v, b in zip(values, rates[base], strict=True)]
        out[name] = {"per_second": statistics.median(values), f"ratio_to_{base}": statistics.median(ratios)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=40, help="deals per round and environment")
    parser.add_argument("--sim-deals", type=int, default=200, help="random deals per round and game")
    parser.add_argument("--previous", default=PREVIOUS, help="git revision of the hand-written environment")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import pyspiel

    import damepique.openspiel  # noqa: F401 - registers python_damepique_hearts

    previous = load_previous_env(args.previous)
    env_runners = {
        "pettingzoo env()": steps_pettingzoo(wrapped=True),
        "pettingzoo raw_env()": steps_pettingzoo(wrapped=False),
        f"previous HeartsEnv ({args.previous})": steps_previous(previous),
        "OpenSpiel hearts, info-state tensor": steps_openspiel(tensor=True),
        "OpenSpiel hearts, no tensor": steps_openspiel(tensor=False),
    }
    sim_runners = {
        "OpenSpiel hearts (C++)": random_sims(pyspiel.load_game("hearts", {"qs_breaks_hearts": False})),
        "python_damepique_hearts": random_sims(pyspiel.load_game("python_damepique_hearts")),
        "python_damepique_hearts, 3 players": random_sims(
            pyspiel.load_game("python_damepique_hearts", {"players": 3})
        ),
    }
    report: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"open-spiel {_version('open-spiel')}, pettingzoo {_version('pettingzoo')}",
        "env_steps": alternate(env_runners, args.rounds, args.deals, "pettingzoo env()"),
        "random_sim_deals": alternate(sim_runners, args.rounds, args.sim_deals, "OpenSpiel hearts (C++)"),
        "args": vars(args),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(report["machine"])
    print(f"\nagent steps/s, 1 random agent vs 3 intermediate ({args.rounds} rounds x {args.deals} deals)")
    for name, row in report["env_steps"].items():
        print(f"  {name:<42} {row['per_second']:>9,.0f}   x{row['ratio_to_pettingzoo env()']:.2f}")
    print(f"\nrandom deals/s through pyspiel ({args.rounds} rounds x {args.sim_deals} deals)")
    for name, row in report["random_sim_deals"].items():
        print(f"  {name:<42} {row['per_second']:>9,.1f}   x{row['ratio_to_OpenSpiel hearts (C++)']:.2f}")
    return 0


def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
