"""``damepique bench``: random legal play of complete deals, side by side with OpenSpiel.

The work per deal, the same on both sides: deal 52 cards from a seeded
shuffle, pass three random cards per seat (when the deal passes), play 52
random legal cards, score the deal. Our engine runs it through its public
API twice: the fast path of search (``legal_mask()`` then ``play_unchecked``)
and the checked path of a server (``legal_cards()`` then ``play``, every pass
and play verified). OpenSpiel's Hearts, when ``pyspiel`` is importable, plays
random chance outcomes and random legal actions until the end and reports
its returns.

The runs alternate in rounds (ours, checked, OpenSpiel, ours, ...; 10 rounds) so that a
busy machine slows them alike; each figure is the median over rounds, and the
ratio is the median of the per-round ratios.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from damepique.engine import Deal, Rules, cards_of

ROUNDS = 10


def ours_fast(deals: int, seed: int, rules: Rules | None = None) -> float:
    """Seconds for ``deals`` random deals through the fast path."""
    rules = rules or Rules()
    rng = random.Random(seed)
    rnd = rng.random
    count = rules.pass_count
    start = time.perf_counter()
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        for seat in deal.passing_seats:
            hand = list(cards_of(deal.hands[seat]))
            mask = 0
            for _ in range(count):
                mask |= 1 << hand.pop(int(rnd() * len(hand)))
            deal.pass_cards(seat, mask)
        legal_mask = deal.legal_mask
        play = deal.play_unchecked
        for _ in range(len(deal.plays), rules.hand_size * rules.players):
            legal = cards_of(legal_mask())
            play(legal[int(rnd() * len(legal))])
        deal.result()
    return time.perf_counter() - start


def ours_checked(deals: int, seed: int, rules: Rules | None = None) -> float:
    """Seconds for ``deals`` random deals with every pass and play verified."""
    rules = rules or Rules()
    rng = random.Random(seed)
    rnd = rng.random
    count = rules.pass_count
    start = time.perf_counter()
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        for seat in deal.passing_seats:
            hand = list(cards_of(deal.hands[seat]))
            deal.pass_cards(seat, [hand.pop(int(rnd() * len(hand))) for _ in range(count)])
        while deal.phase == "play":
            legal = deal.legal_cards()
            deal.play(legal[int(rnd() * len(legal))])
        deal.result()
    return time.perf_counter() - start


def openspiel_runner() -> Callable[[int, int], float] | None:
    """OpenSpiel's Hearts doing the same work, or None where pyspiel is missing."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})

    def run(deals: int, seed: int) -> float:
        rnd = random.Random(seed).random
        start = time.perf_counter()
        for _ in range(deals):
            state = game.new_initial_state()
            # Chance outcomes (pass direction, then each card dealt) are
            # uniform: a random legal action is a random outcome.
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd() * len(legal))])
            state.returns()
        return time.perf_counter() - start

    return run


def measure(deals: int, seed: int, rounds: int = ROUNDS) -> dict[str, Any]:
    """Run the three loops in alternating rounds; return the figures."""
    rounds = max(1, min(rounds, deals))
    per_round = max(1, deals // rounds)
    spiel = openspiel_runner()
    fast: list[float] = []
    checked: list[float] = []
    other: list[float] = []
    for r in range(rounds):
        s = seed + r
        fast.append(per_round / ours_fast(per_round, s))
        checked.append(per_round / ours_checked(per_round, s))
        if spiel is not None:
            other.append(per_round / spiel(per_round, s))
    out: dict[str, Any] = {
        "deals": per_round * rounds,
        "rounds": rounds,
        "seed": seed,
        "deals_per_s": round(statistics.median(fast)),
        "checked_deals_per_s": round(statistics.median(checked)),
        "python": platform.python_version(),
    }
    if other:
        out["openspiel_deals_per_s"] = round(statistics.median(other))
        out["ratio"] = round(statistics.median(f / o for f, o in zip(fast, other, strict=True)), 3)
        out["checked_ratio"] = round(statistics.median(c / o for c, o in zip(checked, other, strict=True)), 3)
    else:
        out["openspiel"] = "not measured: pyspiel is not importable (pip install open-spiel)"
    return out


def run_bench(deals: int, seed: int, as_json: bool = False) -> int:
    """The ``damepique bench`` command; returns the exit status."""
    if deals < 1:
        print("damepique bench: --deals must be at least 1", file=sys.stderr)
        return 2
    result = measure(deals, seed)
    if as_json:
        print(json.dumps(result))
        return 0
    print(f"{result['deals']} random deals in {result['rounds']} rounds (Python {result['python']})")
    print(f"  damepique, legal_mask + play_unchecked: {result['deals_per_s']:>8} deals/s")
    print(f"  damepique, legal_cards + play (checked): {result['checked_deals_per_s']:>7} deals/s")
    if "openspiel_deals_per_s" in result:
        print(f"  OpenSpiel hearts (pyspiel):              {result['openspiel_deals_per_s']:>7} deals/s")
        print(f"  ratio damepique/OpenSpiel: {result['ratio']} (checked: {result['checked_ratio']})")
    else:
        print(f"  OpenSpiel {result['openspiel']}")
    return 0
