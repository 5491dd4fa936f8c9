"""A diagnostic, not a bot: the expert's search with the hidden cards shown.

Runs ``bots_arena_log.py`` (same commands and flags) with every one of our
Monte Carlo seats drawing, instead of random worlds consistent with what it
knows, the real deal each time. Its play-outs, racing and objective are
unchanged, so the gap between this and the honest expert on the same deals
splits what the expert loses into two parts:

- what it loses by not knowing the hidden cards (inference and sampling), and
- what it would lose even knowing them (its play-out model of the others,
  its objective, its passes).

    S=openspiel-ismcts:1000,openspiel-ismcts:1000,openspiel-ismcts:1000
    python benchmarks/bots_oracle.py run --seats expert,$S --deals 300 --seed 1 --log /tmp/oracle.jsonl
    python benchmarks/bots_arena_log.py paired --log /tmp/oracle.jsonl --against /tmp/expert.jsonl

``--seeing SEATS`` (e.g. ``--seeing 0``) shows the cards to those seats only
(by default every one of our Monte Carlo seats sees): against a field of
our own experts, only the seat measured must see, or the field sees too.

``--reveal CARDS`` shows only those cards' places (e.g. ``--reveal QS`` or
``--reveal QS,KS,AS``; ``H`` for every heart): the rest is sampled as the
honest expert samples it, which says how much of the gap one card's
whereabouts is worth.

It only ever runs here, in a benchmark: no bot the package offers can see a
hidden card (``docs/bots.md``).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import damepique.bots.arena as arena
import damepique.bots.montecarlo as montecarlo
import damepique.bots.openspiel as openspiel
from damepique.engine import SUIT_MASKS, cards_of, parse_card

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bots_arena_log

_deal: dict = {}


def _watching(view_of):  # type: ignore[no-untyped-def]
    """``view_of`` that remembers the deal it was asked about (the referee's)."""

    def wrapped(deal, seat, *rest):  # type: ignore[no-untyped-def]
        _deal["now"] = deal
        return view_of(deal, seat, *rest)

    return wrapped


_honest_sample = montecarlo.sample_world
REVEAL = -1
"""The cards whose places the search is shown (-1: all)."""
SEEING: frozenset[int] | None = None
"""The seats shown them (None: every seat)."""


def _oracle_world(view, know, rng):  # type: ignore[no-untyped-def]
    deal = _deal["now"]
    if SEEING is not None and view.seat not in SEEING:
        return _honest_sample(view, know, rng)
    if REVEAL == -1:
        return list(deal.hands), deal.kitty
    shown = REVEAL & know.pool
    required = list(know.required)
    slots = [*deal.hands, deal.kitty]
    for c in cards_of(shown):
        holder = next(i for i, h in enumerate(slots) if h >> c & 1)
        required[holder] |= 1 << c
    return _honest_sample(view, replace(know, required=tuple(required), pool=know.pool & ~shown), rng)


def _reveal(text: str) -> int:
    mask = 0
    for part in text.split(","):
        mask |= SUIT_MASKS["CDHS".index(part)] if part in ("C", "D", "S", "H") else 1 << parse_card(part)
    return mask


if __name__ == "__main__":
    if "--reveal" in sys.argv:
        at = sys.argv.index("--reveal")
        REVEAL = _reveal(sys.argv[at + 1])
        del sys.argv[at : at + 2]
    if "--seeing" in sys.argv:
        at = sys.argv.index("--seeing")
        SEEING = frozenset(int(s) for s in sys.argv[at + 1].split(","))
        del sys.argv[at : at + 2]
    arena.view_of = _watching(arena.view_of)
    openspiel.view_of = _watching(openspiel.view_of)
    montecarlo.sample_world = _oracle_world
    sys.exit(bots_arena_log.main())
