"""What a director's ``POST /api/tournaments`` makes: the body checked, each
fault refused with its own code, and the new tournament's document less what
the service draws (its code, secret and director's token) (``docs/tournaments.md``).

>>> doc = made_of({"name": "Club", "deals": 2, "tables": 3, "rounds": 3})
>>> doc["deals"], doc["tables"], doc["rounds"], doc["movement"], doc["status"], doc["bots"]
(2, 3, 3, 'rotation', 'open', True)
>>> made_of({"name": "Club", "tables": 2, "rounds": 3})
Traceback (most recent call last):
...
damepique.server.errors.Refusal: rounds is a whole number from 1 to the number of tables (2) with the rotation
>>> made_of({"name": "Club", "tables": 2, "rounds": 3, "movement": "random"})["rounds"]
3
"""

from __future__ import annotations

import hashlib

from ..errors import Refusal
from ..http import rules_from_body
from ..play.pace import SPEEDS
from ..play.thinking import CHOICES
from ..protocol import Json
from ..tables.seats import clean_name
from .movement import KINDS, most_rounds

MAX_DEALS, MAX_TABLES, MAX_ROUNDS = 26, 20, 20


def hash_token(token: str) -> str:
    """What is kept of a director's or player's token (the token itself is told once)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _int(body: Json, key: str, low: int, high: int, default: int) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refusal(f"bad_{key}", f"{key} is a whole number from {low} to {high}")
    return value


def made_of(body: Json) -> Json:
    """The tournament ``body`` asks for, open, nobody in it yet; ``Refusal`` at its first fault."""
    name = clean_name(body.get("name"), "")
    if not name:
        raise Refusal("bad_name", "a tournament needs a name")
    rules = rules_from_body(body)
    deals = _int(body, "deals", 1, MAX_DEALS, 8)
    count = _int(body, "tables", 1, MAX_TABLES, 2)
    movement = body.get("movement", KINDS[0])
    if movement not in KINDS:
        raise Refusal("bad_movement", f"movement must be one of {', '.join(KINDS)}")
    rounds = body.get("rounds", 1)
    most = most_rounds(movement, count, MAX_ROUNDS)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= most:
        if movement == "rotation":
            raise Refusal(
                "bad_rounds",
                f"rounds is a whole number from 1 to the number of tables ({count}) with the rotation",
            )
        raise Refusal("bad_rounds", f"rounds is a whole number from 1 to {most}")
    level = body.get("level", "intermediate")
    if level not in CHOICES:
        raise Refusal("bad_level", f"level must be one of {', '.join(CHOICES)}")
    speed = body.get("speed", "normal")
    if speed not in SPEEDS:
        raise Refusal("bad_speed", "speed must be normal or fast")
    start = body.get("start")
    if start is not None and (not isinstance(start, (int, float)) or isinstance(start, bool)):
        raise Refusal("bad_start", "start is a time in seconds since the epoch, or null")
    return {
        "name": name,
        "rules": rules.to_json(),
        "deals": deals,
        "tables": count,
        "rounds": rounds,
        "movement": movement,
        "round": 0,
        "past": [],
        "bots": bool(body.get("bots", True)),
        "level": level,
        "speed": speed,
        "start": None if start is None else float(start),
        "status": "open",
        "players": [],
        "seating": [],
    }


__all__ = ["MAX_DEALS", "MAX_ROUNDS", "MAX_TABLES", "hash_token", "made_of"]
