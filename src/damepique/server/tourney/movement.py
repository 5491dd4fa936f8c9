"""A tournament's rounds: who sits where in each, and the deals it plays
(``docs/tournaments.md``).

Each player keeps their seat *position* all tournament long (so each is
compared with the same others, those who hold the same cards), and the
player in position ``s`` moves ``s`` tables on each round: position 0 stays,
position 1 moves one table, position 2 two, and so on, round the tables.
Two players in positions ``a`` and ``b`` who started at tables ``x`` and
``y`` meet in round ``r`` when ``x + a r = y + b r`` (modulo the number of
tables ``T``): with ``T`` a prime number at least the number of players and
``T`` rounds, every two players of different positions meet exactly once;
with fewer rounds, at most once.

>>> first = [["A0", "A1", "A2"], ["B0", "B1", "B2"], ["C0", "C1", "C2"]]
>>> seating(first, 1)
[['A0', 'C1', 'B2'], ['B0', 'A1', 'C2'], ['C0', 'B1', 'A2']]
>>> seating(first, 2)
[['A0', 'B1', 'C2'], ['B0', 'C1', 'A2'], ['C0', 'A1', 'B2']]
>>> origin(table=0, seat=2, round_=1, tables=3)
1
>>> complete(tables=3, players=3), complete(tables=4, players=3)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TypeVar

P = TypeVar("P")


def seating(first: list[list[P]], round_: int) -> list[list[P]]:
    """Who sits where in round ``round_`` (0: the first round's seating, as given)."""
    tables = len(first)
    out = [list(row) for row in first]
    for t, row in enumerate(first):
        for s, who in enumerate(row):
            out[(t + s * round_) % tables][s] = who
    return out


def origin(table: int, seat: int, round_: int, tables: int) -> int:
    """The first round's table of whoever sits at ``table``, ``seat`` in round ``round_``."""
    return (table - seat * round_) % tables


def complete(tables: int, players: int) -> bool:
    """Whether ``tables`` rounds make every two players of different positions meet once."""
    return tables >= players and tables > 1 and all(tables % d for d in range(2, tables))


def round_secret(secret: bytes, round_: int) -> bytes:
    """The deal secret of a round: the tournament's own for the first, then one
    drawn from it (so its one secret, revealed at the end, checks every round)."""
    if round_ == 0:
        return secret
    return hmac.new(secret, f"round {round_}".encode(), hashlib.sha256).digest()


__all__ = ["complete", "origin", "round_secret", "seating"]
