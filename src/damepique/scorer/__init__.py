"""The score keeper: a score sheet for a game of Hearts played with real cards.

Standard library and ``damepique.engine`` only. ``Sheet`` holds the players,
the rules (``SheetRules``) and the deals; an entry (``PointsEntry`` or
``MoonEntry``) is checked before it is saved and refused with a
``ScoreError`` that says what is wrong (a code and its params: the pages have the words).

>>> sheet = Sheet(["Ann", "Bob", "Cy", "Dee"])
>>> sheet.add(PointsEntry((10, 10, 6, 0))).points
(10, 10, 6, 0)
"""

from .deal import (
    Entry,
    MoonEntry,
    PointsEntry,
    ScoredDeal,
    entry_from_json,
    entry_to_json,
    moon_points,
    score_entry,
    seat_of,
)
from .errors import (
    AMBIGUOUS,
    BAD_ENTRY,
    BAD_SHEET,
    GAME_OVER,
    KINDS,
    NO_SUCH_DEAL,
    NO_SUCH_SHEET,
    NOTHING_TO_UNDO,
    ScoreError,
)
from .export import FORMAT, to_csv, to_export_json
from .messages import render
from .passing import MAX_PLAYERS, MIN_PLAYERS, pass_cycle, pass_direction
from .rules import SheetRules
from .sheet import Change, Outcome, Sheet, check_names

__all__ = [
    "AMBIGUOUS",
    "BAD_ENTRY",
    "BAD_SHEET",
    "FORMAT",
    "GAME_OVER",
    "KINDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOTHING_TO_UNDO",
    "NO_SUCH_DEAL",
    "NO_SUCH_SHEET",
    "Change",
    "Entry",
    "MoonEntry",
    "Outcome",
    "PointsEntry",
    "ScoreError",
    "ScoredDeal",
    "Sheet",
    "SheetRules",
    "check_names",
    "entry_from_json",
    "entry_to_json",
    "moon_points",
    "pass_cycle",
    "pass_direction",
    "render",
    "score_entry",
    "seat_of",
    "to_csv",
    "to_export_json",
]
