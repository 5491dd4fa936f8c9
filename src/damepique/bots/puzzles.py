"""Puzzles: positions where one card (or one pass) is clearly right, mined from games.

A position of the play phase is a puzzle when the expert's best card (with
the cards equivalent to it: the answer) beats every other legal card by at
least ``MARGIN`` points of expected payoff (the others' points minus the
seat's own, as ``advice`` measures it) at ``PLAYOUTS`` play-outs, and still
does, with the same best card, on a second seed. A quick search at
``SCREEN_PLAYOUTS`` screens the positions first. A position of the pass is a
puzzle (theme ``pass``) when the expert's best three cards to pass beat every
other pass it weighs (``PASS_OPTIONS`` candidates, ``advice``) by the same
margin, on both seeds.

A puzzle keeps the seat's view only (``View.to_json``: its hand, the cards
played, the passes it made and received; never another hand), where it was
mined (``origin``: the bot game's preset, seed and position, or the server
game, seat, deal and position; it seeds ``check``) and an ``id`` that does
not say it (``public_id``: the page shows the id, and a seed deals every
hidden hand), the answer,
the margin, every option's numbers, a theme (``THEMES``) and a rating (a
harder puzzle has more options and a thinner margin: ``rating_of``).

``build`` mines puzzles from bot games (seeded: the same arguments give the
same file; ``caps`` keep a theme from crowding the others out); ``check``
replays each puzzle's view, checks that the answer is legal and that the
margin holds on a fresh seed. The package ships a starter
set (``STARTER``), built by ``damepique puzzles build``.

>>> THEMES[:3]
('stop_moon', 'dump_queen', 'duck')
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from damepique.engine import CARD_NAMES, DONE, PASS, PLAY, PRESETS, Deal, Rules, View, preset_of, view_of

from .advice import advise
from .base import Advice
from .reasons import reason_for_play
from .registry import get_bot
from .tactics import moon_threat

FORMAT = "damepique-puzzles/1"
MARGIN = 1.5
"""Expected payoff, in points, the best card must win by over every other."""
PLAYOUTS = 3000
"""Play-outs of the search that decides (a high count: the margin is measured, not guessed)."""
READING = False
"""The search that decides samples its worlds uniformly, without the expert's
reading: the shipped puzzles were built and proven that way, and a puzzle's
answer must not hang on how the others' plays are read (with the reading, 22
of the 567 margins come out under ``MARGIN`` on the check seed, as 14 do on a
fresh seed without it)."""
SCREEN_PLAYOUTS = 300
"""Play-outs of the quick search that picks the positions worth measuring."""
SCREEN_MARGIN = 1.0
"""The margin the quick search must see for a position to be measured."""
THEMES = ("stop_moon", "dump_queen", "duck", "exit_card", "void_suit", "smoke_queen", "pass")
"""Stop the moon, dump the queen, duck, keep an exit card, void a suit, smoke
out the queen, pass (which three cards to pass)."""
PASS_OPTIONS = 6
"""Candidate passes the search weighs in a pass position (the rule-based pass and its best variants)."""
BATCH = 8
"""Deals mined between two looks at the themes' caps: fixed, so that the file
does not depend on the number of worker processes."""
PRESET_WEIGHTS = {
    "standard": 70,
    "three_players": 8,
    "five_players": 8,
    "omnibus": 7,
    "black_maria": 7,
}
"""The presets games are mined from, by share: the standard game mostly."""
PER_DEAL = 2
"""Puzzles taken from one deal at most (two positions of a deal are alike)."""
STARTER = Path(__file__).resolve().parent.parent / "data" / "puzzles.json.gz"
"""The starter set shipped with the package."""


def theme_of(view: View, card: int) -> str:
    """The theme of the best card ``card`` in ``view``, from what it does
    (its reason code, ``reasons``) and the position: another seat on course
    for the moon makes it ``stop_moon``; a heavy card dumped ``dump_queen``;
    a follow below the winning card ``duck``; a lead that draws the queen
    ``smoke_queen``; a last card of a suit ``void_suit``; otherwise getting
    rid of a high card keeps the low ones to exit with: ``exit_card``."""
    reason = reason_for_play(view, card)
    threat = moon_threat(view)
    if reason == "stops_moon" or (threat is not None and threat != view.seat):
        return "stop_moon"
    if reason == "dumps_queen":
        return "dump_queen"
    if reason in ("ducks", "follows_low", "follows_under"):
        return "duck"
    if reason == "smokes_queen":
        return "smoke_queen"
    if reason.startswith("voids_"):
        return "void_suit"
    return "exit_card"


def rating_of(groups: int, margin: float) -> int:
    """A puzzle's rating (Glicko-2 scale): 1500 for three kinds of card and a
    margin of 2 points; 100 more for each other kind of card to choose from,
    60 less for each point of margin more; from 800 to 2300.

    >>> rating_of(3, 2.0), rating_of(2, 10.0), rating_of(6, 1.5)
    (1500, 920, 1830)
    """
    return int(max(800, min(2300, round(1500 + 100 * (groups - 3) - 60 * (margin - 2.0)))))


@dataclass(frozen=True)
class Measure:
    """The best card's group (``answer``), its margin over the next best
    option, and every option's numbers (best first)."""

    answer: tuple[int, ...]
    margin: float
    options: list[Advice]


