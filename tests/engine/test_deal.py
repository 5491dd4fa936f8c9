"""The deal's state machine: verify / can / do agree, an illegal action
changes nothing, copies are independent, the rule corners in positions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from damepique.engine import (
    CARD_NAMES,
    PRESETS,
    CardError,
    Deal,
    DealError,
    IllegalPass,
    IllegalPlay,
    Passed,
    Played,
    Rules,
    cards_of,
    mask_of,
    parse_cards,
)
from damepique.engine.deal import shuffle


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything a deal holds, to compare before and after."""
    return (
        deal.phase,
        deal.to_act,
        tuple(deal.hands),
        tuple(deal.passes),
        tuple(deal.plays),
        tuple(deal.seats),
        tuple(deal.trick),
        tuple(deal.tricks),
        deal.hearts_broken,
        tuple(deal.taken),
        tuple(deal.taken_points),
        deal.jack_seat,
        tuple(deal.voids),
        deal.lead_card,
        deal.led_suit_mask,
        deal.winning_card,
        deal.winning_seat,
        deal.trick_leader,
        deal.tricks_played,
    )


def random_positions(rules: Rules, seed: int, deals: int = 20) -> list[Deal]:
    """Positions met during random play, pass phases included."""
    rng = random.Random(seed)
    out = []
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        out.append(deal.copy())
        for seat in deal.passing_seats:
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
            out.append(deal.copy())
        while deal.phase == "play":
            legal = deal.legal_cards()
            deal.play(rng.choice(legal))
            if rng.random() < 0.3:
                out.append(deal.copy())
        out.append(deal)
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_verify_can_and_do_agree_and_illegal_plays_change_nothing(name: str) -> None:
    rules = PRESETS[name]
    for deal in random_positions(rules, 11, deals=6):
        legal = deal.legal_mask()
        for card in range(52):
            expected = bool(legal >> card & 1)
            assert deal.can_play(card) == expected
            assert deal.can_play(CARD_NAMES[card]) == expected
            if expected:
                assert deal.verify_play(card) == card
                continue
            before = snapshot(deal)
            with pytest.raises(IllegalPlay) as e:
                deal.play(card)
            assert e.value.reason and e.value.card == card
            assert snapshot(deal) == before
        if deal.phase == "play" and legal:
            card = cards_of(legal)[0]
            other = deal.copy()
            event = deal.play(card, deal.to_act)
            other.play_unchecked(card)
            assert snapshot(deal) == snapshot(other)
            assert isinstance(event, Played) and event.card == card


