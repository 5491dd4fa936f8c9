"""A tournament's rounds: who sits where in each, and the deals it plays
(``docs/tournaments.md``).

Each player keeps their seat *position* all tournament long (so each is
compared with the same others, those who hold the same cards); the
director's choice of movement says at which table a position's players sit
in each round:

- ``rotation`` (the default): the player in position ``s`` moves ``s``
  tables on each round: position 0 stays, position 1 moves one table,
  position 2 two, and so on, round the tables. Two players in positions
  ``a`` and ``b`` who started at tables ``x`` and ``y`` meet in round ``r``
  when ``x + a r = y + b r`` (modulo the number of tables ``T``): with ``T``
  a prime number at least the number of players and ``T`` rounds, every two
  players of different positions meet exactly once; with fewer rounds, at
  most once. So no more rounds than tables.
- ``fixed``: everybody stays at their first table (a club's fixed tables:
  the rounds only split the deals, each with its own secret).
- ``random``: each round, each position's players are drawn to the tables
  anew, from the tournament's secret (revealed at the end, so anyone can
  check every draw), each draw as likely as any other.

>>> first = [["A0", "A1", "A2"], ["B0", "B1", "B2"], ["C0", "C1", "C2"]]
>>> rotation = Movement("rotation", 3)
>>> rotation.seating(first, 1)
[['A0', 'C1', 'B2'], ['B0', 'A1', 'C2'], ['C0', 'B1', 'A2']]
>>> rotation.seating(first, 2)
[['A0', 'B1', 'C2'], ['B0', 'C1', 'A2'], ['C0', 'A1', 'B2']]
>>> rotation.origin(table=0, seat=2, round_=1)
1
>>> Movement("fixed", 3).seating(first, 2) == first
True
>>> drawn = Movement("random", 3, bytes(32)).seating(first, 1)
>>> [sorted(row[s] for row in drawn) for s in range(3)]  # each position's players, at some table each
[['A0', 'B0', 'C0'], ['A1', 'B1', 'C1'], ['A2', 'B2', 'C2']]
>>> complete(tables=3, players=3), complete(tables=4, players=3)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast, get_args

P = TypeVar("P")

Kind = Literal["rotation", "fixed", "random"]
KINDS: tuple[Kind, ...] = get_args(Kind)
"""The movements a director may choose, the default first."""


@dataclass(frozen=True)
class Movement:
    """Where each player sits in each round, over ``tables`` tables; ``secret``,
    the tournament's, draws the ``random`` movement's rounds."""

    kind: Kind
    tables: int
    secret: bytes = b""
    _drawn: dict[tuple[int, int], list[int]] = field(default_factory=dict, compare=False, repr=False)

    def table(self, first: int, seat: int, round_: int) -> int:
        """Where the player who started at table ``first`` in position ``seat`` sits in round ``round_``."""
        if self.kind == "rotation":
            return (first + seat * round_) % self.tables
        if self.kind == "random" and round_ > 0:
            return self._draw(seat, round_)[first]
        return first

    def origin(self, table: int, seat: int, round_: int) -> int:
        """The first round's table of whoever sits at ``table``, ``seat`` in round ``round_``."""
        if self.kind == "rotation":
            return (table - seat * round_) % self.tables
        if self.kind == "random" and round_ > 0:
            return self._draw(seat, round_).index(table)
        return table

    def seating(self, first: list[list[P]], round_: int) -> list[list[P]]:
        """Who sits where in round ``round_`` (0: the first round's seating, as given)."""
        out = [list(row) for row in first]
        for t, row in enumerate(first):
            for s, who in enumerate(row):
                out[self.table(t, s, round_)][s] = who
        return out

    def _draw(self, seat: int, round_: int) -> list[int]:
        """The ``random`` movement's round ``round_`` for position ``seat``: the
        table of each first table's player, drawn from the secret."""
        key = (seat, round_)
        drawn = self._drawn.get(key)
        if drawn is None:
            seed = hmac.new(self.secret, f"movement {round_} {seat}".encode(), hashlib.sha256).digest()
            drawn = self._drawn[key] = random.Random(seed).sample(range(self.tables), self.tables)
        return drawn


def movement_of(doc: Mapping[str, Any]) -> Movement:
    """A tournament's movement (its document's; one made before the choice: ``rotation``)."""
    return Movement(cast(Kind, doc.get("movement", "rotation")), doc["tables"], bytes.fromhex(doc["secret"]))


def most_rounds(kind: Kind, tables: int, limit: int) -> int:
    """The most rounds a movement allows: past as many rounds as tables, the
    rotation brings the same players together again; the others, ``limit``."""
    return tables if kind == "rotation" else limit


def complete(tables: int, players: int) -> bool:
    """Whether ``tables`` rounds of the rotation make every two players of different positions meet once."""
    return tables >= players and tables > 1 and all(tables % d for d in range(2, tables))


def round_secret(secret: bytes, round_: int) -> bytes:
    """The deal secret of a round: the tournament's own for the first, then one
    drawn from it (so its one secret, revealed at the end, checks every round)."""
    if round_ == 0:
        return secret
    return hmac.new(secret, f"round {round_}".encode(), hashlib.sha256).digest()


__all__ = ["KINDS", "Kind", "Movement", "complete", "most_rounds", "movement_of", "round_secret"]
