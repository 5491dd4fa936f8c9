"""Advice for the training mode: every legal card (or the best passes), its
expected points with a standard error, a reason code, what happens with it
in the play-outs, and a sentence that says what separates two options.

The estimates come from the expert's search (``montecarlo``, with the
expert's default model: its knowledge, soft inference and moon watch) over
worlds consistent with the seat's view, without racing so that every option
gets every world.

- ``score``: the expected points of this deal for the seat (lower is better);
  ``stderr`` its standard error.
- ``outcomes``: ``queen``, the chance that this seat takes the queen of
  spades (in Black Maria, any heavy card: the queen, king or ace of spades)
  by the end of the deal; ``hearts``, the hearts it takes on average;
  ``moon_by_self`` and ``moon_by_other``, the chance that it, or another
  seat, shoots the moon. Chances are shares of the worlds played out.
- ``cost``: what the option loses against the best in the expert's measure,
  the expected payoff (the mean of the others' points minus its own).
- ``mistake``: clearly worse than the best (by more than 1.5 combined
  standard errors, ``sqrt(se_a**2 + se_b**2)``) *and* costly: a ``cost`` of
  half a point of payoff or more, and half an expected point or more than
  the best's ``score`` (what the page shows).
- ``reason``: a code of ``reasons.REASONS`` (``docs/bots.md`` defines each).

``compare`` picks the outcome that separates two options most and returns
it as data (``Comparison``); ``sentence`` puts it into words in English or
French, with the page's words (``damepique.words``: no copy here).
``hint`` gives the best card alone, as fast as the expert decides.
``review`` goes over a finished deal and lists a seat's costliest choices.

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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from damepique.engine import CARD_NAMES, DONE, PASS, Deal, Rules, View, cards_of, view_of
from damepique.words import card_short, number, percent, phrase

from .base import Advice
from .expert_options import ExpertOptions
from .montecarlo import (
    CardStats,
    _stderr,
    candidate_passes,
    choose_from,
    evaluate_pass,
    evaluate_play,
    paired_stderr,
)
from .reasons import REASONS, reason_for_pass, reason_for_play, reason_words
from .tactics import big_cards

ADVICE_PLAYOUTS = 2000
"""Default play-outs for advice: all legal cards within 500 ms (see benchmarks)."""

MISTAKE_SE = 1.5
"""A mistake is worse than the best by more than this many combined standard errors..."""

MISTAKE_COST = 0.5
"""... and costs at least this much expected payoff and expected points."""

OUTCOME_KEYS = ("queen", "hearts", "moon_by_self", "moon_by_other")

_EXPERT = ExpertOptions()


def advise(
    view: View,
    rng: random.Random | None = None,
    playouts: int = ADVICE_PLAYOUTS,
    top_passes: int = 3,
    reading: bool = _EXPERT.reading,
) -> list[Advice]:
    """Advice for the seat of ``view``, best option first.

    In the play phase: one entry per legal card. In the pass phase: the
    ``top_passes`` best candidate passes. Deterministic for a given view and
    generator (default: ``random.Random(0)``). ``reading``: worlds weighed by
    the others' plays, as the expert weighs them (``ExpertOptions.reading``).
    """
    rng = rng or random.Random(0)
    if view.phase == PASS:
        return _advise_pass(view, rng, playouts, top_passes)
    legal = view.legal_mask()
    if not legal:
        return []
    stats, groups, mode = _search(view, rng, playouts, race=False, reading=reading)
    best = min(stats.values(), key=lambda s: (s.mean, s.card))
    out = []
    for group in groups:
        st = stats[group[0]]
        for c in group:
            reason = reason_for_play(view, c)
            if mode == "shoot" and st is best and reason != "only_card":
                reason = "shoots_moon"
            out.append(_advice((c,), st, best, reason))
    out.sort(key=lambda a: (not a.best, a.extra["utility"], a.cards))
    return out


def _search(
    view: View, rng: random.Random, playouts: int, race: bool, reading: bool = _EXPERT.reading
) -> tuple[dict[int, CardStats], list[list[int]], str]:
    o = _EXPERT
    return evaluate_play(
        view,
        rng,
        playouts,
        race=race,
        defend=o.defend,
        infer=o.infer,
        objective=o.objective,
        allies=o.allies,
        watch=o.watch,
        reading=reading,
    )


def _advice(cards: tuple[int, ...], st: CardStats, best: CardStats, reason: str) -> Advice:
    se_u = _stderr(st.utility)
    gap = st.mean - best.mean
    combined = math.sqrt(se_u**2 + _stderr(best.utility) ** 2)
    cost = max(0.0, gap) if st is not best else 0.0
    # The page shows expected points, so a mistake must cost half a point there
    # too: a card the payoff finds worse by giving the others fewer points (or
    # by a moon it no longer tries) is not called a mistake at equal points.
    points_gap = st.mean_points - best.mean_points
    mistake = (
        st is not best and gap > MISTAKE_SE * combined and cost >= MISTAKE_COST and points_gap >= MISTAKE_COST
    )
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
        outcomes={k: round(v, 3) for k, v in st.outcomes().items()},
        cost=round(cost, 3),
    )


def _advise_pass(view: View, rng: random.Random, playouts: int, top: int) -> list[Advice]:
    cands = candidate_passes(view, limit=max(6, top + 2))
    stats = evaluate_pass(view, rng, cands, playouts)
    ranked = sorted(cands, key=lambda cs: (stats[cs].mean, cands.index(cs)))
    best = stats[ranked[0]]
    return [_advice(tuple(sorted(cs)), stats[cs], best, reason_for_pass(view, cs)) for cs in ranked[:top]]


# -- the hint ---------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """The best option alone (``advice``), and how it compares with the
    runner-up the search kept longest (``comparison``; None when there was
    no other option)."""

    advice: Advice
    comparison: Comparison | None


def hint(view: View, rng: random.Random | None = None, playouts: int = _EXPERT.playouts) -> Hint:
    """The best card (or pass) as the expert would choose it, with racing:
    as fast as one of its decisions (``advise`` plays every option out).
    In the pass phase: the best of the candidate passes."""
    rng = rng or random.Random(0)
    if view.phase == PASS:
        advice = advise(view, rng, playouts, top_passes=2)
        return Hint(advice[0], compare(advice[1], advice[0], view.rules) if len(advice) > 1 else None)
    stats, groups, mode = _search(view, rng, playouts, race=True)
    card = choose_from(stats, groups)
    best = stats[card]
    reason = reason_for_play(view, card)
    if mode == "shoot" and reason != "only_card":
        reason = "shoots_moon"
    top = _advice((card,), best, best, reason)
    others = [s for s in stats.values() if s is not best]
    if not others:
        return Hint(top, None)
    # The runner-up: the candidate that stayed in the race longest, then the
    # best mean over the worlds it shared with the best.
    runner = max(others, key=lambda s: (len(s.utility), -s.mean, -s.card))
    k = len(runner.utility)
    head = _head(best, k)
    second = _advice((runner.card,), runner, head, reason_for_play(view, runner.card))
    return Hint(top, compare(second, _advice((card,), head, head, reason), view.rules))


def _head(st: CardStats, k: int) -> CardStats:
    """The stats of ``st`` over its first ``k`` worlds only (so that two
    options compare over the same worlds). Outcome counts are scaled."""
    n = len(st.utility)
    if k >= n:
        return st
    share = k / n if n else 0.0
    return CardStats(
        st.card,
        st.utility[:k],
        st.points[:k],
        round(st.moons * share),
        round(st.conceded * share),
        round(st.queen * share),
        round(st.hearts * share),
        st.mode,
    )


# -- comparing two options ----------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """What separates option ``cards`` from option ``other``: the outcome
    ``key`` (one of ``OUTCOME_KEYS``, or ``expected_points``) and its value
    with each (``value`` with ``cards``, ``other_value`` with ``other``).
    ``sentence`` puts it into words."""

    cards: tuple[int, ...]
    other: tuple[int, ...]
    key: str
    value: float
    other_value: float

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [CARD_NAMES[c] for c in self.cards],
            "other": [CARD_NAMES[c] for c in self.other],
            "key": self.key,
            "value": self.value,
            "other_value": self.other_value,
        }


def compare(a: Advice, b: Advice, rules: Rules) -> Comparison:
    """The outcome whose difference between ``a`` and ``b`` weighs most in
    points (the queen by her points, a heart by its point, a moon by the
    moon's points), or the expected points when none weighs a quarter point.

    >>> from damepique.engine import Rules
    >>> def outcomes(queen, hearts):
    ...     return {"queen": queen, "hearts": hearts, "moon_by_self": 0.0, "moon_by_other": 0.0}
    >>> a = Advice((47,), 4.0, 0.2, "follows_high", outcomes=outcomes(0.23, 1.1))
    >>> b = Advice((41,), 1.2, 0.2, "ducks", outcomes=outcomes(0.04, 0.9))
    >>> compare(a, b, Rules()).key
    'queen'
    """
    pts = rules.card_points
    heavy = big_cards(rules)
    weights = {
        "queen": float(max((pts[c] for c in cards_of(heavy)), default=0)),
        "hearts": float(max(pts[c] for c in range(26, 39))),
        "moon_by_self": float(rules.moon_points),
        "moon_by_other": float(rules.moon_points),
    }
    best_key = "expected_points"
    best_weight = 0.25
    for key in OUTCOME_KEYS:
        if key not in a.outcomes or key not in b.outcomes:
            continue
        w = abs(a.outcomes[key] - b.outcomes[key]) * weights[key]
        if w > best_weight:
            best_key, best_weight = key, w
    if best_key == "expected_points":
        return Comparison(a.cards, b.cards, best_key, round(a.score, 2), round(b.score, 2))
    return Comparison(a.cards, b.cards, best_key, a.outcomes[best_key], b.outcomes[best_key])


def card_words(card: int, lang: str = "en") -> str:
    """A card as a person reads it: ``Q♠`` in English, ``D♠`` in French (the
    page's ``cardShort``, from its words).

    >>> card_words(49, "fr"), card_words(34, "en")
    ('D♠', '10♥')
    """
    return card_short(CARD_NAMES[card], lang)


SHARES = frozenset({"queen", "moon_by_self", "moon_by_other"})
"""The outcomes that are shares of the deals played out, said as percentages."""


def sentence(comparison: Comparison, lang: str = "en", rules: Rules | None = None) -> str:
    """``comparison`` in words, in English (``"en"``) or French (``"fr"``):
    the page's ``cmp_KEY`` (``web/strings``; ``KEY_same`` where the two
    values read the same at the precision shown: the two are about equal),
    exactly as the page's ``advice.js`` says it.

    >>> c = Comparison((47,), (41,), "queen", 0.23, 0.04)
    >>> sentence(c)
    'With 10♠ you take the queen of spades in 23% of the deals played out; with 4♠, in 4%.'
    >>> sentence(c, "fr").replace("\u202f", " ")
    'Avec 10♠, vous prenez la dame de pique dans 23 % des donnes jouées ; avec 4♠, dans 4 %.'
    """
    key = comparison.key
    template_key = key
    if key == "queen" and rules is not None and big_cards(rules).bit_count() > 1:
        template_key = "queen_heavy"

    def value(x: float) -> str:
        return percent(x, lang) if key in SHARES else number(x, 1, lang)

    def cards(cs: tuple[int, ...]) -> str:
        return " ".join(card_words(c, lang) for c in cs)

    va, vb = value(comparison.value), value(comparison.other_value)
    # Two numbers that read the same would compare nothing: say they are about equal.
    template = f"cmp_{template_key}_same" if va == vb else f"cmp_{template_key}"
    return phrase(template, lang, a=cards(comparison.cards), b=cards(comparison.other), va=va, vb=vb)


# -- JSON for the command line and the server ------------------------------------------


def advice_json(a: Advice) -> dict[str, Any]:
    """One option as ``damepique advise`` prints it."""
    return {
        "cards": [CARD_NAMES[c] for c in a.cards],
        "expected_points": round(float(a.score), 2),
        "stderr": round(float(a.stderr), 2),
        "reason": a.reason,
        "best": bool(a.best),
        "mistake": bool(a.mistake),
        "outcomes": {k: round(float(a.outcomes.get(k, 0.0)), 3) for k in OUTCOME_KEYS},
    }


def hint_json(h: Hint) -> dict[str, Any]:
    """A hint for the wire: the best option as ``advice_json`` writes it, its
    cost-free comparison with the runner-up (or None), for the page to say
    with its ``cmp_KEY`` words."""
    return {
        "advice": advice_json(h.advice),
        "comparison": None if h.comparison is None else h.comparison.to_json(),
    }


# -- reviewing a finished deal ------------------------------------------------------------


@dataclass(frozen=True)
class ReviewItem:
    """One choice of the seat in a finished deal, against the expert's.

    ``play`` is the index of the card in the deal's plays (None for the
    pass); ``view`` the seat's view at that moment (its hand, the trick so
    far: what a page shows of the position); ``chosen`` and ``best`` the
    advice for what the seat did and for the best option (the same when it
    chose the best); ``comparison`` what separates them."""

    play: int | None
    trick: int
    view: View
    chosen: Advice
    best: Advice
    comparison: Comparison | None

    @property
    def cost(self) -> float:
        return self.chosen.cost

    def to_json(self) -> dict[str, Any]:
        """For the wire: where (``play``: the index in the deal's plays, to
        replay from; None for the pass; ``trick``), the position (``hand``,
        ``trick_cards`` so far), the cards chosen and the best, the cost in
        expected payoff, whether it is a mistake, and the comparison."""
        return {
            "play": self.play,
            "trick": self.trick,
            "hand": [CARD_NAMES[c] for c in cards_of(self.view.hand)],
            "trick_cards": [CARD_NAMES[c] for c in self.view.trick],
            "chosen": advice_json(self.chosen),
            "best": advice_json(self.best),
            "cost": round(self.chosen.cost, 2),
            "mistake": self.chosen.mistake,
            "comparison": None if self.comparison is None else self.comparison.to_json(),
        }


@dataclass(frozen=True)
class ReviewSoFar:
    """A review of ``seat``'s choices in one deal, taken decision by decision
    (``review_next``): the ``items`` found so far, in playing order, and the
    state of the one generator the search draws from (``rng_state``), carried
    from each decision to the next. Reviewing a deal's decisions one at a time
    as they are made therefore gives exactly the items of ``review`` run on the
    finished deal (the server prepares a deal's review so while it is played).
    ``passed``: the pass has been looked at (or there is none); ``next_play``:
    the plays before this index have been."""

    seat: int
    totals: tuple[int, ...]
    playouts: int
    rng_state: tuple[Any, ...]
    items: tuple[ReviewItem, ...] = ()
    passed: bool = False
    next_play: int = 0


def review_start(
    seat: int, totals: Sequence[int] = (), playouts: int = ADVICE_PLAYOUTS, rng: random.Random | None = None
) -> ReviewSoFar:
    """A review of ``seat``'s choices with nothing looked at yet (the
    generator default: ``random.Random(0)``)."""
    return ReviewSoFar(seat, tuple(totals), playouts, (rng or random.Random(0)).getstate())


def review_next(deal: Deal, so_far: ReviewSoFar) -> ReviewSoFar | None:
    """``so_far`` one decision further: the seat's next decision already made
    in ``deal`` (finished or still being played) advised from the seat's view
    at that moment (the search never sees another hand); None when the seat
    has made no decision that is not looked at yet. A pass counts as a choice
    when it was among the candidate passes' best few (else its cost is
    unknown and it is left out); a choice that matches the best costs 0."""
    rules = deal.rules
    seat = so_far.seat
    rng = random.Random()
    rng.setstate(so_far.rng_state)
    replay = Deal(rules, list(deal.dealt), deal.kitty, deal.number)
    if replay.phase == PASS:
        if not so_far.passed:
            given = deal.passes[seat]
            if given is None:
                return None
            view = view_of(replay, seat, so_far.totals)
            advice = advise(view, rng, so_far.playouts, top_passes=6)
            chosen = next((a for a in advice if sum(1 << c for c in a.cards) == given), None)
            found = (
                ()
                if chosen is None
                else (ReviewItem(None, 0, view, chosen, advice[0], compare(chosen, advice[0], rules)),)
            )
            return replace(so_far, items=so_far.items + found, passed=True, rng_state=rng.getstate())
        if any(p is None for p in deal.passes):
            return None
        for s, p in enumerate(deal.passes):
            assert p is not None
            replay.pass_cards(s, p)
    for i, card in enumerate(deal.plays):
        if i >= so_far.next_play and replay.to_act == seat:
            view = view_of(replay, seat, so_far.totals)
            advice = advise(view, rng, so_far.playouts)
            chosen = next(a for a in advice if a.cards == (card,))
            best = advice[0]
            comparison = None if chosen is best else compare(chosen, best, rules)
            item = ReviewItem(i, i // rules.players, view, chosen, best, comparison)
            return replace(so_far, items=(*so_far.items, item), next_play=i + 1, rng_state=rng.getstate())
        replay.play_unchecked(card)
    return None


def review_rest(deal: Deal, so_far: ReviewSoFar, top: int | None = 3) -> list[ReviewItem]:
    """The review of the finished ``deal`` from ``so_far`` on (its decisions
    not looked at yet, then all of them): ``review``'s items."""
    if deal.phase != DONE:
        raise ValueError("review: the deal is not finished")
    while (further := review_next(deal, so_far)) is not None:
        so_far = further
    if top is None:
        return list(so_far.items)
    costly = sorted((it for it in so_far.items if it.cost > 0), key=lambda it: (-it.cost, it.play or -1))
    return costly[:top]


