"""Builds the records of tests/bots/test_advise_cli.py: hand-checked positions
found in deals of seeded bots, written as damepique-game/1 records.

    python tests/bots/golden/build_advise.py     # rewrites advise_*.json here

Each record ends at the position the test names (the seat to act is the one
advised). The search for a position is seeded, so a rerun writes the same
files; the test checks the facts, hand-checked once, that make each one
what its name says.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from damepique.bots.advice import advise
from damepique.bots.playout import Policy, choose
from damepique.bots.registry import get_bot
from damepique.bots.tactics import moon_threat, trick_state
from damepique.engine import DONE, PASS, QS, SUIT_MASKS, Match, Rules, dump_match, view_of

HERE = Path(__file__).resolve().parent


def _record(rules: Rules, deal) -> dict:
    match = Match(rules)
    match.deals.append(deal)
    return dump_match(match)


def _deals(rules: Rules, seed: int, shooter: bool = False):
    rng = random.Random(seed)
    inter = get_bot("intermediate")
    pol = Policy.of(rules)
    from damepique.engine import Deal

    while True:
        deal = Deal.shuffled(rules, random.Random(rng.getrandbits(32)), 0)
        runner = rng.randrange(4) if shooter else -1
        if deal.phase == PASS:
            for s in range(4):
                deal.pass_cards(s, inter.choose_pass(view_of(deal, s), rng))
        yield deal, runner, inter, pol


def queen_dump() -> dict:
    rules = Rules(passing=False)
    for deal, _r, inter, _pol in _deals(rules, 1):
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            legal = view.legal_mask()
            if (
                view.trick
                and not view.first_trick
                and legal >> QS & 1
                and not view.hand & trick_state(view)[0]
                and not any(view.taken_points)
            ):
                best = advise(view, random.Random(0), 2000)[0]
                if best.cards == (QS,):
                    return _record(rules, deal)
            deal.play(inter.choose_play(view, random.Random(0)))


def forced_duck() -> dict:
    rules = Rules(passing=False)
    for deal, _r, inter, _pol in _deals(rules, 2):
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            legal = view.legal_mask()
            if view.trick and not view.first_trick and legal.bit_count() >= 3:
                led, win, _ws, pts = trick_state(view)
                if legal & led == legal and legal < (1 << win) and pts > 0:
                    return _record(rules, deal)
            deal.play(inter.choose_play(view, random.Random(0)))


def moon_to_stop() -> dict:
    rules = Rules(passing=False)
    for deal, runner, inter, pol in _deals(rules, 3, shooter=True):
        while deal.phase != DONE:
            s = deal.to_act
            view = view_of(deal, s)
            legal = view.legal_mask()
            threat = moon_threat(view)
            if threat is not None and threat == runner and s != threat and legal.bit_count() >= 2:
                advice = advise(view, random.Random(0), 2000)
                worst = max(a.outcomes["moon_by_other"] for a in advice)
                if advice[0].reason == "stops_moon" and worst >= advice[0].outcomes["moon_by_other"] + 0.3:
                    return _record(rules, deal)
            if s == runner and legal & (legal - 1):
                card = choose(deal, legal, pol, runner)
            else:
                card = inter.choose_play(view, random.Random(0))
            deal.play(card)


def pass_void() -> dict:
    rules = Rules()
    rng = random.Random(4)
    from damepique.engine import Deal

    while True:
        deal = Deal.shuffled(rules, random.Random(rng.getrandbits(32)), 0)
        view = view_of(deal, 0)
        short = [s for s in range(4) if (view.hand & SUIT_MASKS[s]).bit_count() in (1, 2, 3) and s != 2]
        if not short:
            continue
        best = advise(view, random.Random(0), 2000)[0]
        if best.reason.startswith("voids_"):
            return _record(rules, deal)


BUILDERS = {
    "advise_queen_dump": queen_dump,
    "advise_forced_duck": forced_duck,
    "advise_moon_to_stop": moon_to_stop,
    "advise_pass_void": pass_void,
}

if __name__ == "__main__":
    import sys

    for name, build in BUILDERS.items():
        if len(sys.argv) > 1 and name not in sys.argv[1:]:
            continue
        record = build()
        (HERE / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print("wrote", name)
