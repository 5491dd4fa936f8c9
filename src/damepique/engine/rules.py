"""The rules of a game of Hearts as one frozen, validated value.

Variants are data, not subclasses: every option of ``docs/record-format.md``
with its default, a few documented extra keys, and named presets.

>>> Rules().players, Rules().moon
(4, 'others')
>>> PRESETS["omnibus"].jack_of_diamonds
True
>>> Rules.from_json({"players": 6})
Traceback (most recent call last):
...
damepique.engine.errors.RulesError: players must be 3, 4 or 5, not 6
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import AS, HEARTS, HEARTS_MASK, JD, KS, QS, RANKS, SUITS, card, rank_of, suit_of
from .errors import RulesError, short_repr

LEFT, RIGHT, ACROSS, HOLD = "left", "right", "across", "none"
PASS_CYCLES = ("standard", "left", "right", "across")
MOON_RULES = ("others", "self", "off")
LEFTOVER_RULES = ("remove", "kitty")
FIRST_LEADS = ("two_of_clubs", "any")
HEARTS_BROKEN_BY = ("any", "discard")
FIRST_TRICK_DISCARDS = ("any", "heart")
TIE_RULES = ("play_on", "share")
DECKS = (52, 36)

# The keys of the spec's table, in its order; the others are our extras.
SPEC_KEYS = (
    "players",
    "target",
    "passing",
    "pass_cycle",
    "no_points_first_trick",
    "must_break_hearts",
    "moon",
    "jack_of_diamonds",
    "leftover",
    "queen_points",
    "first_lead",
    "hearts_broken_by",
    "first_trick_discard",
    "tie",
)
EXTRA_KEYS = ("deck", "black_maria", "last_trick_points", "pass_count", "queen_breaks_hearts")

# Cards left out when the deck does not divide among the players: lowest
# diamond, then lowest club, alternately (2D at 3 players; 2D, 2C at 5).
_LEFTOVER_ORDER = ("D", "C")


@dataclass(frozen=True)
class Rules:
    """One game's rules. Construct with keywords; invalid values raise RulesError."""

    players: int = 4
    target: int = 100
    passing: bool = True
    pass_cycle: str = "standard"
    no_points_first_trick: bool = True
    must_break_hearts: bool = True
    moon: str = "others"
    jack_of_diamonds: bool = False
    leftover: str = "remove"
    queen_points: int = 13
    first_lead: str = "two_of_clubs"
    hearts_broken_by: str = "any"
    first_trick_discard: str = "any"
    tie: str = "play_on"
    # Extras beyond the spec's table (documented in docs/rules.md).
    deck: int = 52
    black_maria: bool = False
    last_trick_points: int = 0
    pass_count: int = 3
    queen_breaks_hearts: bool = False

    # Derived tables, computed once on construction.
    deck_mask: int = field(init=False, repr=False, compare=False)
    removed_mask: int = field(init=False, repr=False, compare=False)
    hand_size: int = field(init=False, repr=False, compare=False)
    kitty_size: int = field(init=False, repr=False, compare=False)
    card_points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    point_mask: int = field(init=False, repr=False, compare=False)
    moon_points: int = field(init=False, repr=False, compare=False)
    deal_total: int = field(init=False, repr=False, compare=False)
    first_trick_mask: int = field(init=False, repr=False, compare=False)
    """Cards refused on the first trick while the hand holds anything else:
    the point cards and QS (0 without ``no_points_first_trick``)."""
    first_trick_hearts: int = field(init=False, repr=False, compare=False)
    """With ``first_trick_discard: "heart"`` (and ``no_points_first_trick``): the
    hearts, which a seat void on the first trick and holding nothing but
    ``first_trick_mask`` cards must play when it holds one; else 0."""
    breaks_mask: int = field(init=False, repr=False, compare=False)
    """Cards whose play, led, followed or discarded, breaks hearts: the hearts
    (with ``hearts_broken_by: "any"``), and QS with ``queen_breaks_hearts``."""
    discard_breaks_mask: int = field(init=False, repr=False, compare=False)
    """Cards that break hearts only when discarded on a trick led in another
    suit: the hearts with ``hearts_broken_by: "discard"``, else 0."""
    positive_points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``card_points`` without the J♦'s bonus: what a trick's points add up."""
    deck_list: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The cards dealt (hands and kitty), ascending."""
    deck_bits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``1 << card`` for each card of ``deck_list``: what a shuffle permutes."""

    def __post_init__(self) -> None:
        self._validate()
        low_rank = 0 if self.deck == 52 else RANKS.index("6")
        deck_mask = 0
        for c in range(52):
            if rank_of(c) >= low_rank:
                deck_mask |= 1 << c
        leftover = (self.deck) % self.players
        leftover_cards = 0
        for i in range(leftover):
            rank = RANKS[low_rank + i // 2]
            leftover_cards |= 1 << card(rank, _LEFTOVER_ORDER[i % 2])
        points = [0] * 52
        for c in range(52):
            if deck_mask >> c & 1 and suit_of(c) == HEARTS:
                points[c] = 1
        points[QS] = self.queen_points
        if self.black_maria:
            points[KS] = 10
            points[AS] = 7
        point_mask = sum(1 << c for c in range(52) if points[c] > 0)
        if self.jack_of_diamonds and deck_mask >> JD & 1:
            points[JD] = -10
        in_play = deck_mask if self.leftover == "kitty" else deck_mask & ~leftover_cards
        moon_points = sum(points[c] for c in range(52) if in_play >> c & 1 and points[c] > 0)
        moon_points += self.last_trick_points
        jack = -10 if self.jack_of_diamonds and in_play >> JD & 1 else 0
        first_trick_mask = point_mask | 1 << QS if self.no_points_first_trick else 0
        # The queen's rule is its own key: under either hearts_broken_by,
        # queen_breaks_hearts makes any play of QS break hearts.
        queen_breaks = 1 << QS if self.queen_breaks_hearts else 0
        by_discard = self.hearts_broken_by == "discard"
        breaks_mask = queen_breaks if by_discard else HEARTS_MASK | queen_breaks
        discard_breaks_mask = HEARTS_MASK if by_discard else 0
        strict_discard = self.no_points_first_trick and self.first_trick_discard == "heart"
        dealt = deck_mask & ~leftover_cards if self.leftover == "remove" else deck_mask
        derived = {
            "deck_mask": deck_mask,
            "removed_mask": leftover_cards if self.leftover == "remove" else 0,
            "hand_size": self.deck // self.players,
            "kitty_size": leftover if self.leftover == "kitty" else 0,
            "card_points": tuple(points),
            "point_mask": point_mask,
            "moon_points": moon_points,
            "deal_total": moon_points + jack,
            "first_trick_mask": first_trick_mask & deck_mask,
            "first_trick_hearts": HEARTS_MASK & deck_mask if strict_discard else 0,
            "breaks_mask": breaks_mask & deck_mask,
            "discard_breaks_mask": discard_breaks_mask & deck_mask,
            "positive_points": tuple(max(p, 0) for p in points),
            "deck_list": tuple(c for c in range(52) if dealt >> c & 1),
            "deck_bits": tuple(1 << c for c in range(52) if dealt >> c & 1),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def _validate(self) -> None:
        def check_type(key: str, kind: type) -> None:
            value = getattr(self, key)
            ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
            if not ok:
                raise RulesError(f"{key} must be {_TYPE_WORDS[kind]}, not {short_repr(value)}", key)

        for f in dataclasses.fields(self):
            if f.init:
                check_type(f.name, _FIELD_TYPES[f.name])
        if self.players not in (3, 4, 5):
            raise RulesError(f"players must be 3, 4 or 5, not {short_repr(self.players)}", "players")
        if not 1 <= self.target <= 10_000:
            raise RulesError(f"target must be between 1 and 10000, not {short_repr(self.target)}", "target")
        _check_choice("pass_cycle", self.pass_cycle, PASS_CYCLES)
        if self.pass_cycle != "standard" and not self.passing:
            raise RulesError(f"pass_cycle {self.pass_cycle!r} needs passing true", "pass_cycle")
        if self.pass_cycle == "across" and self.players != 4:
            raise RulesError("passing across needs four players", "pass_cycle")
        _check_choice("moon", self.moon, MOON_RULES)
        _check_choice("leftover", self.leftover, LEFTOVER_RULES)
        _check_choice("first_lead", self.first_lead, FIRST_LEADS)
        _check_choice("hearts_broken_by", self.hearts_broken_by, HEARTS_BROKEN_BY)
        _check_choice("first_trick_discard", self.first_trick_discard, FIRST_TRICK_DISCARDS)
        _check_choice("tie", self.tie, TIE_RULES)
        if self.deck not in DECKS:
            raise RulesError(f"deck must be 52 or 36, not {short_repr(self.deck)}", "deck")
        if not 0 <= self.queen_points <= 100:
            raise RulesError(
                f"queen_points must be between 0 and 100, not {short_repr(self.queen_points)}", "queen_points"
            )
        if not 0 <= self.last_trick_points <= 100:
            raise RulesError(
                f"last_trick_points must be between 0 and 100, not {short_repr(self.last_trick_points)}",
                "last_trick_points",
            )
        hand = self.deck // self.players
        if not 1 <= self.pass_count < hand:
            raise RulesError(
                f"pass_count must be between 1 and {hand - 1}, not {short_repr(self.pass_count)}",
                "pass_count",
            )

    # -- passing -----------------------------------------------------------

    @property
    def pass_offsets(self) -> tuple[int, ...]:
        """Seat offsets of the pass cycle: +1 left, -1 right, +2 across, 0 none."""
        if not self.passing:
            return (0,)
        if self.pass_cycle != "standard":
            return (_OFFSETS[self.pass_cycle],)
        if self.players == 4:
            return (1, -1, 2, 0)
        return (1, -1, 0)

    def pass_offset(self, deal_number: int) -> int:
        offsets = self.pass_offsets
        return offsets[deal_number % len(offsets)]

    def pass_direction(self, deal_number: int) -> str:
        """``"left"``, ``"right"``, ``"across"`` or ``"none"`` for deal ``deal_number``."""
        return _DIRECTIONS[self.pass_offset(deal_number)]

    # -- scoring -------------------------------------------------------------

    def score(self, taken_points: list[int], jack_seat: int | None = None) -> tuple[list[int], int | None]:
        """Apply the moon and J♦ rules to each seat's points from cards and tricks.

        ``taken_points`` excludes the J♦; ``jack_seat`` took it (or None).
        Returns the deal's points per seat and the shooter's seat or None.
        """
        shooter = None
        if self.moon != "off" and self.moon_points > 0:
            for seat, pts in enumerate(taken_points):
                if pts == self.moon_points:
                    shooter = seat
        if shooter is None:
            points = list(taken_points)
        elif self.moon == "others":
            points = [0 if s == shooter else self.moon_points for s in range(len(taken_points))]
        else:
            points = [-self.moon_points if s == shooter else 0 for s in range(len(taken_points))]
        if jack_seat is not None and self.jack_of_diamonds:
            points[jack_seat] -= 10
        return points, shooter

    # -- JSON ---------------------------------------------------------------

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rules from a record's ``rules`` object; unknown keys are refused."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, not {_json_type(data)}")
        for key in data:
            if key not in _FIELD_TYPES:
                raise RulesError(f"unknown rules key {short_repr(key)}", str(key)[:40])
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        """Every key, the spec's first, each with its value even at its default:
        a reader never has to know a default (``docs/record-format.md``)."""
        return {k: getattr(self, k) for k in (*SPEC_KEYS, *EXTRA_KEYS)}

    def __repr__(self) -> str:
        """The options that differ from their default, as keywords: it pastes back.

        >>> Rules(players=3, moon="self")
        Rules(players=3, moon='self')
        """
        changed = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if f.init and getattr(self, f.name) != _DEFAULTS[f.name]
        )
        return f"Rules({changed})"

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    @property
    def deck_cards(self) -> int:
        """Mask of the cards dealt (to hands and kitty)."""
        return self.deck_mask & ~self.removed_mask

    @property
    def has_moon(self) -> bool:
        return self.moon != "off"


_OFFSETS = {"left": 1, "right": -1, "across": 2}
_DIRECTIONS = {1: LEFT, -1: RIGHT, 2: ACROSS, 0: HOLD}
_FIELD_TYPES: dict[str, type] = {
    "players": int,
    "target": int,
    "passing": bool,
    "pass_cycle": str,
    "no_points_first_trick": bool,
    "must_break_hearts": bool,
    "moon": str,
    "jack_of_diamonds": bool,
    "leftover": str,
    "queen_points": int,
    "first_lead": str,
    "hearts_broken_by": str,
    "first_trick_discard": str,
    "tie": str,
    "deck": int,
    "black_maria": bool,
    "last_trick_points": int,
    "pass_count": int,
    "queen_breaks_hearts": bool,
}
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules) if f.init}
_TYPE_WORDS = {int: "a whole number", bool: "true or false", str: "a string"}


def _check_choice(key: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        words = ", ".join(repr(c) for c in choices)
        raise RulesError(f"{key} must be one of {words}, not {short_repr(value)}", key)


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "short": Rules(target=50),
    "omnibus": Rules(jack_of_diamonds=True),
    "three_players": Rules(players=3),
    "five_players": Rules(players=5),
    "three_players_kitty": Rules(players=3, leftover="kitty"),
    "five_players_kitty": Rules(players=5, leftover="kitty"),
    "old_rules": Rules(first_lead="any", no_points_first_trick=False, must_break_hearts=False),
    "hearts_any_time": Rules(must_break_hearts=False),
    "queen_12": Rules(queen_points=12),
    "black_maria": Rules(black_maria=True),
    "three_players_black_maria": Rules(players=3, black_maria=True),
    "deck_36": Rules(deck=36, queen_points=5, last_trick_points=1),
}
"""Named presets; ``docs/rules.md`` describes each."""

PRESET_NAMES = tuple(PRESETS)


def preset_of(rules: Rules) -> str:
    """The name of the preset these rules are (``custom`` when none is).

    >>> preset_of(PRESETS["omnibus"]), preset_of(Rules(target=77))
    ('omnibus', 'custom')
    """
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


__all__ = ["PRESETS", "PRESET_NAMES", "SUITS", "Rules", "preset_of"]
