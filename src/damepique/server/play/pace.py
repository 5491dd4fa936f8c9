"""How fast a game's computer players play: the speeds a table or a solo
game may be created with, and the seconds a bot waits at ``normal`` speed."""

from __future__ import annotations

from dataclasses import dataclass

SPEEDS = ("normal", "fast")


@dataclass(frozen=True)
class Pace:
    """Seconds a bot waits at ``normal`` speed (``fast`` never waits)."""

    play: float = 0.8
    after_trick: float = 1.6
    pass_: float = 0.4


__all__ = ["SPEEDS", "Pace"]
