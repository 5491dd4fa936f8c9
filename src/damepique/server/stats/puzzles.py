"""Puzzle ratings and figures (issue 26), below the routes that use them (the
puzzles' and the statistics'): a player's Glicko-2 rating after a puzzle,
computed with the ``glicko2`` library (the puzzle is the opponent, at its own
rating), and a player's puzzle figures from their kept answers."""

from __future__ import annotations

from ..protocol import Json
from ..storage.puzzles import PuzzleStore
from .figures import puzzle_figures

PUZZLE_RD = 60.0
"""The deviation a puzzle's rating is taken with (puzzles are many and steady)."""
START = {"rating": 1500.0, "rd": 350.0, "vol": 0.06}
"""A new player's rating."""


def new_rating(player: Json, puzzle_rating: float, won: bool) -> Json:
    """The player's rating after a puzzle solved (``won``) or missed."""
    import glicko2  # the server's extra; read only here

    me = glicko2.Player(rating=float(player["rating"]), rd=float(player["rd"]), vol=float(player["vol"]))
    me.update_player([float(puzzle_rating)], [PUZZLE_RD], [1.0 if won else 0.0])
    return {
        "rating": round(float(me.rating), 1),
        "rd": round(float(me.rd), 1),
        "vol": round(float(me.vol), 6),
    }


async def figures_of(store: PuzzleStore, account: str | None, devices: list[str]) -> Json:
    """The puzzle figures of an account (with the answers of its browsers not
    moved yet) or of a guest's browser (``devices[0]``)."""
    keys = ([f"a:{account}"] if account else []) + [f"g:{d}" for d in devices]
    rating = await store.rating(keys[0]) if keys else None
    return puzzle_figures(await store.attempts(keys), rating)


__all__ = ["PUZZLE_RD", "START", "figures_of", "new_rating"]
