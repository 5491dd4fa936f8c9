"""A model of play: how likely a seat is to play each legal card (or pass
each card), from what every seat sees.

A softmax over hand-made features of the card and the *public* position:
following under or over the trick's winner, dumping the heavy card on
another seat's trick, discarding hearts or high cards when void, the suit
and rank of a lead, the points in the trick, whether hearts are broken. No
feature looks at the other cards of the hand, on purpose: the score of a card
is then the same in every world the expert samples, and the likelihood of a
play in a world only needs the sum of the scores of the cards that world
gives the seat (``bots/inference.py``). The weights are learned from deals of
bot play by ``python -m damepique.bots.training`` (``docs/bots.md``) and
shipped as ``data/reading.json``; standard library only.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(8))
>>> _ = deal.play(deal.legal_cards()[0])
>>> probs = card_probabilities(view_of(deal, deal.to_act))
>>> round(sum(probs.values()), 9), all(p > 0 for p in probs.values())
(1.0, True)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from damepique.engine import HEARTS_MASK, SUIT_MASKS, Rules, View, cards_of

from .tactics import big_cards

_SPADES = SUIT_MASKS[3]

PLAY_FEATURES = (
    # following suit
    "duck",
    "duck_rank",
    "win_rank",
    "win_last_clean",
    "win_points",
    "win_over_heavy_out",
    "dump_heavy",
    "take_heavy",
    "follow_heart",
    # void in the led suit
    "discard_heavy",
    "discard_heart",
    "discard_heart_rank",
    "discard_rank",
    "discard_high_spade",
    "discard_negative",
    # leading
    "lead_rank",
    "lead_heart",
    "lead_heart_rank",
    "lead_spade_smoke",
    "lead_spade_high",
    "lead_heavy",
    "lead_boss",
    "lead_club",
    "lead_diamond",
)
"""The features of a card played, by index (``data/reading.json`` names them)."""

PASS_FEATURES = (
    "rank",
    "high",
    "low",
    "heavy",
    "spade_high",
    "heart",
    "heart_rank",
    "club_rank",
    "diamond_rank",
    "spade_rank",
)
"""The features of a card passed (the card alone: see the module docstring)."""

_P = {name: i for i, name in enumerate(PLAY_FEATURES)}
_Q = {name: i for i, name in enumerate(PASS_FEATURES)}

SCORE_LIMIT = 30.0
"""Scores are clipped to this size, so no exponential underflows to zero: a
legal card always keeps some probability."""


@dataclass(frozen=True)
class Model:
    """Weights of the play and the pass softmax (zero weights: uniform)."""

    play: tuple[float, ...]
    passing: tuple[float, ...]

    @classmethod
    def uniform(cls) -> Model:
        """The model that says nothing: every legal card equally likely."""
        return cls((0.0,) * len(PLAY_FEATURES), (0.0,) * len(PASS_FEATURES))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        """From ``{"play": {feature: weight}, "pass": {...}}`` (missing: 0)."""
        play = data.get("play", {})
        passing = data.get("pass", {})
        return cls(
            tuple(float(play.get(n, 0.0)) for n in PLAY_FEATURES),
            tuple(float(passing.get(n, 0.0)) for n in PASS_FEATURES),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "play": {n: round(w, 5) for n, w in zip(PLAY_FEATURES, self.play, strict=True)},
            "pass": {n: round(w, 5) for n, w in zip(PASS_FEATURES, self.passing, strict=True)},
        }


@cache
def default_model() -> Model:
    """The trained weights shipped with the package (``data/reading.json``)."""
    text = files("damepique").joinpath("data/reading.json").read_text(encoding="utf-8")
    return Model.from_json(json.loads(text))


@dataclass(frozen=True)
class Position:
    """The public position before one play: what every seat sees."""

    seat: int
    """The seat to play."""
    trick: tuple[int, ...]
    led: int
    """The led suit's mask (0 when leading)."""
    winning: int
    """The card winning the trick so far (-1 when leading)."""
    points: int
    """Points in the trick so far."""
    last: bool
    """Last to play to the trick."""
    first: bool
    """The first trick of the deal."""
    broken: bool
    """Hearts broken (as the engine breaks them)."""
    played: int
    """Cards played before this one, the trick's included."""
    forced: bool
    """The first lead, when the rules name its card: no choice to read."""


