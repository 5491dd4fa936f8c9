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

from damepique.engine import HEARTS_MASK, PASS, SUIT_MASKS, Deal, View, cards_of

from .expert_options import DEFAULT_PLAYOUTS, OBJECTIVES, ExpertOptions

__all__ = ["DEFAULT_PLAYOUTS", "OBJECTIVES", "ExpertBot", "ExpertOptions", "FrozenExpertBot", "ShooterBot"]
from .heuristic import danger_scores, pass_from_hand
from .inference import PROPOSALS, Reader
from .knowledge import Knowledge, sample_world
from .moon import FAIR_CHANCE, bold_could_shoot, can_run, moon_passes, suspects
from .playout import Policy, choose, playout
from .tactics import big_cards, moon_threat

MODEL_RIVAL_MOON = ExpertOptions().defend
"""When true, a seat that took every point so far (a quarter of them at least)
runs for the moon in the play-outs, so the search sees what not stopping it
costs. On by default (the issue asks the expert to defend against a moon);
its effect on strength is within the noise of the runs in
benchmarks/README.md, and ``expert:defend=0`` turns it off."""

SOFT_INFERENCE = ExpertOptions().infer
"""Whether the expert samples with ``Knowledge.of(view, soft=True)`` by default."""

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
    queen: int = 0
    """Worlds where this seat took a heavy card (the queen of spades; in
    Black Maria, any of the queen, king and ace of spades)."""
    hearts: int = 0
    """Hearts this seat took, summed over the worlds."""
    mode: str = "normal"
    dropped: bool = False
    """Left out of the race (clearly worse than the leader): fewer worlds."""

    @property
    def mean(self) -> float:
        return sum(self.utility) / len(self.utility) if self.utility else 0.0

    @property
    def mean_points(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    def record(self, view: View, deal: Deal, objective: str) -> None:
        """Count one finished play-out of this candidate."""
        res = deal.result()
        me = view.seat
        self.utility.append(utility(view, res.points, objective, res.moon))
        self.points.append(res.points[me])
        if res.moon is not None:
            if res.moon == me:
                self.moons += 1
            else:
                self.conceded += 1
        taken = deal.taken[me]
        if taken & big_cards(view.rules):
            self.queen += 1
        self.hearts += (taken & HEARTS_MASK).bit_count()

    def outcomes(self) -> dict[str, float]:
        """Per world: the chance this seat takes a heavy card (``queen``), the
        hearts it takes (``hearts``), the chance of a moon by this seat and by
        another (``moon_by_self``, ``moon_by_other``)."""
        k = len(self.utility)
        if not k:
            return {"queen": 0.0, "hearts": 0.0, "moon_by_self": 0.0, "moon_by_other": 0.0}
        return {
            "queen": self.queen / k,
            "hearts": self.hearts / k,
            "moon_by_self": self.moons / k,
            "moon_by_other": self.conceded / k,
        }


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


MOON_PROPOSALS = 6
"""Worlds drawn, at most, to find one where a seat on course for the moon
holds a hand that could make it (``moon.can_run``)."""

BOLD_MARGIN = 8.0
"""The most expected payoff the shooter (``bold=1``) gives up for a moon
attempt its play-outs make in a fair share of the worlds."""

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
    watch: bool = False,
    bold: float = 0.0,
    reading: bool = False,
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
    ``watch``: with ``defend``, a seat on course for a moon before it is a
    clear threat (``moon.suspects``) runs for the moon in a share of the worlds
    where its hand could make it.
    ``bold``: the shooter's daring (``ExpertOptions.bold``): it considers a
    moon run with weaker hands, and attempts one whenever the play-outs make
    it in ``moon.FAIR_CHANCE`` of the worlds, unless that costs more than
    ``bold * BOLD_MARGIN`` in expectation.
    ``reading``: each world is kept among ``inference.PROPOSALS`` drawn in
    proportion to how likely the others' plays and the pass received are in
    it under the model of play (``bots.inference``).
    """
    legal = view.legal_mask()
    groups = equivalence_classes(view, legal)
    reps = [g[0] for g in groups]
    hopeful = moon_hopeful(view) or (bold > 0 and bold_could_shoot(view))
    modes = ["normal", "shoot"] if hopeful else ["normal"]
    # Another seat that took every point so far is assumed, in the play-outs,
    # to keep running for the moon: the search then sees what it costs not
    # to stop it. With ``watch``, a seat on course for one earlier than that
    # runs in the worlds where its hand could make it.
    if defend is None:
        defend = MODEL_RIVAL_MOON
    watched: tuple[tuple[int, float, str], ...] = ()
    if defend:
        if watch:
            watched = suspects(view)
        else:
            threat = moon_threat(view)
            if threat is not None and threat != view.seat:
                watched = ((threat, 1.0, "sure"),)
    pol = Policy.of(view.rules)
    know = Knowledge.of(view, soft=infer)
    know_pass = Knowledge.of(view, soft=infer, pass_voids=True) if pass_voids > 0 else know
    reader: Reader | None = None
    if reading:
        reader = Reader.of(view)
        if not reader.reads:
            reader = None
    me = view.seat
    trusting = trust > 0.0 and bool(view.plays)

    def draw(known: Knowledge) -> tuple[list[int], int]:
        hands, kitty = sample_world(view, known, rng)
        if not trusting and reader is None:
            return hands, kitty
        # Of a few worlds drawn, keep one in proportion to how likely the
        # others' plays so far are in it (sampling-importance resampling,
        # one world at a time).
        drawn = [(hands, kitty)]
        for _ in range((PROPOSALS if reader is not None else proposals) - 1):
            drawn.append(sample_world(view, known, rng))
        weights = [
            (plays_likelihood(view, h, k, pol, trust) if trusting else 1.0)
            * (reader.weight(h) if reader is not None else 1.0)
            for h, k in drawn
        ]
        return rng.choices(drawn, weights)[0]

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
        hands, kitty = draw(known)
        rival = -1
        for seat, share, kind in watched:
            if kind == "hand":
                # No evidence but the hand: it runs in a share of the worlds
                # where its sampled hand could make it, the worlds as drawn.
                if can_run(hands, seat, me) and rng.random() < share:
                    rival = seat
                    break
                continue
            if kind != "sure" and rng.random() >= share:
                continue
            # A seat on course for the moon holds a hand that can make it: of
            # a few worlds drawn, keep the first where it could (the top
            # heart and enough winners), so that the search does not count
            # on the others holding the stoppers a real shooter keeps.
            # The redraws are weighed as every world is (reading, trust).
            tries = 1
            while watch and tries < MOON_PROPOSALS and not can_run(hands, seat, me):
                hands, kitty = draw(known)
                tries += 1
            spent += (tries - 1) * 24
            if kind == "sure" or can_run(hands, seat, me):
                rival = seat
            break
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
                table[c].record(view, d, objective)
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
        top = min((s for s in stats["shoot"].values() if not s.dropped), key=lambda s: (s.mean, s.card))
        bs = top.mean
        # The shooter also goes when the moon comes off often enough in its
        # play-outs and the attempt does not cost too much on average.
        daring = bold > 0 and top.moons >= FAIR_CHANCE * len(top.utility) and bs < bn + bold * BOLD_MARGIN
        if bs < bn - 0.5 or daring:
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
    shoot: bool = False,
) -> dict[tuple[int, ...], CardStats]:
    """Outcomes of each candidate pass over deals sampled from this seat's hand
    (``race``: as in ``evaluate_play``; the stats are keyed by pass).

    ``shoot``: each candidate is also played out with this seat running for
    the moon, and a candidate's stats are those of the better of the two
    ways to play it (the seat decides at its first card whether to shoot);
    no racing then."""
    rules = view.rules
    n = rules.players
    me = view.seat
    pol = Policy.of(rules)
    know = Knowledge.of(view)
    budget = playouts * 52
    stats = {cs: CardStats(cs[0]) for cs in candidates}
    runs = {cs: CardStats(cs[0], mode="shoot") for cs in candidates} if shoot else {}
    if shoot:
        race = False
    # Racing runs on indices, as _race expects ints.
    by_index = {i: stats[cs] for i, cs in enumerate(candidates)}
    active = list(range(len(candidates)))
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000.0
    done = 0
    spent = 0
    while True:
        per_world = len(active) * 52 * (2 if shoot else 1) + 40
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
            if shoot:
                run = d.copy()
                playout(run, pol, me)
                runs[cs].record(view, run, objective)
            playout(d, pol)
            stats[cs].record(view, d, objective)
        done += 1
        spent += per_world
        if race and done >= RACE_START and (done - RACE_START) % RACE_EVERY == 0:
            active = _race(by_index, active)
            if len(active) == 1:
                break
    if shoot:
        return {cs: runs[cs] if runs[cs].mean < stats[cs].mean else stats[cs] for cs in candidates}
    return stats


class ExpertBot:
    """Determinized Monte Carlo; see the module's docstring.

    Its options are one ``ExpertOptions`` (``docs/bots.md`` explains each):
    ``ExpertBot(playouts=400, objective="points")`` or
    ``ExpertBot(ExpertOptions(...))``; a bad value raises ``ValueError``.
    """

    name = "expert"
    DEFAULTS = ExpertOptions()
    """The options a bare name gives (the shooter's differ)."""

    def __init__(self, options: ExpertOptions | None = None, **kwargs: object) -> None:
        base = options or self.DEFAULTS
        if kwargs:
            base = _replace(base, kwargs)
        self.options = base
        self.last_mode = "normal"
        """The mode of its last search for a card (``"shoot"``: a moon attempt);
        benchmarks read it to count attempts."""

    # The options, read as attributes (``bot.playouts``), as before they were one value.
    @property
    def playouts(self) -> int:
        return self.options.playouts

    @property
    def budget_ms(self) -> float | None:
        return self.options.budget_ms

    @property
    def race(self) -> bool:
        return self.options.race

    @property
    def defend(self) -> bool:
        return self.options.defend

    @property
    def infer(self) -> bool:
        return self.options.infer

    @property
    def objective(self) -> str:
        return self.options.objective

    @property
    def allies(self) -> bool:
        return self.options.allies

    @property
    def pass_voids(self) -> float:
        return self.options.pass_voids

    @property
    def explore(self) -> float:
        return self.options.explore

    @property
    def trust(self) -> float:
        return self.options.trust

    @classmethod
    def from_options(cls, text: str) -> ExpertBot:
        """``"playouts=400"``, ``"budget_ms=500"``, ``"race=0"``, ``"defend=1"``
        (comma-separated); ``ValueError`` names a bad option and its values."""
        bot = cls(ExpertOptions.parse(text, cls.DEFAULTS))
        bot.name = f"{cls.name}:{text}"
        return bot

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        assert view.phase == PASS
        o = self.options
        cands = candidate_passes(view)
        shoot = o.bold > 0 and bold_could_shoot(view)
        if shoot:
            # Passes that keep the winners a moon needs, judged with a moon
            # run among the ways to play them.
            for cs in moon_passes(view):
                if cs not in cands:
                    cands.append(cs)
        if len(cands) == 1:
            return cands[0]
        playouts = max(1, round(o.playouts * PASS_BUDGET_SHARE))
        stats = evaluate_pass(
            view, rng, cands, playouts, o.budget_ms, race=o.race, objective=o.objective, shoot=shoot
        )
        live = [cs for cs in cands if not stats[cs].dropped]
        best = min(live, key=lambda cs: (stats[cs].mean, cands.index(cs)))
        return tuple(sorted(best))

    def choose_play(self, view: View, rng: random.Random) -> int:
        legal = view.legal_mask()
        self.last_mode = "normal"
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        o = self.options
        stats, groups, mode = evaluate_play(
            view,
            rng,
            o.playouts,
            o.budget_ms,
            race=o.race,
            defend=o.defend,
            infer=o.infer,
            objective=o.objective,
            allies=o.allies,
            pass_voids=o.pass_voids,
            explore=o.explore,
            trust=o.trust,
            watch=o.watch,
            bold=o.bold,
            reading=o.reading,
        )
        self.last_mode = mode
        if len(groups) == 1:
            return groups[0][0]
        return choose_from(stats, groups)


class ShooterBot(ExpertBot):
    """The bold player (``shooter``): the expert's search, but it goes for
    the moon whenever its play-outs make it in a fair share of the worlds
    (``moon.FAIR_CHANCE``), considers a moon with weaker hands, and passes to
    set one up (its lowest cards, keeping high hearts and top spades) when
    that plays out better; otherwise it plays as the expert does.

    >>> ShooterBot().options.bold
    1.0
    """

    name = "shooter"
    # Without the reading: worlds weighed by the others' plays made it try
    # a third of the moons on the moon test's deals (1 of 12 against 3).
    DEFAULTS = ExpertOptions(bold=1.0, reading=False)


class FrozenExpertBot(ExpertBot):
    """The expert as it was in December 2026 (``expert-2026-12``), kept for
    paired comparisons in the arena: every option written out as it was then,
    so a later change of the defaults does not change it (a change to the
    search's code would; the test on fixed seeds says so).

    >>> FrozenExpertBot().options.reading
    False
    """

    name = "expert-2026-12"
    DEFAULTS = ExpertOptions(
        playouts=1500,
        budget_ms=None,
        race=True,
        defend=True,
        watch=True,
        infer=True,
        objective="payoff",
        allies=True,
        pass_voids=0.0,
        explore=0.0,
        trust=0.0,
        bold=0.0,
        reading=False,
    )


def _replace(options: ExpertOptions, values: dict[str, object]) -> ExpertOptions:
    from dataclasses import fields, replace

    known = {f.name for f in fields(ExpertOptions)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"unknown expert option {unknown[0]!r}; the options are {', '.join(sorted(known))}")
    # None for defend/infer meant "the default" before the options were one value.
    given = {
        k: getattr(ExpertOptions(), k) if v is None and k in ("defend", "infer") else v
        for k, v in values.items()
    }
    return replace(options, **given)  # type: ignore[arg-type]