@pytest.mark.parametrize("name", ["standard", "three_players", "five_players_kitty", "deck_36"])
def test_passes_verify_can_and_do_agree(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(3)
    deal = Deal.shuffled(rules, rng, 0)
    assert deal.phase == "pass"
    for seat in range(rules.players):
        hand = list(cards_of(deal.hands[seat]))
        other = deal.hands[(seat + 1) % rules.players]
        bad: list[Any] = [
            hand[:2],
            hand[:4],
            [hand[0], hand[0], hand[1]],
            [*hand[:2], cards_of(other)[0]],
            [*hand[:2], 99],
            m("2C") if not deal.hands[seat] & m("2C") else 0,
        ]
        for cards in bad:
            before = snapshot(deal)
            assert not deal.can_pass(seat, cards)
            with pytest.raises(IllegalPass):
                deal.pass_cards(seat, cards)
            assert snapshot(deal) == before
        assert not deal.can_pass(seat, ["QX", "2C", "3C"])
        with pytest.raises(CardError):
            deal.verify_pass(seat, ["QX", "2C", "3C"])
        with pytest.raises(IllegalPlay, match="cards are still being passed"):
            deal.play(hand[0])
        good = hand[-3:]
        assert deal.can_pass(seat, good) and deal.can_pass(seat, mask_of(good))
        event = deal.pass_cards(seat, [CARD_NAMES[c] for c in good])
        assert isinstance(event, Passed) and event.cards == tuple(good)
        assert event.to_seat == (seat + 1) % rules.players
        assert event.complete == (seat == rules.players - 1)
        with pytest.raises(IllegalPass, match=r"already passed|no passing now"):
            deal.pass_cards(seat, good)
    assert deal.phase == "play"
    with pytest.raises(IllegalPass, match="there is no seat"):
        deal.pass_cards(7, [])


def test_the_exchange_moves_the_cards() -> None:
    rules = Rules()
    for number, offset in ((0, 1), (1, 3), (2, 2)):
        deal = Deal.shuffled(rules, random.Random(number), number)
        dealt = list(deal.hands)
        passes = [mask_of(cards_of(h)[:3]) for h in dealt]
        for seat in range(4):
            deal.pass_cards(seat, passes[seat])
        for seat in range(4):
            source = (seat - offset) % 4
            assert deal.hands[seat] == dealt[seat] & ~passes[seat] | passes[source]
    deal = Deal.shuffled(rules, random.Random(0), 3)
    assert deal.phase == "play"
    with pytest.raises(IllegalPass, match="there is no passing in this deal"):
        deal.pass_cards(0, cards_of(deal.hands[0])[:3])


def test_copy_is_independent() -> None:
    rng = random.Random(8)
    for deal in random_positions(Rules(), 8, deals=5):
        if deal.phase != "play":
            continue
        before = snapshot(deal)
        twin = deal.copy()
        assert snapshot(twin) == before
        while twin.phase == "play":
            twin.play_unchecked(rng.choice(twin.legal_cards()))
        assert snapshot(deal) == before
        # The original can still be played to its end on its own.
        while deal.phase == "play":
            deal.play(rng.choice(deal.legal_cards()))
        assert sum(deal.result().taken) == 26


def test_refusals_say_why() -> None:
    rules = Rules(passing=False)
    hands = [
        m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H"),
        m("AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
        m("AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS 3H"),
        m("KS AS 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
    ]
    deal = Deal(rules, hands)
    with pytest.raises(IllegalPlay, match="the first trick is led with the 2C"):
        deal.play("3C")
    with pytest.raises(IllegalPlay, match="it is seat 0's turn, not seat 1's"):
        deal.play("2C", seat=1)
    with pytest.raises(IllegalPlay, match="seat 0 does not hold AC"):
        deal.play("AC")
    with pytest.raises(CardError):
        deal.play("1C")
    with pytest.raises(IllegalPlay, match="not a card"):
        deal.play(52)
    deal.play("2C")
    with pytest.raises(IllegalPlay, match="must follow clubs"):
        deal.play("2D")
    deal.play("AC")
    # Seat 2 is void in clubs, holds safe cards: no QS, no heart.
    for card in ("QS", "3H"):
        with pytest.raises(IllegalPlay, match="no points on the first trick"):
            deal.play(card)
    assert deal.legal_plays().mask == hands[2] & ~m("QS 3H")
    deal.play("AD")
    # Seat 3: KS AS and hearts; KS and AS are no points in the standard rules.
    assert deal.legal_mask() == m("KS AS")
    deal.play("KS")
    assert deal.to_act == 1 and deal.tricks[0] == (0, tuple(parse_cards("2C AC AD KS")), 1, 0)
    # Seat 1 leads; no hearts in hand. Lead a diamond: seat 2 must follow? It
    # holds no diamond left: it may throw QS now (not the first trick).
    deal.play("2D")
    deal.play("QS")
    assert not deal.hearts_broken  # QS does not break hearts
    assert deal.voids[2] == (1 << 26) - 1  # shown void in clubs, then diamonds
    deal.play("4H")  # seat 3, void in diamonds, throws a heart: hearts broken
    assert deal.hearts_broken
    deal.play("3C")
    assert deal.tricks[1][2] == 1 and deal.taken_points == [0, 14, 0, 0]


def test_hearts_not_broken_and_only_hearts() -> None:
    rules = Rules(passing=False)
    hands = [
        m("2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
        m("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AH"),
        m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        m("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
    ]
    deal = Deal(rules, hands)
    for card in ("2C", "3C", "2D", "2S"):
        deal.play(card)
    # Seat 1 took the first trick with 3C; it holds clubs and AH: no heart lead.
    assert deal.to_act == 1
    with pytest.raises(IllegalPlay, match="hearts are not broken"):
        deal.play("AH")
    deal.play("AC")
    # Seat 2 is void in clubs: diamonds; seat 3 spades; seat 0 hearts only: any.
    deal.play("3D")
    deal.play("QS")
    assert not deal.hearts_broken
    assert deal.legal_mask() == hands[0] & ~m("2C")
    deal.play("2H")
    assert deal.hearts_broken and deal.taken_points[1] == 14


def test_leading_with_only_hearts_before_they_break() -> None:
    rules = Rules(passing=False)
    hands = [
        m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S"),
        m("AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
        m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        m("AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
    ]
    deal = Deal(rules, hands)
    for card in ("2C", "AC", "2D", "3S"):
        deal.play(card)
    assert deal.to_act == 1 and not deal.hearts_broken
    assert deal.legal_mask() == hands[1] & ~m("AC")


def test_a_hand_of_only_hearts_and_queen_on_the_first_trick() -> None:
    rules = Rules(passing=False)
    hands = [
        m("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
        m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        m("2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2H"),
        m("QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
    ]
    deal = Deal(rules, hands)
    deal.play("2C")
    deal.play("2D")
    assert deal.legal_mask() == hands[2] & ~m("2H")
    deal.play("2S")
    assert deal.legal_mask() == hands[3]  # any of them, QS included
    deal.play("QS")
    assert deal.taken_points == [13, 0, 0, 0]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_first_lead_any_is_left_of_dealer(players: int) -> None:
    rules = Rules(players=players, first_lead="any", passing=False)
    for number in range(7):
        deal = Deal.shuffled(rules, random.Random(number), number)
        assert deal.to_act == number % players
        hand = deal.hands[deal.to_act]
        safe = hand & ~rules.first_trick_mask
        assert deal.legal_mask() == (safe or (hand & ~m("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")) or hand)


def test_kitty_with_two_of_clubs_and_its_points() -> None:
    rules = Rules(players=5, leftover="kitty", passing=False)
    kitty = m("2C AH")
    rest = [c for c in cards_of(rules.deck_cards & ~kitty)]
    hands = [mask_of(rest[s::5]) for s in range(5)]
    deal = Deal(rules, hands, kitty)
    assert deal.legal_cards() == tuple(parse_cards("3C"))
    assert deal.to_act == 0  # 3C, the lowest club dealt, is rest[0]
    while not deal.tricks:
        deal.play(deal.legal_cards()[0])
    _leader, _cards, winner, points = deal.tricks[0]
    assert points == 1 and deal.taken_points[winner] == 1
    assert deal.taken[winner] & kitty == kitty


def test_points_so_far_and_jack() -> None:
    rules = Rules(passing=False, jack_of_diamonds=True)
    rng = random.Random(4)
    for _ in range(30):
        deal = Deal.shuffled(rules, rng, 3)
        while deal.phase == "play":
            partial = deal.result()
            assert not partial.complete and partial.moon is None
            expected = list(deal.taken_points)
            if deal.jack_seat is not None:
                expected[deal.jack_seat] -= 10
            assert list(partial.points) == expected
            deal.play(rng.choice(deal.legal_cards()))
        assert deal.result().complete


@pytest.mark.parametrize(
    ("rules", "hands", "kitty", "reason"),
    [
        (Rules(), [0] * 3, 0, "4 hands are needed for 4 players, not 3"),
        (Rules(), [m("2C")] * 4, 0, "hand 0 has 1 cards, a hand of this deal has 13"),
        (Rules(players=3), [1 << 60, 0, 0], 0, "hand 0 is not a set of cards"),
    ],
)
def test_bad_deals(rules: Rules, hands: list[int], kitty: int, reason: str) -> None:
    with pytest.raises(DealError) as e:
        Deal(rules, hands, kitty)
    assert e.value.reason == reason


def test_bad_deal_fields() -> None:
    rules = Rules()
    hands = [mask_of(range(s * 13, s * 13 + 13)) for s in range(4)]
    swapped = list(hands)
    swapped[1] = swapped[1] & ~m("2D") | m("2C")
    with pytest.raises(DealError) as e:
        Deal(rules, swapped)
    assert (e.value.reason, e.value.seat, e.value.card) == ("2C is dealt twice", 1, 0)
    with pytest.raises(DealError, match="there is no kitty with these rules, but 1 card lie there"):
        Deal(rules, hands, m("2C"))
    three = Rules(players=3)
    with pytest.raises(DealError, match="2D is removed from the deck") as e:
        Deal(three, [mask_of(range(s * 17, s * 17 + 17)) for s in range(3)])
    assert e.value.seat == 0


def test_shuffled_is_deterministic_and_valid() -> None:
    for name, rules in PRESETS.items():
        a = Deal.shuffled(rules, random.Random(name), 5)
        b = Deal.shuffled(rules, random.Random(name), 5)
        assert a.dealt == b.dealt and a.kitty == b.kitty
        Deal(rules, list(a.dealt), a.kitty, 5)  # passes every check


def test_shuffle_is_a_uniform_permutation() -> None:
    rng = random.Random(1)
    for n in range(53):
        cards = list(range(n))
        shuffle(cards, rng)
        assert sorted(cards) == list(range(n))
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        cards = [0, 1, 2, 3]
        shuffle(cards, rng)
        counts[tuple(cards)] += 1
    assert len(counts) == 24
    # 1000 expected each; the standard deviation is about 31.
    assert all(800 < c < 1200 for c in counts.values())
    positions: Counter[tuple[int, int]] = Counter()
    for _ in range(5_200):
        cards = list(range(52))
        shuffle(cards, rng)
        positions.update((i, c) for i, c in enumerate(cards) if i < 4)
    # Each of the first four places holds each card about 100 times.
    assert all(40 < positions[(i, c)] < 170 for i in range(4) for c in range(52))


def test_events_are_frozen_values() -> None:
    import dataclasses

    deal = Deal(Rules(), [mask_of(range(s, 52, 4)) for s in range(4)])
    event = deal.pass_cards(0, [0, 4, 8])
    assert event == Passed(0, (0, 4, 8), 1, False) and hash(event) == hash(Passed(0, (0, 4, 8), 1, False))
    assert repr(event) == repr(Passed(0, (0, 4, 8), 1, False))
    assert str(event) == "seat 0 passes 2C 6C TC to seat 1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 2  # type: ignore[misc]
    for seat in (1, 2, 3):
        deal.pass_cards(seat, cards_of(deal.hands[seat])[:3])
    first = deal.play(deal.legal_cards()[0])
    assert first == Played(deal.seats[0], deal.plays[0]) and dataclasses.astuple(first)[2:] == (
        None,
        0,
        False,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.card = 1  # type: ignore[misc]
    while deal.phase == "play":
        event = deal.play(deal.legal_cards()[0])
    assert event.deal_over and event.trick_winner == deal.tricks[-1][2]
    assert event.trick_points == deal.tricks[-1][3]
