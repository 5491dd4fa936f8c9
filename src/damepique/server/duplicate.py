"""Duplicate scoring: results compared among those who held the same cards.

Pure arithmetic on points already counted (no database, no clock), shared by
the daily deal and the clubs' tournaments; ``docs/daily.md`` and
``docs/tournaments.md`` work examples through by hand.

In Hearts fewer points are better, so every comparison here is *the
others' points minus yours*: positive is good.

>>> field = field_averages([[0, 13, 5, 2], [4, 13, 0, 9], [2, 0, 7, 1]])
>>> field
[2.0, 8.67, 4.0, 4.0]
>>> versus([0, 13, 5, 2], field)
-1.33
>>> competition_ranks([10, 12, 12, 20])
[1, 2, 2, 4]
>>> matchpoints([3, 0, 3, 13])
[1.5, 3.0, 1.5, 0.0]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def field_averages(results: Sequence[Sequence[int]]) -> list[float]:
    """The average points of everyone who played, deal by deal (two decimals);
    ``results`` holds each player's points by deal, all of the same length."""
    if not results:
        return []
    deals = len(results[0])
    if any(len(r) != deals for r in results):
        raise ValueError("every result must have the same number of deals")
    return [round(sum(r[d] for r in results) / len(results), 2) for d in range(deals)]


def versus(points: Sequence[int], reference: Sequence[float]) -> float:
    """How many points fewer than ``reference`` (the field's averages, or the
    par) ``points`` took over every deal: positive is better than it."""
    return round(sum(ref - p for p, ref in zip(points, reference, strict=True)), 2)


def distribution(results: Sequence[Sequence[int]], deal: int) -> dict[int, int]:
    """How many players took each number of points in ``deal``, fewest first."""
    counts = Counter(r[deal] for r in results)
    return dict(sorted(counts.items()))


def competition_ranks(totals: Sequence[float]) -> list[int]:
    """Ranks of ``totals`` sorted fewest first, ties sharing the best rank
    ("1, 2, 2, 4")."""
    ranks: list[int] = []
    for i, t in enumerate(totals):
        if i and t == totals[i - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(i + 1)
    return ranks


def rank_among(total: float, totals: Sequence[float]) -> int:
    """The rank ``total`` has among ``totals`` (fewest points first): one more
    than how many took fewer."""
    return 1 + sum(1 for t in totals if t < total)


def matchpoints(points: Sequence[int]) -> list[float]:
    """Matchpoints on one board: each result scores 1 for every other result
    that took more points and ½ for every one that took as many (the top
    scores ``len(points) - 1``).

    >>> matchpoints([5, 5])
    [0.5, 0.5]
    """
    return [
        sum(1.0 if q > p else 0.5 if q == p else 0.0 for j, q in enumerate(points) if j != i)
        for i, p in enumerate(points)
    ]


def average_difference(points: Sequence[int]) -> list[float]:
    """The average-difference score on one board: the average points of the
    *others* who held the same cards minus your own (two decimals).

    >>> average_difference([3, 0, 3, 13])
    [2.33, 6.33, 2.33, -11.0]
    """
    n = len(points)
    if n < 2:
        return [0.0] * n
    total = sum(points)
    return [round((total - p) / (n - 1) - p, 2) for p in points]


def score_board(points: Sequence[int | None]) -> list[tuple[float, float]]:
    """A tournament's board (one deal, one seat position: everyone who held
    those cards): each result's matchpoints and average difference.

    ``None`` is a deal its table did not finish (the director ended the round):
    it scores the board's average, ``(n - 1) / 2`` matchpoints and 0. The
    finished results are compared among themselves, their matchpoints scaled
    to the full board's top ``n - 1``; a finished result alone scores the
    average too (two decimals).

    >>> score_board([3, 0, 3, 13])
    [(1.5, 2.33), (3.0, 6.33), (1.5, 2.33), (0.0, -11.0)]
    >>> score_board([3, None, 13])
    [(2.0, 10.0), (1.0, 0.0), (0.0, -10.0)]
    """
    n = len(points)
    done = [i for i, p in enumerate(points) if p is not None]
    average = (n - 1) / 2
    out = [(round(average, 2), 0.0)] * n
    if len(done) < 2:
        return out
    finished = [points[i] for i in done]
    mps = matchpoints([p for p in finished if p is not None])
    diffs = average_difference([p for p in finished if p is not None])
    scale = (n - 1) / (len(done) - 1)
    for i, mp, diff in zip(done, mps, diffs, strict=True):
        out[i] = (round(mp * scale, 2), diff)
    return out


__all__ = [
    "average_difference",
    "competition_ranks",
    "distribution",
    "field_averages",
    "matchpoints",
    "rank_among",
    "score_board",
    "versus",
]
