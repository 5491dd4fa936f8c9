"""The ``expert`` level: determinized Monte Carlo over hands it cannot see.

For each decision it deals the unseen cards at random, consistently with all
the seat knows (``knowledge``), then plays every candidate card in every such
world and finishes the deal with the fast play-out policy (``playout``). The
card with the best mean outcome over the same worlds is played (paired
comparison: the worlds are shared, so differences are measured with little
noise).

- The outcome is the payoff (own points minus the mean of the others'), so a
  moon conceded costs what it really costs; with the match totals in the view
  (a game to a target), an outcome that ends the game adds a placement term.
- When the seat can still take every point card, the same worlds are also
  played with this seat running for the moon; it shoots when that is better.
- Cards that are equivalent (adjacent once the cards between them are in hand
  or played, same points) are evaluated once.
- Racing: a candidate clearly worse than the leader (3 paired standard
  errors) stops being played out, and its share of the budget buys more
  worlds for the others; the search stops when one candidate is left.
- Moon defence: a seat that took every point so far keeps running for the
  moon in the play-outs (``MODEL_RIVAL_MOON``).
- Worlds also respect a soft inference (``Knowledge.of(view, soft=True)``): a
  seat that discarded a lighter card when void lacks the heavy card still out.
- Passing: a handful of candidate passes (the rule-based pass and variants)
  are each played out from the start over sampled deals, the other seats
  passing by rule (with racing, on 70% of the play budget).

The budget is a number of play-outs per decision (deterministic for a given
view and generator); ``budget_ms`` bounds wall time instead, at the cost of
determinism.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(8))
>>> bot = ExpertBot(playouts=60)
>>> deal.play(bot.choose_play(view_of(deal, deal.to_act), random.Random(1))).card
0
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from itertools import combinations

from damepique.engine import PASS, SUIT_MASKS, Deal, View, cards_of

from .heuristic import danger_scores, pass_from_hand
from .knowledge import Knowledge, sample_world
from .playout import Policy, choose, playout
from .tactics import moon_threat

MODEL_RIVAL_MOON = True
"""When true, a seat that took every point so far (a quarter of them at least)
runs for the moon in the play-outs, so the search sees what not stopping it
costs. On by default (the issue asks the expert to defend against a moon);
its effect on strength is within the noise of the runs in
benchmarks/README.md, and ``expert:defend=0`` turns it off."""

SOFT_INFERENCE = True
"""Whether the expert samples with ``Knowledge.of(view, soft=True)`` by default."""

DEFAULT_PLAYOUTS = 1500
"""Play-outs per decision by default: tuned so that p95 stays under 250 ms on
one core of the reference machine (see benchmarks/README.md)."""


PASS_BUDGET_SHARE = 0.7
"""A pass gets this share of the play-out budget: passes were the slowest
decisions (every candidate is played from the first trick) and so set the
95th percentile of decision time by themselves; racing spends what is left
on the candidates that matter."""


@dataclass
class CardStats:
    """Outcomes of one candidate over the sampled worlds."""

    card: int
    utility: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    moons: int = 0
    """Worlds where this seat shot the moon."""
    conceded: int = 0
    """Worlds where another seat shot the moon."""
    mode: str = "normal"
    dropped: bool = False
    """Left out of the race (clearly worse than the leader): fewer worlds."""

    @property
    def mean(self) -> float:
        return sum(self.utility) / len(self.utility) if self.utility else 0.0

    @property
    def mean_points(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0


def _stderr(xs: list[float]) -> float:
    k = len(xs)
    if k < 2:
        return 0.0
    m = sum(xs) / k
    var = sum((x - m) ** 2 for x in xs) / (k - 1)
    return math.sqrt(var / k)


def paired_stderr(a: list[float], b: list[float]) -> float:
    """Standard error of mean(a) - mean(b) over the same worlds."""
    return _stderr([x - y for x, y in zip(a, b, strict=False)])


OBJECTIVES = ("payoff", "points", "cautious")
"""What the expert minimizes in a deal: ``payoff`` (its points minus the mean
of the others': a moon conceded costs about what 13 points of its own cost);
``points`` (its own points only: a moon conceded costs 26, its own moon
counts 0, what the others take does not matter); ``cautious`` (the payoff,
except that a moon conceded counts as if it had taken every point itself:
defends like ``points``, shoots like ``payoff``)."""


def utility(view: View, points: tuple[int, ...], objective: str = "payoff", moon: int | None = None) -> float:
    """What the seat minimizes: its payoff loss (or, with ``objective="points"``,
    its own points), plus placement when the deal ends the game (totals known).
    ``moon``: the seat that shot the moon, if any (read by ``"cautious"``)."""
    n = len(points)
    me = view.seat
    own = points[me]
    if objective == "points":
        u = float(own)
    elif objective == "cautious" and moon is not None and moon != me:
        rules = view.rules
        u = rules.moon_points - (rules.deal_total - rules.moon_points) / (n - 1)
    else:
        u = own - (sum(points) - own) / (n - 1)
    totals = view.totals
    if len(totals) == n:
        new = [t + p for t, p in zip(totals, points, strict=True)]
        if max(new) >= view.rules.target:
            mine = new[me]
            rank = 0.0
            for s in range(n):
                if s != me:
                    if new[s] < mine:
                        rank += 1.0
                    elif new[s] == mine:
                        rank += 0.5
            u += 30.0 * rank
    return u


def equivalence_classes(view: View, legal: int) -> list[list[int]]:
    """Legal cards grouped when no unseen card lies between them and they are
    worth the same points: playing one or another changes nothing."""
    unseen = view.unseen
    pts = view.rules.card_points
    groups: list[list[int]] = []
    for s in range(4):
        prev = -1
        for c in cards_of(legal & SUIT_MASKS[s]):
            if prev >= 0 and pts[c] == pts[prev]:
                between = unseen & ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
                if not between:
                    groups[-1].append(c)
                    prev = c
                    continue
            groups.append([c])
            prev = c
    return groups


def moon_open(view: View) -> bool:
    """This seat alone may still take every point card."""
    rules = view.rules
    if not rules.has_moon or rules.moon_points <= 0:
        return False
    me = view.seat
    return all(p == 0 for s, p in enumerate(view.taken_points) if s != me)


def moon_hopeful(view: View) -> bool:
    """Worth simulating a moon run: open, and points taken already or a hand
    full of high cards."""
    if not moon_open(view):
        return False
    if view.taken_points[view.seat] > 0:
        return True
    hand = view.hand
    low = 0 if view.rules.deck == 52 else 4
    high = 0
    for c in cards_of(hand):
        if c % 13 >= 10:
            high += 1
    # A quarter of the hand in queens, kings and aces, and the top hearts.
    hearts = hand & SUIT_MASKS[2]
    top_hearts = (hearts >> (26 + 9 + low // 4)).bit_count() if hearts else 0
    return high >= max(4, hand.bit_count() // 3) and top_hearts >= 1


RACE_Z = 3.0
"""Racing: a candidate whose mean is worse than the leader's by more than this
many (paired) standard errors stops being played out."""

RACE_START = 16
"""Worlds every candidate gets before racing may drop one."""

RACE_EVERY = 8
"""Worlds between two racing checks."""


def _race(table: dict[int, CardStats], active: list[int]) -> list[int]:
    """The candidates still in the race: the leader and those not clearly worse
    than it (paired over the same worlds); the others are marked ``dropped``."""
    if len(active) < 2:
        return active
    lead = min(active, key=lambda c: (table[c].mean, c))
    best = table[lead]
    keep = []
    for c in active:
        st = table[c]
        if c != lead:
            gap = st.mean - best.mean
            if gap > 0.05 and gap > RACE_Z * paired_stderr(st.utility, best.utility):
                st.dropped = True
                continue
        keep.append(c)
    return keep


def plays_likelihood(view: View, hands: list[int], kitty: int, pol: Policy, trust: float) -> float:
    """How likely the other seats' plays so far are in the world ``hands``
    (every seat's current hand) if each of them played the play-out policy's
    card with probability ``trust`` and a uniformly random legal card
    otherwise; up to a factor that is the same in every world."""
    if not view.plays:
        return 1.0
    me = view.seat
    original = list(hands)
    for s, c in view.plays:
        original[s] |= 1 << c
    deal = Deal(view.rules, original, kitty or view.kitty, view.number, skip_pass=True)
    odds = 1.0
    rest = 1.0 - trust
    for s, c in view.plays:
        if s != me:
            legal = deal.legal_mask()
            if legal & (legal - 1):
                n = legal.bit_count()
                if choose(deal, legal, pol) == c:
                    odds *= trust + rest / n
                else:
                    odds *= rest / n
        deal.play_unchecked(c)
    return odds


def evaluate_play(
    view: View,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    budget_ms: float | None = None,
    min_worlds: int = 8,
    max_worlds: int = 300,
    race: bool = False,
    defend: bool | None = None,
    infer: bool = False,
    objective: str = "payoff",
    allies: bool = True,
    pass_voids: float = 0.0,
    explore: float = 0.0,
    trust: float = 0.0,
    proposals: int = 4,
) -> tuple[dict[int, CardStats], list[list[int]], str]:
    """Per representative card, its outcomes; the equivalence classes; and the
    mode (``"normal"`` or ``"shoot"``) whose best card is best.

    ``race``: candidates clearly worse than the leader stop being played out
    (successive rejection) and the card plays they would have cost go to more
    worlds for the rest; their ``CardStats`` are marked ``dropped``.
    ``defend``: model a would-be moon shooter (default ``MODEL_RIVAL_MOON``).
    ``infer``: sample with the soft inferences of ``Knowledge.of(soft=True)``.
    ``objective``: what is minimized (``OBJECTIVES``).
    ``allies``: the other seats defend against a moon in the play-outs (as
    the play-out policy does); when false only this seat does, so the search
    does not count on the others to stop a moon (it still assumes they defend
    against its own moon run).
    ``pass_voids``: the share of worlds sampled with the guess that the seat
    that passed to this one emptied the suits it passed low cards of
    (``knowledge.passed_voids``).
    """
    legal = view.legal_mask()
    groups = equivalence_classes(view, legal)
    reps = [g[0] for g in groups]
    modes = ["normal", "shoot"] if moon_hopeful(view) else ["normal"]
    # Another seat that took every point so far is assumed, in the play-outs,
    # to keep running for the moon: the search then sees what it costs not
    # to stop it.
    if defend is None:
        defend = MODEL_RIVAL_MOON
    threat = moon_threat(view) if defend else None
    rival = threat if threat is not None and threat != view.seat else -1
    pol = Policy.of(view.rules)
    know = Knowledge.of(view, soft=infer)
    know_pass = Knowledge.of(view, soft=infer, pass_voids=True) if pass_voids > 0 else know
    me = view.seat
    # The budget counts card plays: a full play-out is about 52 of them, and
    # a world costs its sampling besides (24 card plays' worth), so late
    # decisions get more worlds.
    remaining = sum(view.hand_sizes)
    budget = playouts * 52
    template: Deal | None = None
    hidden_kitty = view.rules.kitty_size > 0 and not view.kitty
    stats: dict[str, dict[int, CardStats]] = {m: {c: CardStats(c, mode=m) for c in reps} for m in modes}
    active = {m: list(reps) for m in modes}
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000.0
    done = 0
    spent = 0
    while True:
        per_world = sum(len(a) for a in active.values()) * remaining + 24
        if deadline is None:
            if done >= min_worlds and (spent + per_world > budget or done >= max_worlds):
                break
        elif done >= min_worlds and (time.perf_counter() >= deadline or done >= max_worlds):
            break
        # Worlds of the pass guess spread evenly over the sequence (racing
        # compares candidates over the same worlds, whatever their kind).
        guess = math.floor((done + 1) * pass_voids) > math.floor(done * pass_voids)
        known = know_pass if guess else know
        hands, kitty = sample_world(view, known, rng)
        if trust > 0.0 and view.plays:
            # Of a few worlds drawn, keep one in proportion to how likely
            # the others' plays so far are in it (sampling-importance
            # resampling, one world at a time).
            drawn = [(hands, kitty)]
            for _ in range(proposals - 1):
                drawn.append(sample_world(view, known, rng))
            weights = [plays_likelihood(view, h, k, pol, trust) for h, k in drawn]
            hands, kitty = rng.choices(drawn, weights)[0]
        if template is None:
            template = view.world(hands, kitty)
            world = template
        else:
            # Same public state, other hidden cards: swap the hands in rather
            # than replaying every play.
            world = template.copy()
            world.hands = list(hands)
            if hidden_kitty:
                world.kitty = kitty
        for m in modes:
            shooter = me if m == "shoot" else rival
            defender = -1 if allies or m == "shoot" else me
            table = stats[m]
            for c in active[m]:
                d = world.copy()
                d.play_unchecked(c)
                playout(d, pol, shooter, defender, rng, explore)
                res = d.result()
                st = table[c]
                st.utility.append(utility(view, res.points, objective, res.moon))
                st.points.append(res.points[me])
                if res.moon is not None:
                    if res.moon == me:
                        st.moons += 1
                    else:
                        st.conceded += 1
        done += 1
        spent += per_world
        if race and done >= RACE_START and (done - RACE_START) % RACE_EVERY == 0:
            for m in modes:
                active[m] = _race(stats[m], active[m])
            if all(len(a) == 1 for a in active.values()):
                break  # one card left in every mode: nothing more to learn
    best_mode = "normal"
    if "shoot" in stats:
        bn = min(s.mean for s in stats["normal"].values() if not s.dropped)
        bs = min(s.mean for s in stats["shoot"].values() if not s.dropped)
        if bs < bn - 0.5:
            best_mode = "shoot"
    return stats[best_mode], groups, best_mode


def choose_from(stats: dict[int, CardStats], groups: list[list[int]]) -> int:
    best = min((s for s in stats.values() if not s.dropped), key=lambda s: (s.mean, s.card))
    return best.card


# -- passing -----------------------------------------------------------------------


def candidate_passes(view: View, limit: int = 6) -> list[tuple[int, ...]]:
    """The rule-based pass and the best-scored variants of it."""
    rules = view.rules
    count = rules.pass_count
    hand = view.hand
    base = pass_from_hand(rules, hand)
    out: list[tuple[int, ...]] = [tuple(base)]
    scores = danger_scores(rules, hand)
    top = sorted(scores, key=lambda c: (-scores[c], c))[: count + 3]
    combos = sorted(
        combinations(sorted(top), count),
        key=lambda cs: (-sum(scores[c] for c in cs), cs),
    )
    for cs in combos:
        if cs not in out:
            out.append(cs)
        if len(out) >= limit:
            break
    return out


def evaluate_pass(
    view: View,
    rng: random.Random,
    candidates: list[tuple[int, ...]],
    playouts: int = DEFAULT_PLAYOUTS,
    budget_ms: float | None = None,
    min_worlds: int = 8,
    race: bool = False,
    objective: str = "payoff",
) -> dict[tuple[int, ...], CardStats]:
    """Outcomes of each candidate pass over deals sampled from this seat's hand
    (``race``: as in ``evaluate_play``; the stats are keyed by pass)."""
    rules = view.rules
    n = rules.players
    me = view.seat
    pol = Policy.of(rules)
    know = Knowledge.of(view)
    budget = playouts * 52
    stats = {cs: CardStats(cs[0]) for cs in candidates}
    # Racing runs on indices, as _race expects ints.
    by_index = {i: stats[cs] for i, cs in enumerate(candidates)}
    active = list(range(len(candidates)))
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000.0
    done = 0
    spent = 0
    while True:
        per_world = len(active) * 52 + 40
        if deadline is None:
            if done >= min_worlds and spent + per_world > budget:
                break
        elif done >= min_worlds and time.perf_counter() >= deadline:
            break
        hands, kitty = sample_world(view, know, rng)
        others = {s: pass_from_hand(rules, hands[s]) for s in range(n) if s != me}
        base = Deal(rules, hands, kitty, view.number)
        for i in active:
            cs = candidates[i]
            d = base.copy()
            for s in range(n):
                d.pass_cards(s, cs if s == me else others[s])
            playout(d, pol)
            res = d.result()
            st = stats[cs]
            st.utility.append(utility(view, res.points, objective, res.moon))
            st.points.append(res.points[me])
            if res.moon is not None:
                if res.moon == me:
                    st.moons += 1
                else:
                    st.conceded += 1
        done += 1
        spent += per_world
        if race and done >= RACE_START and (done - RACE_START) % RACE_EVERY == 0:
            active = _race(by_index, active)
            if len(active) == 1:
                break
    return stats


class ExpertBot:
    """Determinized Monte Carlo; see the module's docstring.

    ``playouts``: play-outs per decision (the deterministic default budget);
    ``budget_ms``: a wall-time budget instead (not deterministic);
    ``race``: drop clearly worse candidates early (on by default);
    ``defend``: model a would-be moon shooter in the play-outs (default
    ``MODEL_RIVAL_MOON``); ``infer``: sample hidden hands with the soft
    inferences too (default ``SOFT_INFERENCE``); ``objective``: what it
    minimizes (``OBJECTIVES``, default ``"payoff"``); ``allies``: count on
    the other seats to stop a moon in the play-outs (default true; false: only
    this seat defends there); ``pass_voids``: the share of worlds where the
    seat that passed to this one is taken to have emptied the suits it passed
    low cards of (default 0).
    """

    name = "expert"

    def __init__(
        self,
        playouts: int = DEFAULT_PLAYOUTS,
        budget_ms: float | None = None,
        race: bool = True,
        defend: bool | None = None,
        infer: bool | None = None,
        objective: str = "payoff",
        allies: bool = True,
        pass_voids: float = 0.0,
        explore: float = 0.0,
        trust: float = 0.0,
    ) -> None:
        if objective not in OBJECTIVES:
            raise KeyError(f"unknown expert objective {objective!r} ({', '.join(OBJECTIVES)})")
        self.objective = objective
        self.allies = allies
        if not 0.0 <= pass_voids <= 1.0:
            raise KeyError(f"expert option pass_voids is a share from 0 to 1, not {pass_voids}")
        self.pass_voids = pass_voids
        if not 0.0 <= explore <= 1.0:
            raise KeyError(f"expert option explore is a share from 0 to 1, not {explore}")
        self.explore = explore
        if not 0.0 <= trust < 1.0:
            raise KeyError(f"expert option trust is a share from 0 to below 1, not {trust}")
        self.trust = trust
        self.playouts = playouts
        self.budget_ms = budget_ms
        self.race = race
        self.defend = MODEL_RIVAL_MOON if defend is None else defend
        self.infer = SOFT_INFERENCE if infer is None else infer

    @classmethod
    def from_options(cls, text: str) -> ExpertBot:
        """``"playouts=400"``, ``"budget_ms=500"``, ``"race=0"``, ``"defend=1"``
        (comma-separated)."""
        kwargs: dict[str, float | int | bool | str] = {}
        for part in text.split(","):
            key, _, value = part.partition("=")
            key = key.strip()
            if key in ("playouts", "samples"):
                kwargs["playouts"] = int(value)
            elif key in ("budget_ms", "pass_voids", "explore", "trust"):
                kwargs[key] = float(value)
            elif key in ("race", "defend", "infer", "allies"):
                if value not in ("0", "1"):
                    raise KeyError(f"expert option {key} takes 0 or 1, not {value!r}")
                kwargs[key] = value == "1"
            elif key == "objective":
                kwargs[key] = value  # checked by the constructor, as for a bot built in Python
            else:
                raise KeyError(
                    f"unknown expert option {key!r} "
                    "(playouts=N, budget_ms=MS, race=0|1, defend=0|1, infer=0|1, allies=0|1, "
                    f"objective={'|'.join(OBJECTIVES)}, pass_voids=SHARE, explore=SHARE, trust=SHARE)"
                )
        bot = cls(**kwargs)  # type: ignore[arg-type]
        bot.name = "expert:" + text
        return bot

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        assert view.phase == PASS
        cands = candidate_passes(view)
        if len(cands) == 1:
            return cands[0]
        playouts = max(1, round(self.playouts * PASS_BUDGET_SHARE))
        stats = evaluate_pass(
            view, rng, cands, playouts, self.budget_ms, race=self.race, objective=self.objective
        )
        live = [cs for cs in cands if not stats[cs].dropped]
        best = min(live, key=lambda cs: (stats[cs].mean, cands.index(cs)))
        return tuple(sorted(best))

    def choose_play(self, view: View, rng: random.Random) -> int:
        legal = view.legal_mask()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        stats, groups, _ = evaluate_play(
            view,
            rng,
            self.playouts,
            self.budget_ms,
            race=self.race,
            defend=self.defend,
            infer=self.infer,
            objective=self.objective,
            allies=self.allies,
            pass_voids=self.pass_voids,
            explore=self.explore,
            trust=self.trust,
        )
        if len(groups) == 1:
            return groups[0][0]
        return choose_from(stats, groups)
