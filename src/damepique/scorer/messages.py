"""What the score keeper says, in English, from a code and its params: the
``reason`` of its refusals, for programs and logs.

An error or an outcome carries a ``code`` and ``params`` (numbers and player
names). The pages say it in the reader's language from those, with their own
words (``scm_CODE`` in ``web/strings/en.js`` and ``fr.js``, the app's one
translation system): the server keeps no French copy, so no text is ever
parsed back. The English here is the one copy of the page's words left in
Python: the page's are functions of the params (plurals, lists of names),
which Python cannot read as it reads plain words (``damepique.words``), so
``tests/web/test_bots_words.py`` checks, through Node, that each code says
here word for word what ``en.js`` says.

>>> render("sum_short", {"total": 24, "expected": 26, "difference": 2})
'the points add up to 24, a deal gives 26: 2 points are missing'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

Params = Mapping[str, Any]


def _points_en(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def _names_en(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _short_en(p: Params) -> str:
    d = p["difference"]
    missing = "1 point is missing" if d == 1 else f"{d} points are missing"
    return f"the points add up to {p['total']}, a deal gives {p['expected']}: {missing}"


def _over_en(p: Params) -> str:
    d = p["difference"]
    return f"the points add up to {p['total']}, a deal gives {p['expected']}: {_points_en(d)} too many"


def _winners(p: Params) -> list[str]:
    winners = p.get("winners")
    return [p["winner"]] if winners is None else list(winners)


def _json(value: object) -> str:
    # As the page's JSON.stringify: no spaces, letters as they are.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_EN: dict[str, Callable[[Params], str]] = {
    "players_count": lambda p: f"a sheet needs 3 to 6 players, not {p['count']}",
    "player_name_empty": lambda p: f"player {p['position']} has no name",
    "player_name_long": lambda p: (
        f"the name '{p['name']}' is too long ({p['length']} characters, {p['limit']} at most)"
    ),
    "player_name_twice": lambda p: f"two players are called {p['name']}",
    "rules_unknown": lambda p: f"unknown rule '{p['key']}'",
    "rules_type": lambda p: f"{p['key']} must be {p['expected']}, not {_json(p['value'])}",
    "target_range": lambda p: f"the target must be between 1 and {p['limit']}, not {p['target']}",
    "moon_rule": lambda p: f"the moon rule must be 'others', 'self' or 'off', not {_json(p['value'])}",
    "queen_points": lambda p: f"the queen of spades is worth 13 or 12, not {p['value']}",
    "queen_points_36": lambda p: (
        f"in the 36-card game the queen of spades is worth {p['queen']}, not {p['value']}"
    ),
    "deck": lambda p: f"the deck has 52 or 36 cards, not {_json(p['value'])}",
    "tie_rule": lambda p: f"a tie at the end must be 'play_on' or 'share', not {_json(p['value'])}",
    "points_count": lambda p: f"{p['players']} players, but {p['count']} scores given",
    "points_not_number": lambda p: f"{p['player']}'s points must be a whole number, not {_json(p['value'])}",
    "points_negative": lambda p: (
        f"{p['player']} has {p['points']}: points cannot be negative (no jack of diamonds on this sheet)"
    ),
    "points_below_jack": lambda p: (
        f"{p['player']} has {p['points']}: the jack of diamonds takes off 10 points at most,"
        " nobody goes below -10"
    ),
    "points_too_many": lambda p: (
        f"{p['player']} has {p['points']}, but a deal only gives {p['limit']} points: "
        f"{_points_en(p['points'] - p['limit'])} too many"
    ),
    "jack_twice": lambda p: (
        f"{_names_en(p['players'])} have negative points, but only one player takes the jack of diamonds"
    ),
    "sum_short": _short_en,
    "sum_over": _over_en,
    "moon_or_ordinary": lambda p: (
        f"{p['player']} has {p['points']}: a moon with the J♦ too ({p['player']} {p['shooter_score']}, "
        f"the others {p['others_score']} each) or an ordinary deal? Choose one"
    ),
    "moon_off": lambda p: "the moon is not played on this sheet: enter each player's points",
    "unknown_player": lambda p: f"no player '{p['player']}' on this sheet",
    "jack_off": lambda p: "the jack of diamonds is not played on this sheet",
    "entry_empty": lambda p: "enter each player's points or who shot the moon",
    "entry_both": lambda p: "enter each player's points or who shot the moon, not both",
    "no_such_deal": lambda p: (
        f"there is no deal {p['number']} (deals 1 to {p['count']})"
        if p["count"]
        else f"there is no deal {p['number']}: no deal entered yet"
    ),
    "game_over": lambda p: f"the game is over: {_names_en(_winners(p))} won. Edit or delete a deal to go on",
    "nothing_to_undo": lambda p: "nothing to undo",
    "no_such_sheet": lambda p: "there is no sheet at this address (check the link)",
    "bad_sheet_data": lambda p: f"the stored sheet is damaged: {p['detail']}",
    # Outcome of the game, for the pages and exports.
    "winner": lambda p: f"{p['player']} wins with {_points_en(p['total'])}",
    "shared": lambda p: f"{_names_en(p['players'])} share the win with {_points_en(p['total'])}",
    "tie": lambda p: f"{_names_en(p['players'])} are tied on {_points_en(p['total'])}: play another deal",
    "playing": lambda p: (
        f"{p['players'][0]} leads" if len(p["players"]) == 1 else f"{_names_en(p['players'])} lead"
    ),
}


CODES = tuple(_EN)


def render(code: str, params: Params) -> str:
    """The English sentence for ``code``: the ``reason`` of a refusal."""
    return _EN[code](params)
