"""Game analysis: every decision of one seat in a game, rated by the expert.

For each pass and each card the seat chose, the expert's search (the one
the training advice runs: ``advice.advise``, no racing, so every option gets
every world) estimates the expected payoff of every legal choice from the
seat's view at that moment, and only from it: the view is all the search
is handed (``engine.view_of``), so a card the seat had not seen can never
change a rating. Then:

- ``loss``: the expected payoff of the best choice minus that of the choice
  made (payoff: the mean of the others' points minus the seat's own, so a
  moon conceded costs what it costs); never negative, 0 for the best.
- ``verdict``: ``best`` (the expert's choice, or a card equivalent to it),
  ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` by the loss
  (``THRESHOLDS``); ``only`` for a forced card, which is never rated.
- ``accuracy``: per rated decision ``100 * exp(-loss / ACCURACY_SCALE)``,
  averaged over the rated decisions of a deal or of the game (100 when
  there is none): a larger loss can only lower it.
- ``reason``: the advice's sentence (``advice.sentence``) for what
  separates the choice made from the best one in the best's favour
  (``why``), with numbers.

A pass is rated against the expert's candidate passes (``candidate_passes``)
plus the pass made: there are too many passes to play every one out.

Each decision has its own generator, seeded from ``seed``, the deal and the
decision's place, so a result does not depend on ``jobs`` or on the order
the decisions are rated in.

>>> import random
>>> from damepique.engine import Match, Rules
>>> from damepique.bots import get_bot
>>> match = play_game(Rules(target=1), [get_bot("random")] * 4, random.Random(4))
>>> result = analyze(match, seat=0, playouts=20)
>>> sorted(result.to_json())
['accuracy', 'analyst', 'counts', 'deals', 'decisions', 'seat']
>>> verdict_of(2.5), verdict_of(0.7), verdict_of(0.0)
('blunder', 'inaccuracy', 'good')
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from damepique.engine import CARD_NAMES, PASS, PLAY, Deal, Match, Rules, View, cards_of, view_of
from damepique.engine.record import RecordError, replay

from .advice import ADVICE_PLAYOUTS, Comparison, _advice, advise, compare, sentence
from .base import Advice, Bot
from .montecarlo import candidate_passes, evaluate_pass
from .reasons import reason_for_pass
from .tactics import big_cards

ANALYSIS_PLAYOUTS = ADVICE_PLAYOUTS
"""Play-outs per decision by default: the training advice's strength (a
100-point game, about 90 decisions of one seat, in well under 30 s of one
core: benchmarks/README.md)."""

ONLY_SHARE = 0.25
"""A forced card is played out with this share of the budget, for its
expected points on the graph only: it is never rated."""

PASS_CANDIDATES = 6
"""The expert's candidate passes a pass is rated against (the pass made is added)."""

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The verdicts of a rated decision, from the best to the worst; a forced
card's is ``only``."""

THRESHOLDS = {"inaccuracy": 0.5, "mistake": 1.0, "blunder": 2.0}
"""The least loss (expected payoff) of each verdict: below 0.5 ``good``
(when not the best), from 0.5 ``inaccuracy``, from 1.0 ``mistake``, from
2.0 ``blunder``."""

ACCURACY_SCALE = 3.0
"""A decision's accuracy is ``100 * exp(-loss / ACCURACY_SCALE)``: 85 for a
loss of half a point, 51 for 2 points, 19 for 5."""

COUNT_KEYS = (*VERDICTS, "only")

ANALYST = 1
"""The version of the ratings, written in every analysis (``analyst``): raised
whenever the same decision, at the same play-outs and seed, could be rated
differently (the expert's search or its reading, the candidate passes, the
thresholds, the measure), so that a server keeping analyses knows which ones
an earlier analyst made (1: the expert reading the cards, December 2026;
none: before). ``tests/bots/test_analysis.py`` holds a digest of a golden
analysis for this number and fails when the ratings change without it."""


def verdict_of(loss: float, best: bool = False) -> str:
    """The verdict for a rated decision that lost ``loss`` (expected payoff)
    against the best; ``best``: it was the expert's choice or equivalent."""
    if best or loss <= 0.0:
        return "best" if best else "good"
    if loss >= THRESHOLDS["blunder"]:
        return "blunder"
    if loss >= THRESHOLDS["mistake"]:
        return "mistake"
    if loss >= THRESHOLDS["inaccuracy"]:
        return "inaccuracy"
    return "good"


