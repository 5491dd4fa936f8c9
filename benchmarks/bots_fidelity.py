"""How well a model of play predicts the cards other players actually chose.

Reads ``bots_arena_log.py run --moves`` logs (OpenSpiel arenas: each deal's
hands, passes and plays), replays every deal, and at every decision of a
seat other than ``--seat`` with two legal cards or more asks the play-out
policy (``bots/playout.py``) and the intermediate rule what they would have
played. A prediction counts when it is the card played or equivalent to it
(same suit and points, no card of another hand between them). The baseline
is a uniformly random legal card.

    python benchmarks/bots_fidelity.py --log /tmp/bench2/cand_vs_ismcts.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from damepique.bots.heuristic import intermediate_play
from damepique.bots.openspiel import _DIRECTION_TO_NUMBER, openspiel_deal, openspiel_rules
from damepique.bots.playout import Policy, choose
from damepique.engine import Deal, view_of


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--log", required=True, help="--moves logs, comma-separated")
    p.add_argument(
        "--seed", type=int, default=1, help="the runs' --seed (it drew each deal's pass direction)"
    )
    p.add_argument("--seat", type=int, default=0, help="the seat whose decisions are left out (ours)")
    args = p.parse_args()
    rules = openspiel_rules()
    pol = Policy.of(rules)
    total: Counter[str] = Counter()
    policy: Counter[str] = Counter()
    rule: Counter[str] = Counter()
    chance: Counter[str] = Counter()
    lines: list[str] = []
    for path in args.log.split(","):
        with open(path, encoding="utf-8") as f:
            lines += f.readlines()
    for line in lines:
        rec = json.loads(line)
        if "moves" not in rec:
            continue
        base = rec["outcomes"][0]["base"]
        moves = rec["moves"]
        direction, hands = openspiel_deal(args.seed, base)
        if [sorted(h) for h in hands] != moves["hands"]:
            raise SystemExit(f"{base}: the log's hands are not this seed's deal (--seed)")
        deal = Deal(rules, moves["hands"], 0, _DIRECTION_TO_NUMBER[direction])
        if deal.phase == "pass":
            for s, cards in enumerate(moves["passes"]):
                deal.pass_cards(s, cards)
        for s, card in moves["plays"]:
            legal = deal.legal_mask()
            if s != args.seat and legal & (legal - 1):
                kind = "lead" if not deal.trick else "follow" if legal & deal.led_suit_mask else "discard"
                others = 0
                for t, h in enumerate(deal.hands):
                    if t != s:
                        others |= h

                def same(a: int, b: int, others: int = others) -> bool:
                    if a == b:
                        return True
                    if a // 13 != b // 13 or rules.card_points[a] != rules.card_points[b]:
                        return False
                    lo, hi = min(a, b), max(a, b)
                    return not (others >> (lo + 1)) & ((1 << (hi - lo - 1)) - 1)

                n = legal.bit_count()
                total[kind] += 1
                policy[kind] += same(choose(deal, legal, pol), card)
                rule[kind] += same(intermediate_play(view_of(deal, s)), card)
                chance[kind] += sum(1 for c in range(52) if legal >> c & 1 and same(c, card)) / n
            deal.play(card, s)
    rows = {}
    for kind in ("lead", "follow", "discard", "all"):
        t = sum(total.values()) if kind == "all" else total[kind]
        pick = (lambda c: sum(c.values())) if kind == "all" else (lambda c: c[kind])  # noqa: B023
        rows[kind] = {
            "decisions": t,
            "policy": round(pick(policy) / t, 3),
            "intermediate": round(pick(rule) / t, 3),
            "random": round(pick(chance) / t, 3),
        }
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
