"""Which way the cards are passed before each deal, so nobody has to remember.

The engine's standard cycle: left, right, across, none at four players; left,
right, none at 3, 5 or 6 (across needs a player straight opposite).

>>> [pass_direction(4, n) for n in range(1, 6)]
['left', 'right', 'across', 'none', 'left']
>>> [pass_direction(6, n) for n in range(1, 5)]
['left', 'right', 'none', 'left']
"""

from __future__ import annotations

from damepique.engine.rules import ACROSS, HOLD, LEFT, RIGHT

MIN_PLAYERS, MAX_PLAYERS = 3, 6
DIRECTIONS = (LEFT, RIGHT, ACROSS, HOLD)


def pass_cycle(players: int) -> tuple[str, ...]:
    """The directions in order, for ``players`` at the table."""
    return (LEFT, RIGHT, ACROSS, HOLD) if players == 4 else (LEFT, RIGHT, HOLD)


def pass_direction(players: int, number: int) -> str:
    """The pass before deal ``number`` (the first deal is 1)."""
    cycle = pass_cycle(players)
    return cycle[(number - 1) % len(cycle)]
