"""The rules a score sheet is kept under: target, moon, J♦, queen, Black Maria.

The points in a deal come from the engine's ``Rules``. They do not depend on
the number of players: the cards left out at 3, 5 or 6 players are the low
diamonds and clubs, never a card that scores. So a four-player ``Rules`` gives
the amounts of every sheet, 3 to 6 players, and the engine's ``score`` applies
the moon and the J♦ exactly as in a game played on the app.

>>> SheetRules().deal_total, SheetRules(queen_points=12).deal_total
(26, 25)
>>> SheetRules(jack_of_diamonds=True).deal_total, SheetRules(black_maria=True).deal_total
(16, 43)
>>> SheetRules(target=0)
Traceback (most recent call last):
...
damepique.scorer.errors.ScoreError: the target must be between 1 and 10000, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from damepique.engine import Rules
from damepique.engine.rules import MOON_RULES

from .errors import BAD_SHEET, ScoreError

TARGET_LIMIT = 10_000
QUEEN_POINTS = (13, 12)
JACK_POINTS = -10

_TYPES: dict[str, tuple[type, str, str]] = {
    "target": (int, "a whole number", "un nombre entier"),
    "moon": (str, "'others', 'self' or 'off'", "'others', 'self' ou 'off'"),
    "jack_of_diamonds": (bool, "true or false", "vrai ou faux"),
    "queen_points": (int, "13 or 12", "13 ou 12"),
    "black_maria": (bool, "true or false", "vrai ou faux"),
}


@dataclass(frozen=True)
class SheetRules:
    """The variant a sheet is scored under; invalid values raise ScoreError."""

    target: int = 100
    moon: str = "others"  # "others": +moon to each other player; "self": -moon to the shooter
    jack_of_diamonds: bool = False
    queen_points: int = 13
    black_maria: bool = False

    card_rules: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for key, (kind, words, words_fr) in _TYPES.items():
            value = getattr(self, key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ScoreError(
                    BAD_SHEET,
                    "rules_type",
                    {"key": key, "expected": words, "expected_fr": words_fr, "value": value},
                )
        if not 1 <= self.target <= TARGET_LIMIT:
            raise ScoreError(BAD_SHEET, "target_range", {"target": self.target, "limit": TARGET_LIMIT})
        if self.moon not in MOON_RULES:
            raise ScoreError(BAD_SHEET, "moon_rule", {"value": self.moon})
        if self.queen_points not in QUEEN_POINTS:
            raise ScoreError(BAD_SHEET, "queen_points", {"value": self.queen_points})
        card_rules = Rules(
            players=4,
            target=self.target,
            moon=self.moon,
            jack_of_diamonds=self.jack_of_diamonds,
            queen_points=self.queen_points,
            black_maria=self.black_maria,
        )
        object.__setattr__(self, "card_rules", card_rules)

    @property
    def moon_points(self) -> int:
        """Every point card of the deck: 26, 25 with a queen of 12, 43 with Black Maria."""
        return self.card_rules.moon_points

    @property
    def deal_total(self) -> int:
        """What the points of a deal without a moon add up to (the J♦ counts -10)."""
        return self.card_rules.deal_total

    @property
    def lowest(self) -> int:
        """The lowest a player can score in a deal without a moon: -10 with the J♦, else 0."""
        return JACK_POINTS if self.jack_of_diamonds else 0

    @property
    def has_moon(self) -> bool:
        return self.moon != "off"

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "moon": self.moon,
            "jack_of_diamonds": self.jack_of_diamonds,
            "queen_points": self.queen_points,
            "black_maria": self.black_maria,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> SheetRules:
        """Rules from a JSON object; missing keys take their default, unknown keys are refused.

        >>> SheetRules.from_json({"target": 50}).target
        50
        """
        if data is None:
            return cls()
        for key in data:
            if key not in _TYPES:
                raise ScoreError(BAD_SHEET, "rules_unknown", {"key": str(key)})
        return cls(**data)