def positions(rules: Rules, plays: Sequence[tuple[int, int]]) -> Iterator[tuple[Position, int]]:
    """Each play of ``plays`` (seat, card) with the public position it was made in."""
    n = rules.players
    pts = rules.card_points
    broken = not rules.must_break_hearts
    played = 0
    trick: list[int] = []
    led = 0
    winning = -1
    points = 0
    for i, (seat, c) in enumerate(plays):
        pos = i % n
        if pos == 0:
            trick = []
            led = 0
            winning = -1
            points = 0
        yield (
            Position(
                seat,
                tuple(trick),
                led,
                winning,
                points,
                pos == n - 1,
                i < n,
                broken,
                played,
                i == 0 and rules.first_lead != "any",
            ),
            c,
        )
        bit = 1 << c
        if pos == 0:
            led = SUIT_MASKS[c // 13]
            winning = c
        elif led & bit and c > winning:
            winning = c
        if rules.breaks_mask & bit or (pos and not led & bit and rules.discard_breaks_mask & bit):
            broken = True
        trick.append(c)
        points += pts[c]
        played |= bit


def legal_in(rules: Rules, at: Position, hand: int) -> int:
    """The legal cards of ``hand`` at ``at``: ``Deal.legal_mask``'s rules
    (``engine.legal_mask_for``, which a test holds this to), restated here
    because inference asks it for every play in every world it weighs."""
    if at.trick:
        follow = hand & at.led
        if follow:
            return follow
        if at.first:
            safe = hand & ~rules.first_trick_mask
            if safe:
                return safe
            hearts = hand & rules.first_trick_hearts
            if hearts:
                return hearts
        return hand
    if at.first:
        safe = hand & ~rules.first_trick_mask
        if safe:
            hand = safe
    if not at.broken:
        safe = hand & ~HEARTS_MASK
        if safe:
            return safe
    return hand


def play_features(rules: Rules, at: Position, c: int) -> list[tuple[int, float]]:
    """The non-zero features of playing ``c`` at ``at`` (index, value)."""
    pts = rules.card_points
    big = big_cards(rules)
    bit = 1 << c
    rank = (c % 13) / 12.0
    heavy_out = big & ~at.played
    out: list[tuple[int, float]] = []
    if at.trick:
        if at.led & bit:
            if c < at.winning:
                out.append((_P["duck"], 1.0))
                out.append((_P["duck_rank"], rank))
                if big & bit:
                    out.append((_P["dump_heavy"], 1.0))
            else:
                out.append((_P["win_rank"], rank))
                if at.last and at.points <= 0:
                    out.append((_P["win_last_clean"], 1.0))
                if at.points > 0:
                    out.append((_P["win_points"], min(at.points, 13) / 13.0))
                if big & bit:
                    out.append((_P["take_heavy"], 1.0))
                elif not at.last and heavy_out & at.led & ~((1 << (c + 1)) - 1) == 0 and heavy_out & at.led:
                    # Above every heavy card of the suit still out: it may be dropped on this one.
                    out.append((_P["win_over_heavy_out"], 1.0))
            if HEARTS_MASK & bit:
                out.append((_P["follow_heart"], 1.0))
        else:
            if big & bit:
                out.append((_P["discard_heavy"], 1.0))
            elif HEARTS_MASK & bit:
                out.append((_P["discard_heart"], 1.0))
                out.append((_P["discard_heart_rank"], rank))
            out.append((_P["discard_rank"], rank))
            if _SPADES & bit and heavy_out & _SPADES & ((1 << c) - 1):
                out.append((_P["discard_high_spade"], 1.0))
            if pts[c] < 0:
                out.append((_P["discard_negative"], 1.0))
        return out
    out.append((_P["lead_rank"], rank))
    if HEARTS_MASK & bit:
        out.append((_P["lead_heart"], 1.0))
        out.append((_P["lead_heart_rank"], rank))
    elif _SPADES & bit:
        above = heavy_out & _SPADES & ~((1 << (c + 1)) - 1)
        if big & bit:
            out.append((_P["lead_heavy"], 1.0))
        elif above:
            out.append((_P["lead_spade_smoke"], 1.0))
        elif heavy_out & _SPADES:
            out.append((_P["lead_spade_high"], 1.0))
    elif c < 13:
        out.append((_P["lead_club"], 1.0))
    else:
        out.append((_P["lead_diamond"], 1.0))
    suit = SUIT_MASKS[c // 13] & rules.deck_mask
    if not suit & ~at.played & ~((1 << (c + 1)) - 1):
        out.append((_P["lead_boss"], 1.0))
    return out


def pass_features(rules: Rules, c: int) -> list[tuple[int, float]]:
    """The non-zero features of passing ``c`` (index, value)."""
    bit = 1 << c
    r = c % 13
    rank = r / 12.0
    out = [(_Q["rank"], rank)]
    if r >= 9:
        out.append((_Q["high"], 1.0))
    if r <= 4:
        out.append((_Q["low"], 1.0))
    if big_cards(rules) & bit:
        out.append((_Q["heavy"], 1.0))
    suit = c // 13
    if suit == 3:
        if r >= 10:
            out.append((_Q["spade_high"], 1.0))
        out.append((_Q["spade_rank"], rank))
    elif suit == 2:
        out.append((_Q["heart"], 1.0))
        out.append((_Q["heart_rank"], rank))
    elif suit == 1:
        out.append((_Q["diamond_rank"], rank))
    else:
        out.append((_Q["club_rank"], rank))
    return out


def _exp(w: tuple[float, ...], feats: list[tuple[int, float]]) -> float:
    s = 0.0
    for i, v in feats:
        s += w[i] * v
    return math.exp(max(-SCORE_LIMIT, min(SCORE_LIMIT, s)))


def play_strengths(model: Model, rules: Rules, at: Position, cards: int) -> dict[int, float]:
    """``exp(score)`` of each card of ``cards`` at ``at`` (unnormalised)."""
    w = model.play
    return {c: _exp(w, play_features(rules, at, c)) for c in cards_of(cards)}


def pass_strengths(model: Model, rules: Rules, cards: int) -> dict[int, float]:
    """``exp(score)`` of passing each card of ``cards`` (unnormalised)."""
    w = model.passing
    return {c: _exp(w, pass_features(rules, c)) for c in cards_of(cards)}


def _normalised(strength: dict[int, float]) -> dict[int, float]:
    total = sum(strength.values())
    return {c: s / total for c, s in strength.items()}


def play_probabilities(model: Model, rules: Rules, at: Position, hand: int) -> dict[int, float]:
    """The probability of each legal card of ``hand`` at ``at``: they sum to
    one, and none is zero."""
    return _normalised(play_strengths(model, rules, at, legal_in(rules, at, hand)))


def pass_probabilities(model: Model, rules: Rules, hand: int) -> dict[int, float]:
    """The probability of each card of ``hand`` being the first one passed."""
    return _normalised(pass_strengths(model, rules, hand))


def position_of(view: View) -> Position:
    """The public position of the seat to act in ``view`` (play phase)."""
    rules = view.rules
    for at, _ in positions(rules, (*view.plays, (view.to_act or 0, 0))):
        last = at
    return Position(
        view.to_act if view.to_act is not None else view.seat,
        last.trick,
        last.led,
        last.winning,
        last.points,
        last.last,
        last.first,
        view.hearts_broken,
        last.played,
        view.lead_card is not None,
    )


def card_probabilities(view: View, model: Model | None = None) -> dict[int, float]:
    """For the seat viewing, to act in the play phase: each legal card's
    probability under the model (``default_model()`` unless given)."""
    m = model or default_model()
    legal = view.legal_mask()
    return _normalised(play_strengths(m, view.rules, position_of(view), legal))