def decision_accuracy(loss: float) -> float:
    """One decision's accuracy, from 0 to 100, decreasing in the loss.

    >>> decision_accuracy(0.0), round(decision_accuracy(2.0), 1)
    (100.0, 51.3)
    """
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def accuracy(losses: Sequence[float]) -> float:
    """The mean of ``decision_accuracy`` over ``losses`` (rated decisions
    only), rounded to one decimal; 100 when there is none."""
    if not losses:
        return 100.0
    return round(sum(decision_accuracy(x) for x in losses) / len(losses), 1)


# -- the decisions of a seat ------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One choice a seat made: in deal ``deal`` (its index in the game), the
    pass (``phase == "pass"``, ``play`` and ``trick`` None) or the card at
    index ``play`` of the deal's plays (in trick ``trick``, from 0); the
    seat's ``view`` just before it; the cards it ``chose``."""

    deal: int
    phase: str
    play: int | None
    trick: int | None
    view: View
    chosen: tuple[int, ...]


def decisions(match: Match, seat: int) -> list[Decision]:
    """Every decision ``seat`` made in ``match``, in order: each deal's pass
    (when it passed) and each card it played. The views come from
    ``view_of``: what the seat saw, nothing more."""
    rules = match.rules
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat {seat} is not a seat of a {rules.players}-player game")
    out: list[Decision] = []
    totals = [0] * rules.players
    for k, deal in enumerate(match.deals):
        replay = Deal(rules, list(deal.dealt), deal.kitty, deal.number)
        if replay.phase == PASS:
            given = deal.passes[seat]
            if given is not None:
                view = view_of(replay, seat, totals)
                out.append(Decision(k, "pass", None, None, view, tuple(cards_of(given))))
            if all(p is not None for p in deal.passes):
                for s, p in enumerate(deal.passes):
                    assert p is not None
                    replay.pass_cards(s, p)
        if replay.phase == PLAY:
            for i, card in enumerate(deal.plays):
                if replay.to_act == seat:
                    view = view_of(replay, seat, totals)
                    out.append(Decision(k, "play", i, i // rules.players, view, (card,)))
                replay.play_unchecked(card)
        if deal.phase == "done":
            for s, p in enumerate(deal.result().points):
                totals[s] += p
    return out


def decisions_of_record(
    record: Mapping[str, Any], seat: int, limit: int | None = None
) -> tuple[list[Decision], dict[str, Any] | None]:
    """``decisions`` of a ``damepique-game/1`` record, replayed and checked,
    and None; or no decisions and an error object, for a worker process to
    send back (exceptions with fields do not cross processes): the
    referee's for a bad record, ``bad_seat`` for a seat it does not have,
    ``too_large`` past ``limit`` decisions."""
    try:
        match = replay(record)
    except RecordError as e:
        return [], e.to_json()
    players = match.rules.players
    if not 0 <= seat < players:
        return [], {"error": "bad_seat", "reason": f"seat {seat} is not a seat of this {players}-player game"}
    found = decisions(match, seat)
    if limit is not None and len(found) > limit:
        return [], {"error": "too_large", "reason": f"{len(found)} decisions: more than {limit} to analyse"}
    return found, None


# -- rating one decision ------------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A decision rated: ``options`` (the advice for every legal card, or for
    the candidate passes and the pass made), best first; ``chosen`` and
    ``best`` among them; ``loss``, ``verdict``; ``comparison``, what separates
    the choice from the best (None when it was the best or forced)."""

    decision: Decision
    options: tuple[Advice, ...]
    chosen: Advice
    best: Advice
    loss: float
    verdict: str
    comparison: Comparison | None = None

    @property
    def rated(self) -> bool:
        return self.verdict != "only"

    def to_json(self) -> dict[str, Any]:
        """One entry of ``damepique analyze``'s ``decisions``; its ``reason`` is
        English, for programs (the page says the ``comparison`` in its own
        language, from the same words)."""
        d = self.decision
        view = d.view
        out: dict[str, Any] = {
            "deal": d.deal,
            "phase": d.phase,
            "trick": d.trick,
            "chosen": [CARD_NAMES[c] for c in d.chosen],
            "best": [CARD_NAMES[c] for c in self.best.cards],
            "loss": round(self.loss, 2),
            "verdict": self.verdict,
            "expected": round(float(self.chosen.score), 2),
            "moon": round(float(self.chosen.outcomes.get("moon_by_other", 0.0)), 3),
        }
        if self.comparison is not None:
            out["reason"] = sentence(self.comparison, "en", view.rules)
            out["comparison"] = self.comparison.to_json()
        out["options"] = [
            {
                "cards": [CARD_NAMES[c] for c in a.cards],
                "payoff": round(float(a.extra.get("payoff", 0.0)), 2),
                "expected": round(float(a.score), 2),
            }
            for a in self.options
        ]
        out["position"] = position_json(view)
        return out


def position_json(view: View) -> dict[str, Any]:
    """What the seat saw when it chose, for a page to draw: its hand, the
    trick so far (seat and card, from the leader), the cards fallen in the
    tricks before, the points each seat had taken, the pass it made and the
    one it received (once the exchange was done)."""
    n = view.players
    fallen = [c for _, c in view.plays[: len(view.plays) - len(view.trick)]]
    leader = view.trick_leader
    return {
        "seat": view.seat,
        "hand": [CARD_NAMES[c] for c in cards_of(view.hand)],
        "trick": [{"seat": (leader + j) % n, "card": CARD_NAMES[c]} for j, c in enumerate(view.trick)],
        "fallen": [CARD_NAMES[c] for c in fallen],
        "taken_points": list(view.taken_points),
        "passed": None if view.passed is None else [CARD_NAMES[c] for c in cards_of(view.passed)],
        "received": None if view.received is None else [CARD_NAMES[c] for c in cards_of(view.received)],
    }


def decision_rng(seed: int, decision: Decision) -> random.Random:
    """The generator of one decision's search: from the seed, the deal and
    the decision's place in it, so that results never depend on order."""
    where = "pass" if decision.play is None else str(decision.play)
    return random.Random(f"analysis:{seed}:{decision.deal}:{where}")


def rate(decision: Decision, playouts: int = ANALYSIS_PLAYOUTS, seed: int = 0) -> Rating:
    """Rate one decision from its view alone (``decision.view``)."""
    view = decision.view
    rng = decision_rng(seed, decision)
    if decision.phase == "pass":
        return _rate_pass(decision, rng, playouts)
    legal = view.legal_mask()
    card = decision.chosen[0]
    if not legal >> card & 1:
        raise ValueError(f"{CARD_NAMES[card]} is not a legal card in this position")
    if legal & (legal - 1) == 0:
        options = advise(view, rng, max(1, round(playouts * ONLY_SHARE)))
        only = options[0]
        return Rating(decision, tuple(options), only, only, 0.0, "only")
    options = advise(view, rng, playouts)
    best = options[0]
    chosen = next(a for a in options if a.cards == (card,))
    if chosen.best:
        best = chosen  # a card equivalent to the expert's is as good as it
    loss = max(0.0, chosen.extra["utility"] - best.extra["utility"])
    verdict = verdict_of(loss, chosen.best)
    comparison = None if chosen.best else why(chosen, best, view.rules)
    return Rating(decision, tuple(options), chosen, best, loss, verdict, comparison)


def _rate_pass(decision: Decision, rng: random.Random, playouts: int) -> Rating:
    view = decision.view
    made = tuple(sorted(decision.chosen))
    cands = [tuple(sorted(cs)) for cs in candidate_passes(view, limit=PASS_CANDIDATES)]
    cands = list(dict.fromkeys(cands))
    if made not in cands:
        cands.append(made)
    stats = evaluate_pass(view, rng, cands, playouts)
    ranked = sorted(cands, key=lambda cs: (stats[cs].mean, cands.index(cs)))
    top = stats[ranked[0]]
    options = tuple(_advice(cs, stats[cs], top, reason_for_pass(view, cs)) for cs in ranked)
    best = options[0]
    chosen = options[ranked.index(made)]
    loss = max(0.0, chosen.extra["utility"] - best.extra["utility"])
    verdict = verdict_of(loss, chosen is best)
    comparison = None if chosen is best else why(chosen, best, view.rules)
    return Rating(decision, options, chosen, best, loss, verdict, comparison)


def why(chosen: Advice, best: Advice, rules: Rules) -> Comparison:
    """What separates the choice made from the best, in the best's favour:
    the outcome (``advice.OUTCOME_KEYS``) where the best does better by the
    most points (the queen by her points, a heart by its point, a moon by
    the moon's points), or the expected points when the best's are lower;
    else ``advice.compare`` (the best gains on the others' points alone)."""
    pts = rules.card_points
    weights = {
        "queen": float(max((pts[c] for c in cards_of(big_cards(rules))), default=0)),
        "hearts": float(max(pts[c] for c in range(26, 39))),
        "moon_by_self": -float(rules.moon_points),
        "moon_by_other": float(rules.moon_points),
    }
    top, gain = "", 0.25
    for key, weight in weights.items():
        if key in chosen.outcomes and key in best.outcomes:
            w = (chosen.outcomes[key] - best.outcomes[key]) * weight
            if w > gain:
                top, gain = key, w
    if top:
        return Comparison(chosen.cards, best.cards, top, chosen.outcomes[top], best.outcomes[top])
    if chosen.score > best.score + 0.05:
        return Comparison(
            chosen.cards, best.cards, "expected_points", round(chosen.score, 2), round(best.score, 2)
        )
    return compare(chosen, best, rules)


def _rate_job(args: tuple[Decision, int, int]) -> Rating:
    return rate(*args)


# -- a game -------------------------------------------------------------------------------------


@dataclass
class Analysis:
    """A seat's game analysed: its ``ratings`` in order."""

    seat: int
    ratings: list[Rating] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "accuracy", "counts", "deals", "decisions"}``: the
        game's accuracy and verdict counts, the same per deal (``deals``:
        ``{"deal", "accuracy", "counts"}``), and every decision."""
        return summary(self.seat, [r.to_json() for r in self.ratings])


def summary(seat: int, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The analysis of ``seat`` from its decisions' entries (``Rating.to_json``,
    in order): the accuracy and counts of the game and of each deal. The
    accuracy is that of the entries' losses (rounded to two decimals), so
    the same entries always sum up the same, wherever they were rated."""
    deals: dict[int, list[dict[str, Any]]] = {}
    for e in entries:
        deals.setdefault(int(e["deal"]), []).append(e)

    def sums(es: Sequence[dict[str, Any]]) -> dict[str, Any]:
        tally = dict.fromkeys(COUNT_KEYS, 0)
        for e in es:
            tally[e["verdict"]] += 1
        return {
            "accuracy": accuracy([float(e["loss"]) for e in es if e["verdict"] != "only"]),
            "counts": tally,
        }

    whole = sums(entries)
    return {
        "seat": seat,
        "analyst": ANALYST,
        "accuracy": whole["accuracy"],
        "counts": whole["counts"],
        "deals": [{"deal": k} | sums(es) for k, es in sorted(deals.items())],
        "decisions": list(entries),
    }


