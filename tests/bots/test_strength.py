"""Strength smoke tests: fixed seeds, margins many standard errors wide.

The margins come from long runs (benchmarks/README.md): intermediate beats
beginners by about +3.5 per deal and beginners beat random players by about
+5.3, with a standard error near 0.35 over the deal counts used here.
"""

from __future__ import annotations

from damepique.bots.arena import run_arena


def _payoff(seats, deals, seed=11):
    rows = run_arena(seats, deals=deals, seed=seed, duplicate=True)
    return rows[0]["payoff"], rows[0]["payoff_ci95"]


def test_beginner_beats_random():
    payoff, (lo, _hi) = _payoff(["beginner", "random", "random", "random"], 60)
    assert payoff > 2.0 and lo > 0


def test_intermediate_beats_beginner():
    payoff, (lo, _hi) = _payoff(["intermediate", "beginner", "beginner", "beginner"], 100)
    assert payoff > 1.0 and lo > 0


def test_expert_beats_random_even_on_a_tiny_budget():
    payoff, (_lo, _hi) = _payoff(["expert:playouts=60", "random", "random", "random"], 6)
    assert payoff > 3.0
