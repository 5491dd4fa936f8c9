"""Write the golden records of tests/golden from scenarios designed by hand.

Each scenario sets up hands (and passes) so that the rule corner it shows
happens, plays the deal with a simple policy (a shooter plays his highest
legal card, everybody else the lowest, unless a seat's preferences say
otherwise), and states the expected points *by hand*. The builder refuses
to write a scenario whose replay disagrees with what the scenario says.

    .venv/bin/python tests/golden/build_golden.py

writes ``NAME.json`` (the record: ``damepique replay NAME.json`` works on it)
and ``NAME.expected.json`` (what ``replay`` and ``legal`` print, with their
exit statuses) for every scenario. tests/engine/test_golden.py checks them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from damepique.cli import referee
from damepique.engine import CARD_NAMES, PRESETS, Deal, Rules, cards_of, mask_of, parse_card, parse_cards
from damepique.engine.record import FORMAT

HERE = Path(__file__).resolve().parent

Cards = str  # "2C 3C ..." in a scenario


def m(text: Cards) -> int:
    return mask_of(parse_cards(text))


def names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def rest_round_robin(rules: Rules, fixed: dict[int, int], kitty: int = 0) -> list[int]:
    """Complete hands: the seats in ``fixed`` keep theirs, the remaining cards
    go round-robin, in order, to the other seats."""
    n = rules.players
    hands = [fixed.get(s, 0) for s in range(n)]
    used = kitty
    for h in hands:
        used |= h
    free = [s for s in range(n) if s not in fixed]
    rest = [c for c in cards_of(rules.deck_cards & ~used)]
    i = 0
    for c in rest:
        while hands[free[i % len(free)]].bit_count() >= rules.hand_size:
            i += 1
        hands[free[i % len(free)]] |= 1 << c
        i += 1
    return hands


def shooter_hand(rules: Rules, counts: Sequence[int]) -> int:
    """The top ``counts[suit]`` cards of each suit: a hand that wins every trick
    when it plays its highest legal card."""
    low = 0 if rules.deck == 52 else 4
    mask = 0
    for suit, k in enumerate(counts):
        for r in range(12, 12 - k, -1):
            assert r >= low
            mask |= 1 << (suit * 13 + r)
    return mask


Policy = Callable[[Deal], int]


def play_out(
    deal: Deal, *, high: Sequence[int] = (), prefer: dict[int, list[str]] | None = None, stop: int = 10**9
) -> list[str]:
    """Play ``deal`` to its end (or ``stop`` plays): seats in ``high`` play their
    highest legal card, the others their lowest, except a seat's first legal
    card in ``prefer``."""
    prefer = prefer or {}
    plays: list[str] = []
    while deal.phase == "play" and len(plays) < stop:
        seat = deal.to_act
        legal = deal.legal_cards()
        choice = legal[-1] if seat in high else legal[0]
        for name in prefer.get(seat, []):
            if parse_card(name) in legal:
                choice = parse_card(name)
                prefer[seat].remove(name)
                break
        deal.play(choice)
        plays.append(CARD_NAMES[choice])
    return plays


def passes_into(
    rules: Rules, number: int, post: list[int], give: dict[int, str] | None = None
) -> tuple[list[int], list[int]]:
    """Pre-pass hands and passes such that the hands after the exchange are
    ``post``: seat s gives 3 cards of its target's final hand (the lowest,
    unless ``give[s]`` names them)."""
    n = rules.players
    offset = rules.pass_offset(number) % n
    if offset == 0:
        return list(post), [0] * n
    give = give or {}
    passes = []
    for s in range(n):
        target = (s + offset) % n
        if s in give:
            p = m(give[s])
            assert p & ~post[target] == 0, "a seat gives cards its target ends with"
        else:
            p = mask_of(cards_of(post[target])[: rules.pass_count])
        passes.append(p)
    pre = []
    for s in range(n):
        source = (s - offset) % n
        pre.append((post[s] & ~passes[source]) | passes[s])
    return pre, passes


def deal_record(
    rules: Rules, number: int, pre: list[int], passes: list[int], kitty: int = 0
) -> tuple[dict[str, Any], Deal]:
    deal = Deal(rules, pre, kitty, number)
    raw: dict[str, Any] = {"hands": [names(h) for h in pre], "kitty": names(kitty), "passes": []}
    if deal.phase == "pass":
        for s in range(rules.players):
            deal.pass_cards(s, passes[s])
            raw["passes"].append(names(passes[s]))
    return raw, deal


def moon_deal(
    rules: Rules,
    number: int,
    shooter: int,
    counts: Sequence[int] = (4, 3, 3, 3),
    kitty: int = 0,
    give: dict[int, str] | None = None,
) -> dict[str, Any]:
    """A complete deal in which ``shooter`` wins every trick."""
    post = rest_round_robin(rules, {shooter: shooter_hand(rules, counts)}, kitty)
    pre, passes = passes_into(rules, number, post, give)
    raw, deal = deal_record(rules, number, pre, passes, kitty)
    raw["plays"] = play_out(deal, high=[shooter])
    assert deal.phase == "done" and all(t[2] == shooter for t in deal.tricks)
    return raw


def record(rules: Rules, deals: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "rules": rules.to_json(), "deals": deals}


SCENARIOS: dict[str, tuple[dict[str, Any] | str, dict[str, Any]]] = {}
"""name -> (record or raw text, what the scenario says: a subset of the expected answers)."""


def scenario(name: str, rec: dict[str, Any] | str, **says: Any) -> None:
    SCENARIOS[name] = (rec, says)


def build() -> None:
    nopass = Rules(passing=False)

    # -- the first trick ---------------------------------------------------------
    # Seat 3 holds twelve hearts and QS: void in clubs, nothing but points, so
    # any of its cards may go on the first trick.
    hands = rest_round_robin(nopass, {3: m("QS") | (m("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"))})
    raw, deal = deal_record(nopass, 0, hands, [0] * 4)
    raw["plays"] = play_out(deal, stop=3)
    assert deal.to_act == 3
    scenario(
        "first_trick_only_hearts_and_qs_legal",
        record(nopass, [raw]),
        legal={"seat": 3, "phase": "play", "legal": names(hands[3])},
    )
    raw2 = dict(raw, plays=[*raw["plays"], "QS"])
    scenario(
        "first_trick_only_hearts_and_qs_plays_qs",
        record(nopass, [raw2]),
        # 2C, 3C, 4C then QS: seat 2's 4C takes the trick and the queen.
        replay={"deals": [{"points": [0, 0, 13, 0], "moon": None, "complete": False}]},
    )
    # Seat 0 holds every club: the others are void on the first trick but
    # hold safe cards (diamonds, spades), so a heart is refused.
    hands = rest_round_robin(nopass, {0: m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")})
    raw, deal = deal_record(nopass, 0, hands, [0] * 4)
    raw["plays"] = ["2C"]
    seat1_heart = names(hands[1] & m("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"))[0]
    scenario(
        "first_trick_no_points_when_void",
        record(nopass, [dict(raw, plays=["2C", seat1_heart])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 1,
            "seat": 1,
            "card": seat1_heart,
            "reason": "no points on the first trick",
        },
    )
    # Seat 1 holds clubs and hearts: it must follow clubs; seat 0 must lead 2C.
    hands = rest_round_robin(nopass, {1: m("3C 4C 5C 6C 7C 8C 9C TC JC 2H 3H 4H 5H")})
    raw, deal = deal_record(nopass, 0, hands, [0] * 4)
    assert deal.to_act == 0
    scenario(
        "must_follow_clubs",
        record(nopass, [dict(raw, plays=["2C", "2H"])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 1,
            "seat": 1,
            "card": "2H",
            "reason": "must follow clubs",
        },
    )
    other = names(hands[0] & ~m("2C"))[0]
    scenario(
        "first_trick_led_with_two_of_clubs",
        record(nopass, [dict(raw, plays=[other])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 0,
            "seat": 0,
            "card": other,
            "reason": "the first trick is led with the 2C",
        },
    )

    # -- hearts: QS does not break them; a hand of only hearts may lead one --------
    # Seat 1 leads 2C, seat 0 wins the first trick with AC and leads 2S; seat
    # 1 takes it with AS, seat 3 has to follow with QS. Hearts are still not
    # broken: seat 1 may not lead its 2H.
    h0 = m("AC KC QC JC TC 9C 8C 7C 6C 2S 3S 4S 2D")
    h1 = m("2C 3C 4C 5C AS KS JS TS 9S 8S AD KD 2H")
    h2 = m("7S 6S 5S AH KH QH JH TH 9H 8H 7H 6H 5H")
    h3 = nopass.deck_cards & ~(h0 | h1 | h2)
    assert m("QS") & h3 and not h3 & m("2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS")
    raw, deal = deal_record(nopass, 0, [h0, h1, h2, h3], [0] * 4)
    plays = play_out(deal, high=[0], stop=4)
    assert deal.tricks[0][2] == 0
    plays += play_out(deal, prefer={0: ["2S"], 3: ["QS"], 1: ["AS"]}, stop=4)
    assert "QS" in plays[4:8] and not deal.hearts_broken and deal.to_act == 1
    # Seat 1 won with AS and holds 2H with other suits: a heart lead is refused.
    scenario(
        "qs_does_not_break_hearts",
        record(nopass, [dict(raw, plays=[*plays, "2H"])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 8,
            "seat": 1,
            "card": "2H",
            "reason": "hearts are not broken",
        },
    )
    scenario(
        "qs_does_not_break_hearts_legal",
        record(nopass, [dict(raw, plays=plays)]),
        legal={"seat": 1, "phase": "play", "legal": names(deal.hands[1] & ~m("2H"))},
        replay={"deals": [{"points": [0, 13, 0, 0], "moon": None, "complete": False}]},
    )
    # Only hearts left: seat 2 holds AC and twelve hearts. It wins the first
    # trick with AC and then holds only hearts, hearts not broken: it may
    # lead any of them.
    hands = rest_round_robin(nopass, {2: m("AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")})
    raw, deal = deal_record(nopass, 0, hands, [0] * 4)
    plays = play_out(deal, stop=4)
    assert deal.tricks[0][2] == 2 and not deal.hearts_broken
    scenario(
        "only_hearts_left_legal",
        record(nopass, [dict(raw, plays=plays)]),
        legal={"seat": 2, "phase": "play", "legal": names(m("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))},
    )
    scenario(
        "only_hearts_left_leads_a_heart",
        record(nopass, [dict(raw, plays=[*plays, "KH"])]),
        replay={"deals": [{"points": [0, 0, 0, 0], "moon": None, "complete": False}]},
    )

    build_kitty_and_five()
    build_moons()
    build_match()
    build_errors()
    build_house_rules()


def build_kitty_and_five() -> None:
    # Three players with a kitty: 2C lies in the kitty, so the holder of 3C
    # (the lowest club dealt) leads it.
    k3 = Rules(players=3, leftover="kitty", passing=False)
    hands = rest_round_robin(k3, {1: m("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D")}, kitty=m("2C"))
    raw, deal = deal_record(k3, 0, hands, [0] * 3, kitty=m("2C"))
    raw["plays"] = []
    scenario(
        "three_players_kitty_with_two_of_clubs",
        record(k3, [raw]),
        legal={"seat": 1, "phase": "play", "legal": ["3C"]},
        replay={"deals": [{"points": [0, 0, 0], "moon": None, "complete": False}]},
    )
    scenario(
        "three_players_kitty_two_of_clubs_cannot_lead",
        record(k3, [dict(raw, plays=["2C"])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 0,
            "seat": 1,
            "card": "2C",
            "reason": "seat 1 does not hold 2C",
        },
    )
    # Five players with a kitty holding 2C and QS: the first trick's winner
    # takes the kitty and its 13 points.
    k5 = Rules(players=5, leftover="kitty", passing=False)
    kitty = m("2C QS")
    hands = rest_round_robin(k5, {}, kitty=kitty)
    raw, deal = deal_record(k5, 0, hands, [0] * 5, kitty=kitty)
    leader = deal.to_act
    assert CARD_NAMES[deal.legal_cards()[0]] == "3C"
    raw["plays"] = play_out(deal, stop=5)
    winner = deal.tricks[0][2]
    points = [0] * 5
    points[winner] = 13
    scenario(
        "five_players_kitty_with_two_of_clubs_and_queen",
        record(k5, [raw]),
        replay={"deals": [{"points": points, "moon": None, "complete": False}]},
    )
    scenario(
        "five_players_kitty_with_two_of_clubs_and_queen_legal",
        record(k5, [dict(raw, plays=[])]),
        legal={"seat": leader, "phase": "play", "legal": ["3C"]},
    )
    # Three players, kitty of one heart: the shooter wins every trick, takes
    # the kitty with the first one, and so all 26 points: a moon.
    k3p = Rules(players=3, leftover="kitty")
    kitty = m("2H")
    post = rest_round_robin(k3p, {0: shooter_hand(k3p, (5, 4, 4, 4))}, kitty=kitty)
    pre, passes = passes_into(k3p, 0, post)
    raw, deal = deal_record(k3p, 0, pre, passes, kitty)
    raw["plays"] = play_out(deal, high=[0])
    assert deal.result().taken == (26, 0, 0)
    scenario(
        "three_players_kitty_counts_toward_moon",
        record(k3p, [raw]),
        replay={"deals": [{"points": [0, 26, 26], "moon": 0, "complete": True}], "totals": [0, 26, 26]},
    )
    # Five players, 2D and 2C removed: 3C leads; a dealt 2C is refused.
    five = Rules(players=5, passing=False)
    hands = rest_round_robin(five, {3: m("3C 4D 5D 6D 7D 8D 9D TD JD QD")})
    raw, deal = deal_record(five, 0, hands, [0] * 5)
    raw["plays"] = []
    scenario(
        "five_players_three_of_clubs_leads",
        record(five, [raw]),
        legal={"seat": 3, "phase": "play", "legal": ["3C"]},
    )
    scenario(
        "five_players_complete_deal",
        record(five, [dict(raw, plays=play_out(deal))]),
        replay={"deals": [{"points": list(deal.result().points), "moon": None, "complete": True}]},
    )
    bad = [list(h) for h in raw["hands"]]
    bad[0] = ["2C" if c == bad[0][0] else c for c in bad[0]]
    scenario(
        "five_players_two_of_clubs_removed",
        record(five, [{"hands": bad, "plays": []}]),
        replay={
            "error": "bad_deal",
            "deal": 0,
            "seat": 0,
            "card": "2C",
            "reason": "2C is removed from the deck",
        },
    )
    three = Rules(players=3, passing=False)
    hands = rest_round_robin(three, {})
    raw, deal = deal_record(three, 0, hands, [0] * 3)
    raw["plays"] = []
    assert not any(h & m("2D") for h in hands)
    scenario(
        "three_players_two_of_diamonds_removed",
        record(three, [raw]),
        legal={"seat": 0, "phase": "play", "legal": ["2C"]},
    )


def build_moons() -> None:
    nopass = Rules(passing=False)
    omni = Rules(passing=False, jack_of_diamonds=True)
    selfm = Rules(passing=False, moon="self", jack_of_diamonds=True)
    off = Rules(passing=False, moon="off")
    # Seat 0 wins every trick: the top four clubs and three of each other suit.
    for name, rules, points in (
        ("moon_others", nopass, [0, 26, 26, 26]),
        ("moon_off", off, [26, 0, 0, 0]),
        ("moon_jd_taken_by_shooter", omni, [-10, 26, 26, 26]),
        ("moon_self_jd_taken_by_shooter", selfm, [-36, 0, 0, 0]),
    ):
        raw = moon_deal(rules, 0, 0)
        scenario(
            name,
            record(rules, [raw]),
            replay={
                "deals": [{"points": points, "moon": 0 if rules.moon != "off" else None, "complete": True}]
            },
        )
    # The shooter (seat 0) loses only the first trick, where seat 3 (void in
    # clubs) throws JD under seat 2's AC: seat 2 takes JD, seat 0 every point.
    hands = [
        m("3C AS KS QS JS AH KH QH JH TH 9H 8H 7H"),
        m("2C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 2S 2H"),
        m("9C TC JC QC KC AC 7D 8D 9D 3S 4S 3H 4H"),
        m("TD JD QD KD AD 5S 6S 7S 8S 9S TS 5H 6H"),
    ]
    for name, rules, points in (
        ("moon_jd_taken_by_another", omni, [0, 26, 16, 26]),
        ("moon_self_jd_taken_by_another", selfm, [-26, 0, -10, 0]),
    ):
        raw, deal = deal_record(rules, 0, hands, [0] * 4)
        raw["plays"] = play_out(deal, high=[0, 2], prefer={3: ["JD"], 2: ["AC", "3S"]})
        assert deal.tricks[0][2] == 2 and all(t[2] == 0 for t in deal.tricks[1:])
        scenario(
            name, record(rules, [raw]), replay={"deals": [{"points": points, "moon": 0, "complete": True}]}
        )
    # Queen at 12: a moon is 25 points.
    q12 = Rules(passing=False, queen_points=12)
    scenario(
        "moon_queen_12",
        record(q12, [moon_deal(q12, 0, 1)]),
        replay={"deals": [{"points": [25, 0, 25, 25], "moon": 1, "complete": True}]},
    )
    # Black Maria: KS 10 and AS 7 besides QS 13: a moon is 43 points.
    bm = Rules(passing=False, black_maria=True)
    scenario(
        "moon_black_maria",
        record(bm, [moon_deal(bm, 0, 2)]),
        replay={"deals": [{"points": [43, 43, 0, 43], "moon": 2, "complete": True}]},
    )
    # 36 cards: 9 hearts, QS 5, the last trick 1: 15 points, a moon is 15.
    d36 = Rules(passing=False, deck=36, queen_points=5, last_trick_points=1)
    scenario(
        "moon_deck_36",
        record(d36, [moon_deal(d36, 0, 3, counts=(3, 2, 2, 2))]),
        replay={"deals": [{"points": [15, 15, 15, 0], "moon": 3, "complete": True}]},
    )


def build_match() -> None:
    # Ties go on: target 50, a moon each deal (passing in its cycle).
    # Totals: [0,26,26,26] -> [26,26,52,52] (tied lowest: on) ->
    # [52,52,52,78] (on) -> [52,78,78,104]: seat 0 alone lowest, game over.
    rules = Rules(target=50)
    deals = [moon_deal(rules, k, shooter) for k, shooter in enumerate((0, 1, 2, 0))]
    scenario(
        "ties_go_on",
        record(rules, deals[:2]),
        replay={"totals": [26, 26, 52, 52], "over": False, "winner": None},
    )
    scenario(
        "ties_go_on_three_way",
        record(rules, deals[:3]),
        replay={"totals": [52, 52, 52, 78], "over": False, "winner": None},
    )
    scenario(
        "ties_go_on_until_one_is_lowest",
        record(rules, deals),
        replay={"totals": [52, 78, 78, 104], "over": True, "winner": 0},
        legal={"seat": None, "phase": "over", "legal": []},
    )
    extra = moon_deal(rules, 4, 1)
    scenario(
        "deal_after_the_game_ended",
        record(rules, [*deals, extra]),
        replay={"error": "bad_deal", "deal": 4, "reason": "the game is over"},
    )
    # The pass cycle: in each deal seat 0 holds 2C and passes it; the seat
    # that leads shows where it went. 4 players: left, right, across, none.
    for n, directions in ((4, [1, 3, 2, 0]), (3, [1, 2, 0]), (5, [1, 4, 0])):
        rules = Rules(players=n, target=10_000)
        previous = [
            moon_deal(rules, k, 1, counts={3: (5, 4, 4, 4), 4: (4, 3, 3, 3), 5: (4, 2, 2, 2)}[n])
            for k in range(len(directions))
        ]
        for k, offset in enumerate(directions):
            post = rest_round_robin(rules, {})
            holder = next(s for s in range(n) if post[s] & (1 << rules.deck_list[0]))
            lead = rules.deck_list[0]
            give = {}
            if offset:
                # Make seat 0 pass the lowest club to seat (0 + offset) % n.
                target = offset % n
                if holder != target:
                    swap = cards_of(post[target] & ~(1 << lead))[-1]
                    post[holder] = post[holder] & ~(1 << lead) | 1 << swap
                    post[target] = post[target] & ~(1 << swap) | 1 << lead
                give[0] = " ".join([CARD_NAMES[lead], *names(post[target] & ~(1 << lead))[:2]])
                expected_leader = target
            else:
                if holder != 0:
                    swap = cards_of(post[0])[-1]
                    post[holder] = post[holder] & ~(1 << lead) | 1 << swap
                    post[0] = post[0] & ~(1 << swap) | 1 << lead
                expected_leader = 0
            pre, passes = passes_into(rules, k, post, give)
            assert pre[0] >> lead & 1
            raw, deal = deal_record(rules, k, pre, passes)
            raw["plays"] = []
            scenario(
                f"pass_cycle_{n}_players_deal_{k}",
                record(rules, [*previous[:k], raw]),
                legal={"seat": expected_leader, "phase": "play", "legal": [CARD_NAMES[lead]]},
            )
            if offset == 0:
                bad = dict(raw, passes=[names(pre[s])[:3] for s in range(n)])
                scenario(
                    f"pass_cycle_{n}_players_deal_{k}_no_passing",
                    record(rules, [*previous[:k], bad]),
                    replay={
                        "error": "illegal_pass",
                        "deal": k,
                        "seat": 0,
                        "reason": "there is no passing in this deal",
                    },
                )
    # Passing left every deal.
    rules = Rules(pass_cycle="left")
    previous = [moon_deal(rules, 0, 1)]
    post = rest_round_robin(rules, {})
    pre, passes = passes_into(rules, 1, post)
    raw, deal = deal_record(rules, 1, pre, passes)
    raw["plays"] = []
    assert deal.pass_offset == 1
    scenario(
        "pass_cycle_left_deal_1",
        record(rules, [*previous, dict(raw, passes=raw["passes"][:2])]),
        legal={"seat": 2, "phase": "pass", "count": 3, "legal": names(pre[2])},
    )
    # First lead "any": the player left of the dealer (seat k % n) leads, no
    # points on the first trick, hearts not broken.
    rules = Rules(first_lead="any", passing=False)
    previous = [moon_deal(rules, 0, 2)]
    hands = rest_round_robin(rules, {1: m("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH 2D 3D")})
    raw, deal = deal_record(rules, 1, hands, [0] * 4)
    raw["plays"] = []
    scenario(
        "first_lead_any_left_of_dealer",
        record(rules, [*previous, raw]),
        legal={"seat": 1, "phase": "play", "legal": ["2D", "3D"]},
        replay={"totals": [26, 26, 0, 26]},
    )
    scenario(
        "first_lead_any_no_points",
        record(rules, [*previous, dict(raw, plays=["QS"])]),
        replay={
            "error": "illegal_play",
            "deal": 1,
            "play": 0,
            "seat": 1,
            "card": "QS",
            "reason": "no points on the first trick",
        },
    )
    hands = rest_round_robin(rules, {1: m("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")})
    raw, deal = deal_record(rules, 1, hands, [0] * 4)
    raw["plays"] = []
    scenario(
        "first_lead_any_only_points_queen_first",
        record(rules, [*previous, raw]),
        legal={"seat": 1, "phase": "play", "legal": ["QS"]},
    )


def build_errors() -> None:
    rules = Rules()
    base = moon_deal(rules, 0, 0)
    good = record(rules, [base])
    scenario(
        "error_truncated_json",
        json.dumps(good)[:100],
        replay={"error": "bad_json"},
        legal={"error": "bad_json"},
    )
    scenario(
        "error_not_an_object",
        "[1, 2, 3]",
        replay={"error": "bad_json", "reason": "a game record is a JSON object"},
    )
    scenario("error_wrong_format", json.dumps(dict(good, format="hearts/2")), replay={"error": "bad_json"})
    scenario(
        "error_unknown_rules_key",
        json.dumps(dict(good, rules={"players": 4, "jokers": True})),
        replay={"error": "bad_rules", "reason": "unknown rules key 'jokers'"},
    )
    scenario(
        "error_six_players",
        json.dumps(dict(good, rules={"players": 6})),
        replay={"error": "bad_rules", "reason": "players must be 3, 4 or 5, not 6"},
    )
    scenario(
        "error_players_not_a_number",
        json.dumps(dict(good, rules={"players": "4"})),
        replay={"error": "bad_rules", "reason": "players must be a whole number, not '4'"},
    )
    hands12 = [h[:12] for h in base["hands"]]
    scenario(
        "error_four_hands_of_twelve",
        json.dumps(dict(good, deals=[dict(base, hands=hands12)])),
        replay={
            "error": "bad_deal",
            "deal": 0,
            "seat": 0,
            "reason": "hand 0 has 12 cards, a hand of this deal has 13",
        },
    )
    dup = [list(h) for h in base["hands"]]
    dup[1][0] = dup[0][0]
    scenario(
        "error_card_dealt_twice",
        json.dumps(dict(good, deals=[dict(base, hands=dup)])),
        replay={
            "error": "bad_deal",
            "deal": 0,
            "seat": 1,
            "card": dup[0][0],
            "reason": f"{dup[0][0]} is dealt twice",
        },
    )
    badcard = [list(h) for h in base["hands"]]
    badcard[2][3] = "QX"
    scenario(
        "error_bad_card",
        json.dumps(dict(good, deals=[dict(base, hands=badcard)])),
        replay={"error": "bad_card", "deal": 0, "seat": 2, "card": "QX"},
    )
    two = [list(p) for p in base["passes"]]
    two[1] = two[1][:2]
    scenario(
        "error_pass_of_two_cards",
        json.dumps(dict(good, deals=[dict(base, passes=two)])),
        replay={"error": "illegal_pass", "deal": 0, "seat": 1, "reason": "must pass 3 cards, not 2"},
    )
    notheld = [list(p) for p in base["passes"]]
    notheld[0][0] = base["hands"][1][5]
    scenario(
        "error_pass_card_not_held",
        json.dumps(dict(good, deals=[dict(base, passes=notheld)])),
        replay={
            "error": "illegal_pass",
            "deal": 0,
            "seat": 0,
            "card": notheld[0][0],
            "reason": f"seat 0 does not hold {notheld[0][0]}",
        },
    )
    scenario(
        "error_play_after_deal_ended",
        json.dumps(dict(good, deals=[dict(base, plays=[*base["plays"], "2C"])])),
        replay={"error": "illegal_play", "deal": 0, "play": 52, "card": "2C", "reason": "the deal is over"},
    )
    scenario(
        "error_play_before_passing_done",
        json.dumps(dict(good, deals=[dict(base, passes=base["passes"][:3])])),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 0,
            "card": "2C",
            "reason": "cards are still being passed",
        },
    )
    unfinished = dict(base, plays=base["plays"][:10])
    scenario(
        "error_deal_after_unfinished_deal",
        json.dumps(dict(good, deals=[unfinished, moon_deal(rules, 1, 0)])),
        replay={"error": "bad_deal", "deal": 1, "reason": "deal 0 is not finished"},
    )
    scenario(
        "unfinished_deal_points_so_far",
        json.dumps(dict(good, deals=[unfinished])),
        replay={
            "deals": [{"points": [0, 0, 0, 0], "moon": None, "complete": False}],
            "totals": [0, 0, 0, 0],
            "over": False,
            "winner": None,
        },
    )
    scenario(
        "empty_record",
        json.dumps({"format": FORMAT}),
        replay={"deals": [], "totals": [0, 0, 0, 0], "over": False, "winner": None},
    )


def build_house_rules() -> None:
    """The keys and presets of issue 17, each with the rule said and why the
    cards or points follow."""
    # -- hearts_broken_by ------------------------------------------------------
    # Seat 1 takes the first two tricks with AC and KC (nobody else holds a
    # club above them), is left with eleven hearts and leads 2H; seat 3 follows
    # with KH (its lowest heart is KH: it holds AH KH), takes the trick and is
    # to lead with AH and the spades 6S..AS.
    hands = [
        m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2S 3S"),
        m("AC KC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
        m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        m("AH KH 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
    ]
    plays = ["2C", "AC", "2D", "4S", "KC", "3D", "5S", "3C", "2H", "4D", "KH", "4C"]
    spades = ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    raw = {"hands": [names(h) for h in hands], "kitty": [], "passes": [], "plays": plays}
    anyh = Rules(passing=False)
    discard = Rules(passing=False, hearts_broken_by="discard")
    # "any" (the default): 2H and KH were played, hearts are broken: AH may lead.
    scenario(
        "hearts_broken_by_any_a_heart_led_breaks_them",
        record(anyh, [raw]),
        legal={"seat": 3, "phase": "play", "legal": ["AH", *spades]},
    )
    # "discard": only a heart played on a trick led in another suit breaks
    # hearts; trick 3 was led and followed in hearts, so they are not broken.
    scenario(
        "hearts_broken_by_discard_a_heart_led_does_not_break_them",
        record(discard, [raw]),
        legal={"seat": 3, "phase": "play", "legal": spades},
    )
    scenario(
        "hearts_broken_by_discard_no_heart_lead_yet",
        record(discard, [dict(raw, plays=[*plays, "AH"])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 12,
            "seat": 3,
            "card": "AH",
            "reason": "hearts are not broken",
        },
    )
    # Trick 4: seat 3 leads 6S, seat 0 follows 2S, seat 1 (void in spades)
    # discards 3H, which breaks hearts; seat 2 discards 5D. 6S takes the trick
    # and its 1 point (3H): seat 3 has 1 (KH's trick gave it 2H and KH: 2) = 3.
    scenario(
        "hearts_broken_by_discard_a_discarded_heart_breaks_them",
        record(discard, [dict(raw, plays=[*plays, "6S", "2S", "3H", "5D"])]),
        legal={"seat": 3, "phase": "play", "legal": ["AH", *spades[1:]]},
        replay={"deals": [{"points": [0, 0, 0, 3], "moon": None, "complete": False}]},
    )
    # -- first_trick_discard -----------------------------------------------------
    # Seat 3 holds QS and twelve hearts and cannot follow 2C: with "heart" it
    # must discard a heart, not QS; "any" (the default) lets it play QS.
    hands = [
        m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
        m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        m("2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2H"),
        m("QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
    ]
    raw = {"hands": [names(h) for h in hands], "kitty": [], "passes": [], "plays": ["2C", "2D", "2S"]}
    heart = Rules(passing=False, first_trick_discard="heart")
    scenario(
        "first_trick_discard_heart_legal",
        record(heart, [raw]),
        legal={"seat": 3, "phase": "play", "legal": names(hands[3] & ~m("QS"))},
    )
    scenario(
        "first_trick_discard_heart_refuses_the_queen",
        record(heart, [dict(raw, plays=["2C", "2D", "2S", "QS"])]),
        replay={
            "error": "illegal_play",
            "deal": 0,
            "play": 3,
            "seat": 3,
            "card": "QS",
            "reason": "a heart must be discarded on the first trick",
        },
    )
    # 2C takes the trick (nobody followed clubs) and the heart: seat 0 has 1.
    scenario(
        "first_trick_discard_heart_plays_a_heart",
        record(heart, [dict(raw, plays=["2C", "2D", "2S", "3H"])]),
        replay={"deals": [{"points": [1, 0, 0, 0], "moon": None, "complete": False}]},
    )
    # -- old_rules: the player left of the dealer leads any card at all --------
    # Deal 0 (dealer seat 3): seat 0 leads. After passing left it holds AH KH
    # and clubs; it may lead anything (no first-trick rule, hearts free). It
    # leads AH; seat 1, void in hearts, may drop QS on the first trick; seats
    # 2 and 3 follow with a heart each: AH takes 1 + 13 + 1 + 1 = 16.
    old = PRESETS["old_rules"]
    post = rest_round_robin(
        old,
        {
            0: m("AH KH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"),
            1: m("QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
        },
    )
    assert all(post[s] & m("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH") for s in (2, 3))
    pre, passes = passes_into(old, 0, post)
    raw, deal = deal_record(old, 0, pre, passes)
    raw["plays"] = []
    scenario(
        "old_rules_first_lead_any_card",
        record(old, [raw]),
        legal={"seat": 0, "phase": "play", "legal": names(post[0])},
    )
    plays = play_out(deal, prefer={0: ["AH"], 1: ["QS"]}, stop=4)
    scenario(
        "old_rules_first_trick_heart_lead_and_queen",
        record(old, [dict(raw, plays=plays)]),
        replay={"deals": [{"points": [16, 0, 0, 0], "moon": None, "complete": False}]},
    )
    # -- hearts_any_time: hearts may be led whenever -----------------------------
    # Seat 1 takes the first trick with AC (the only club outside seat 0's
    # hand, which leads 2C); seats 2 and 3 hold no club. Then seat 1 may lead
    # its hearts though none has been played.
    anytime = PRESETS["hearts_any_time"]
    post = rest_round_robin(
        anytime,
        {
            0: m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D"),
            1: m("AC 2H 3H 4H 2S 3S 4S 5S 6S 7S 8S 9S TS"),
        },
    )
    pre, passes = passes_into(anytime, 0, post)
    raw, deal = deal_record(anytime, 0, pre, passes)
    raw["plays"] = play_out(deal, stop=4)
    assert deal.to_act == 1 and not any(c[1] == "H" for c in raw["plays"])
    scenario(
        "hearts_any_time_lead_a_heart_before_any_is_played",
        record(anytime, [raw]),
        legal={"seat": 1, "phase": "play", "legal": names(post[1] & ~m("AC"))},
    )
    # -- tie: "share" ends the game at the target even when tied --------------------
    # Target 50, passing in its cycle; seat 0 shoots the moon, then seat 1:
    # totals 0, 26, 26, 26 then 26, 26, 52, 52. Seats 0 and 1 tie for the
    # lowest: with "play_on" the game goes on (ties_go_on), with "share" it
    # is over and both win (winner null: more than one).
    share = Rules(target=50, tie="share")
    deals = [moon_deal(share, k, shooter) for k, shooter in enumerate((0, 1))]
    scenario(
        "tie_share_two_winners",
        record(share, deals),
        replay={"totals": [26, 26, 52, 52], "over": True, "winner": None, "winners": [0, 1]},
        legal={"seat": None, "phase": "over", "legal": []},
    )
    scenario(
        "tie_share_not_over_below_the_target",
        record(share, deals[:1]),
        replay={"totals": [0, 26, 26, 26], "over": False, "winner": None},
    )
    # Target 26: one moon by seat 2 ends it, seat 2 alone lowest: winners [2].
    share26 = Rules(target=26, tie="share")
    scenario(
        "tie_share_one_winner",
        record(share26, [moon_deal(share26, 0, 2)]),
        replay={"totals": [26, 26, 0, 26], "over": True, "winner": 2, "winners": [2]},
    )
    scenario(
        "tie_share_deal_after_the_game_ended",
        record(share, [*deals, moon_deal(share, 2, 3)]),
        replay={"error": "bad_deal", "deal": 2, "reason": "the game is over"},
    )
    # -- the new keys' refusals ------------------------------------------------------
    good = record(Rules(), [moon_deal(Rules(), 0, 0)])
    for key, value, reason in (
        ("hearts_broken_by", "lead", "hearts_broken_by must be one of 'any', 'discard', not 'lead'"),
        ("first_trick_discard", "queen", "first_trick_discard must be one of 'any', 'heart', not 'queen'"),
        ("tie", "split", "tie must be one of 'play_on', 'share', not 'split'"),
        ("tie", True, "tie must be a string, not True"),
    ):
        scenario(
            f"error_{key}_{str(value).lower()}",
            json.dumps(dict(good, rules={"players": 4, key: value})),
            replay={"error": "bad_rules", "reason": reason},
            legal={"error": "bad_rules", "reason": reason},
        )


def compact(obj: dict[str, Any]) -> str:
    """JSON with one line per key, and per deal and deal key: short, diffable."""

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in obj.items():
        if key == "deals" and value and isinstance(value[0], dict) and "hands" in value[0]:
            deals = []
            for deal in value:
                inner = ",\n".join(f"   {dumps(k)}: {dumps(v)}" for k, v in deal.items())
                deals.append("  {\n" + inner + "\n  }")
            lines.append(' "deals": [\n' + ",\n".join(deals) + "\n ]")
        else:
            lines.append(f" {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def main() -> None:
    build()
    for path in HERE.glob("*.json"):
        path.unlink()
    for name, (rec, says) in sorted(SCENARIOS.items()):
        text = rec if isinstance(rec, str) else compact(rec)
        path = HERE / f"{name}.json"
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        expected: dict[str, Any] = {}
        for command in ("replay", "legal"):
            status, answer = referee(str(path), command)
            expected[command] = answer
            expected[f"{command}_status"] = status
        for key, value in says.items():
            got = expected[key]
            if isinstance(value, dict) and isinstance(got, dict):
                bad = {k: (v, got.get(k)) for k, v in value.items() if got.get(k) != v}
                assert not bad, f"{name}: {key} disagrees with the scenario: {bad}"
            else:
                assert got == value, f"{name}: {key} is {got!r}, the scenario says {value!r}"
        (HERE / f"{name}.expected.json").write_text(compact(expected) + "\n", encoding="utf-8")
        print(f"{name}: replay {expected['replay_status']}, legal {expected['legal_status']}")


if __name__ == "__main__":
    main()
