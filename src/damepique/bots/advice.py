"""Advice for the training mode: every legal card (or the best passes),
its expected points with a standard error, and a reason code.

The estimates come from the expert's search (``montecarlo``) over worlds
consistent with the seat's view. ``score`` is the expected points of this
deal for the seat (lower is better); ``extra["payoff"]`` the expected payoff
(mean of the others' points minus own); ``stderr`` the standard error of
``score``. The best option is the one the expert would choose. An option is a
``mistake`` only when its expected loss exceeds the best's by more than 1.5
combined standard errors (``sqrt(se_a**2 + se_b**2)`` of the two means).

Reason codes are stable snake_case words documented in ``docs/bots.md``; the
web UI translates them.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(8))
>>> advice = advise(view_of(deal, deal.to_act), playouts=50)
>>> [(a.reason, a.best) for a in advice]
[('only_card', True)]
"""

from __future__ import annotations

import math
import random

from damepique.engine import HEARTS_MASK, PASS, SUIT_MASKS, SUIT_NAMES, View, cards_of

from .base import Advice
from .montecarlo import SOFT_INFERENCE, CardStats, _stderr, candidate_passes, evaluate_pass, evaluate_play
from .tactics import big_cards, moon_threat, trick_state

ADVICE_PLAYOUTS = 2000
"""Default play-outs for advice: all legal cards within 500 ms (see benchmarks)."""

MISTAKE_SE = 1.5

REASONS = (
    "only_card",
    "shoots_moon",
    "stops_moon",
    "dumps_queen",
    "gives_points",
    "takes_points",
    "takes_jack",
    "wins_trick",
    "ducks",
    "follows_low",
    "follows_high",
    "smokes_queen",
    "leads_low",
    "leads_high",
    "leads_hearts",
    "unguards_queen",
    "keeps_queen_guarded",
    "voids_clubs",
    "voids_diamonds",
    "voids_hearts",
    "voids_spades",
    "discards_high",
    "passes_queen",
    "passes_high_spades",
    "passes_high_hearts",
    "passes_high_cards",
    "passes_low_cards",
)
"""Every reason code advice can give."""


def advise(
    view: View,
    rng: random.Random | None = None,
    playouts: int = ADVICE_PLAYOUTS,
    top_passes: int = 3,
) -> list[Advice]:
    """Advice for the seat of ``view``, best option first.

    In the play phase: one entry per legal card. In the pass phase: the
    ``top_passes`` best candidate passes. Deterministic for a given view and
    generator (default: ``random.Random(0)``).
    """
    rng = rng or random.Random(0)
    if view.phase == PASS:
        return _advise_pass(view, rng, playouts, top_passes)
    legal = view.legal_mask()
    if not legal:
        return []
    if legal & (legal - 1) == 0:
        c = legal.bit_length() - 1
        return [Advice((c,), 0.0, 0.0, "only_card", False, True)]
    # Every card gets every world (no racing), with what the expert knows.
    stats, groups, mode = evaluate_play(view, rng, playouts, infer=SOFT_INFERENCE)
    best = min(stats.values(), key=lambda s: (s.mean, s.card))
    out = []
    for group in groups:
        st = stats[group[0]]
        for c in group:
            reason = reason_for_play(view, c)
            if mode == "shoot" and st is best:
                reason = "shoots_moon"
            out.append(_advice((c,), st, best, reason))
    out.sort(key=lambda a: (not a.best, a.extra["utility"], a.cards))
    return out


def _advice(cards: tuple[int, ...], st: CardStats, best: CardStats, reason: str) -> Advice:
    se_u = _stderr(st.utility)
    se_b = _stderr(best.utility)
    gap = st.mean - best.mean
    combined = math.sqrt(se_u**2 + se_b**2)
    mistake = st is not best and gap > MISTAKE_SE * combined and gap > 1e-9
    return Advice(
        cards=cards,
        score=round(st.mean_points, 3),
        stderr=round(_stderr(st.points), 3),
        reason=reason,
        mistake=mistake,
        best=st is best,
        extra={
            "payoff": round(-st.mean, 3),
            "utility": round(st.mean, 3),
            "utility_stderr": round(se_u, 3),
            "moon_share": round(st.moons / len(st.utility), 3) if st.utility else 0.0,
            "samples": float(len(st.utility)),
        },
    )


