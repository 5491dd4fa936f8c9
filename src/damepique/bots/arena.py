"""The arena: bots against bots, with honest statistics (the library; the
``damepique arena`` and ``damepique play`` commands are in ``damepique.cli``).

``damepique arena --seats expert,intermediate,intermediate,intermediate
--deals 500 --seed 1 --duplicate --jobs 2`` plays deal after deal and reports,
per bot name, mean points per deal, payoff (the mean of the others' points
minus its own) with a 95% confidence interval, and moons made and conceded.

- Deal ``d`` is shuffled from a generator seeded by ``(seed, d)``; the bot in
  seat ``s`` gets a generator seeded by ``(seed, d, s)``: two versions of a bot
  in the same seat see identical situations.
- ``--duplicate`` plays each deal once per rotation of the seats, so every bot
  plays every hand; the confidence interval is then computed over deals
  (each deal's payoff averaged over its rotations), which is what makes
  duplicate comparisons tight.
- ``--games`` plays whole games to the target (``--deals`` then counts games)
  and adds the share of games won.
- A seat named ``remote`` (with ``--listen HOST:PORT``) is played by a
  program outside, over the bot API (``damepique.botapi.remote_seat``).
- Seats named ``openspiel-ismcts:SIMS`` or ``openspiel-mcts:SIMS`` play
  OpenSpiel's own bots (``bots.openspiel``), single deals under OpenSpiel's
  rules.

>>> rows = run_arena(["intermediate", "random", "random", "random"], deals=4, seed=1)
>>> [r["name"] for r in rows], rows[0]["deals"]
(['intermediate', 'random'], 4)
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from damepique.engine import DONE, PASS, Deal, Match, Rules, view_of

from .base import Bot
from .registry import get_bot


@dataclass(frozen=True)
class DealOutcome:
    """One deal played: which entry (index in ``--seats``) sat where, the points."""

    base: int
    """The deal's (or game's) index: rotations of one deal share it."""
    entries: tuple[int, ...]
    """``entries[seat]``: the index in the seats list of the bot in that seat."""
    points: tuple[int, ...]
    moon: int | None
    game_winner: int | None = None
    """For whole games: the seat that won (only on the game's last deal)."""


def _seed(*parts: object) -> str:
    return ":".join(str(p) for p in parts)


_BOTS: dict[str, Bot] = {}


def _bot(name: str, given: Mapping[str, Bot] | None = None) -> Bot:
    if given is not None and name in given:
        return given[name]
    bot = _BOTS.get(name)
    if bot is None:
        bot = get_bot(name)
        _BOTS[name] = bot
    return bot


def play_deal(
    deal: Deal,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    totals: Sequence[int] = (),
    on_trick: Any = None,
) -> Deal:
    """Play ``deal`` to its end, each seat by its bot, each bot from its own view."""
    n = deal.players
    if deal.phase == PASS:
        for s in range(n):
            cards = bots[s].choose_pass(view_of(deal, s, totals), rngs[s])
            deal.pass_cards(s, cards)
    while deal.phase != DONE:
        s = deal.to_act
        card = bots[s].choose_play(view_of(deal, s, totals), rngs[s])
        event = deal.play(card, s)
        if on_trick is not None and event.trick_winner is not None:
            on_trick(deal)
    return deal


def _rotations(n: int, duplicate: bool) -> range:
    return range(n if duplicate else 1)


def _run_task(
    task: tuple[list[str], Rules, int, int, bool, bool], given: Mapping[str, Bot] | None = None
) -> list[DealOutcome]:
    names, rules, seed, base, duplicate, games = task
    n = rules.players
    if any(name.startswith("openspiel-") for name in names):
        from .openspiel import play_openspiel_deal

        out = []
        for r in _rotations(n, duplicate):
            entries = tuple((s - r) % n for s in range(n))
            points, moon = play_openspiel_deal([names[e] for e in entries], seed, base)
            out.append(DealOutcome(base, entries, points, moon))
        return out
    out = []
    for r in _rotations(n, duplicate):
        entries = tuple((s - r) % n for s in range(n))
        bots = [_bot(names[e], given) for e in entries]
        if not games:
            deal = Deal.shuffled(rules, random.Random(_seed(seed, base)), base)
            rngs = [random.Random(_seed(seed, base, s, "bot")) for s in range(n)]
            play_deal(deal, bots, rngs)
            res = deal.result()
            out.append(DealOutcome(base, entries, res.points, res.moon))
            continue
        match = Match(rules)
        k = 0
        while not match.over:
            deal = Deal.shuffled(rules, random.Random(_seed(seed, base, k)), k)
            match.deals.append(deal)
            rngs = [random.Random(_seed(seed, base, k, s, "bot")) for s in range(n)]
            totals = match.totals
            play_deal(deal, bots, rngs, totals)
            res = deal.result()
            winner = match.winner if match.over else None
            out.append(DealOutcome(base, entries, res.points, res.moon, winner))
            k += 1
            if k > 500:  # pragma: no cover - a tie cannot last this long
                break
    return out


def iter_outcomes(
    names: Sequence[str],
    rules: Rules,
    deals: int,
    seed: int,
    duplicate: bool = False,
    games: bool = False,
    jobs: int = 1,
    bots: Mapping[str, Bot] | None = None,
) -> Iterator[list[DealOutcome]]:
    """Each deal's (or game's) outcomes, rotations together, in any order.
    ``bots``: seats played by these bots, by name, instead of ``get_bot``'s
    (a remote program's seat); they play in this process."""
    if len(names) != rules.players:
        raise ValueError(f"{len(names)} seats given for {rules.players} players")
    tasks = [(list(names), rules, seed, d, duplicate, games) for d in range(deals)]
    if jobs <= 1 or bots:
        for t in tasks:
            yield _run_task(t, bots)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_run_task, tasks, chunksize=1)