def measure(view: View, rng: random.Random, playouts: int) -> Measure | None:
    """The search's verdict on ``view``: None with a single kind of card."""
    options = advise(view, rng, playouts, top_passes=PASS_OPTIONS, reading=READING)
    best = [a for a in options if a.best]
    rest = [a for a in options if not a.best]
    if not best or not rest:
        return None
    margin = min(a.extra["utility"] for a in rest) - best[0].extra["utility"]
    return Measure(tuple(sorted(c for a in best for c in a.cards)), margin, options)


def public_id(origin: str) -> str:
    """The id a puzzle is shown by, from where it was mined (its ``origin``),
    naming neither the seed nor the game: either would deal the hands the
    position hides. (The file itself keeps the key and the answer: it is the
    page, where a player tries the puzzle, that must not learn them.)

    >>> public_id("standard-2158288730-6")
    'pz-15f819d1a2b6'
    """
    return "pz-" + hashlib.sha256(origin.encode()).hexdigest()[:12]


def with_public_id(p: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A puzzle as the file keeps it now, from one of any file: an entry written
    before ``public_id`` (its ``id`` said where it was mined, and had no
    ``origin``) gets that id as ``origin`` and ``public_id(origin)`` as ``id``,
    so that no build or load serves a seed; a current entry comes back as it is.
    ``ValueError`` names the entry (``where``) that cannot be made so: one with
    neither, a ``pz-`` id without the origin it was made from (``check`` is
    seeded by the origin), or an id that is not its origin's.

    >>> with_public_id({"id": "standard-2158288730-6", "theme": "duck"}, "puzzle 1")
    {'id': 'pz-15f819d1a2b6', 'origin': 'standard-2158288730-6', 'theme': 'duck'}
    >>> with_public_id({"id": "pz-15f819d1a2b6"}, "puzzle 2")
    Traceback (most recent call last):
    ...
    ValueError: puzzle 2 ('pz-15f819d1a2b6'): a public id without its origin (where it was mined)
    """
    if not isinstance(p, Mapping):
        raise ValueError(f"{where}: a puzzle is a JSON object, not {type(p).__name__}")
    ident = p.get("id")
    origin = p.get("origin", ident)
    if not isinstance(origin, str) or not origin:
        raise ValueError(f"{where} ({ident!r}): no origin nor id to make its public id from")
    if "origin" not in p and origin.startswith("pz-"):
        raise ValueError(f"{where} ({ident!r}): a public id without its origin (where it was mined)")
    if "origin" in p and ident is not None and ident != public_id(origin):
        raise ValueError(f"{where} ({ident!r}): the id is not public_id({origin!r}), {public_id(origin)!r}")
    rest = {k: v for k, v in p.items() if k not in ("id", "origin")}
    return {"id": public_id(origin), "origin": origin, **rest}


def puzzle_json(view: View, preset: str, m: Measure, playouts: int, origin: str) -> dict[str, Any]:
    """One puzzle as the file keeps it."""
    groups = len({round(a.extra["utility"], 6) for a in m.options})
    return {
        "id": public_id(origin),
        "origin": origin,
        "preset": preset,
        "rules": view.rules.to_json(),
        "view": view.to_json(),
        "answer": [CARD_NAMES[c] for c in m.answer],
        "margin": round(m.margin, 2),
        "theme": theme_of(view, m.answer[0]) if view.phase == PLAY else "pass",
        "rating": rating_of(groups, m.margin),
        "playouts": playouts,
        "options": [
            {
                "cards": [CARD_NAMES[c] for c in a.cards],
                "expected": round(float(a.score), 2),
                "payoff": round(float(a.extra["payoff"]), 2),
                "best": bool(a.best),
            }
            for a in m.options
        ],
    }


def view_of_puzzle(p: Mapping[str, Any]) -> View:
    """The seat's view a puzzle keeps."""
    return View.from_json(p["view"], Rules.from_json(p["rules"]))


# -- mining ------------------------------------------------------------------------------------


def _positions(preset: str, seed: int) -> Iterator[View]:
    """The positions of one seeded deal between bots, as the seat to act saw
    them: the first seat's pass (when the deal has one), then each play."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, rng)
    # Bots of both kinds: positions after a weaker seat's play are as real as the others.
    bots = [get_bot("intermediate" if rng.random() < 0.7 else "beginner") for _ in range(rules.players)]
    if deal.phase == PASS:
        yield view_of(deal, 0)
        for s in range(rules.players):
            deal.pass_cards(s, bots[s].choose_pass(view_of(deal, s), rng))
    while deal.phase == PLAY:
        s = deal.to_act
        view = view_of(deal, s)
        yield view
        deal.play(bots[s].choose_play(view, rng))
    assert deal.phase == DONE


def _theme(view: View, m: Measure) -> str:
    return theme_of(view, m.answer[0]) if view.phase == PLAY else "pass"


Job = tuple[str, int, int] | tuple[str, int, int, tuple[str, ...], tuple[int, ...]]
"""``(preset, seed, playouts[, full themes, check seeds])``: one deal to mine."""


def mine_deal(job: Job) -> list[dict[str, Any]]:
    """The puzzles of one seeded deal (``Job``): at most ``PER_DEAL``, none of
    the themes ``full``, each holding ``check`` on every one of the check seeds."""
    preset, seed, playouts = job[:3]
    full = set(job[3]) if len(job) > 3 else set()
    seeds: tuple[int, ...] = job[4] if len(job) > 4 else ()
    views = ((f"{seed}:{k}", f"{preset}-{seed}-{k}", v) for k, v in enumerate(_positions(preset, seed)))
    return _mine(views, preset, playouts, full, seeds)


def _mine(
    views: Iterable[tuple[str, str, View]], preset: str, playouts: int, full: set[str], seeds: tuple[int, ...]
) -> list[dict[str, Any]]:
    """The puzzles among the positions of one deal (``(key, id, view)`` each:
    ``key`` seeds its searches): at most ``PER_DEAL``."""
    found: list[dict[str, Any]] = []
    for key, ident, view in views:
        if view.phase == PASS:
            if "pass" in full:
                continue
        else:
            legal = view.legal_mask()
            if legal & (legal - 1) == 0 or view.hand.bit_count() <= 2:
                continue
        quick = measure(view, random.Random(f"screen:{key}"), SCREEN_PLAYOUTS)
        if quick is None or quick.margin < SCREEN_MARGIN or _theme(view, quick) in full:
            continue
        first = measure(view, random.Random(f"first:{key}"), playouts)
        if first is None or first.margin < MARGIN:
            continue
        second = measure(view, random.Random(f"second:{key}"), playouts)
        if second is None or second.margin < MARGIN or second.answer != first.answer:
            continue
        m = Measure(first.answer, min(first.margin, second.margin), first.options)
        if _theme(view, m) in full:
            continue
        p = puzzle_json(view, preset, m, playouts, ident)
        if any(check_one((p, s)) for s in seeds):
            continue  # noisy: its margin or its answer does not hold on a check's seed
        found.append(p)
        if len(found) >= PER_DEAL:
            break
    return found


GameJob = tuple[str, Mapping[str, Any], Sequence[int], int, tuple[int, ...]]
"""``(name, record, seats, playouts, check seeds)``: one finished game to mine."""


_Job = TypeVar("_Job")
_Found = TypeVar("_Found")


def _gather(find: Callable[[_Job], list[_Found]], work: list[_Job], jobs: int) -> list[_Found]:
    """Everything ``find`` finds in each job, in the jobs' order whatever ``jobs``
    (the number of processes; one: in this process)."""
    if jobs <= 1:
        return [x for job in work for x in find(job)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [x for found in pool.map(find, work) for x in found]


def mine_record(job: GameJob) -> list[dict[str, Any]]:
    """The puzzles of a finished game (a ``damepique-game/1`` record) from the
    decisions of ``seats`` only, each from what that seat saw then
    (``analysis.decisions``): at most ``PER_DEAL`` a deal and seat; none
    from a record that does not replay. Origins are ``game-NAME-SEAT-DEAL-K``
    (ids: ``public_id`` of them)."""
    from .analysis import decisions_of_record  # (the analysis does not import puzzles)

    name, record, seats, playouts, checks = job
    found: list[dict[str, Any]] = []
    for seat in seats:
        decisions, error = decisions_of_record(record, seat)
        if error is not None:
            return []
        preset = preset_of(decisions[0].view.rules) if decisions else "custom"
        by_deal: dict[int, list[View]] = {}
        for d in decisions:
            by_deal.setdefault(d.deal, []).append(d.view)
        for deal, views in sorted(by_deal.items()):
            keyed = (
                (f"{name}:{seat}:{deal}:{k}", f"game-{name}-{seat}-{deal}-{k}", v)
                for k, v in enumerate(views)
            )
            found += _mine(keyed, preset, playouts, set(), checks)
    return found


def mine_games(
    games: Sequence[tuple[str, Mapping[str, Any], Sequence[int]]],
    playouts: int = PLAYOUTS,
    jobs: int = 1,
    checks: tuple[int, ...] = (),
) -> dict[str, Any]:
    """A puzzle file mined from finished games (``(name, record, seats)``
    each: ``mine_record``), in their order, whatever ``jobs``."""
    work: list[GameJob] = [(name, record, seats, playouts, checks) for name, record, seats in games]
    puzzles = _gather(mine_record, work, jobs)
    return {"format": FORMAT, "margin": MARGIN, "playouts": playouts, "puzzles": puzzles, "source": "games"}


def _jobs(seed: int, presets: Mapping[str, int]) -> Iterator[tuple[str, int]]:
    rng = random.Random(seed)
    names = list(presets)
    weights = [presets[n] for n in names]
    while True:
        yield rng.choices(names, weights)[0], rng.getrandbits(32)


def build(
    count: int,
    seed: int = 0,
    playouts: int = PLAYOUTS,
    jobs: int = 1,
    presets: Mapping[str, int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    caps: Mapping[str, int] | None = None,
    checks: tuple[int, ...] = (),
    keep: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """At least ``count`` puzzles (a deal's puzzles come together), mined
    from seeded bot games over ``presets`` (default ``PRESET_WEIGHTS``), as
    the file keeps them; at most ``caps[theme]`` puzzles of a theme (the
    others are mined on); only those that pass ``check`` on each seed of
    ``checks``. ``keep``: puzzles of an earlier file taken first (in their
    order, within the caps, each once, with its public id: ``with_public_id``),
    the mined ones added after them. The same arguments give the same file,
    whatever ``jobs``."""
    caps = dict(caps or {})
    puzzles: list[dict[str, Any]] = []
    have: dict[str, int] = {}
    ids: set[str] = set()
    for i, kept in enumerate(keep):
        p = with_public_id(kept, f"kept puzzle {i + 1}")
        # The same puzzle in two kept files (one written before public ids) is taken once.
        if p["id"] in ids:
            continue
        if have.get(p["theme"], 0) < caps.get(p["theme"], count) and len(puzzles) < count:
            have[p["theme"]] = have.get(p["theme"], 0) + 1
            ids.add(p["id"])
            puzzles.append(p)
    source = _jobs(seed, presets or PRESET_WEIGHTS)
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        while len(puzzles) < count:
            full = tuple(sorted(t for t, n in caps.items() if have.get(t, 0) >= n))
            work: list[Job] = [(*next(source), playouts, full, checks) for _ in range(BATCH)]
            results = pool.map(mine_deal, work) if pool else map(mine_deal, work)
            for found in results:
                for p in found:
                    if p["id"] not in ids and have.get(p["theme"], 0) < caps.get(p["theme"], count):
                        ids.add(p["id"])
                        have[p["theme"]] = have.get(p["theme"], 0) + 1
                        puzzles.append(p)
            if progress is not None:
                progress(len(puzzles), count)
    finally:
        if pool is not None:
            pool.shutdown()
    out: dict[str, Any] = {"format": FORMAT, "margin": MARGIN, "playouts": playouts, "puzzles": puzzles}
    if caps:
        out["caps"] = caps
    if checks:
        out["checks"] = list(checks)
    return out


# -- checking ----------------------------------------------------------------------------------


def check_one(job: tuple[Mapping[str, Any], int]) -> list[str]:
    """What is wrong with one puzzle (nothing: ``[]``): its view must load,
    its answer be legal cards of it and hold the best card's group, and its
    margin hold on the fresh seed ``job[1]``, with the same best card."""
    p, seed = job
    ident = p.get("id", "?")
    origin = p.get("origin", ident)
    try:
        view = view_of_puzzle(p)
        answer = {CARD_NAMES.index(c) for c in p["answer"]}
    except (KeyError, ValueError, TypeError) as e:
        return [f"{ident}: unreadable ({type(e).__name__}: {e})"]
    if view.phase == PASS:
        if view.passed_seats[view.seat] or len(answer) != view.rules.pass_count:
            return [f"{ident}: not a pass the seat has to make"]
        legal = view.hand
    elif view.phase != PLAY or view.to_act != view.seat:
        return [f"{ident}: not the seat's turn to play"]
    else:
        legal = view.legal_mask()
    bad = [CARD_NAMES[c] for c in sorted(answer) if not legal >> c & 1]
    if bad:
        return [f"{ident}: the answer {' '.join(bad)} is not legal"]
    if p.get("theme") not in THEMES:
        return [f"{ident}: unknown theme {p.get('theme')!r}"]
    m = measure(view, random.Random(f"check:{seed}:{origin}"), int(p.get("playouts", PLAYOUTS)))
    if m is None:
        return [f"{ident}: a single kind of card"]
    if set(m.answer) != answer:
        names = " ".join(CARD_NAMES[c] for c in m.answer)
        return [f"{ident}: on a fresh seed the best is {names}, not {' '.join(p['answer'])}"]
    if m.margin < MARGIN:
        return [f"{ident}: on a fresh seed the margin is {m.margin:.2f}, under {MARGIN}"]
    return []


def check(data: Mapping[str, Any], seed: int = 1, jobs: int = 1, sample: int | None = None) -> list[str]:
    """Every puzzle of a file checked (``check_one``; ``sample``: the first
    ``sample`` only): the problems found, none when it holds."""
    if data.get("format") != FORMAT:
        return [f"format must be {FORMAT!r}, not {data.get('format')!r}"]
    puzzles = list(data.get("puzzles", []))[:sample]
    ids = [p.get("id") for p in puzzles]
    problems = [f"{i}: the id is used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    return problems + _gather(check_one, [(p, seed) for p in puzzles], jobs)


def load(path: str | Path | None = None) -> dict[str, Any]:
    """A puzzle file (``STARTER`` by default; gzip-compressed when its name ends
    with ``.gz``), every puzzle with its public id (``with_public_id``: a file
    written before them is converted as it is read; ``ValueError`` names the
    puzzle that cannot be)."""
    path = Path(STARTER if path is None else path)
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("a puzzle file is a JSON object")
    found = data.get("puzzles", [])
    if not isinstance(found, list):
        raise ValueError(f"puzzles is a list, not {type(found).__name__}")
    data["puzzles"] = [with_public_id(p, f"puzzle {i + 1}") for i, p in enumerate(found)]
    return data


def dump(data: Mapping[str, Any], path: str | Path) -> None:
    """Write a puzzle file (gzip-compressed when its name ends with ``.gz``, reproducibly)."""
    path = Path(path)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    path.write_bytes(gzip.compress(text, mtime=0) if path.suffix == ".gz" else text)


def counts(puzzles: Sequence[Mapping[str, Any]], key: str) -> dict[str, int]:
    """How many puzzles have each value of ``key`` (``theme``, ``preset``)."""
    out: dict[str, int] = {}
    for p in puzzles:
        out[str(p.get(key))] = out.get(str(p.get(key)), 0) + 1
    return dict(sorted(out.items()))


__all__ = [
    "FORMAT",
    "MARGIN",
    "PASS_OPTIONS",
    "PLAYOUTS",
    "PRESET_WEIGHTS",
    "STARTER",
    "THEMES",
    "build",
    "check",
    "check_one",
    "counts",
    "dump",
    "load",
    "measure",
    "mine_deal",
    "mine_games",
    "mine_record",
    "public_id",
    "rating_of",
    "theme_of",
    "view_of_puzzle",
    "with_public_id",
]
