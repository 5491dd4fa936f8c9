"""The house rules of issue 17 in positions set up by hand: what breaks hearts
(``hearts_broken_by``), a first-trick discard from a hand of only hearts and
Q♠ (``first_trick_discard``), a tie for the lowest total at the end (``tie``),
and the presets of the older rules."""

from __future__ import annotations

from typing import Any

import pytest

from damepique.engine import (
    PRESETS,
    Deal,
    IllegalPlay,
    Match,
    Rules,
    mask_of,
    parse_cards,
    referee_replay,
    winner_of,
    winners_of,
)
from damepique.engine.record import dump_match


def m(text: str) -> int:
    return mask_of(parse_cards(text))


# Seat 1 takes the first two tricks with AC and KC and is then left with
# nothing but hearts; it leads 2H, seat 3 follows with KH and wins.
HEARTS_LED_HANDS = [
    m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2S 3S"),
    m("AC KC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
    m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
    m("AH KH 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
]
# Trick 1: 2C AC 2D 4S (seat 1); trick 2: KC 3D 5S 3C (seat 1); trick 3:
# 2H (a lead from a hand of only hearts) 4D KH 4C (seat 3, with KH).
HEARTS_LED_PLAYS = "2C AC 2D 4S KC 3D 5S 3C 2H 4D KH 4C"


def hearts_led(**options: Any) -> Deal:
    return Deal(Rules(passing=False, **options), HEARTS_LED_HANDS, plays=HEARTS_LED_PLAYS)


def test_any_heart_played_breaks_hearts_by_default() -> None:
    deal = hearts_led()
    assert deal.hearts_broken and deal.to_act == 3
    # Seat 3 holds AH and spades: hearts are broken, it may lead AH.
    assert deal.legal_mask() == m("AH 6S 7S 8S 9S TS JS QS KS AS")


def test_a_heart_led_from_only_hearts_does_not_break_them_with_discard() -> None:
    # "discard": only a heart played on a trick led in another suit breaks
    # hearts. Trick 3 was led in hearts (2H, from a hand of nothing else) and
    # followed in hearts (KH): hearts stay unbroken, so seat 3 may not lead AH.
    deal = hearts_led(hearts_broken_by="discard")
    assert not deal.hearts_broken and deal.to_act == 3
    assert deal.legal_mask() == m("6S 7S 8S 9S TS JS QS KS AS")
    with pytest.raises(IllegalPlay, match="hearts are not broken"):
        deal.play("AH")
    # Trick 4: seat 3 leads 6S, seat 0 follows 2S, seat 1 (void in spades)
    # discards 3H: a heart on a spade trick breaks hearts; seat 2 discards 5D.
    for card in ("6S", "2S"):
        deal.play(card)
        assert not deal.hearts_broken
    deal.play("3H")
    assert deal.hearts_broken
    deal.play("5D")
    assert deal.to_act == 3 and deal.legal_mask() >> parse_cards("AH")[0] & 1


def test_the_queen_breaks_hearts_under_discard_only_with_queen_breaks_hearts() -> None:
    # queen_breaks_hearts is the queen's own rule: with it, any play of QS
    # (here a lead) breaks hearts under either hearts_broken_by.
    for queen, broken in ((True, True), (False, False)):
        deal = hearts_led(hearts_broken_by="discard", queen_breaks_hearts=queen)
        deal.play("QS")
        assert deal.hearts_broken is broken


# Seat 3 is void in clubs on the first trick and holds only QS and hearts.
ONLY_POINTS_HANDS = [
    m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
    m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
    m("2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2H"),
    m("QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
]


def test_first_trick_discard_heart_makes_a_hand_of_points_discard_a_heart() -> None:
    # "heart": a seat that cannot follow the first trick and holds only hearts
    # and QS must play a heart; QS is refused, with the reason.
    deal = Deal(Rules(passing=False, first_trick_discard="heart"), ONLY_POINTS_HANDS, plays="2C 2D 2S")
    assert deal.to_act == 3
    assert deal.legal_mask() == ONLY_POINTS_HANDS[3] & ~m("QS")
    with pytest.raises(IllegalPlay, match="a heart must be discarded on the first trick"):
        deal.play("QS")
    deal.play("AH")
    assert deal.taken_points == [1, 0, 0, 0]
    # The default lets it choose: QS too.
    deal = Deal(Rules(passing=False), ONLY_POINTS_HANDS, plays="2C 2D 2S")
    assert deal.legal_mask() == ONLY_POINTS_HANDS[3]


def test_first_trick_discard_heart_applies_only_with_no_points_first_trick() -> None:
    # Without no_points_first_trick any card may go on the first trick, and the
    # key has nothing to say: seat 2 may drop its 2H while holding spades.
    rules = Rules(passing=False, no_points_first_trick=False, first_trick_discard="heart")
    deal = Deal(rules, ONLY_POINTS_HANDS, plays="2C 2D")
    assert deal.legal_mask() == ONLY_POINTS_HANDS[2]
    deal.play("2S")
    assert deal.legal_mask() == ONLY_POINTS_HANDS[3]


def test_first_trick_discard_heart_leaves_the_first_lead_alone() -> None:
    # A first lead ("any") from a hand of only hearts and QS is QS while hearts
    # are not broken, whatever first_trick_discard says: it governs discards.
    hands = [ONLY_POINTS_HANDS[3], *ONLY_POINTS_HANDS[:3]]
    rules = Rules(passing=False, first_lead="any", first_trick_discard="heart")
    deal = Deal(rules, hands)
    assert deal.to_act == 0 and deal.legal_mask() == m("QS")


def test_black_maria_first_trick_discard_heart_keeps_the_spades() -> None:
    # With black_maria, K♠ and A♠ are point cards too: a void seat with only
    # hearts, Q♠, K♠ and A♠ discards a heart under "heart".
    hands = [
        m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
        m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        m("2S 3S 4S 5S 6S 7S 8S 9S TS JS 2H 3H 4H"),
        m("QS KS AS 5H 6H 7H 8H 9H TH JH QH KH AH"),
    ]
    rules = Rules(passing=False, black_maria=True, first_trick_discard="heart")
    deal = Deal(rules, hands, plays="2C 2D 2S")
    assert deal.legal_mask() == hands[3] & ~m("QS KS AS")


@pytest.mark.parametrize(
    ("totals", "tie", "winners"),
    [
        ([40, 40, 60, 100], "play_on", ()),
        ([40, 40, 60, 100], "share", (0, 1)),
        ([40, 41, 60, 100], "share", (0,)),
        ([40, 40, 60, 99], "share", ()),  # nobody reached the target
        ([30, 30, 30, 110, 30], "share", (0, 1, 2, 4)),
    ],
)
def test_winners_of(totals: list[int], tie: str, winners: tuple[int, ...]) -> None:
    assert winners_of(totals, 100, tie) == winners
    over, winner = winner_of(totals, 100, tie)
    assert over == bool(winners)
    assert winner == (winners[0] if len(winners) == 1 else None)


def moon_hands(shooter: int) -> list[int]:
    """Hands in which ``shooter`` holds the top clubs and the top three of every
    other suit and, playing high, takes every trick: a moon, +26 to each other
    seat (with the lowest-card play of the others)."""
    top = m("AC KC QC JC AD KD QD AS KS QS AH KH QH")
    rest = [c for c in range(52) if not top >> c & 1]
    others = [mask_of(rest[i::3]) for i in range(3)]
    return [*others[:shooter], top, *others[shooter:]]


def play_high_low(deal: Deal, shooter: int) -> None:
    while deal.phase == "play":
        legal = deal.legal_cards()
        deal.play(legal[-1] if deal.to_act == shooter else legal[0])


def test_tie_share_ends_the_game_and_every_lowest_seat_wins() -> None:
    # Target 50, a moon by seat 0 then by seat 1: totals 0+26, 26+0 = 26, 26,
    # 52, 52. Someone reached 50 and seats 0 and 1 tie for the lowest total:
    # "play_on" deals again, "share" ends the game with both as winners.
    for tie, over in (("play_on", False), ("share", True)):
        match = Match(Rules(target=50, passing=False, tie=tie))
        for shooter in (0, 1):
            play_high_low(match.next_deal(moon_hands(shooter)), shooter)
        assert match.totals == [26, 26, 52, 52]
        assert match.over is over and match.winner is None
        assert match.winners == ((0, 1) if over else ())
        answer = referee_replay(dump_match(match))
        assert (answer["over"], answer["winner"]) == (over, None)
        # The referee writes "winners" with tie "share" once the game is over.
        assert answer.get("winners") == ([0, 1] if over else None)


def test_tie_share_with_one_lowest_seat_names_it_twice() -> None:
    match = Match(Rules(target=26, passing=False, tie="share"))
    play_high_low(match.next_deal(moon_hands(2)), 2)
    assert match.winners == (2,) and match.winner == 2
    answer = referee_replay(dump_match(match))
    assert (answer["over"], answer["winner"], answer["winners"]) == (True, 2, [2])


def test_the_older_rules_lead_any_card_at_all() -> None:
    # old_rules: the player left of the dealer leads whatever it holds to the
    # first trick, a heart or QS included, and hearts may be led at any time.
    rules = PRESETS["old_rules"].replace(passing=False)
    deal = Deal(rules, ONLY_POINTS_HANDS, number=3)
    assert deal.to_act == 3 and deal.legal_mask() == ONLY_POINTS_HANDS[3]
    deal.play("AH")
    # Seat 0 is void in hearts: it may drop anything, no first-trick rule.
    assert deal.legal_mask() == ONLY_POINTS_HANDS[0]
    hearts_any = PRESETS["hearts_any_time"].replace(passing=False)
    deal = Deal(hearts_any, HEARTS_LED_HANDS, plays="2C AC 2D 4S")
    assert deal.legal_mask() == HEARTS_LED_HANDS[1] & ~m("AC")
