"""Builds the records of tests/bots/test_analysis.py: whole deals of seeded
bots with one hand-checked decision of seat 0 written into them.

    python tests/bots/golden/build_analysis.py     # rewrites analysis_*.json here

``analysis_queen_blunder``: seat 0, last to play to a spade trick that a
spade below the queen is winning, holds the Q♠ and a lower spade, and plays
the queen: it takes her (13 points) where the lower spade ducked. The rest
of the deal is played by ``intermediate`` bots (seat 0 included), so the
record has forced cards too. The search for the position is seeded, so a
rerun writes the same file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from damepique.bots.registry import get_bot
from damepique.engine import DONE, QS, SUIT_MASKS, Deal, Match, Rules, dump_match, view_of

HERE = Path(__file__).resolve().parent
SPADES = SUIT_MASKS[3]


def queen_blunder() -> dict:
    rules = Rules(passing=False)
    rng = random.Random(11)
    inter = get_bot("intermediate")
    while True:
        deal = Deal.shuffled(rules, random.Random(rng.getrandbits(32)), 0)
        dumped = False
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            legal = view.legal_mask()
            if (
                s == 0
                and not dumped
                and len(view.trick) == rules.players - 1
                and view.trick[0] >> 0 in range(39, 52)
                and max(view.trick) < QS
                and all(c in range(39, 52) for c in view.trick)
                and legal >> QS & 1
                and legal & SPADES & ((1 << max(view.trick)) - 1)
                and not any(view.taken_points)
            ):
                deal.play(QS)
                dumped = True
                continue
            deal.play(inter.choose_play(view, random.Random(0)))
        if dumped:
            match = Match(rules)
            match.deals.append(deal)
            return dump_match(match)


BUILDERS = {"analysis_queen_blunder": queen_blunder}

if __name__ == "__main__":
    for name, build in BUILDERS.items():
        record = build()
        (HERE / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print("wrote", name)