def review(
    deal: Deal,
    seat: int,
    totals: Sequence[int] = (),
    playouts: int = ADVICE_PLAYOUTS,
    rng: random.Random | None = None,
    top: int | None = 3,
) -> list[ReviewItem]:
    """The seat's choices in the finished ``deal`` that cost the most, the
    costliest first (``top`` of them; None: every choice, in playing order),
    each decision advised in turn (``review_next``)."""
    return review_rest(deal, review_start(seat, totals, playouts, rng), top)


def describe(advice: list[Advice], lang: str = "en") -> str:
    """A plain-text table of advice, for people and for debugging."""
    lines = []
    for a in advice:
        cards = " ".join(CARD_NAMES[c] for c in a.cards)
        flag = " best" if a.best else (" MISTAKE" if a.mistake else "")
        o = a.outcomes
        lines.append(
            f"{cards:<9} {a.score:6.2f} ± {a.stderr:4.2f}  queen {o.get('queen', 0):4.0%}"
            f"  hearts {o.get('hearts', 0):4.1f}  {reason_words(a.reason, lang)}{flag}"
        )
    return "\n".join(lines)


__all__ = [
    "ADVICE_PLAYOUTS",
    "MISTAKE_COST",
    "MISTAKE_SE",
    "OUTCOME_KEYS",
    "REASONS",
    "Comparison",
    "Hint",
    "ReviewItem",
    "ReviewSoFar",
    "advice_json",
    "advise",
    "card_words",
    "compare",
    "describe",
    "hint",
    "hint_json",
    "paired_stderr",
    "reason_for_pass",
    "reason_for_play",
    "review",
    "review_next",
    "review_rest",
    "review_start",
    "sentence",
]
