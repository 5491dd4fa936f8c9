"""The rules a score sheet is kept under: target, moon, J♦, queen, Black
Maria, the deck (52 cards, or the 36-card game), the tie rule.

The points in a deal come from the engine's ``Rules``. They do not depend on
the number of players: the cards left out at 3, 5 or 6 players are the low
diamonds and clubs, never a card that scores. So a four-player ``Rules`` gives
the amounts of every sheet, 3 to 6 players, and the engine's ``score`` applies
the moon and the J♦ exactly as in a game played on the app. The 36-card game
is the engine's ``deck_36`` preset: nine hearts 1 each, the queen 5 and the
last trick 1, 15 points a deal.

>>> SheetRules().deal_total, SheetRules(queen_points=12).deal_total
(26, 25)
>>> SheetRules(jack_of_diamonds=True).deal_total, SheetRules(black_maria=True).deal_total
(16, 43)
>>> SheetRules(deck=36).deal_total, SheetRules(deck=36).queen_points
(15, 5)
>>> SheetRules(target=0)
Traceback (most recent call last):
...
damepique.scorer.errors.ScoreError: the target must be between 1 and 10000, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from damepique.engine import PRESETS, Rules
from damepique.engine.rules import MOON_RULES, TIE_RULES

from .errors import BAD_SHEET, ScoreError

TARGET_LIMIT = 10_000
DECKS = (52, 36)
QUEEN_POINTS = {52: (13, 12), 36: (PRESETS["deck_36"].queen_points,)}
"""The queen's values a sheet offers, by deck: the first is the deck's usual one."""
JACK_POINTS = -10

_TYPES: dict[str, type] = {
    "target": int,
    "moon": str,
    "jack_of_diamonds": bool,
    "queen_points": int,
    "black_maria": bool,
    "deck": int,
    "tie": str,
}
"""Each rule's type (what it takes is said by the pages' words, ``scm_rule_takes``)."""


@dataclass(frozen=True)
class SheetRules:
    """The variant a sheet is scored under; invalid values raise ScoreError."""

    target: int = 100
    moon: str = "others"  # "others": +moon to each other player; "self": -moon to the shooter
    jack_of_diamonds: bool = False
    queen_points: int | None = None
    """None (left out): the deck's usual value, 13 (52 cards) or 5 (36 cards)."""
    black_maria: bool = False
    deck: int = 52
    """52, or 36 for the 36-card game (6 to ace: the queen 5, the last trick 1)."""
    tie: str = "play_on"
    """A tie for the lowest total at the end: "play_on" (another deal) or "share" (all win)."""

    card_rules: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for key, kind in _TYPES.items():
            value = getattr(self, key)
            if key == "queen_points" and value is None:
                continue  # the deck's usual value, set below
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ScoreError(
                    BAD_SHEET,
                    "rules_type",
                    {"key": key, "value": value},
                )
        if not 1 <= self.target <= TARGET_LIMIT:
            raise ScoreError(BAD_SHEET, "target_range", {"target": self.target, "limit": TARGET_LIMIT})
        if self.moon not in MOON_RULES:
            raise ScoreError(BAD_SHEET, "moon_rule", {"value": self.moon})
        if self.deck not in DECKS:
            raise ScoreError(BAD_SHEET, "deck", {"value": self.deck})
        queens = QUEEN_POINTS[self.deck]
        queen = queens[0] if self.queen_points is None else self.queen_points
        if queen not in queens:
            code = "queen_points" if self.deck == 52 else "queen_points_36"
            raise ScoreError(BAD_SHEET, code, {"value": queen, "queen": queens[0]})
        object.__setattr__(self, "queen_points", queen)
        if self.tie not in TIE_RULES:
            raise ScoreError(BAD_SHEET, "tie_rule", {"value": self.tie})
        deck = PRESETS["deck_36"] if self.deck == 36 else Rules()
        card_rules = deck.replace(
            players=4,
            target=self.target,
            moon=self.moon,
            jack_of_diamonds=self.jack_of_diamonds,
            queen_points=queen,
            black_maria=self.black_maria,
            tie=self.tie,
        )
        object.__setattr__(self, "card_rules", card_rules)

    @property
    def moon_points(self) -> int:
        """Every point of the deal: 26, 25 with a queen of 12, 43 with Black Maria,
        15 in the 36-card game (the last trick's point included)."""
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
            "deck": self.deck,
            "tie": self.tie,
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