def summarize(
    names: Sequence[str], results: list[list[DealOutcome]], games: bool = False
) -> list[dict[str, Any]]:
    """Per bot name: the report's fields (see the module docstring)."""
    order: list[str] = []
    for name in names:
        if name not in order:
            order.append(name)
    rows = []
    n = len(names)
    game_count = len(results)
    for name in order:
        count = 0
        pts = 0.0
        pay_total = 0.0
        made = 0
        conceded = 0
        per_base: list[float] = []
        won = 0
        for group in results:
            base_pay = 0.0
            base_count = 0
            for o in group:
                for seat, e in enumerate(o.entries):
                    if names[e] != name:
                        continue
                    own = o.points[seat]
                    pay = (sum(o.points) - own) / (n - 1) - own
                    count += 1
                    pts += own
                    pay_total += pay
                    base_pay += pay
                    base_count += 1
                    if o.moon is not None:
                        if o.moon == seat:
                            made += 1
                        else:
                            conceded += 1
                    if o.game_winner == seat:
                        won += 1
            if base_count:
                per_base.append(base_pay / base_count)
        payoff = pay_total / count if count else 0.0
        k = len(per_base)
        if k > 1:
            m = sum(per_base) / k
            sd = math.sqrt(sum((x - m) ** 2 for x in per_base) / (k - 1))
            half = 1.96 * sd / math.sqrt(k)
        else:
            half = float("inf") if k else 0.0
        row: dict[str, Any] = {
            "name": name,
            "deals": count,
            "mean_points": round(pts / count, 4) if count else 0.0,
            "payoff": round(payoff, 4),
            "payoff_ci95": [round(payoff - half, 4), round(payoff + half, 4)],
            "moons_made": made,
            "moons_conceded": conceded,
        }
        if games:
            rotations = max(len({o.entries for o in g}) for g in results) if results else 1
            row["games_won_share"] = round(won / (game_count * rotations), 4) if game_count else 0.0
        rows.append(row)
    return rows


def run_arena(
    names: Sequence[str],
    deals: int,
    seed: int,
    rules: Rules | None = None,
    duplicate: bool = False,
    games: bool = False,
    jobs: int = 1,
    progress: bool = False,
    bots: Mapping[str, Bot] | None = None,
) -> list[dict[str, Any]]:
    """Play and summarize; the library form of ``damepique arena`` (``bots``:
    seats played by these bots, by name, as ``iter_outcomes`` says)."""
    rules = rules or Rules()
    if any(name.startswith("openspiel-") for name in names):
        from .openspiel import openspiel_rules

        rules = openspiel_rules()
        if games:
            raise ValueError("OpenSpiel seats play single deals only (no --games)")
    results: list[list[DealOutcome]] = []
    bar = _Progress(deals, "games" if games else "deals") if progress else None
    for group in iter_outcomes(names, rules, deals, seed, duplicate, games, jobs, bots):
        results.append(group)
        if bar:
            bar.update(len(results))
    if bar:
        bar.close()
    results.sort(key=lambda g: g[0].base)
    return summarize(names, results, games)


class _Progress:
    """A one-line progress bar on standard error."""

    def __init__(self, total: int, unit: str) -> None:
        self.total = total
        self.unit = unit
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.5 and done < self.total:
            return
        self.last = now
        frac = done / self.total if self.total else 1.0
        width = 30
        filled = int(frac * width)
        elapsed = now - self.start
        eta = elapsed / done * (self.total - done) if done else 0.0
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {self.unit}"
            f"  {elapsed:6.0f}s elapsed, ~{eta:.0f}s left "
        )
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def split_seats(text: str) -> list[str]:
    """``--seats`` split at commas, a ``key=value`` part staying with the bot
    before it (an expert's options):

    >>> split_seats("expert:objective=points,allies=0,intermediate")
    ['expert:objective=points,allies=0', 'intermediate']
    """
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if out and "=" in part and ":" not in part and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out
