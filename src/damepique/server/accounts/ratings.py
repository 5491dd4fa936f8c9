"""Elo ratings from the final placing at a table.

Each pair of rated humans at a finished ranked table counts as one game
between them: the lower final total wins it, equal totals are a draw (half a
win). Bots are not rated. A player for whom a bot finished the game (they
left for good, or dropped and were still away past the grace period at the
end) loses to every other human (two such players draw).

With ``n`` rated humans each pairwise result moves a rating by
``k / (n - 1) * (score - expected)``, so a table of two humans is plain Elo
and a table of four moves ratings about as much as one game, not three.

>>> new = update_ratings({"lea": 1500, "tom": 1500}, {"lea": 40, "tom": 90})
>>> round(new["lea"], 1), round(new["tom"], 1)
(1516.0, 1484.0)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping

DEFAULT_RATING = 1500.0
K_FACTOR = 32.0


def expected_score(rating: float, opponent: float) -> float:
    """The chance ``rating`` beats ``opponent`` under Elo's logistic curve."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def pair_score(a_total: int, b_total: int, a_left: bool = False, b_left: bool = False) -> float:
    """1 when ``a`` placed above ``b`` (lower total), 0.5 for a tie, 0 below."""
    if a_left or b_left:
        if a_left and b_left:
            return 0.5
        return 0.0 if a_left else 1.0
    if a_total < b_total:
        return 1.0
    if a_total > b_total:
        return 0.0
    return 0.5


def update_ratings(
    ratings: Mapping[str, float],
    totals: Mapping[str, int],
    left: Collection[str] = (),
    k: float = K_FACTOR,
) -> dict[str, float]:
    """New ratings of the humans in ``totals`` (their final game totals).

    ``ratings`` holds each human's rating before the game (missing: 1500);
    ``left`` names the players whose seat a bot finished after they left.
    """
    players = list(totals)
    if len(players) < 2:
        return {p: float(ratings.get(p, DEFAULT_RATING)) for p in players}
    before = {p: float(ratings.get(p, DEFAULT_RATING)) for p in players}
    gone = set(left)
    scale = k / (len(players) - 1)
    after = dict(before)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            score = pair_score(totals[a], totals[b], a in gone, b in gone)
            change = scale * (score - expected_score(before[a], before[b]))
            after[a] += change
            after[b] -= change
    return after