def _advise_pass(view: View, rng: random.Random, playouts: int, top: int) -> list[Advice]:
    cands = candidate_passes(view, limit=max(6, top + 2))
    stats = evaluate_pass(view, rng, cands, playouts)
    ranked = sorted(cands, key=lambda cs: (stats[cs].mean, cands.index(cs)))
    best = stats[ranked[0]]
    out = []
    for cs in ranked[:top]:
        out.append(_advice(tuple(sorted(cs)), stats[cs], best, reason_for_pass(view, cs)))
    return out


# -- reason codes ----------------------------------------------------------------


def reason_for_pass(view: View, cards: tuple[int, ...]) -> str:
    rules = view.rules
    hand = view.hand
    mask = 0
    for c in cards:
        mask |= 1 << c
    big = big_cards(rules)
    if mask & big:
        return "passes_queen"
    for s in range(4):
        if hand & SUIT_MASKS[s] and not hand & SUIT_MASKS[s] & ~mask:
            return f"voids_{SUIT_NAMES[s]}"
    if hand & big:
        return "keeps_queen_guarded"
    spades_big = big & SUIT_MASKS[3]
    if spades_big and mask & SUIT_MASKS[3] & ~((1 << (spades_big & -spades_big).bit_length()) - 1):
        return "passes_high_spades"
    if mask & HEARTS_MASK and any(c % 13 >= 8 for c in cards if HEARTS_MASK >> c & 1):
        return "passes_high_hearts"
    if sum(c % 13 for c in cards) >= 8 * len(cards):
        return "passes_high_cards"
    return "passes_low_cards"


def reason_for_play(view: View, card: int) -> str:
    """A short code for what playing ``card`` does now."""
    rules = view.rules
    pts = rules.card_points
    big = big_cards(rules)
    hand = view.hand
    suit = SUIT_MASKS[card // 13]
    last_of_suit = not hand & suit & ~(1 << card)
    threat = moon_threat(view)
    if not view.trick:
        if threat is not None and threat != view.seat and HEARTS_MASK >> card & 1:
            return "stops_moon"
        big_out = view.unseen & big & suit
        if big_out and card < (big_out & -big_out).bit_length() - 1 and not hand & big & suit:
            return "smokes_queen"
        if HEARTS_MASK >> card & 1:
            return "leads_hearts"
        if last_of_suit and card // 13 != 2:
            return f"voids_{SUIT_NAMES[card // 13]}"
        higher_out = view.unseen & suit & ~((1 << (card + 1)) - 1)
        lower_out = view.unseen & suit & ((1 << card) - 1)
        return "leads_low" if higher_out.bit_count() >= lower_out.bit_count() else "leads_high"
    led, win_card, win_seat, trick_pts = trick_state(view)
    n = rules.players
    last = len(view.trick) == n - 1
    if led >> card & 1:
        wins = card > win_card
        if big >> card & 1 and not wins:
            return "dumps_queen"
        if wins:
            if threat is not None and threat == win_seat and threat != view.seat and trick_pts > 0:
                return "stops_moon"
            if trick_pts < 0 or (pts[card] < 0):
                return "takes_jack"
            if trick_pts > 0 or pts[card] > 0:
                return "takes_points"
            if last:
                return "wins_trick"
            if hand & big & suit and card // 13 == 3:
                return "keeps_queen_guarded"
            return "follows_high"
        if hand & big & suit and not big >> card & 1 and (hand & suit).bit_count() <= 2:
            return "unguards_queen"
        if trick_pts > 0 or card < win_card:
            below = hand & suit & ((1 << win_card) - 1)
            if card == below.bit_length() - 1 and below & (below - 1):
                return "ducks"
            return "follows_low" if card == (hand & suit & -(hand & suit)).bit_length() - 1 else "ducks"
        return "follows_low"
    # A discard.
    if big >> card & 1:
        return "dumps_queen"
    if threat is not None and threat == win_seat and threat != view.seat and pts[card] > 0:
        return "gives_points"
    if last_of_suit:
        return f"voids_{SUIT_NAMES[card // 13]}"
    if pts[card] > 0:
        return "gives_points"
    return "discards_high"


def describe(advice: list[Advice]) -> str:
    """A plain-text table of advice, for people and for debugging."""
    from damepique.engine import CARD_NAMES

    lines = []
    for a in advice:
        cards = " ".join(CARD_NAMES[c] for c in a.cards)
        flag = " best" if a.best else (" MISTAKE" if a.mistake else "")
        lines.append(f"{cards:<9} {a.score:6.2f} ± {a.stderr:4.2f}  {a.reason}{flag}")
    return "\n".join(lines)


__all__ = [
    "ADVICE_PLAYOUTS",
    "REASONS",
    "advise",
    "cards_of",
    "describe",
    "reason_for_pass",
    "reason_for_play",
]