def rate_json(decision: Decision, playouts: int = ANALYSIS_PLAYOUTS, seed: int = 0) -> dict[str, Any]:
    """``rate(...).to_json()``: one decision's entry, for a worker process to send back."""
    return rate(decision, playouts, seed).to_json()


def counts(ratings: Sequence[Rating]) -> dict[str, int]:
    """How many decisions got each verdict (``only`` included)."""
    out = dict.fromkeys(COUNT_KEYS, 0)
    for r in ratings:
        out[r.verdict] += 1
    return out


def analyze(
    match: Match,
    seat: int,
    playouts: int = ANALYSIS_PLAYOUTS,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Every decision of ``seat`` in ``match`` rated (``rate``), in ``jobs``
    processes (1: in this one); ``progress(done, total)`` after each.
    The same match, seat, playouts and seed always give the same analysis."""
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts}")
    points = decisions(match, seat)
    total = len(points)
    result = Analysis(seat)
    if jobs <= 1 or total < 2:
        for i, d in enumerate(points):
            result.ratings.append(rate(d, playouts, seed))
            if progress is not None:
                progress(i + 1, total)
        return result
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for i, r in enumerate(pool.map(_rate_job, [(d, playouts, seed) for d in points])):
            result.ratings.append(r)
            if progress is not None:
                progress(i + 1, total)
    return result


def play_game(rules: Rules, bots: Sequence[Bot], rng: random.Random, deals: int | None = None) -> Match:
    """A game played by ``bots`` (one per seat) to its end (or ``deals``
    deals): for tests, benchmarks and examples."""
    match = Match(rules, rng)
    while not match.over and (deals is None or len(match.deals) < deals):
        deal = match.next_deal()
        if deal.phase == PASS:
            for s in range(rules.players):
                deal.pass_cards(s, bots[s].choose_pass(view_of(deal, s, match.totals), rng))
        while deal.phase == PLAY:
            s = deal.to_act
            deal.play(bots[s].choose_play(view_of(deal, s, match.totals), rng))
    return match


__all__ = [
    "ACCURACY_SCALE",
    "ANALYSIS_PLAYOUTS",
    "ANALYST",
    "COUNT_KEYS",
    "THRESHOLDS",
    "VERDICTS",
    "Analysis",
    "Decision",
    "Rating",
    "accuracy",
    "analyze",
    "counts",
    "decision_accuracy",
    "decisions",
    "decisions_of_record",
    "play_game",
    "position_json",
    "rate",
    "rate_json",
    "summary",
    "verdict_of",
    "why",
]
