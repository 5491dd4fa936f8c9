"""What the score keeper says, in English, from a code and its params: the
``reason`` of its refusals, for programs and logs.

An error or an outcome carries a ``code`` and ``params`` (numbers and player
names). The pages say it in the reader's language from those, with their own
words (``scm_CODE`` in ``web/strings/en.js`` and ``fr.js``, the app's one
translation system), and the English ``reason`` here is read from the same
``en.js`` (``damepique.words``): one copy of every sentence, never parsed
back.

>>> render("sum_short", {"total": 24, "expected": 26, "difference": 2})
'the points add up to 24, a deal gives 26: 2 points are missing'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from damepique.words import phrase

Params = Mapping[str, Any]

CODES = (
    # Refusals.
    "players_count", "player_name_empty", "player_name_long", "player_name_twice", "rules_unknown",
    "rules_type", "target_range", "moon_rule", "queen_points", "queen_points_36", "deck", "tie_rule",
    "points_count", "points_not_number", "points_negative", "points_below_jack", "points_too_many",
    "jack_twice", "sum_short", "sum_over", "moon_or_ordinary", "moon_off", "unknown_player", "jack_off",
    "entry_empty", "entry_both", "no_such_deal", "game_over", "nothing_to_undo", "no_such_sheet",
    "bad_sheet_data",
    # Outcome of the game, for the pages and exports.
    "winner", "shared", "tie", "playing",
)  # fmt: skip
"""Every code the score keeper sends (its words are ``scm_CODE``)."""


def render(code: str, params: Params) -> str:
    """The English sentence for ``code``: the ``reason`` of a refusal."""
    return phrase(f"scm_{code}", "en", **params)
